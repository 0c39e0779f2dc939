//! md-workbench's lines: the shapes of its output under `mpirun -np 2` (every number masked)
//! and its counts (`--print-detailed-stats`), for the same options.

use regex::Regex;

use crate::common::{iogauge, shm};

/// Every number as `#` (`4.1.0+dev` becomes `#.#+dev`).
fn mask(text: &str) -> String {
    let re = Regex::new(r"-?[0-9]+(\.[0-9]+)?(e[-+][0-9]+)?").unwrap();
    re.replace_all(text, "#").into_owned()
}

/// `iogauge md-workbench --tasks 2 -P 4 -I 2 -D 3 -R 2 <extra>`'s lines after `Args:` and
/// the version line.
fn run(extra: &str) -> Vec<String> {
    let d = shm();
    let r = iogauge(&format!(
        "--no-store md-workbench --tasks 2 -o {}/out --run-info-file {}/st -P 4 -I 2 -D 3 -R 2 {extra}",
        d.path().display(),
        d.path().display()
    ))
    .ok();
    let lines: Vec<String> = r.stdout.lines().map(String::from).collect();
    assert!(lines[0].starts_with("Args: iogauge md-workbench \"--tasks\" \"2\" \"-o\""));
    lines[1..].to_vec()
}

// md-workbench -o out -P 4 -I 2 -D 3 -R 2 --process-reports on 2 ranks, numbers masked.
const PROCESS_REPORTS: &str = "\
Nodemap: #
MD-Workbench total objects: # workingset size: # MiB (version: #.#+dev) time: ### #:#:#
precreate process max:#s min:#s mean: #s balance:# stddev:# rate:# iops/s dsets: # objects:# rate:# dset/s rate:# obj/s tp:# MiB/s op-max:#s (# errs) create(#s, #s, #s, #s, #s, #s, #s)
#: precreate process max:#s rate:# iops/s dsets: # objects:# rate:# dset/s rate:# obj/s tp:# MiB/s op-max:#s (# errs) create(#s, #s, #s, #s, #s, #s, #s)
#: precreate process max:#s rate:# iops/s dsets: # objects:# rate:# dset/s rate:# obj/s tp:# MiB/s op-max:#s (# errs) create(#s, #s, #s, #s, #s, #s, #s)
benchmark process max:#s min:#s mean: #s balance:# stddev:# rate:# iops/s objects:# rate:# obj/s tp:# MiB/s op-max:#s (# errs) read(#s, #s, #s, #s, #s, #s, #s) stat(#s, #s, #s, #s, #s, #s, #s) create(#s, #s, #s, #s, #s, #s, #s) delete(#s, #s, #s, #s, #s, #s, #s)
#: benchmark process max:#s rate:# iops/s objects:# rate:# obj/s tp:# MiB/s op-max:#s (# errs) read(#s, #s, #s, #s, #s, #s, #s) stat(#s, #s, #s, #s, #s, #s, #s) create(#s, #s, #s, #s, #s, #s, #s) delete(#s, #s, #s, #s, #s, #s, #s)
#: benchmark process max:#s rate:# iops/s objects:# rate:# obj/s tp:# MiB/s op-max:#s (# errs) read(#s, #s, #s, #s, #s, #s, #s) stat(#s, #s, #s, #s, #s, #s, #s) create(#s, #s, #s, #s, #s, #s, #s) delete(#s, #s, #s, #s, #s, #s, #s)
benchmark process max:#s min:#s mean: #s balance:# stddev:# rate:# iops/s objects:# rate:# obj/s tp:# MiB/s op-max:#s (# errs) read(#s, #s, #s, #s, #s, #s, #s) stat(#s, #s, #s, #s, #s, #s, #s) create(#s, #s, #s, #s, #s, #s, #s) delete(#s, #s, #s, #s, #s, #s, #s)
#: benchmark process max:#s rate:# iops/s objects:# rate:# obj/s tp:# MiB/s op-max:#s (# errs) read(#s, #s, #s, #s, #s, #s, #s) stat(#s, #s, #s, #s, #s, #s, #s) create(#s, #s, #s, #s, #s, #s, #s) delete(#s, #s, #s, #s, #s, #s, #s)
#: benchmark process max:#s rate:# iops/s objects:# rate:# obj/s tp:# MiB/s op-max:#s (# errs) read(#s, #s, #s, #s, #s, #s, #s) stat(#s, #s, #s, #s, #s, #s, #s) create(#s, #s, #s, #s, #s, #s, #s) delete(#s, #s, #s, #s, #s, #s, #s)
cleanup process max:#s min:#s mean: #s balance:# stddev:# rate:# iops/s objects:# dsets: # rate:# obj/s rate:# dset/s op-max:#s (# errs) delete(#s, #s, #s, #s, #s, #s, #s)
#: cleanup process max:#s rate:# iops/s objects:# dsets: # rate:# obj/s rate:# dset/s op-max:#s (# errs) delete(#s, #s, #s, #s, #s, #s, #s)
#: cleanup process max:#s rate:# iops/s objects:# dsets: # rate:# obj/s rate:# dset/s op-max:#s (# errs) delete(#s, #s, #s, #s, #s, #s, #s)
Total runtime: #s time: ### #:#:#";

