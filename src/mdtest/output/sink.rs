//! mdtest's outputs as sinks of the run's events: the report (header, stonewall line, SUMMARY
//! tables) and the rows of the per-rank CSV (`--saveRankPerformanceDetails`), whose header the
//! command writes while it checks the options, as mdtest does. Used alike by `iogauge mdtest`
//! and the IO500's mdtest phases.

use std::io::Write;
use std::path::PathBuf;

use results::mdtest::{Begin, StonewallOutcome};
use results::sink::{Event, Notice, Sink};
use workload::mdtest::PhaseOutcome;

use super::{csv, MdtestPrinter};

/// The mdtest report. Output errors (a closed pipe) never stop the benchmark.
pub struct MdtestOutput {
    pub printer: MdtestPrinter<Box<dyn Write + Send>>,
    outcomes: Vec<PhaseOutcome>,
}

impl MdtestOutput {
    pub fn new(printer: MdtestPrinter<Box<dyn Write + Send>>) -> Self {
        MdtestOutput {
            printer,
            outcomes: Vec::new(),
        }
    }
}

impl Sink for MdtestOutput {
    fn event(&mut self, e: &Event<'_>) {
        let p = &mut self.printer;
        let _ = match e {
            Event::RunStart(doc) => p.start(&doc.warnings),
            Event::PhaseEnd(end) => match end.detail.get::<PhaseOutcome>() {
                Some(o) => {
                    self.outcomes.push(o.clone());
                    p.phase(o)
                }
                None => Ok(()),
            },
            Event::Notice(n) => match n {
                Notice::Warning(w) => p.warning(w),
                Notice::Alert(a) => p.warning(&a.message),
                n => {
                    if let Some(b) = n.get::<Begin>() {
                        p.begin(b.random_seed, b.items_from_status)
                    } else if let Some(s) = n.get::<StonewallOutcome>() {
                        p.stonewall(s)
                    } else {
                        Ok(())
                    }
                }
            },
            Event::RunEnd(end) => p.finish(&self.outcomes, end.run.verification_errors),
            Event::PhaseStart(_) | Event::Interval(_) => Ok(()),
        };
    }
}

/// The per-rank CSV rows, appended when the run ends: the aggregate row with the items per task
/// the run ended with (a stonewall or a status file may have changed them), then every rank.
pub struct MdtestRankCsv {
    pub path: PathBuf,
    pub tasks: usize,
    pub iterations: u32,
    /// Items per task, as configured until the run says otherwise.
    pub items: u64,
    outcomes: Vec<PhaseOutcome>,
}

impl MdtestRankCsv {
    pub fn new(path: PathBuf, tasks: usize, iterations: u32, items: u64) -> Self {
        MdtestRankCsv {
            path,
            tasks,
            iterations,
            items,
            outcomes: Vec::new(),
        }
    }
}

impl Sink for MdtestRankCsv {
    fn event(&mut self, e: &Event<'_>) {
        match e {
            Event::Notice(n) => {
                if let Some(items) = n.get::<Begin>().and_then(|b| b.items_from_status) {
                    self.items = items;
                }
            }
            Event::PhaseEnd(end) => {
                if let Some(o) = end.detail.get::<PhaseOutcome>() {
                    if let Some(s) = o.stonewall {
                        self.items = s.items_max;
                    }
                    self.outcomes.push(o.clone());
                }
            }
            Event::RunEnd(_) => {
                let rows = csv::rows(&self.outcomes, self.iterations, self.tasks, self.items);
                if let Err(err) = csv::append_rows(&self.path, &rows) {
                    eprintln!(
                        "iogauge: warning: cannot write {}: {err}",
                        self.path.display()
                    );
                }
            }
            _ => {}
        }
    }
}
