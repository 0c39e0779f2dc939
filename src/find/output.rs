//! find's outputs as sinks of the run's events: pfind's result lines (last: `MATCHED
//! <found>/<examined>`), and the IO500's `find.csv` in pfind's per-rank columns.

use std::io::Write;
use std::path::PathBuf;

use results::sink::{Event, Notice, Sink};
use workload::find::{Counts, FindOutcome};

/// pfind's `[DONE]` line (with `-P` one line per rank before it), iogauge's counts, runtime and
/// rate, and the `MATCHED` line last.
pub fn result_text(o: &FindOutcome, per_rank: bool) -> String {
    let line = |label: &str, c: &Counts| {
        format!(
            "[{label}] found: {} (scanned {} files, scanned dirents: {}, unknown dirents: {})",
            c.found, c.examined, c.dirents, c.unknown
        )
    };
    let mut s = String::new();
    if per_rank {
        for (r, rc) in o.ranks.iter().enumerate() {
            let c = &rc.counts;
            s += &format!(
                "{} directories: {} lstat: {} stole: {} in {} tries runtime: {:.6} s\n",
                line(&r.to_string(), c),
                c.dirs,
                c.stats,
                c.stolen,
                c.steal_tries,
                rc.runtime_s()
            );
        }
    }
    let t = &o.total;
    s += &format!(
        "{}\nranks: {}  directories: {}  lstat calls: {}  directories stolen: {}  errors: {}\n\
         runtime: {:.6} s (slowest rank)  rate: {:.3} kIOPS (examined entries / runtime)\n\
         MATCHED {}/{}\n",
        line("DONE", t),
        o.ranks.len(),
        t.dirs,
        t.stats,
        t.stolen,
        t.unreadable_dirs + t.stat_errors,
        o.runtime_s(),
        o.rate() / 1000.0,
        t.found,
        t.examined
    );
    s
}

/// The result lines, written when the run ends; warnings go to stderr as they come when
/// `warn` is set (the terminal), and nowhere otherwise (the IO500's phase file).
pub struct FindOutput {
    pub out: Box<dyn Write + Send>,
    pub per_rank: bool,
    pub warn: bool,
    outcome: Option<FindOutcome>,
}

impl FindOutput {
    pub fn new(out: Box<dyn Write + Send>, per_rank: bool, warn: bool) -> Self {
        FindOutput {
            out,
            per_rank,
            warn,
            outcome: None,
        }
    }
}

impl Sink for FindOutput {
    fn event(&mut self, e: &Event<'_>) {
        match e {
            Event::PhaseEnd(end) => {
                if let Some(o) = end.detail.get::<FindOutcome>() {
                    self.outcome = Some(o.clone());
                }
            }
            Event::Notice(Notice::Warning(w)) if self.warn => {
                eprintln!("iogauge find: warning: {w}");
            }
            Event::Notice(Notice::Alert(a)) if self.warn => {
                eprintln!("iogauge find: warning: {}", a.message);
            }
            Event::RunEnd(_) => {
                if let Some(o) = &self.outcome {
                    // A closed pipe must not fail the run.
                    let text = result_text(o, self.per_rank);
                    let _ = self
                        .out
                        .write_all(text.as_bytes())
                        .and_then(|_| self.out.flush());
                }
            }
            _ => {}
        }
    }
}

/// The IO500's `find.csv`: the runtime and rate, then one row per rank in pfind's columns.
/// Thread ranks steal without messages or tokens, so those columns are 0.
pub fn pfind_csv(o: &FindOutcome) -> String {
    let mut s = format!("runtime: {:.6} rate: {:.6}\n", o.runtime_s(), o.rate());
    s.push_str(
        "rank, errors, unknown, found, total, checked, job steal msgs received, work items send, \
         job steal msgs send, work items stolen, time spend in job stealing in s, number of \
         completion tokens send\n",
    );
    for (r, rc) in o.ranks.iter().enumerate() {
        let c = &rc.counts;
        s.push_str(&format!(
            "{r}, {}, {}, {}, {}, {}, 0, 0, {}, {}, 0.000s, 0\n",
            c.unreadable_dirs + c.stat_errors,
            c.unknown,
            c.found,
            c.examined,
            c.dirents,
            c.steal_tries,
            c.stolen
        ));
    }
    s
}

/// `find.csv` of an IO500 find phase, written when the phase ends.
pub struct FindCsv {
    pub path: PathBuf,
}

impl Sink for FindCsv {
    fn event(&mut self, e: &Event<'_>) {
        if let Event::PhaseEnd(end) = e {
            if let Some(o) = end.detail.get::<FindOutcome>() {
                if let Err(err) = std::fs::write(&self.path, pfind_csv(o)) {
                    eprintln!(
                        "iogauge: warning: cannot write {}: {err}",
                        self.path.display()
                    );
                }
            }
        }
    }
}
