//! The runner with a fake driver: phase order, result.txt and summary structure, invalid
//! phases still counted, disabled phases left out of the means, hashes that verify, clean-up.

use std::sync::{Arc, Mutex};

use results::sink::{Event, Io500Text, Notice, Sink};
use results::{Fanout, Parameters, RunResult};

use super::argv::Built;
use super::config::Config;
use super::hash;
use super::measured::{IorWall, MdWall, Measured};
use super::phases::{How, IorStep, MdStep, MdwbStep, Mode, Phase};
use super::plan::{PhasePlan, Planned};
use super::run::{check, run, Driver, Outcome, PhaseRun, Record, Settings, ToolOutcome};
use crate::session::Session;

/// What the result-directory sink would write: result.txt, the summary, the console.
#[derive(Default)]
struct Texts {
    txt: String,
    summary: String,
    console: String,
}

struct TextLog(Arc<Mutex<Texts>>);

impl Sink for TextLog {
    fn event(&mut self, e: &Event<'_>) {
        let mut t = self.0.lock().unwrap();
        if let Event::Notice(Notice::Io500(x)) = e {
            match x {
                Io500Text::Result(s) => t.txt.push_str(s),
                Io500Text::Summary(s) => {
                    t.summary.push_str(s);
                    t.console.push_str(s);
                }
                Io500Text::Invalid { context, reason } => {
                    t.txt.push_str(&format!("; ERROR INVALID {reason}\n"));
                    t.console
                        .push_str(&format!("ERROR INVALID ({context}) {reason}\n"));
                }
                Io500Text::Warning(w) => t.txt.push_str(&format!("; WARNING {w}\n")),
            }
        }
    }
}

/// Checks, then runs the suite with `driver`; the outcome and what the sinks heard.
fn suite(s: &Settings, driver: &mut Fake) -> (Result<Outcome, String>, Texts) {
    let texts = Arc::new(Mutex::new(Texts::default()));
    let doc = RunResult::new(Parameters::Ior(Default::default()), vec![], "test");
    let session = Session::new(doc, Fanout::new(vec![Box::new(TextLog(texts.clone()))]), 2);
    let o = check(s, driver).and_then(|p| run(s, &p, driver, &session));
    drop(session);
    let t = Arc::try_unwrap(texts).ok().unwrap().into_inner().unwrap();
    (o, t)
}

#[derive(Default)]
struct Fake {
    ran: Vec<String>,
    /// The commands of the phases that ran.
    exes: Vec<String>,
    done: Vec<String>,
    /// A write phase whose preflight fails.
    refuse: Option<String>,
}

impl Driver for Fake {
    fn plan(&mut self, _: &Phase, b: &Built) -> Result<Planned, String> {
        Ok(Planned {
            plan: PhasePlan::Script(b.command.exe()),
            warnings: Vec::new(),
        })
    }
    fn preflight(&mut self, p: &Phase, _: &Planned) -> Result<(), String> {
        match &self.refuse {
            Some(name) if name == p.name => Err("already exists".into()),
            _ => Ok(()),
        }
    }
    fn run(
        &mut self,
        phase: &Phase,
        b: &Built,
        _: &Planned,
        _: &str,
        _: &Session,
    ) -> Result<PhaseRun, String> {
        self.ran.push(phase.name.to_string());
        self.exes.push(b.command.exe());
        let measured = match phase.how {
            How::Ior(_, IorStep::Write) => Measured::Ior {
                bytes: 2 << 30,
                time_s: 1.0,
                errors: 0,
                wall: Some(IorWall {
                    time_s: 0.5,
                    bytes_mean: (1u64 << 29) as f64,
                    pairs: 4,
                }),
            },
            How::Ior(..) => Measured::Ior {
                bytes: 8 << 30,
                time_s: 1.0,
                errors: 0,
                wall: None,
            },
            How::Mdtest(_, step) => Measured::Mdtest {
                items: 9000,
                time_s: 1.0,
                errors: 0,
                wall: (step == MdStep::Create).then_some(MdWall {
                    time_s: 1.0,
                    items_sum: 9000,
                }),
            },
            How::MdWorkbench(step) => Measured::MdWorkbench {
                results: match step {
                    MdwbStep::Bench => vec![(4000.0, 0.5), (5000.0, 0.25)],
                    _ => vec![(2500.0, 0.125)],
                },
                errors: 0,
            },
            _ => Measured::Find {
                found: 7,
                examined: 1000,
                runtime_s: 1.0,
            },
        };
        Ok(PhaseRun {
            measured,
            results: Vec::new(),
            outcome: ToolOutcome::External,
            interrupted: None,
        })
    }
    fn done(&mut self, r: &Record) {
        self.done.push(r.phase.name.to_string());
    }
}

