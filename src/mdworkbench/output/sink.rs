//! md-workbench's output as a sink of the run's events. Used alike by
//! `iogauge md-workbench` and the IO500's mdworkbench phases.

use std::io::Write;

use results::mdworkbench::PhaseOutcome;
use results::sink::{Event, Notice, Sink};

use super::MdWorkbenchPrinter;

/// The md-workbench report. Output errors (a closed pipe) never stop the benchmark.
pub struct MdWorkbenchOutput {
    pub printer: MdWorkbenchPrinter<Box<dyn Write + Send>>,
}

impl Sink for MdWorkbenchOutput {
    fn event(&mut self, e: &Event<'_>) {
        let p = &mut self.printer;
        let _ = match e {
            Event::RunStart(doc) => p.start(&doc.warnings),
            Event::PhaseEnd(end) => match end.detail.get::<PhaseOutcome>() {
                Some(o) => p.phase(o),
                None => Ok(()),
            },
            Event::Notice(Notice::Warning(w)) => p.warning(w),
            Event::RunEnd(end) => p.finish(end.run.verification_errors),
            _ => Ok(()),
        };
    }
}
