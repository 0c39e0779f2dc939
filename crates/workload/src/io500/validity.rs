//! The IO500's validity rules (reference §5.1), each with the reason text it writes after
//! `; ERROR INVALID ` in result.txt. An invalid phase still counts in the score; an invalid
//! non-optional phase makes the run invalid, an invalid optional one only the extended run.

use super::phases::Phase;

/// The required stonewall (`minwrite`): 300 s, or 30 s under the Student Cluster
/// Competition rules (`[global] scc = TRUE`).
pub fn minwrite(scc: bool) -> i64 {
    if scc {
        30
    } else {
        300
    }
}

/// `[debug] stonewall-time` must equal `minwrite`; smaller and larger values are invalid.
pub fn stonewall_setting(stonewall: i64, minwrite: i64) -> Option<String> {
    (stonewall != minwrite).then(|| format!("{STONEWALL_SETTING}{stonewall}s != {minwrite}s"))
}

// How the reasons below begin: `rule_of` tells them apart by these.
const STONEWALL_SETTING: &str = "stonewall-time ";
const BELOW_MINWRITE: &str = "Runtime is smaller than expected minimum runtime";
const BELOW_STONEWALL: &str = "Runtime of phase (";
const WRITE_SHORT: &str = "Write phase needed ";

/// Which rule a reason of this module broke, for an output that shows some differently
/// (`--quick`'s terminal leaves out the stonewall-time rule it breaks by design).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Rule {
    /// `stonewall-time` is not the required value, or a write phase was shorter than the
    /// required minimum, which a stonewall below that minimum makes certain.
    StonewallTime,
    /// A write phase ended before its stonewall: its data ran out, or it failed.
    EndedEarly,
    /// Any other rule.
    Other,
}

pub fn rule_of(reason: &str) -> Rule {
    if reason.starts_with(STONEWALL_SETTING) || reason == BELOW_MINWRITE {
        Rule::StonewallTime
    } else if reason.starts_with(BELOW_STONEWALL) || reason.starts_with(WRITE_SHORT) {
        Rule::EndedEarly
    } else {
        Rule::Other
    }
}

/// `--dry-run`: nothing is measured.
pub const DRY_RUN: &str = "DRY RUN MODE ACTIVATED";
/// `[debug] pause-dir`: pauses between phases falsify the run.
pub const PAUSING: &str = "PAUSING BETWEEN RUNS ACTIVATED";
/// `[mdtest-hard] files-per-dir` disables the stonewall of mdtest-hard-write.
pub const FILES_PER_DIR: &str = "files-per-dir is set";
/// What the IO500 warns when `files-per-dir` drops `-W` from mdtest-hard-write.
pub const FILES_PER_DIR_WARNING: &str = "stonewalling disabled in order to support -I option. \
Make sure your number of elements is big enough to meet the runtime limits!";

/// IOR counted failed transfers (`-R` verification included).
pub fn ior_errors(errors: u64) -> String {
    format!("Errors ({errors}) occured during phase in IOR. This invalidates your run.")
}

/// mdtest `-X` read verification failed. The IO500 itself does not check this (its issue #40,
/// still open); iogauge does, because a read that returns wrong data is not a valid result.
pub fn mdtest_errors(errors: u64) -> String {
    format!("Errors ({errors}) occured during phase in mdtest. This invalidates your run.")
}

/// An IOR write whose IOR time is below the stonewall ran out of data before the wall.
pub fn ior_write_short(time_s: f64, stonewall: i64, wall_s: f64) -> Option<String> {
    (time_s < stonewall as f64).then(|| {
        format!(
            "{WRITE_SHORT}{time_s:.6}s instead of stonewall {stonewall}s. Stonewall was hit at {wall_s:.1}s"
        )
    })
}

pub const FIND_FAILED: &str = "PFind returned with an error, this is invalid.";
pub const FIND_NOTHING: &str = "Find didn't find anything, this is likely invalid.";

/// The external find script exited with a non-zero status (`pclose`'s raw wait status).
pub fn find_exit(status: i32, command: &str) -> String {
    format!(
        "Exit code {status} != 0 from find command: \"{command}\"\nPossible error: {}",
        std::io::Error::from_raw_os_error(status)
    )
}

/// md-workbench counted errors (failed checks, short reads, creates it was told to ignore).
pub fn mdworkbench_errors(errors: u64) -> String {
    format!("Errors ({errors}) occured during the md-workbench phase. This invalidates your run.")
}

/// The benchmark phase must run exactly two iterations (the score is the second's).
pub fn mdworkbench_iterations(count: usize) -> String {
    format!(
        "During the md-workbench phase not two iterations are performed but {count} This \
         invalidates your run."
    )
}

/// The IO500's warning when the two benchmark iterations differ by more than 2x.
pub const MDWORKBENCH_DIFFER: &str = "The results of both md-workbench differs by 2x.";

/// The IO500's warning when md-workbench's counts come from an assumed rate.
pub const MDWORKBENCH_ASSUMED: &str = "MDWorkbench uses the MDTest rates to determine suitable \
options but MDTest didn't run, will use a low (and sane) default instead";

/// A phase that could not run to its end (an I/O error, files missing).
pub fn failed(message: &str) -> String {
    format!("Phase failed: {message}")
}

