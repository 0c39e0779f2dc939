//! Real result documents against `docs/results.schema.json`, the schema generated from the
//! result types (the `results` crate's `schema_file` test keeps the file equal to the types).

use std::path::Path;
use std::sync::OnceLock;

use jsonschema::Validator;

fn validator() -> &'static Validator {
    static V: OnceLock<Validator> = OnceLock::new();
    V.get_or_init(|| {
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/results.schema.json");
        let text = std::fs::read_to_string(&path).expect("docs/results.schema.json");
        let schema: serde_json::Value = serde_json::from_str(&text).expect("the schema is JSON");
        jsonschema::draft202012::new(&schema).expect("a valid JSON Schema")
    })
}

/// Panics with every violation when `doc` is not a valid result document.
#[track_caller]
pub fn check(doc: &str) {
    let value: serde_json::Value = serde_json::from_str(doc).expect("a result document is JSON");
    let errors: Vec<String> = validator()
        .iter_errors(&value)
        .map(|e| format!("  at {}: {e}", e.instance_path))
        .collect();
    assert!(
        errors.is_empty(),
        "result document does not match docs/results.schema.json:\n{}",
        errors.join("\n")
    );
}

/// The validator is not vacuous: a real document passes, the same document with a field of
/// the wrong type, a missing field or an unknown workload does not.
#[test]
fn schema_rejects_what_the_types_reject() {
    let d = crate::common::shm();
    let json = d.path().join("doc.json");
    let line = format!(
        "ior -N 2 -a DUMMY -t 64k -b 256k -w -r -o {}/f --json {}",
        d.path().display(),
        json.display()
    );
    crate::common::iogauge(&line).ok();
    let doc: serde_json::Value = crate::common::json(&json);
    assert!(validator().is_valid(&doc));
    let broken = |edit: fn(&mut serde_json::Value)| {
        let mut v = doc.clone();
        edit(&mut v);
        v
    };
    let cases = [
        broken(|v| v["phases"][0]["bytes"] = "many".into()),
        broken(|v| {
            v.as_object_mut().unwrap().remove("environment");
        }),
        broken(|v| v["workload"] = "fio".into()),
        broken(|v| v["phases"][0]["operation"] = "scribble".into()),
        broken(|v| v["parameters"]["transfer_size"] = (-1).into()),
    ];
    for (i, bad) in cases.iter().enumerate() {
        assert!(!validator().is_valid(bad), "case {i} passed the schema");
    }
}

/// `iogauge schema` prints the checked-in schema.
#[test]
fn schema_command_prints_the_checked_in_file() {
    let r = crate::common::iogauge("schema").ok();
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/results.schema.json");
    assert_eq!(r.stdout, std::fs::read_to_string(path).unwrap());
}
