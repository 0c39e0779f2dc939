//! The example in docs/results.md must stay a valid document of the current schema.

use std::path::Path;

#[test]
fn documented_example_parses() {
    let doc = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/results.md");
    let text = std::fs::read_to_string(&doc).expect("docs/results.md exists");
    let start = text.find("```json\n").expect("a json example") + "```json\n".len();
    let len = text[start..].find("```").expect("closed code block");
    let r = results::from_json_str(&text[start..start + len]).unwrap();
    assert_eq!(r.schema_version, results::SCHEMA_VERSION);
    assert!(text.contains(&format!(
        "# Result schema, version {}",
        results::SCHEMA_VERSION
    )));
    // Serializing again yields the same document (no field lost or renamed).
    let again = results::from_json_str(&results::to_json_string(&r)).unwrap();
    assert_eq!(again, r);
}
