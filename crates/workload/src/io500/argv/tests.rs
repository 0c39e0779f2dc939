//! The argv of every phase against the `exe` lines of official submission 731 (io500-sc24_v1).

use super::*;
use crate::io500::config::Config;
use crate::io500::phases::{by_name, PHASES};

const CONFIG: &str = include_str!("../testdata/sc24-731-config.ini");
const RESULT: &str = include_str!("../testdata/sc24-731-result.txt");

fn where_731() -> Where {
    Where {
        data: "/gpfs/bb8nvme/io500/2024.11.11-00.01.32".into(),
        result: "./results_bb8nvme_8M.extPFIND/2024.11.11-00.01.32".into(),
        timestamp: "2024.11.11-00.01.32".into(),
        stonewall: 300,
        ranks: 200,
    }
}

/// `exe` of each section of the official result.txt.
fn official_exe() -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut section = String::new();
    for line in RESULT.lines() {
        if let Some(s) = line.strip_prefix('[').and_then(|l| l.strip_suffix(']')) {
            section = s.to_string();
        } else if let Some(exe) = line.strip_prefix("exe             = ") {
            out.push((section.clone(), exe.to_string()));
        }
    }
    out
}

fn sorted(s: &str) -> Vec<&str> {
    let mut v: Vec<&str> = s.split(' ').collect();
    v.sort();
    v
}

#[test]
fn every_phase_matches_submission_731() {
    let cfg = Config::parse(CONFIG).unwrap();
    let w = where_731();
    let official = official_exe();
    assert_eq!(official.len(), 12);
    for (name, exe) in official {
        let built = build(by_name(&name).unwrap(), &cfg, &w).unwrap().unwrap();
        let ours = built.command.exe();
        if name.starts_with("ior-easy") {
            // io500-sc24_v1 put `-C -Q 1` first; HEAD moved them after `-o` (same flags).
            assert_eq!(sorted(&ours), sorted(&exe), "{name}");
            assert!(ours.starts_with("./ior --dataPacketType=timestamp -g -G -312303232 -k -e -o "));
        } else {
            assert_eq!(ours, exe, "{name}");
        }
        assert!(
            built.warnings.is_empty() && built.early_warnings.is_empty(),
            "{name}"
        );
    }
}

#[test]
fn random_4k_read_and_extended_finds() {
    let cfg = Config::parse(CONFIG).unwrap();
    let w = where_731();
    let exe = |n: &str| {
        build(by_name(n).unwrap(), &cfg, &w)
            .unwrap()
            .unwrap()
            .command
            .exe()
    };
    assert_eq!(
        exe("ior-rnd4K-easy-read"),
        "./ior --dataPacketType=timestamp -g -G -312303232 -k -e -o /gpfs/bb8nvme/io500/2024.11.11-00.01.32/ior-easy/ior_file_easy -F -r -D 300 -z -z -a POSIX -O saveRankPerformanceDetailsCSV=./results_bb8nvme_8M.extPFIND/2024.11.11-00.01.32/ior-rnd4K-easy-read.csv -t=4096 -b=4096 -s=10000000 -O stoneWallingWearOut=1 -C -Q 2"
    );
    assert_eq!(
        exe("find-easy"),
        "./pfind /gpfs/bb8nvme/io500/2024.11.11-00.01.32/mdtest-easy/ -name *01* -C -q 10000"
    );
    assert_eq!(
        exe("find-hard"),
        "./pfind /gpfs/bb8nvme/io500/2024.11.11-00.01.32/mdtest-hard/ -newer ./results_bb8nvme_8M.extPFIND/2024.11.11-00.01.32/timestampfile -size 3901c -name *01* -C -q 10000"
    );
    for p in PHASES
        .iter()
        .filter(|p| !matches!(p.how, How::Ior(..) | How::Mdtest(..) | How::Find(_)))
        .filter(|p| !matches!(p.how, How::MdWorkbench(_)))
    {
        assert!(build(p, &cfg, &w).unwrap().is_none(), "{}", p.name);
    }
}

