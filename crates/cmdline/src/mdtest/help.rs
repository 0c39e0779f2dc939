//! `iogauge mdtest --help`, generated from the option table and the engines' declarations.

use super::options::{Group, GROUPS, TABLE};
use crate::optparse::help::{render, Page};

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

pub fn help_text() -> String {
    render(&Page {
        table: &TABLE,
        intro: INTRO,
        groups: &GROUPS,
        backend: Group::Backend,
        notes: NOTES,
        examples: EXAMPLES,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_option_and_refusal_is_listed() {
        let h = help_text();
        crate::optparse::help::check_page(&TABLE, &h);
        assert!(h.contains("back end: POSIX or DUMMY (case-insensitive)"));
    }
}
