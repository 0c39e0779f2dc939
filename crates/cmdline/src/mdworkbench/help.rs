//! `iogauge md-workbench --help`, generated from the option table and the engines'
//! declarations.

use super::options::{Group, GROUPS, TABLE};
use crate::optparse::help::{render, Page};

const INTRO: &str = "\
Usage: iogauge md-workbench [OPTIONS]

md-workbench-compatible benchmark of metadata and small objects (hpc/ior's md-workbench): each
rank makes -D data sets of -P objects; every benchmark iteration stats, reads and deletes the
oldest -I objects of another rank's sets and creates as many new ones, so the working set stays
the same; the cleanup removes the rest. Same names (DIR/<rank>_<set>/file-<index>), same phases,
same figures: rate, throughput and the latency of every kind of operation (min, quartiles, q90,
q99, max) per phase, per rank with --process-reports. Ranks are threads on this machine
(--tasks N, default 1). Numbers take k, m, g, t, p (powers of 1024). Short options: -P 5, -P5,
-P=5; long options: --name=value or --name value. docs/compat.md lists every option; --json
PATH writes the full result document with per-kind latency histograms.
Marks: [md-workbench*] md-workbench's option, behaviour noted below; [iogauge] new.";

const NOTES: &str = "\
Where iogauge differs from md-workbench:
  - The default data pattern is incompressible (md-workbench's is timestamp: identical
    objects); --dataPacketType=timestamp writes md-workbench's bytes.
  - -w with a fraction is honoured (md-workbench cuts -w 0.5 to 0). On several ranks -w needs
    -W, and -I may not exceed -P: otherwise the ranks would read objects not written yet or
    leave objects the cleanup cannot find (md-workbench warns, then fails or leaves them).
  - A phase's time includes the ranks' wait in the -W agreement (md-workbench leaves it out).
  - Every phase starts after a barrier (md-workbench's cleanup starts without one).
  - A missing object, a data set an earlier run left (without --ignore-precreate-errors) and
    other I/O errors stop the run with status 1 or are refused before it (md-workbench aborts
    or counts them); an object missing at the cleanup is reported, not counted as removed.
  - -o is removed at the cleanup only when an iogauge precreate made it (the run-info file
    says so); md-workbench removes it whenever it is empty.
  - --start-item with -1 creates objects from that index on (md-workbench stops at -P).
  - One rank: stddev 0.0 (md-workbench prints -nan).";

const EXAMPLES: &[(&str, &str)] = &[
    (
        "all three phases on 4 ranks, small",
        "--tasks 4 -o /tmp/mdwb -P 2000 -I 1000 -D 10 -R 2",
    ),
    (
        "the IO500's extended phases, split: precreate, two checked iterations, cleanup",
        "--tasks 2 -o /tmp/mdwb2 -O=1 -D=10 -P=5000 -I=5000 --run-info-file=/tmp/st -1",
    ),
    (
        "",
        "--tasks 2 -o /tmp/mdwb2 -O=1 -D=10 -P=5000 -I=5000 --run-info-file=/tmp/st -2 -R=2 -X",
    ),
    (
        "",
        "--tasks 2 -o /tmp/mdwb2 -O=1 -D=10 -P=5000 -I=5000 --run-info-file=/tmp/st -3",
    ),
    (
        "a 5 s stonewall per iteration, every rank to the largest count, per-rank lines",
        "--tasks 4 -o /tmp/mdwb3 -w 5 -W --process-reports",
    ),
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
