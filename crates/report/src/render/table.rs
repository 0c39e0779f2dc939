//! The shared look of terminal tables, and the same tables as GitHub-flavoured markdown.
//!
//! Markdown reuses every renderer's terminal table: while [`markdown`] runs a renderer, the
//! helpers here draw borders with private-use sentinel characters instead of box lines, and
//! the text is then rewritten into `| a | b |` rows. Renderers that print a table with
//! `to_string()` (not through [`section`]) get markdown too, and a cell's own `|` or newline
//! can never be mistaken for a border.

use comfy_table::presets::{ASCII_MARKDOWN, UTF8_FULL_CONDENSED};
use comfy_table::{CellAlignment, Table, TableComponent as C};
use std::cell::Cell;

/// Column borders, the header's underline, and the line between two rows in markdown mode.
const V: char = '\u{E000}';
const H: char = '\u{E001}';
const R: char = '\u{E002}';

thread_local! {
    static MARKDOWN: Cell<bool> = const { Cell::new(false) };
}

fn markdown_mode() -> bool {
    MARKDOWN.with(Cell::get)
}

/// A table with the given header; the columns listed in `right` (figures) are right-aligned.
pub fn new(header: &[&str], right: &[usize]) -> Table {
    let mut t = Table::new();
    style(&mut t);
    t.set_header(header.to_vec());
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

/// Name/value pairs without a header (markdown needs one: it is left empty).
pub fn pairs<'a>(rows: impl IntoIterator<Item = (&'a str, &'a str)>) -> Table {
    let mut t = Table::new();
    style(&mut t);
    if markdown_mode() {
        t.set_header(vec!["", ""]);
    }
    for (k, v) in rows {
        t.add_row(vec![k, v]);
    }
    t
}

/// A section: a title line (a `###` heading in markdown), the table, a blank line.
pub fn section(out: &mut String, title: &str, table: &Table) {
    if markdown_mode() {
        out.push_str("### ");
    }
    out.push_str(title);
    out.push('\n');
    out.push_str(&table.to_string());
    out.push_str("\n\n");
}

fn style(t: &mut Table) {
    if !markdown_mode() {
        t.load_preset(UTF8_FULL_CONDENSED);
        return;
    }
    t.load_preset(ASCII_MARKDOWN);
    for c in [C::LeftBorder, C::RightBorder, C::VerticalLines] {
        t.set_style(c, V);
    }
    for c in [
        C::LeftHeaderIntersection,
        C::HeaderLines,
        C::MiddleHeaderIntersections,
        C::RightHeaderIntersection,
    ] {
        t.set_style(c, H);
    }
    for c in [
        C::LeftBorderIntersections,
        C::HorizontalLines,
        C::MiddleIntersections,
        C::RightBorderIntersections,
    ] {
        t.set_style(c, R);
    }
}

/// Runs `draw` (which renders tables through this module) with markdown borders, and returns
/// its text as markdown: tables as GFM tables, indented lines as list items.
pub fn markdown(draw: impl FnOnce() -> String) -> String {
    struct Reset(bool);
    impl Drop for Reset {
        fn drop(&mut self) {
            MARKDOWN.with(|m| m.set(self.0));
        }
    }
    let _reset = Reset(MARKDOWN.with(|m| m.replace(true)));
    rewrite(&draw())
}

fn is_table_line(line: &str) -> bool {
    line.contains([V, H, R])
}

fn rewrite(text: &str) -> String {
    let lines: Vec<&str> = text.lines().collect();
    let mut out = String::new();
    let mut i = 0;
    while i < lines.len() {
        if is_table_line(lines[i]) {
            let start = i;
            while i < lines.len() && is_table_line(lines[i]) {
                i += 1;
            }
            // GFM needs a blank line around a table, or the next text becomes a row.
            if !out.is_empty() && !out.ends_with("\n\n") {
                out.push('\n');
            }
            out.push_str(&gfm_table(&lines[start..i]));
            if lines.get(i).is_some_and(|l| !l.trim().is_empty()) {
                out.push('\n');
            }
            continue;
        }
        let line = lines[i];
        let body = line.trim_start();
        let indent = line.len() - body.len();
        if body.is_empty() || body.starts_with('#') {
            out.push_str(body);
        } else if indent > 0 {
            let item = body.strip_prefix("- ").unwrap_or(body);
            out.push_str(&format!("{}- {item}", " ".repeat(indent.saturating_sub(2))));
        } else {
            out.push_str(line);
            // Two plain lines in a row would join into one paragraph.
            let next = lines.get(i + 1).copied().unwrap_or("");
            if !next.trim().is_empty() && !next.starts_with(' ') && !is_table_line(next) {
                out.push('\n');
            }
        }
        out.push('\n');
        i += 1;
    }
    out
}

/// One drawn table's lines as a GFM table: physical lines between two separators are one
/// row (a cell of several lines joins them with `<br>`), `|` in a cell becomes `\|`.
fn gfm_table(lines: &[&str]) -> String {
    let mut rows: Vec<Vec<String>> = Vec::new();
    let mut header_rows = 0;
    let mut group: Vec<Vec<String>> = Vec::new();
    for line in lines {
        if line.contains(V) {
            let cells: Vec<&str> = line.split(V).collect();
            let inner = &cells[1.min(cells.len())..cells.len().saturating_sub(1)];
            group.push(inner.iter().map(|c| c.trim().replace('|', "\\|")).collect());
            continue;
        }
        rows.extend(merge(std::mem::take(&mut group)));
        if line.contains(H) {
            header_rows = rows.len();
        }
    }
    rows.extend(merge(group));
    let columns = rows.iter().map(Vec::len).max().unwrap_or(0).max(1);
    if header_rows == 0 {
        rows.insert(0, Vec::new());
        header_rows = 1;
    }
    let mut out = String::new();
    let line = |cells: &[String]| {
        let all: Vec<&str> = (0..columns)
            .map(|k| cells.get(k).map_or("", String::as_str))
            .collect();
        format!("| {} |\n", all.join(" | "))
    };
    for (n, row) in rows.iter().enumerate() {
        out.push_str(&line(row));
        if n + 1 == header_rows {
            out.push_str(&format!("|{}\n", "---|".repeat(columns)));
        }
    }
    out
}

/// A row's physical lines (one per line of its tallest cell) as one row of cells.
fn merge(group: Vec<Vec<String>>) -> Option<Vec<String>> {
    let columns = group.iter().map(Vec::len).max()?;
    Some(
        (0..columns)
            .map(|k| {
                let parts: Vec<&str> = group
                    .iter()
                    .map(|l| l.get(k).map_or("", String::as_str))
                    .collect();
                let last = parts
                    .iter()
                    .rposition(|p| !p.is_empty())
                    .map_or(0, |p| p + 1);
                parts[..last].join("<br>")
            })
            .collect(),
    )
}
