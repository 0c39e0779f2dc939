//! The option tables of docs/compat.md (IOR, mdtest, pfind, the IO500's command line) against
//! the parsers: examples parse or are refused as the status says, refused names are refused by
//! name with exit status 2, and no option of a parser or of an original is left out.

use std::collections::HashSet;

use super::doc::{table, Row, Status};
use super::originals as orig;
use super::tools::{Tool, TOOLS};

/// Columns of the option tables.
const NAMES: usize = 0;
const STATUS: usize = 1;
const EXAMPLES: usize = 2;

fn words(line: &str) -> Vec<String> {
    line.split_whitespace().map(String::from).collect()
}

/// Whether `example` gives the option `name`: as a word (`-C`, `--fsync`), with a value
/// attached (`--api=x`, `-q10k`, `-vvv`), as an `-O` key (`-O a=1,key=2`), or, for a name
/// with its value (`-a MPIIO`), as it stands.
fn mentions(example: &str, name: &str) -> bool {
    let w: Vec<&str> = example.split_whitespace().collect();
    if let Some(key) = name.strip_prefix("-O ") {
        let sets = |e: &str| e.strip_prefix(key).is_some_and(|r| r.starts_with('='));
        return w
            .windows(2)
            .any(|p| p[0] == "-O" && p[1].split(',').any(sets));
    }
    if name.contains(' ') {
        return example.contains(name);
    }
    let letter = name.len() == 2 && !name.starts_with("--");
    w.iter().any(|t| match t.strip_prefix(name) {
        Some(rest) => rest.is_empty() || rest.starts_with('=') || (letter && !t.starts_with("--")),
        None => false,
    })
}

/// `args` is refused, by a message that names `name` (not as an unknown option), and the
/// command exits with status 2.
fn assert_refused(tool: Tool, args: &[String], name: &str) {
    let line = args.join(" ");
    let e = tool.parse(args).expect_err(&format!(
        "{tool:?} {line}: parses, but is listed as refused"
    ));
    assert!(
        e.contains(name) && !e.contains("unknown"),
        "{tool:?} {line}: refused without naming {name}: {e}"
    );
    assert!(!e.contains('\n'), "{tool:?} {line}: one line: {e}");
    assert_eq!(tool.exit_status(args), 2, "{tool:?} {line}: exit status");
}

fn check_row(tool: Tool, row: &Row) {
    let names = row.spans(NAMES);
    let examples = row.spans(EXAMPLES);
    assert!(!names.is_empty() && !examples.is_empty(), "{row:?}");
    if row.status(STATUS) == Status::Refused {
        for ex in &examples {
            let name = names.iter().find(|n| mentions(ex, n));
            let name = name.unwrap_or_else(|| panic!("{tool:?} {ex}: names none of {names:?}"));
            assert_refused(tool, &words(ex), name);
        }
        for name in &names {
            assert_refused(tool, &tool.probe(name), name);
        }
        return;
    }
    for ex in &examples {
        if let Err(e) = tool.parse(&words(ex)) {
            panic!(
                "{tool:?} {ex}: listed as {}, refused: {e}",
                row.cells[STATUS]
            );
        }
    }
    for name in &names {
        let shown = examples.iter().any(|ex| mentions(ex, name));
        assert!(shown, "{tool:?} {name}: no example gives it ({examples:?})");
    }
}

#[test]
fn every_listed_option_behaves_as_its_status_says() {
    crate::register_engines();
    for tool in TOOLS {
        for row in table(tool.table()) {
            check_row(tool, &row);
        }
    }
}

/// The option names of a tool's table.
fn listed(tool: Tool) -> HashSet<String> {
    let rows = table(tool.table());
    let names = rows.iter().flat_map(|r| r.spans(NAMES));
    names.map(String::from).collect()
}

/// Whether `name` is listed; `-O` keys without case, as IOR matches them.
fn is_listed(listed: &HashSet<String>, name: &str) -> bool {
    let key = name.starts_with("-O ");
    listed.contains(name) || (key && listed.iter().any(|l| l.eq_ignore_ascii_case(name)))
}

#[test]
fn every_option_the_parsers_know_is_listed() {
    crate::register_engines();
    for tool in TOOLS {
        let listed = listed(tool);
        for name in tool.known() {
            let table = tool.table();
            assert!(
                is_listed(&listed, &name),
                "{name} is not in docs/compat.md's {table} table"
            );
        }
    }
}

#[test]
fn every_option_of_the_originals_is_listed() {
    crate::register_engines();
    let ior = listed(Tool::Ior);
    let mut want: Vec<String> = orig::IOR_LETTERS.chars().map(|c| format!("-{c}")).collect();
    want.extend(orig::IOR_LONGS.iter().map(|l| format!("--{l}")));
    want.extend(orig::IOR_KEYS.iter().map(|k| format!("-O {k}")));
    want.extend(orig::IOR_MODULE_OPTIONS.iter().map(|m| format!("--{m}")));
    // Provided APIs are examples of `-a`; the others are listed by name.
    let refused_apis = orig::IOR_APIS.iter().filter(|a| engine::lookup(a).is_err());
    want.extend(refused_apis.map(|a| format!("-a {a}")));
    for name in want {
        assert!(
            is_listed(&ior, &name),
            "IOR's {name} is not in docs/compat.md"
        );
    }
    let tables = [
        (Tool::Mdtest, orig::MDTEST_LETTERS, orig::MDTEST_LONGS),
        (
            Tool::MdWorkbench,
            orig::MDWORKBENCH_LETTERS,
            orig::MDWORKBENCH_LONGS,
        ),
    ];
    for (tool, letters, longs) in tables {
        let listed = listed(tool);
        let letters = letters.chars().map(|c| format!("-{c}"));
        let longs = longs.iter().map(|l| format!("--{l}"));
        for name in letters.chain(longs) {
            assert!(
                listed.contains(&name),
                "{tool:?}'s {name} is not in docs/compat.md"
            );
        }
    }
    let find = listed(Tool::Find);
    for name in orig::PFIND {
        assert!(
            find.contains(*name),
            "pfind's {name} is not in docs/compat.md"
        );
    }
    let io500 = listed(Tool::Io500);
    for name in orig::IO500 {
        assert!(
            io500.contains(*name),
            "the IO500's {name} is not in docs/compat.md"
        );
    }
}

#[test]
fn mentions_reads_words_keys_and_groups() {
    assert!(mentions("-O a=1,keepFile=1", "-O keepFile"));
    assert!(!mentions("-O keepFileWithError=1", "-O keepFile"));
    assert!(mentions("/data -q10k", "-q") && mentions("-vvv", "-v"));
    assert!(mentions("--api=DUMMY", "--api") && !mentions("--apix", "--api"));
    assert!(!mentions("--fake-nodes 2", "-f") && !mentions("-f", "--fake-nodes"));
    assert!(mentions("-a MPIIO", "-a MPIIO") && !mentions("-a HDF5", "-a MPIIO"));
}
