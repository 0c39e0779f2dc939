//! IOR's outputs as sinks of the run's events: the report in the format `-O summaryFormat`
//! chose, and the per-rank CSV of `-O saveRankPerformanceDetailsCSV`. Used alike by
//! `iogauge ior` and the IO500's IOR phases.

use std::io::Write;
use std::path::PathBuf;

use results::ior::{CheckOutcome, PhaseOutcome, Removed, Repetition};
use results::sink::{Event, Notice, Sink};

use super::csv::{append_rank_csv, write_rank_csv};
use super::IorPrinter;

/// The IOR report. Output errors (a closed pipe) never stop the benchmark: the JSON document
/// keeps the data.
pub struct IorOutput {
    pub printer: IorPrinter<Box<dyn Write + Send>>,
}

impl Sink for IorOutput {
    fn event(&mut self, e: &Event<'_>) {
        let p = &mut self.printer;
        let _ = match e {
            Event::RunStart(doc) => p
                .start()
                .and_then(|_| doc.warnings.iter().try_for_each(|w| p.warning(w))),
            Event::PhaseEnd(end) => match end.detail.get::<PhaseOutcome>() {
                Some(o) => p.phase(o),
                None => Ok(()),
            },
            Event::Notice(n) => match n {
                Notice::Warning(w) => p.warning(w),
                Notice::Alert(a) => p.warning(&a.message),
                n => {
                    if let Some(r) = n.get::<Repetition>() {
                        p.repetition_start(r.iteration)
                    } else if let Some(c) = n.get::<CheckOutcome>() {
                        p.check(c)
                    } else if let Some(r) = n.get::<Removed>() {
                        p.remove(r.iteration, r.time_s)
                    } else {
                        Ok(())
                    }
                }
            },
            Event::RunEnd(_) => p.finish(&super::ctime_now()),
            Event::PhaseStart(_) | Event::Interval(_) => Ok(()),
        };
    }
}

/// The per-rank CSV: IOR truncates it and writes its header when it parses the option, then
/// appends every phase's rows, so finished phases stay on disk if a later one fails.
pub struct IorRankCsv {
    pub path: PathBuf,
    pub tasks: usize,
}

impl IorRankCsv {
    fn warn(&self, e: std::io::Error) {
        eprintln!(
            "iogauge: warning: cannot write {}: {e}",
            self.path.display()
        );
    }
}

impl Sink for IorRankCsv {
    fn event(&mut self, e: &Event<'_>) {
        let written = match e {
            Event::RunStart(_) => write_rank_csv(&self.path, &[], self.tasks),
            Event::PhaseEnd(end) => match end.detail.get::<PhaseOutcome>() {
                Some(o) => append_rank_csv(&self.path, std::slice::from_ref(o), self.tasks),
                None => Ok(()),
            },
            _ => Ok(()),
        };
        if let Err(err) = written {
            self.warn(err);
        }
    }
}