fn settings(dir: &std::path::Path, extra: &str, mode: Mode) -> Settings {
    let ini = format!(
        "[global]\ndatadir = {0}/data\nresultdir = {0}/res\n[debug]\nstonewall-time = 1\n{extra}",
        dir.display()
    );
    Settings {
        config: Config::parse(&ini).unwrap(),
        mode,
        ranks: 2,
        timestamp: "2024.11.11-00.01.32".into(),
        dry_run: false,
        cleanup_only: false,
        verbosity: 1,
        version: "test".into(),
        original_ini: ini,
    }
}

#[test]
fn a_full_run_with_invalid_phases_that_still_count() {
    let dir = tempfile::tempdir().unwrap();
    let s = settings(dir.path(), "", Mode::Standard);
    let mut fake = Fake::default();
    let (o, t) = suite(&s, &mut fake);
    let o = o.unwrap();
    assert_eq!(fake.ran.len(), 13, "every tool phase: {:?}", fake.ran);
    assert_eq!(fake.done.len(), 14, "and the timestamp");
    // The write phases ran in no time: below the 1 s stonewall, so invalid, yet they count.
    let w = o
        .records
        .iter()
        .find(|r| r.phase.name == "ior-easy-write")
        .unwrap();
    assert!(!w.valid && w.score == 2.0);
    assert!(!o.validity.run);
    assert!((o.scores.bw - (2.0f64 * 2.0 * 8.0 * 8.0).powf(0.25)).abs() < 1e-12);
    assert!(
        (o.scores.md - 9.0f64.powf(7.0 / 8.0)).abs() < 1e-9,
        "7 x 9 kIOPS and find's 1"
    );
    let res = dir.path().join("res/2024.11.11-00.01.32");
    let txt = &t.txt;
    assert!(
        txt.starts_with("[run]\nprocs           = 2\nversion         = test\n"),
        "{txt}"
    );
    assert!(txt.contains("; ERROR INVALID stonewall-time 1s != 300s\n"));
    assert!(txt.contains("\n[ior-easy-write]\nt_start         = "));
    assert!(txt.contains("throughput-stonewall = 2.00\n"), "{txt}");
    assert!(txt.contains("rate-stonewall  = 9.000000\n"));
    assert!(txt.contains("nproc           = 2\nfound           = 7\ntotal-files     = 1000\nscore           = 1.000000\n"));
    assert!(txt.contains("\n[SCORE]\nMD              = "));
    assert!(txt.contains(" [INVALID]\nhash            = "));
    let sum = &t.summary;
    let lines: Vec<&str> = sum.lines().collect();
    assert_eq!(lines.len(), 16, "{sum}");
    assert_eq!(lines[0], "IO500 version test (standard)");
    assert!(lines[1].starts_with("[RESULT]       ior-easy-write        2.000000 GiB/s : time "));
    assert!(lines[1].ends_with(" seconds [INVALID]"));
    assert!(lines[14].starts_with("[      ]  ior-rnd4K-easy-read        8.000000 GiB/s"));
    assert!(lines[15].starts_with("[SCORE ] Bandwidth 4.000000 GiB/s : IOPS "));
    let v = hash::verify(s.config.hash(), txt, "test").unwrap();
    assert!(
        v.report.ends_with("[OK] But this is an invalid run!\n"),
        "{}",
        v.report
    );
    assert_eq!(
        std::fs::read_to_string(res.join("config-orig.ini")).unwrap(),
        s.original_ini
    );
    assert!(res.join("config.ini").is_file() && res.join("timestampfile").is_file());
    assert!(
        !dir.path().join("data").exists(),
        "the data directory is removed"
    );
    assert!(t
        .console
        .contains("ERROR INVALID (ior-easy-write) Runtime of phase"));
}