/// The checks `main.c` makes after every phase, from its wall time and score.
pub fn after_phase(
    phase: &Phase,
    runtime_s: f64,
    score: f64,
    stonewall: i64,
    minwrite: i64,
    dry_run: bool,
) -> Vec<String> {
    let mut out = Vec::new();
    if !dry_run {
        if phase.verify_stonewall && runtime_s < stonewall as f64 {
            out.push(format!(
                "{BELOW_STONEWALL}{runtime_s:.6}) is below stonewall time. This shouldn't happen!"
            ));
        } else if score == 0.0 && !phase.dummy() {
            out.push("Resulting score shouldn't be 0.0".to_string());
        }
    }
    if phase.verify_stonewall && runtime_s < minwrite as f64 {
        out.push(BELOW_MINWRITE.to_string());
    }
    out
}

/// Validity of the run and of the extended run, updated phase by phase.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Validity {
    pub run: bool,
    pub extended: bool,
}

impl Default for Validity {
    fn default() -> Self {
        Validity {
            run: true,
            extended: true,
        }
    }
}

impl Validity {
    /// A rule broken by the whole run (dry run, pause-dir, stonewall setting).
    pub fn invalidate_run(&mut self) {
        self.run = false;
        self.extended = false;
    }

    /// A phase that broke a rule: the extended run is invalid; the standard one unless the
    /// phase is optional.
    pub fn invalid_phase(&mut self, phase: &Phase) {
        self.extended = false;
        if !phase.optional() {
            self.run = false;
        }
    }

    pub fn suffix(valid: bool) -> &'static str {
        if valid {
            ""
        } else {
            " [INVALID]"
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::io500::phases::by_name;

    #[test]
    fn stonewall_must_equal_the_rule() {
        assert_eq!(stonewall_setting(300, minwrite(false)), None);
        assert_eq!(stonewall_setting(30, minwrite(true)), None);
        assert_eq!(
            stonewall_setting(5, 300).unwrap(),
            "stonewall-time 5s != 300s"
        );
        assert_eq!(
            stonewall_setting(600, 300).unwrap(),
            "stonewall-time 600s != 300s"
        );
    }

    #[test]
    fn write_phase_rules() {
        let w = by_name("ior-easy-write").unwrap();
        let r = by_name("ior-easy-read").unwrap();
        assert_eq!(
            after_phase(w, 301.0, 5.0, 300, 300, false),
            Vec::<String>::new()
        );
        let short = after_phase(w, 12.5, 5.0, 300, 300, false);
        assert_eq!(
            short,
            [
                "Runtime of phase (12.500000) is below stonewall time. This shouldn't happen!",
                "Runtime is smaller than expected minimum runtime"
            ]
        );
        // Reads have no minimum runtime, but a zero score is invalid.
        assert!(after_phase(r, 1.0, 5.0, 300, 300, false).is_empty());
        assert_eq!(
            after_phase(r, 1.0, 0.0, 300, 300, false),
            ["Resulting score shouldn't be 0.0"]
        );
        // Dry run: only the minimum-runtime check remains, as in main.c.
        assert!(after_phase(r, 0.0, 0.0, 300, 300, true).is_empty());
        assert_eq!(after_phase(w, 0.0, 0.0, 300, 300, true).len(), 1);
        let ts = by_name("timestamp").unwrap();
        assert!(
            after_phase(ts, 0.0, 0.0, 300, 300, false).is_empty(),
            "dummy"
        );
        assert_eq!(
            ior_write_short(10.25, 300, 9.96).unwrap(),
            "Write phase needed 10.250000s instead of stonewall 300s. Stonewall was hit at 10.0s"
        );
        assert_eq!(ior_write_short(301.0, 300, 300.0), None);
    }

    #[test]
    fn every_reason_names_its_rule() {
        let w = by_name("ior-easy-write").unwrap();
        let r = by_name("ior-easy-read").unwrap();
        let rules = |v: Vec<String>| v.iter().map(|s| rule_of(s)).collect::<Vec<_>>();
        assert_eq!(
            rule_of(&stonewall_setting(5, 300).unwrap()),
            Rule::StonewallTime
        );
        assert_eq!(
            rules(after_phase(w, 2.0, 1.0, 5, 300, false)),
            [Rule::EndedEarly, Rule::StonewallTime]
        );
        assert_eq!(
            rules(after_phase(w, 6.0, 1.0, 5, 300, false)),
            [Rule::StonewallTime]
        );
        assert_eq!(
            rule_of(&ior_write_short(1.5, 5, 1.4).unwrap()),
            Rule::EndedEarly
        );
        assert_eq!(
            rules(after_phase(r, 1.0, 0.0, 5, 300, false)),
            [Rule::Other]
        );
        for other in [
            ior_errors(3),
            mdtest_errors(1),
            failed("ior: no such file"),
            FIND_NOTHING.to_string(),
            DRY_RUN.to_string(),
            FILES_PER_DIR.to_string(),
            mdworkbench_errors(2),
            mdworkbench_iterations(1),
        ] {
            assert_eq!(rule_of(&other), Rule::Other, "{other}");
        }
    }

    #[test]
    fn optional_phases_only_spoil_the_extended_run() {
        let mut v = Validity::default();
        v.invalid_phase(by_name("find-easy").unwrap());
        assert_eq!((v.run, v.extended), (true, false));
        let mut w = Validity::default();
        w.invalid_phase(by_name("mdworkbench-bench").unwrap());
        assert_eq!((w.run, w.extended), (true, false));
        // md-workbench's phases have no minimum runtime; a zero score is invalid.
        let bench = by_name("mdworkbench-bench").unwrap();
        assert!(after_phase(bench, 0.5, 3.0, 300, 300, false).is_empty());
        assert_eq!(after_phase(bench, 0.5, 0.0, 300, 300, false).len(), 1);
        v.invalid_phase(by_name("find").unwrap());
        assert!(!v.run);
        assert_eq!(Validity::suffix(false), " [INVALID]");
    }
}
