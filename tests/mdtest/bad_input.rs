//! Bad input exits with status 2, a message naming the problem, and nothing created.

use crate::common::{iogauge, iogauge_args, listing, tmp};

/// (arguments after `mdtest` with DIR for the test directory, how stderr starts)
const CASES: &[(&str, &str)] = &[
    (
        "-n 10 -d DIR/missing/md",
        "iogauge mdtest: -d DIR/missing/md: the parent directory DIR/missing does not exist",
    ),
    (
        "-n 0 -d DIR/md",
        "iogauge mdtest: -n 0: give the items per task",
    ),
    ("-d DIR/md", "iogauge mdtest: -n 0: "),
    (
        "-n 10 -F -D -d DIR/md",
        "iogauge mdtest: -F and -D together",
    ),
    (
        "-n 10 --verfy-read -d DIR/md",
        "iogauge mdtest: unknown option --verfy-read; did you mean --verify-read?",
    ),
    (
        "-n 10 -S -d DIR/md",
        "iogauge mdtest: -S is not supported: shared-file mode",
    ),
    ("-n 10 -B -d DIR/md", "iogauge mdtest: -B is not supported"),
    (
        "-n 10 -a MMAP -d DIR/md",
        "iogauge mdtest: -a MMAP: the MMAP engine has no metadata operations",
    ),
    (
        "-n 10 -z 2 -b 2 -W 5 -d DIR/md",
        "iogauge mdtest: -W with -b 2",
    ),
    (
        "-n 5 -z 2 -b 2 -d DIR/md",
        "iogauge mdtest: -n 5 is fewer items than the 7 directories",
    ),
    (
        "-n 10 -I 3 -d DIR/md",
        "iogauge mdtest: -n 10 is not a multiple of -I 3",
    ),
    (
        "-n 10 -E -X -e 8 -d DIR/md",
        "iogauge mdtest: -X without writing in the same run needs -G",
    ),
    (
        "-n 10 -T -d DIR/md",
        "iogauge mdtest: -d DIR/md does not exist: nothing to stat",
    ),
    (
        "-n 10 --json DIR/no/r.json -d DIR/md",
        "iogauge mdtest: --json DIR/no/r.json: directory DIR/no does not exist",
    ),
    (
        "-n 10 -C -W 5 -x DIR/no/sw -d DIR/md",
        "iogauge mdtest: -x DIR/no/sw: directory DIR/no does not exist",
    ),
    (
        "-n 10 --tasks 2 --fake-nodes 3 -d DIR/md",
        "iogauge mdtest: --fake-nodes 3 is more than the 2 task(s)",
    ),
];

#[test]
fn refused_before_anything_is_created() {
    for (args, want) in CASES {
        let d = tmp();
        let dir = d.path().display().to_string();
        let line: Vec<String> = std::iter::once("mdtest".to_string())
            .chain(args.split_whitespace().map(|a| a.replace("DIR", &dir)))
            .collect();
        let refs: Vec<&str> = line.iter().map(String::as_str).collect();
        let r = iogauge_args(&refs).code(2);
        let want = want.replace("DIR", &dir);
        assert!(
            r.stderr.starts_with(&want),
            "{args}:\n  got  {}\n  want {want}...",
            r.stderr
        );
        assert_eq!(r.stderr.lines().count(), 1, "{args}: one line");
        assert!(
            listing(d.path()).is_empty(),
            "{args}: created {:?}",
            listing(d.path())
        );
        assert!(r.stdout.is_empty(), "{args}: {}", r.stdout);
    }
}

#[test]
fn status_counts_above_the_plan_are_refused() {
    let d = tmp();
    let md = d.path().join("md");
    let base = format!("mdtest --tasks 2 -n 10 -F -d {}", md.display());
    iogauge(&format!("{base} -C")).ok();
    let before = listing(&md.join("test-dir.0-0/mdtest_tree.0"));
    let sw = d.path().join("sw");
    std::fs::write(&sw, "11").unwrap();
    let r = iogauge(&format!("{base} -T -x {}", sw.display())).code(2);
    assert!(
        r.stderr
            .contains("holds 11 items per task, more than the 10"),
        "{}",
        r.stderr
    );
    assert_eq!(listing(&md.join("test-dir.0-0/mdtest_tree.0")), before);
}

#[test]
fn help_lists_options_and_refusals() {
    let r = iogauge("mdtest --help").ok();
    for s in [
        "-n N",
        "-W SECONDS",
        "--verify-read",
        "--dummy.delay-create",
        "-B ",
        "--savePerOpDataCSV",
        "SUMMARY time (in s)",
    ] {
        assert!(r.stdout.contains(s), "{s}");
    }
}
