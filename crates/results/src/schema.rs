//! The JSON Schema of the result document, generated from the types themselves (schemars), so
//! it cannot drift from what iogauge writes. The checked-in copy is `docs/results.schema.json`
//! (a test keeps it equal to this output); tools that read iogauge's documents validate
//! against it.

use crate::model::{RunResult, SCHEMA_VERSION};

/// The schema of [`RunResult`] (JSON Schema 2020-12), titled with the schema version.
pub fn json_schema() -> serde_json::Value {
    let mut schema = schemars::schema_for!(RunResult).to_value();
    if let Some(obj) = schema.as_object_mut() {
        obj.insert(
            "title".into(),
            format!("iogauge result document, schema version {SCHEMA_VERSION}").into(),
        );
    }
    schema
}

/// [`json_schema`] as the checked-in file holds it: pretty, with a final newline.
pub fn json_schema_text() -> String {
    let mut text = serde_json::to_string_pretty(&json_schema()).expect("a schema serializes");
    text.push('\n');
    text
}
