//! The results crate's integration tests, one binary: the JSON Schema file and its docs.

mod schema_doc;
mod schema_file;