// The same with --print-detailed-stats, times and throughput masked: md-workbench's counts.
const DETAILED: &str = "\
Nodemap: 11
phase\t\td name\tcreate\tdelete\tob nam\tcreate\tread\tstat\tdelete\tt_inc_b\tt_no_bar\tthp\tmax_t
precreate \t6\t0\t24\t0\t0\t0\t#s\t#s\t# MiB/s #
0: precreate \t3\t0\t12\t0\t0\t0\t#s\t#s\t# MiB/s #
1: precreate \t3\t0\t12\t0\t0\t0\t#s\t#s\t# MiB/s #
benchmark \t0\t0\t12\t12\t12\t12\t#s\t#s\t# MiB/s #
0: benchmark \t0\t0\t6\t6\t6\t6\t#s\t#s\t# MiB/s #
1: benchmark \t0\t0\t6\t6\t6\t6\t#s\t#s\t# MiB/s #
benchmark \t0\t0\t12\t12\t12\t12\t#s\t#s\t# MiB/s #
0: benchmark \t0\t0\t6\t6\t6\t6\t#s\t#s\t# MiB/s #
1: benchmark \t0\t0\t6\t6\t6\t6\t#s\t#s\t# MiB/s #
cleanup \t0\t6\t0\t0\t0\t24\t#s\t#s\t# MiB/s #
0: cleanup \t0\t3\t0\t0\t0\t12\t#s\t#s\t# MiB/s #
1: cleanup \t0\t3\t0\t0\t0\t12\t#s\t#s\t# MiB/s #";

#[test]
fn lines_have_md_workbench_shapes() {
    let lines = run("--process-reports");
    let want: Vec<&str> = PROCESS_REPORTS.lines().collect();
    assert_eq!(lines.len(), want.len(), "{lines:#?}");
    for (got, want) in lines.iter().zip(&want) {
        // The version is iogauge's own.
        let got = mask(got).replace("(version: iogauge#.#)", "(version: #.#+dev)");
        assert_eq!(&got, want);
    }
}

#[test]
fn counts_are_md_workbench_counts() {
    let lines = run("--print-detailed-stats --process-reports");
    let lines: Vec<&String> = lines
        .iter()
        .filter(|l| !l.starts_with("MD-Workbench total") && !l.starts_with("Total runtime"))
        .collect();
    let floats = Regex::new(r"[0-9]+\.[0-9]+(e[-+][0-9]+)?").unwrap();
    let got: Vec<String> = lines
        .iter()
        .map(|l| floats.replace_all(l, "#").into_owned())
        .collect();
    assert_eq!(got.join("\n"), DETAILED);
}

#[test]
fn quiet_keeps_the_phase_lines_without_the_noise() {
    let lines = run("-q");
    assert_eq!(lines.len(), 5, "{lines:#?}");
    assert_eq!(lines[0], "Nodemap: 11");
    assert!(lines[1].starts_with("precreate process max:"));
    assert!(lines.iter().all(|l| !l.contains("errs")));
    assert!(lines[4].starts_with("cleanup process max:"));
}

#[test]
fn the_wear_out_line_and_stonewall_iterations() {
    // A deadline too short to finish the first group on a slow create: the ranks stop after
    // one group and agree; md-workbench prints `stonewall wear out` and `stonewall-iter`.
    let lines = run("-w 0.000001 -W -a DUMMY --dummy.delay-create=2000");
    let wear: Vec<&String> = lines
        .iter()
        .filter(|l| l.starts_with("stonewall wear out"))
        .collect();
    assert_eq!(wear.len(), 2, "{lines:#?}");
    assert!(wear[0].ends_with("s (1 iter)"), "{}", wear[0]);
    let bench: Vec<&String> = lines
        .iter()
        .filter(|l| l.starts_with("benchmark"))
        .collect();
    assert!(
        bench.iter().all(|l| l.contains(" stonewall-iter:1 ")),
        "{bench:#?}"
    );
    assert!(
        bench[0].contains(" objects:6 "),
        "3 sets, 1 group, 2 ranks: {}",
        bench[0]
    );
}
