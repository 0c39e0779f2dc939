//! The shared look of terminal tables.

use comfy_table::presets::UTF8_FULL_CONDENSED;
use comfy_table::{CellAlignment, Table};

/// A table with the given header; the columns listed in `right` (figures) are right-aligned.
pub fn new(header: &[&str], right: &[usize]) -> Table {
    let mut t = Table::new();
    t.load_preset(UTF8_FULL_CONDENSED)
        .set_header(header.to_vec());
    for &i in right {
        if let Some(c) = t.column_mut(i) {
            c.set_cell_alignment(CellAlignment::Right);
        }
    }
    t
}

/// Every column from `from` on.
pub fn from(from: usize, len: usize) -> Vec<usize> {
    (from..len).collect()
}

/// Name/value pairs without a header.
pub fn pairs<'a>(rows: impl IntoIterator<Item = (&'a str, &'a str)>) -> Table {
    let mut t = Table::new();
    t.load_preset(UTF8_FULL_CONDENSED);
    for (k, v) in rows {
        t.add_row(vec![k, v]);
    }
    t
}

/// A section: a title line, the table, a blank line.
pub fn section(out: &mut String, title: &str, table: &Table) {
    out.push_str(title);
    out.push('\n');
    out.push_str(&table.to_string());
    out.push_str("\n\n");
}
