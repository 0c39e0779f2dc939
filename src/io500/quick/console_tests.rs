use super::*;
use results::sink::Io500Text::{Invalid, Result as Txt, Summary, Warning};
use workload::io500::format::{result_line, score_line, summary_header};
use workload::io500::score::Scores;
use workload::io500::validity::{after_phase, failed, ior_write_short, stonewall_setting};

fn line(phase: &str, valid: bool) -> String {
    result_line(by_name(phase).unwrap(), 1.5, 6.25, valid)
}

/// Feeds what the runner sends for a phase: its reasons, then its line.
fn phase(c: &mut QuickConsole, name: &str, reasons: &[String]) -> String {
    let mut out = String::new();
    for r in reasons {
        out += &c.show(&Invalid {
            context: name,
            reason: r,
        });
    }
    out + &c.show(&Summary(&line(name, reasons.is_empty())))
}

fn score(c: &mut QuickConsole, extended: bool) -> String {
    let s = Scores {
        bw: 1.0,
        md: 4.0,
        total: 2.0,
    };
    c.show(&Summary(&score_line(extended, &s, false)))
}

#[test]
fn the_stonewall_time_rule_is_left_to_the_header_and_the_files() {
    let mut c = QuickConsole::new(5);
    let w = by_name("ior-easy-write").unwrap();
    let header = summary_header("iogauge-0", "standard");
    assert_eq!(c.show(&Summary(&header)), header);
    let run = stonewall_setting(5, 300).unwrap();
    let shown = c.show(&Invalid {
        context: "run",
        reason: &run,
    });
    assert_eq!(shown, "");
    // A write phase the stonewall ended: only the 300 s minimum is against it.
    let reasons = after_phase(w, 6.25, 1.5, 5, 300, false);
    assert_eq!(reasons.len(), 1);
    let shown = phase(&mut c, "ior-easy-write", &reasons);
    assert_eq!(shown, line("ior-easy-write", true));
    assert!(!shown.contains("INVALID"), "{shown}");
    assert_eq!(c.show(&Txt("[ior-easy-write]\nscore = 1.5\n")), "");
    assert_eq!(
        score(&mut c, false),
        "[SCORE ] Bandwidth 1.000000 GiB/s : IOPS 4.000000 kiops : TOTAL 2.000000 [QUICK]\n"
    );
}

#[test]
fn a_phase_that_ran_out_of_data_says_so_in_quick_terms() {
    let mut c = QuickConsole::new(5);
    let w = by_name("ior-easy-write").unwrap();
    let mut reasons = vec![ior_write_short(1.6, 5, 1.4).unwrap()];
    reasons.extend(after_phase(w, 1.7, 1.5, 5, 300, false));
    let shown = phase(&mut c, "ior-easy-write", &reasons);
    assert_eq!(
        shown,
        format!(
            "INVALID (ior-easy-write) its data ran out before the 5 s stonewall: --quick caps \
             the data at a share of the free space and memory, and this storage writes faster\n{}",
            line("ior-easy-write", false)
        )
    );
    assert!(!shown.contains("ERROR") && !shown.contains("shouldn't happen"));
    assert!(score(&mut c, false).ends_with(" [QUICK] [INVALID]\n"));
}

#[test]
fn other_reasons_are_shown_as_the_io500_prints_them() {
    let mut c = QuickConsole::new(5);
    let w = by_name("mdtest-hard-write").unwrap();
    let mut reasons = vec![failed("mdtest: no space left on device")];
    reasons.extend(after_phase(w, 0.5, 0.0, 5, 300, false));
    let shown = phase(&mut c, "mdtest-hard-write", &reasons);
    assert_eq!(
        shown,
        format!(
            "ERROR INVALID (mdtest-hard-write) Phase failed: mdtest: no space left on device\n{}",
            line("mdtest-hard-write", false)
        )
    );
    // The next phase starts clean.
    assert_eq!(phase(&mut c, "find", &[]), line("find", true));
    assert_eq!(
        c.show(&Warning("drop caches failed")),
        "WARNING drop caches failed\n"
    );
}

#[test]
fn an_optional_phase_spoils_only_the_extended_score() {
    let mut c = QuickConsole::new(5);
    let reasons = ["md-workbench is not provided by iogauge".to_string()];
    phase(&mut c, "mdworkbench-create", &reasons);
    assert!(score(&mut c, false).ends_with(" TOTAL 2.000000 [QUICK]\n"));
    assert!(score(&mut c, true).ends_with(" TOTAL 2.000000 [QUICK] [INVALID]\n"));
    // A rule broken by the run as a whole is shown at once and spoils both.
    let shown = c.show(&Invalid {
        context: "run",
        reason: "files-per-dir is set",
    });
    assert_eq!(shown, "ERROR INVALID (run) files-per-dir is set\n");
    assert!(score(&mut c, false).ends_with(" [QUICK] [INVALID]\n"));
}
