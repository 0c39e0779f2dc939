//! The `--help` page of an IOR-style command whose table has help sections (mdtest,
//! md-workbench): the intro, every option by section with its default and origin mark, the
//! engines and their options, the refused options with why, notes and examples. Generated from
//! the table and the engine registry, so it lists exactly what the parser takes.

use std::fmt::Write;

use super::table::{display_refused, Arg, Origin, Spec, Table};

const WIDTH: usize = 100;
const COLUMN: usize = 34;

/// The help sections of the metadata tools' tables (mdtest, md-workbench), in display order;
/// each tool titles them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Section {
    Phases,
    Layout,
    Data,
    Time,
    Output,
    Backend,
    Iogauge,
}

/// What a tool's help page holds besides its table.
pub struct Page<'a, T: 'static, G: 'static> {
    pub table: &'a Table<T, G>,
    pub intro: &'a str,
    /// The sections in display order.
    pub groups: &'a [(G, &'a str)],
    /// The section after which the engines and their options are listed.
    pub backend: G,
    pub notes: &'a str,
    /// (what it does, the command line after `iogauge <tool>`); an empty "what" continues.
    pub examples: &'a [(&'a str, &'a str)],
}

/// `-t, --name META`, as the page lists an option.
pub fn names<T, G>(o: &Spec<T, G>) -> String {
    let mut s = match (o.short, o.long) {
        (Some(c), Some(l)) => format!("-{c}, --{l}"),
        (Some(c), None) => format!("-{c}"),
        (None, Some(l)) => format!("    --{l}"),
        (None, None) => String::new(),
    };
    if o.arg == Arg::Value {
        let _ = write!(s, " {}", o.meta);
    }
    s
}

/// Word-wraps `text` to lines of at most `width` characters.
fn wrap(text: &str, width: usize) -> Vec<String> {
    let mut lines = vec![String::new()];
    for word in text.split_whitespace() {
        let line = lines.last_mut().expect("never empty");
        if !line.is_empty() && line.len() + 1 + word.len() > width {
            lines.push(word.to_string());
        } else {
            if !line.is_empty() {
                line.push(' ');
            }
            line.push_str(word);
        }
    }
    lines
}

/// One option: its names in the left column, `text` wrapped to the right.
fn option_line(out: &mut String, names: &str, text: &str) {
    let name = format!("  {names}");
    let body = wrap(text, WIDTH - COLUMN);
    if name.len() + 2 > COLUMN {
        let _ = writeln!(out, "{name}");
        for l in body {
            let _ = writeln!(out, "{:COLUMN$}{l}", "");
        }
    } else {
        for (i, l) in body.iter().enumerate() {
            let left = if i == 0 { name.as_str() } else { "" };
            let _ = writeln!(out, "{left:COLUMN$}{l}");
        }
    }
}

/// The engines of metadata workloads, in prose: `POSIX or DUMMY`.
pub fn engine_names() -> String {
    let names: Vec<&str> = engine::metadata_engines().map(|e| e.name).collect();
    text::join_words(&names, "or")
}

/// What each engine does, then the engine options the tool takes.
fn engine_lines<T: Copy + PartialEq, G>(out: &mut String, table: &Table<T, G>) {
    for e in engine::metadata_engines() {
        option_line(out, &format!("      -a {}", e.name), e.help);
    }
    for (e, o) in engine::all_options().filter(|(_, o)| table.accepts(o)) {
        let mut names = format!("    --{}", e.full_name(o));
        let mut text = format!("{}: {}", e.name, o.help);
        if o.takes_value() {
            let _ = write!(names, " {}", o.placeholder());
        }
        if let Some(d) = o.default_text() {
            let _ = write!(text, " [default {d}]");
        }
        text.push_str(" [iogauge]");
        option_line(out, &names, &text);
    }
}

pub fn render<T: Copy + PartialEq, G: Copy + PartialEq>(page: &Page<'_, T, G>) -> String {
    let tool = page.table.tool;
    let mut out = String::new();
    let _ = writeln!(out, "{}", page.intro);
    for &(group, title) in page.groups {
        let _ = writeln!(out, "\n{title}:");
        for o in page.table.options.iter().filter(|o| o.group == group) {
            let mut text = o.help.replace("{engines}", &engine_names());
            if !o.default.is_empty() {
                let _ = write!(text, " [default {}]", o.default);
            }
            if o.origin == Origin::Differs {
                let _ = write!(text, " [{tool}*]");
            } else if o.origin == Origin::Iogauge {
                text.push_str(" [iogauge]");
            }
            option_line(&mut out, &names(o), &text);
        }
        if group == page.backend {
            engine_lines(&mut out, page.table);
        }
    }
    let _ = writeln!(out, "\n{tool} options iogauge refuses (exit status 2):");
    for r in page.table.refused {
        let name = display_refused(r);
        let body = wrap(r.reason, WIDTH - COLUMN);
        for (i, l) in body.iter().enumerate() {
            let left = if i == 0 {
                format!("  {name}")
            } else {
                String::new()
            };
            let _ = writeln!(out, "{left:COLUMN$}{l}");
        }
    }
    let _ = writeln!(out, "\n{}\n\nExamples:", page.notes);
    for (what, line) in page.examples {
        if !what.is_empty() {
            let _ = writeln!(out, "  # {what}");
        }
        let _ = writeln!(out, "  iogauge {tool} {line}");
    }
    let _ = writeln!(
        out,
        "\nExit status: 0 success; 1 the benchmark ran but failed (I/O or verification error);\n\
         2 bad usage or bad input, found before any file is touched."
    );
    out
}

/// Every option, refusal and engine option the tool takes is on the page, no line too long.
#[cfg(test)]
pub fn check_page<T: Copy + PartialEq, G>(table: &Table<T, G>, page: &str) {
    for o in table.options {
        assert!(page.contains(&names(o)), "{}", names(o));
    }
    for r in table.refused {
        assert!(page.contains(&display_refused(r)));
    }
    for (e, o) in engine::all_options() {
        let listed = page.contains(&format!("--{} ", e.full_name(o)));
        assert_eq!(listed, table.accepts(o), "{}", o.name);
    }
    assert!(page.lines().all(|l| l.len() <= WIDTH + 20), "long line");
}
