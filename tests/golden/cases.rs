//! The golden cases: every output format of every workload, on small real runs (and one DUMMY
//! run), each in a fresh directory.

use std::path::Path;

use super::{check, render, step, Kind};
use crate::common::shm;

#[test]
fn ior_text_json_and_rank_csv() {
    let d = shm();
    let steps = [step(
        "ior -N 2 -t 64k -b 256k -s 2 -F -C --fake-nodes 2 -e -w -r -W -R -i 2 -v -o {D}/f \
         --json {D}/doc.json -O saveRankPerformanceDetailsCSV={D}/rank.csv",
        Kind::Text,
    )];
    let files = [("doc.json", Kind::Document), ("rank.csv", Kind::Text)];
    check("ior_text", &render(d.path(), &steps, &files));
}

#[test]
fn ior_summary_formats() {
    let d = shm();
    let steps = [
        step(
            "ior -N 2 -t 64k -b 256k -s 2 -F -w -r -k -O summaryFormat=JSON -o {D}/f",
            Kind::Json,
        ),
        step(
            "ior -N 2 -t 64k -b 128k -s 3 -g -w -r -R -O summaryFormat=CSV -o {D}/shared",
            Kind::Text,
        ),
        step(
            "ior -N 2 -t 1m -b 4m -s 2 -w -r -E -k -O summaryFile={D}/summary.txt -o {D}/f2",
            Kind::Text,
        ),
    ];
    let files = [("summary.txt", Kind::Text)];
    check("ior_formats", &render(d.path(), &steps, &files));
}

#[test]
fn ior_dummy_engine() {
    let d = shm();
    let steps = [step(
        "ior -a DUMMY --dummy.delay-create=1 -N 2 -t 1m -b 4m -s 2 -z -w -r -W -o {D}/d \
         --json {D}/doc.json",
        Kind::Text,
    )];
    check(
        "ior_dummy",
        &render(d.path(), &steps, &[("doc.json", Kind::Document)]),
    );
}

#[test]
fn md_workbench_lines_and_json() {
    let d = shm();
    let steps = [step(
        "md-workbench --tasks 2 -P 3 -I 2 -D 2 -R 2 -X --dataPacketType=t -G 7 -o {D}/out \
         --run-info-file {D}/st --process-reports --json {D}/doc.json",
        Kind::Text,
    )];
    check(
        "md_workbench",
        &render(d.path(), &steps, &[("doc.json", Kind::Document)]),
    );
}

#[test]
fn mdtest_tables_csv_and_json() {
    let d = shm();
    let steps = [step(
        "mdtest --tasks 2 -n 10 -u -w 100 -e 100 -X -i 2 -P -d {D}/md \
         --saveRankPerformanceDetails {D}/md.csv --json {D}/md.json",
        Kind::Text,
    )];
    let files = [("md.csv", Kind::Text), ("md.json", Kind::Document)];
    check("mdtest_text", &render(d.path(), &steps, &files));
}

#[test]
fn mdtest_tree_and_stonewall_status() {
    let d = shm();
    let steps = [
        step(
            "mdtest --tasks 2 -I 6 -z 1 -b 2 -L -F -d {D}/tree --json {D}/tree.json",
            Kind::Text,
        ),
        step(
            "mdtest --tasks 2 -n 50 -F -u -C -W 30 -x {D}/sw -d {D}/md --json {D}/c.json",
            Kind::Text,
        ),
        step(
            "mdtest --tasks 2 -n 80 -F -u -T -r -x {D}/sw -d {D}/md -Z",
            Kind::Text,
        ),
    ];
    let files = [
        ("tree.json", Kind::Document),
        ("sw", Kind::Text),
        ("c.json", Kind::Document),
    ];
    check("mdtest_tree", &render(d.path(), &steps, &files));
}

