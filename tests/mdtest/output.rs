//! mdtest's text output: header lines, SUMMARY layout, the rate/time tables, -v lines and the
//! per-rank CSV.

use crate::common::{iogauge, shm};

#[test]
fn header_and_rate_table() {
    let d = shm();
    let r = iogauge(&format!(
        "mdtest --tasks 2 -n 12 -z 2 -b 2 -d {}/md",
        d.path().display()
    ))
    .ok();
    let lines: Vec<&str> = r.stdout.lines().collect();
    assert!(lines[0].starts_with("-- started at ") && lines[0].ends_with(" --"));
    assert_eq!(lines[1], "");
    assert!(
        lines[2].ends_with("(mdtest-compatible) was launched with 2 total task(s) on 1 node(s)")
    );
    assert!(lines[3].starts_with("Command line used: iogauge mdtest '--tasks' '2' '-n' '12'"));
    assert_eq!(
        lines[4],
        "WARNING: Read bytes is 0, thus, a read test will actually just open/close"
    );
    assert_eq!(lines[5], "Nodemap: 11");
    assert_eq!(
        lines[6],
        format!("Path                : {}/md", d.path().display())
    );
    assert!(lines[7].starts_with("FS                  : "));
    assert_eq!(lines[8], "2 tasks, 14 files/directories");
    assert_eq!(lines[9], "");
    assert_eq!(lines[10], "SUMMARY rate (in ops/sec): (of 1 iterations)");
    assert!(lines[11].starts_with("   Operation                     Max            Min           Mean        Std Dev   p50 lat (us)"));
    let labels: Vec<&str> = lines[13..23].iter().map(|l| l[3..22].trim_end()).collect();
    assert_eq!(
        labels,
        [
            "Directory creation",
            "Directory stat",
            "Directory rename",
            "Directory removal",
            "File creation",
            "File stat",
            "File read",
            "File removal",
            "Tree creation",
            "Tree removal"
        ]
    );
    // mdtest's %14.3f columns: the Max column ends at character 40.
    for l in &lines[13..23] {
        assert_eq!(&l[40..41], " ", "{l}");
        assert_eq!(&l[36..37], ".", "{l}");
    }
    assert!(lines[23].starts_with("-- finished at "));
}

#[test]
fn time_tables_and_verbose_lines() {
    let d = shm();
    let dir = d.path().display();
    let r = iogauge(&format!("mdtest --tasks 2 -n 10 -F -P -v -N 1 -d {dir}/md")).ok();
    assert!(r
        .stdout
        .contains("V-0: Rank   0 Line  2594 Shifting ranks by 1 for each phase.\n"));
    assert!(r
        .stdout
        .contains("\nSUMMARY rate (in ops/sec): (of 1 iterations)\n"));
    assert!(r
        .stdout
        .contains("\nSUMMARY time (in s): (of 1 iterations)\n"));
    assert!(
        r.stdout.contains("V-1:   File creation     : "),
        "{}",
        r.stdout
    );
    assert!(
        !r.stdout.contains("Directory"),
        "-F prints the file rows only"
    );
    let r = iogauge(&format!("mdtest --tasks 2 -n 10 -D -Z -d {dir}/md")).ok();
    assert!(!r.stdout.contains("SUMMARY rate"));
    assert!(
        r.stdout.contains("SUMMARY time (in s)") && r.stdout.contains("   Directory rename   ")
    );
    assert!(!r.stdout.contains("File creation"));
}

#[test]
fn rank_csv_and_rank_statistics() {
    let d = shm();
    let csv = d.path().join("ranks.csv");
    let r = iogauge(&format!(
        "mdtest --tasks 3 -i 2 -n 10 -F --showRankStatistics --saveRankPerformanceDetails={} -d {}/md",
        csv.display(),
        d.path().display()
    ))
    .ok();
    assert!(r.stdout.contains(
        "   Operation     per Rank: Max            Min           Mean      per Iteration: Max"
    ));
    let text = std::fs::read_to_string(&csv).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert!(lines[0].starts_with("rank,items,rate-Directory creation,time-Directory creation,"));
    assert!(lines[1].starts_with("all,10,,,,,,,,,,,"), "{}", lines[1]);
    assert_eq!(
        lines.len(),
        2 + 2 * 3,
        "header, all, one row per task and iteration"
    );
    assert!(
        lines[2].starts_with("0,,,,,,,,,,,,") && lines[2].contains("e+0"),
        "{}",
        lines[2]
    );
}
