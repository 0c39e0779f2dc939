//! docs/compat.md checked against the parsers (tests only). The document has one table per
//! tool listing every option of the original and every option iogauge adds, each with its
//! status and examples; `options.rs` and `ini.rs` run the examples through the parsers, try
//! every refused name, and check that no option of a parser (`tools.rs`) or of an original
//! (`originals.rs`) is left out, so the document cannot drift from the code.

mod doc;
mod ini;
mod options;
mod originals;
mod tools;