#[test]
fn a_disabled_phase_scores_zero_is_left_out_and_invalidates() {
    let t = tempfile::tempdir().unwrap();
    let s = settings(
        t.path(),
        "[ior-hard-read]\nRUN = false\n[ior-rnd4K-easy-read]\nrun=FALSE\n",
        Mode::Standard,
    );
    let mut fake = Fake::default();
    let o = suite(&s, &mut fake).0.unwrap();
    assert!(!fake
        .ran
        .iter()
        .any(|p| p == "ior-hard-read" || p == "ior-rnd4K-easy-read"));
    let r = o
        .records
        .iter()
        .find(|r| r.phase.name == "ior-hard-read")
        .unwrap();
    assert_eq!((r.score, r.valid, r.ran), (0.0, false, false));
    assert_eq!(r.invalid, ["Resulting score shouldn't be 0.0"]);
    assert!(r.exe.is_some(), "the IO500 still prints the command");
    assert!((o.scores.bw - (2.0f64 * 2.0 * 8.0).powf(1.0 / 3.0)).abs() < 1e-12);
}

#[test]
fn extended_mode_adds_scorex_and_reports_md_workbench() {
    let dir = tempfile::tempdir().unwrap();
    let s = settings(dir.path(), "", Mode::Extended);
    let mut fake = Fake::default();
    let (o, t) = suite(&s, &mut fake);
    let o = o.unwrap();
    assert!(
        fake.ran.contains(&"find-easy".to_string()) && fake.ran.contains(&"find-hard".to_string())
    );
    let (x, _) = o.extended.unwrap();
    // find-easy (1), find-hard (1) and mdworkbench-bench's second iteration (5) join MD.
    assert!((x.md - (9.0f64.powi(7) * 5.0).powf(1.0 / 11.0)).abs() < 1e-9);
    assert_eq!(x.bw, o.scores.bw);
    let rec = |name: &str| o.records.iter().find(|r| r.phase.name == name).unwrap();
    let bench = rec("mdworkbench-bench");
    assert!(bench.valid && bench.score == 5.0, "{bench:?}");
    assert_eq!(rec("mdworkbench-create").score, 2.5);
    assert!(
        !o.validity.extended,
        "the write phases ran below the stonewall"
    );
    // md-workbench's counts come from mdtest-easy-write's 9 kIOPS: 9 * 1 s * 1000 / 2 / 10.
    assert_eq!(o.mdworkbench.precreate_per_set, Some(450));
    assert!(!o.mdworkbench.assumed_rate);
    let mdwb: Vec<&String> = fake
        .exes
        .iter()
        .filter(|e| e.starts_with("./md-workbench"))
        .collect();
    assert_eq!(mdwb.len(), 3);
    assert!(
        mdwb[1].ends_with(" -P=450 -I=450 -2 -R=2 -X"),
        "{}",
        mdwb[1]
    );
    let txt = &t.txt;
    assert!(txt.contains("\n[mdworkbench-bench]\nt_start         = "));
    assert!(txt.contains("filesPerProc    = 450\nprecreatePerSet = 450\nexe             = ./md-workbench --dataPacketType=timestamp --process-reports -a POSIX -o="));
    assert!(txt.contains("maxOpTime       = 0.250000\nscoreIteration0 = 4.000000\nmaxOpTime0      = 0.500000\nscore           = 5.000000\n"), "{txt}");
    // mdtest-easy-write's rate is kept for a later --cleanup.
    let size = dir.path().join("res/2024.11.11-00.01.32/mdworkbench-size");
    assert_eq!(std::fs::read(size).unwrap(), 9.0f64.to_ne_bytes());
    assert!(txt.contains("mode            = extended\n") && txt.contains("\n[SCOREX]\n"));
    let sum = &t.summary;
    assert!(sum
        .lines()
        .last()
        .unwrap()
        .starts_with("[SCOREX] Bandwidth "));
}