#[test]
fn md_workbench_phases() {
    use crate::io500::seeds::{phase_seed, MD_WORKBENCH};
    let cfg = Config::parse(CONFIG).unwrap();
    let w = where_731();
    let g = phase_seed(MD_WORKBENCH, &w.timestamp);
    // Before mdtest-easy-write has run, the counts of the assumed 10 kIOPS over 60 s on 200
    // ranks: 10 * 60 * 1000 / 200 / 10 = 300.
    let b = build(by_name("mdworkbench-create").unwrap(), &cfg, &w)
        .unwrap()
        .unwrap();
    assert_eq!(
        b.command.exe(),
        format!(
            "./md-workbench --dataPacketType=timestamp --process-reports -a POSIX \
             -o=/gpfs/bb8nvme/io500/2024.11.11-00.01.32/mdworkbench -t=0.000000 -O=1 \
             --run-info-file=./results_bb8nvme_8M.extPFIND/2024.11.11-00.01.32/mdworkbench.status \
             -D=10 -G={g} -P=300 -I=300 -1"
        )
    );
    assert_eq!(
        b.pairs,
        [
            ("filesPerProc".to_string(), "300".to_string()),
            ("precreatePerSet".to_string(), "300".to_string())
        ]
    );
    let mut cfg = Config::defaults();
    cfg.set("mdworkbench", "API", "POSIX --posix.odirect")
        .unwrap();
    cfg.set("mdworkbench", "verbosity", "2").unwrap();
    cfg.set("mdworkbench", "waitingTime", "1.5e-3").unwrap();
    cfg.set("mdworkbench", "precreatePerSet", "7").unwrap();
    cfg.set("mdworkbench", "filesPerProc", "3").unwrap();
    let exe = build(by_name("mdworkbench-bench").unwrap(), &cfg, &w)
        .unwrap()
        .unwrap()
        .command
        .exe();
    assert!(exe.starts_with("./md-workbench --dataPacketType=timestamp -v -v --process-reports -a POSIX --posix.odirect -o="), "{exe}");
    assert!(exe.contains(" -t=0.001500 -O=1 "), "{exe}");
    assert!(exe.ends_with(" -P=7 -I=3 -2 -R=2 -X"), "{exe}");
    let del = build(by_name("mdworkbench-delete").unwrap(), &cfg, &w)
        .unwrap()
        .unwrap();
    assert!(del.command.exe().ends_with(" -P=7 -I=3 -3"));
}

#[test]
fn api_precedence_collective_and_options() {
    let mut cfg = Config::defaults();
    cfg.set("global", "api", "POSIX --posix.odirect").unwrap();
    cfg.set("ior-hard", "API", "MMAP").unwrap();
    cfg.set("ior-hard-read", "API", "POSIX --odd").unwrap();
    cfg.set("ior-hard", "collective", "TRUE").unwrap();
    cfg.set("ior-hard-read", "collective", "FALSE").unwrap();
    cfg.set("mdtest-hard", "files-per-dir", "1000").unwrap();
    cfg.set("ior-easy", "verbosity", "2").unwrap();
    let w = Where {
        data: "/d".into(),
        result: "/r".into(),
        timestamp: "t".into(),
        stonewall: 5,
        ranks: 2,
    };
    let b = |n: &str| build(by_name(n).unwrap(), &cfg, &w).unwrap().unwrap();
    let easy = b("ior-easy-write").command.exe();
    assert!(easy.contains(" -a POSIX --posix.odirect "), "{easy}");
    assert!(
        easy.starts_with("./ior --dataPacketType=timestamp -v -v -g"),
        "{easy}"
    );
    let hw = b("ior-hard-write").command.exe();
    assert!(hw.contains(" -w -c -D 5 -a MMAP -O "), "{hw}");
    let hr = b("ior-hard-read");
    assert!(
        hr.command.exe().contains(" -r -R -a POSIX --odd -O "),
        "{}",
        hr.command.exe()
    );
    assert_eq!(hr.warnings.len(), 1);
    assert!(hr.warnings[0].starts_with("Provided API option --odd starts with a different prefix"));
    let mw = b("mdtest-hard-write");
    let exe = mw.command.exe();
    assert!(
        exe.contains(" -n 1000000 -I=1000 -t ") && exe.contains(" -C -Y --save"),
        "{exe}"
    );
    assert!(!exe.contains(" -W "), "files-per-dir drops the stonewall");
    assert_eq!(mw.warnings.len(), 1);
}

#[test]
fn find_options_and_bad_nproc() {
    let mut cfg = Config::defaults();
    cfg.set("find", "nproc", "1").unwrap();
    cfg.set("find", "pfind-steal-next", "TRUE").unwrap();
    cfg.set("find", "external-extra-args", "x").unwrap();
    let w = Where {
        data: "/d".into(),
        result: "/r".into(),
        timestamp: "t".into(),
        stonewall: 300,
        ranks: 4,
    };
    let f = build(by_name("find").unwrap(), &cfg, &w).unwrap().unwrap();
    assert_eq!(
        f.command.exe(),
        "./pfind /d -newer /r/timestampfile -size 3901c -name *01* -C -N -q 10000"
    );
    assert_eq!((f.ranks, f.nproc_pair), (1, Some(1)));
    assert_eq!(
        f.early_warnings,
        ["Using internal pfind, will ignore any arguments to the external script"]
    );
    cfg.set("find", "nproc", "5").unwrap();
    let e = build(by_name("find").unwrap(), &cfg, &w).unwrap_err();
    assert!(
        e.contains("[find] nproc = 5: must be between 1 and the 4 rank(s)"),
        "{e}"
    );
    cfg.reset("find", "nproc");
    cfg.set("find", "external-script", "/nonexistent/find.sh")
        .unwrap();
    let e = build(by_name("find").unwrap(), &cfg, &w).unwrap_err();
    assert!(
        e.contains("external-script /nonexistent/find.sh: cannot check it"),
        "{e}"
    );
}