/// Three directories of 20 files each, every third file 3901 bytes.
fn make_tree(root: &Path) {
    for dir in 0..3 {
        let sub = root.join(format!("dir{dir}")).join("sub");
        std::fs::create_dir_all(&sub).unwrap();
        for f in 0..20 {
            let size = if f % 3 == 0 { 3901 } else { 10 };
            let parent: &Path = if f % 2 == 0 {
                sub.parent().unwrap()
            } else {
                &sub
            };
            std::fs::write(parent.join(format!("file.{dir}.{f:02}")), vec![b'x'; size]).unwrap();
        }
    }
}

#[test]
fn find_counts_listing_and_json() {
    let d = shm();
    std::fs::write(d.path().join("ref"), b"").unwrap();
    make_tree(&d.path().join("tree"));
    let steps = [
        step(
            "find --tasks 2 {D}/tree -newer {D}/ref -size 3901c -name *01* -C",
            Kind::Text,
        ),
        step("find {D}/tree -name *1* --json {D}/f.json", Kind::Sorted),
        step("find --tasks 2 {D}/tree -size 10c -C", Kind::Text),
    ];
    check(
        "find",
        &render(d.path(), &steps, &[("f.json", Kind::Document)]),
    );
}

const IO500_INI: &str = "[global]\ndatadir = {D}/data\nresultdir = {D}/res\n\n\
[debug]\nstonewall-time = 1\n\n[ior-easy]\ntransferSize = 64k\nblockSize = 1m\n\n\
[mdtest-easy]\nn = 100\n\n[ior-hard]\nsegmentCount = 20\n\n[mdtest-hard]\nn = 50\n\n\
[find]\nnproc = 1\n\n[ior-rnd4K-easy-read]\nrun = FALSE\n";

const IO500_FILES: [&str; 26] = [
    "result.txt",
    "result_summary.txt",
    "config-orig.ini",
    "config.ini",
    "ior-easy-write.txt",
    "ior-easy-write.csv",
    "mdtest-easy-write.txt",
    "mdtest-easy-write.csv",
    "ior-hard-write.txt",
    "ior-hard-write.csv",
    "mdtest-hard-write.txt",
    "mdtest-hard-write.csv",
    "find.txt",
    "find.csv",
    "ior-easy-read.txt",
    "ior-easy-read.csv",
    "mdtest-easy-stat.txt",
    "mdtest-easy-stat.csv",
    "ior-hard-read.txt",
    "ior-hard-read.csv",
    "mdtest-hard-stat.txt",
    "mdtest-hard-stat.csv",
    "mdtest-easy-delete.txt",
    "mdtest-hard-read.txt",
    "mdtest-hard-delete.txt",
    "result.json",
];

#[test]
fn io500_result_directory() {
    let d = shm();
    let dir = d.path().to_str().unwrap();
    std::fs::write(d.path().join("io500.ini"), IO500_INI.replace("{D}", dir)).unwrap();
    let steps = [
        step(
            "io500 {D}/io500.ini --tasks 2 --timestamp 2026.01.02-03.04.05 --dry-run",
            Kind::Text,
        ),
        step(
            "io500 {D}/io500.ini --tasks 2 --timestamp 2026.01.02-03.04.05",
            Kind::Text,
        ),
    ];
    let files: Vec<(String, Kind)> = IO500_FILES
        .iter()
        .map(|f| {
            let kind = if f.ends_with(".json") {
                Kind::Document
            } else {
                Kind::Text
            };
            (format!("res/2026.01.02-03.04.05/{f}"), kind)
        })
        .collect();
    let files: Vec<(&str, Kind)> = files.iter().map(|(f, k)| (f.as_str(), *k)).collect();
    let mut out = render(d.path(), &steps, &files);
    let left = crate::common::tree(&d.path().join("res"));
    out += &format!("--- result directory\n{}\n", left.join("\n"));
    out += &format!(
        "--- data directory left\n{:?}\n",
        crate::common::listing(&d.path().join("data"))
    );
    check("io500", &out);
}
