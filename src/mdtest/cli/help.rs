//! `iogauge mdtest --help`, generated from the option table and the engines' declarations.

use std::fmt::Write;

use engine::OptValue;

use super::options::{Arg, Group, OptSpec, Origin, GROUPS, OPTIONS, REFUSED};

const WIDTH: usize = 100;
const COLUMN: usize = 34;

const INTRO: &str = "\
Usage: iogauge mdtest [OPTIONS]

mdtest-compatible metadata benchmark: paste an mdtest command line after `iogauge mdtest` and get
the same directories, the same item names, the same phase order and comparable rates. Tasks are
threads on this machine (--tasks N, default 1); -N keeps mdtest's meaning (the task stride).
Numbers take k, m, g, t, p (powers of 1024): -n 1k = 1024; no fractions, except -W 0.5 (mdtest
cuts it to 0). Short options: -n 5, -n5, -n=5; flags group and count (-uF, -vv) and take explicit
values (-F=0). Long options: --name=value or --name value. docs/compat.md lists every option.
Every operation's latency is recorded: the rate table gets p50/p99/max columns (microseconds)
to the right of mdtest's, and --json PATH writes the full result document.
Marks: [mdtest*] mdtest's option, behaviour noted below; [iogauge] new.";

const NOTES: &str = "\
Where iogauge differs from mdtest:
  - The time table is titled `SUMMARY time (in s)`: its values are phase durations in seconds
    (mdtest says `ms/op` but prints seconds, too).
  - After a stonewall (or with a -x count) a second line gives the items actually used; mdtest
    prints only the configured count.
  - The read phase opens files read-only (mdtest's POSIX back end opens them read-write).
  - The default data pattern is incompressible (mdtest's is timestamp: identical files).
  - -X compares the first -e bytes against a -w sized file; mdtest fails when -e < -w is not a
    multiple of 8. A short read counts as an error in both.
  - -R is a seeded permutation per task (mdtest's rand() shuffle gives another order); it
    shuffles the stat and the read phase, as mdtest's code does.
  - With -u -N and -z > 0 the shifted tasks use the tree owner's subdirectory names (mdtest uses
    its own and fails to find them).
  - A create over an earlier run's tree goes on as mdtest does, with one warning per phase and
    kind (mdtest warns per item); a directory that is not empty at removal stays, with a
    warning. A test-directory name that is a file, a symbolic link or a device is refused;
    stat, read and remove refuse missing test directories. -d itself is removed only when this
    run created it and removed its items.
  - Symbolic links in the tree and other I/O errors stop the run with status 1 (mdtest warns
    and carries on).
  - -W refuses -n with -I (mdtest would create only the first test directory).
  - -F with -D is refused (mdtest treats it as neither). -n 0 without -I is refused.
  - -v prints per-phase lines with a `V-1: ` prefix but without mdtest's source line numbers.";

const EXAMPLES: &[(&str, &str)] = &[
    (
        "files in a tree per task, all phases",
        "--tasks 4 -n 2000 -F -u -d /tmp/md",
    ),
    (
        "IO500 mdtest-hard shape: 3901-byte files, written and read back",
        "--tasks 4 -n 2000 -F -w 3901 -e 3901 -X -d /tmp/mdh",
    ),
    (
        "a tree of depth 2 and branching factor 3, directories and files",
        "--tasks 2 -n 500 -z 2 -b 3 -d /tmp/tree",
    ),
    (
        "stonewalled create; the count goes to /tmp/sw",
        "--tasks 2 -n 100000 -F -u -C -W 5 -x /tmp/sw -d /tmp/md2",
    ),
    (
        "then stat and remove exactly the items created",
        "--tasks 2 -n 100000 -F -u -T -x /tmp/sw -d /tmp/md2",
    ),
    ("", "--tasks 2 -n 100000 -F -u -r -x /tmp/sw -d /tmp/md2"),
];

fn names(o: &OptSpec) -> String {
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

/// The engines mdtest runs on, in prose: `POSIX or DUMMY`.
fn engine_names() -> String {
    let names: Vec<&str> = engine::metadata_engines().map(|e| e.name).collect();
    text::join_words(&names, "or")
}

/// What each engine mdtest runs on does, then the engine options mdtest takes.
fn engine_lines(out: &mut String) {
    for e in engine::metadata_engines() {
        option_line(out, &format!("      -a {}", e.name), e.help);
    }
    for (e, o) in engine::all_options().filter(|(_, o)| o.metadata) {
        let mut names = format!("    --{}", e.full_name(o));
        let mut text = format!("{}: {}", e.name, o.help);
        if let OptValue::Number(n) = o.default {
            let _ = write!(names, " {}", o.meta);
            let _ = write!(text, " [default {n}]");
        }
        text.push_str(" [iogauge]");
        option_line(out, &names, &text);
    }
}

pub fn help_text() -> String {
    let mut out = String::new();
    let _ = writeln!(out, "{INTRO}");
    for (group, title) in GROUPS {
        let _ = writeln!(out, "\n{title}:");
        for o in OPTIONS.iter().filter(|o| o.group == group) {
            let mut text = o.help.replace("{engines}", &engine_names());
            if !o.default.is_empty() {
                let _ = write!(text, " [default {}]", o.default);
            }
            if o.origin == Origin::Differs {
                text.push_str(" [mdtest*]");
            } else if o.origin == Origin::Iogauge {
                text.push_str(" [iogauge]");
            }
            option_line(&mut out, &names(o), &text);
        }
        if group == Group::Backend {
            engine_lines(&mut out);
        }
    }
    let _ = writeln!(out, "\nmdtest options iogauge refuses (exit status 2):");
    for r in REFUSED {
        let name = super::options::display_refused(r);
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
    let _ = writeln!(out, "\n{NOTES}\n\nExamples:");
    for (what, line) in EXAMPLES {
        if !what.is_empty() {
            let _ = writeln!(out, "  # {what}");
        }
        let _ = writeln!(out, "  iogauge mdtest {line}");
    }
    let _ = writeln!(
        out,
        "\nExit status: 0 success; 1 the benchmark ran but failed (I/O or verification error);\n\
         2 bad usage or bad input, found before any file is touched."
    );
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_option_and_refusal_is_listed() {
        let h = help_text();
        for o in OPTIONS {
            assert!(h.contains(&names(o)), "{}", names(o));
        }
        for r in REFUSED {
            assert!(h.contains(&super::super::options::display_refused(r)));
        }
        for (e, o) in engine::all_options() {
            let listed = h.contains(&format!("--{} ", e.full_name(o)));
            assert_eq!(listed, o.metadata, "{}", o.name);
        }
        assert!(h.contains("back end: POSIX or DUMMY (case-insensitive)"));
        assert!(h.lines().all(|l| l.len() <= WIDTH + 20), "long line");
    }
}
