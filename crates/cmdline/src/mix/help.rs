//! `iogauge mix --help`, generated from the option table and the engines' declarations.

use super::options::{Group, GROUPS, TABLE};
use crate::optparse::help::{render, Page};

const INTRO: &str = "\
Usage: iogauge mix --dir DIR [--mix FILE|NAME] [--ramp START:STEP:MAX] [OPTIONS]

A mix of metadata operations (create, open-read, open-write, stat, readdir, chmod, rename,
unlink, mkdir, rmdir) in the percentages of a TOML file, over a tree of files each rank prepares
under DIR/r<rank>, driven open-loop: operations are due on a schedule at a target rate for the
whole run, whether or not earlier ones have finished. The rate rises in steps of --step-seconds
until a step's latency exceeds --latency-limit; each step reports the requested and achieved
rate and per-operation latency percentiles, and the result names the knee: the highest achieved
rate whose latency stayed within the limit. Latency is measured from each operation's due time
(the queue included, as wrk2 and fio's rate mode do); service time (from the issue) is reported
beside it. Ranks are threads on this machine (--tasks N, default 1) or MPI ranks. --json PATH
writes the full result document.";

const NOTES: &str = "\
Notes:
  - The shipped `build-like` mix is NOT SPEC SFS 2014 SWBUILD: its percentages are assumptions
    (mixes/build-like.toml says why).
  - A step whose achieved rate falls below 95 % of the requested one is flagged: the ranks
    could not carry the load. Operations still waiting when a step's window ends count toward
    the limit with their wait so far (a lower bound).
  - An operation without a target (an unlink when no file is left) runs as a create (rmdir: a
    mkdir) and is counted as substituted.
  - The cleanup removes, by name, exactly what the run made; never recursively.";

const EXAMPLES: &[(&str, &str)] = &[
    (
        "the shipped build-like mix on 4 ranks, 500 to 5000 ops/s in 5 s steps",
        "--tasks 4 --dir /tmp/mix --ramp 500:500:5000 --step-seconds 5",
    ),
    (
        "your own mix, held to a p99 of 2 ms",
        "--dir /tmp/mix --mix my.toml --latency-limit p99=2ms --json mix.json",
    ),
    ("the plan only, no I/O", "--dir /tmp/mix --dry-run"),
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