#[test]
fn dry_run_writes_nothing_and_is_invalid() {
    let t = tempfile::tempdir().unwrap();
    let mut s = settings(t.path(), "", Mode::Standard);
    s.dry_run = true;
    let mut fake = Fake::default();
    let (o, texts) = suite(&s, &mut fake);
    let o = o.unwrap();
    assert!(fake.ran.is_empty() && !o.validity.run);
    assert_eq!(o.run_invalid[0], "DRY RUN MODE ACTIVATED");
    assert!(
        std::fs::read_dir(t.path()).unwrap().next().is_none(),
        "nothing on disk"
    );
    // In a dry run the result-directory sink shows result.txt's text on the console.
    let out = format!("{}{}", texts.txt, texts.summary);
    assert!(out.contains("; ERROR INVALID DRY RUN MODE ACTIVATED\n"));
    assert!(out.contains("; iogauge ior --tasks 2 --dataPacketType=timestamp "));
    assert!(
        out.contains("; iogauge find --tasks 2 ") && out.contains(" -name '*01*' -C -q 10000\n")
    );
    assert!(out.contains(
        "[SCORE ] Bandwidth 0.000000 GiB/s : IOPS 0.000000 kiops : TOTAL 0.000000 [INVALID]"
    ));
}

#[test]
fn a_refused_write_phase_stops_the_run_before_any_file() {
    let t = tempfile::tempdir().unwrap();
    let s = settings(t.path(), "", Mode::Standard);
    let mut fake = Fake {
        refuse: Some("mdtest-hard-write".into()),
        ..Fake::default()
    };
    let e = suite(&s, &mut fake).0.unwrap_err();
    assert_eq!(e, "io500: [mdtest-hard-write] already exists");
    assert!(fake.ran.is_empty());
    assert_eq!(
        std::fs::read_dir(t.path()).unwrap().count(),
        0,
        "nothing left"
    );
}

#[test]
fn md_workbench_counts_without_mdtest_and_in_a_later_cleanup() {
    // mdtest-easy-write disabled: the IO500's assumed 10 kIOPS (10 * 1 s * 1000 / 2 / 10), its
    // warning once, and 0.0 stored for a later --cleanup.
    let dir = tempfile::tempdir().unwrap();
    let s = settings(
        dir.path(),
        "[mdtest-easy-write]\nrun = FALSE\n",
        Mode::Extended,
    );
    let mut fake = Fake::default();
    let (o, t) = suite(&s, &mut fake);
    let o = o.unwrap();
    assert!(o.mdworkbench.assumed_rate);
    assert_eq!(o.mdworkbench.counts(), (500, 500));
    assert_eq!(
        t.txt
            .matches("; WARNING MDWorkbench uses the MDTest rates")
            .count(),
        1
    );
    let size = dir.path().join("res/2024.11.11-00.01.32/mdworkbench-size");
    assert_eq!(std::fs::read(&size).unwrap(), 0.0f64.to_ne_bytes());

    // A full run stores mdtest-easy-write's 9 kIOPS; --cleanup derives the delete's counts
    // from it (450), as the IO500 reads mdworkbench-size back.
    let dir = tempfile::tempdir().unwrap();
    let s = settings(dir.path(), "", Mode::Extended);
    suite(&s, &mut Fake::default()).0.unwrap();
    let cleanup = Settings {
        cleanup_only: true,
        ..s
    };
    let mut fake = Fake::default();
    let o = suite(&cleanup, &mut fake).0.unwrap();
    assert!(!o.mdworkbench.assumed_rate);
    let delete = fake.exes.iter().find(|e| e.starts_with("./md-workbench"));
    assert!(
        delete.unwrap().ends_with(" -P=450 -I=450 -3"),
        "{:?}",
        fake.exes
    );
}
