//! `docs/results.schema.json` is the schema generated from the types, byte for byte.
//! `IOGAUGE_BLESS=1 cargo test -p results --test results` rewrites it; review the diff.

use std::path::Path;

#[test]
fn checked_in_schema_is_generated_from_the_types() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/results.schema.json");
    let generated = results::json_schema_text();
    if std::env::var_os("IOGAUGE_BLESS").is_some() {
        std::fs::write(&path, &generated).unwrap();
        return;
    }
    let checked_in = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("{}: {e} (write it with IOGAUGE_BLESS=1)", path.display()));
    assert!(
        checked_in == generated,
        "{} is not the schema of the current types; regenerate it with IOGAUGE_BLESS=1 \
         cargo test -p results --test schema_file and bump SCHEMA_VERSION if the change is \
         incompatible",
        path.display()
    );
}

#[test]
fn schema_names_its_version_and_every_top_level_field() {
    let schema = results::json_schema();
    let title = schema["title"].as_str().unwrap();
    assert!(title.ends_with(&format!("version {}", results::SCHEMA_VERSION)));
    let required: Vec<&str> = schema["required"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap())
        .collect();
    for field in ["schema_version", "tool", "phases", "environment"] {
        assert!(
            required.contains(&field),
            "{field} not required: {required:?}"
        );
    }
    // `workload` names one of the typed parameter sets, each required with it.
    let workloads: Vec<&str> = schema["oneOf"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| {
            assert_eq!(v["required"], serde_json::json!(["workload", "parameters"]));
            v["properties"]["workload"]["const"].as_str().unwrap()
        })
        .collect();
    assert_eq!(
        workloads,
        [
            "ior",
            "mdtest",
            "find",
            "io500",
            "md-workbench",
            "startup",
            "mix",
            "dlio"
        ]
    );
}
