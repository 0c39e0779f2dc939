//! The store as a sink: the run is stored when it starts, after every phase and at its end,
//! then one line on stdout says where (`stored as run 42: iogauge report 42`). A store that
//! fails once the run is going must not cost the benchmark: one warning on stderr, and the
//! run goes on (later events try again, so a passing problem still ends in a stored run).

use std::io::Write;

use crate::error::StoreError;
use crate::label::Label;
use crate::run::{RunId, Source};
use crate::store::Store;
use results::sink::{Event, Sink};
use results::RunResult;

pub struct StoreSink {
    store: Store,
    labels: Vec<Label>,
    id: Option<RunId>,
    warned: bool,
    out: Box<dyn Write + Send>,
}

impl StoreSink {
    /// `store` is opened by the command before the run (a bad path is bad input); `labels`
    /// go with the run. The closing line goes to stdout.
    pub fn new(store: Store, labels: Vec<Label>) -> StoreSink {
        Self::with_output(store, labels, Box::new(std::io::stdout()))
    }

    /// As [`StoreSink::new`], the closing line going to `out`.
    pub fn with_output(store: Store, labels: Vec<Label>, out: Box<dyn Write + Send>) -> StoreSink {
        StoreSink {
            store,
            labels,
            id: None,
            warned: false,
            out,
        }
    }

    /// The run's id once it is stored.
    pub fn id(&self) -> Option<RunId> {
        self.id
    }

    /// Stores `doc`, creating the run the first time; false after a failure.
    fn keep(&mut self, doc: &RunResult, end: bool) -> bool {
        match self.write(doc, end) {
            Ok(()) => true,
            Err(e) => {
                if !std::mem::replace(&mut self.warned, true) {
                    eprintln!(
                        "iogauge: warning: cannot store the run in {}: {e}; the benchmark goes on",
                        self.store.path().display()
                    );
                }
                false
            }
        }
    }

    /// The final document, then the line that names the stored run.
    fn end(&mut self, doc: &RunResult) {
        if let (true, Some(id)) = (self.keep(doc, true), self.id) {
            let _ = writeln!(self.out, "stored as run {id}: iogauge report {id}")
                .and_then(|()| self.out.flush());
        }
    }

    fn write(&mut self, doc: &RunResult, end: bool) -> Result<(), StoreError> {
        let id = match self.id {
            Some(id) => id,
            None => {
                let id = self.store.start(doc, Source::Run, &self.labels)?;
                self.id = Some(id);
                if !end {
                    return Ok(());
                }
                id
            }
        };
        if end {
            self.store.finish(id, doc)
        } else {
            self.store.save(id, doc)
        }
    }
}

impl Sink for StoreSink {
    fn event(&mut self, event: &Event<'_>) {
        match event {
            Event::RunStart(doc) => {
                self.keep(doc, false);
            }
            Event::PhaseEnd(p) => {
                self.keep(p.run, false);
            }
            Event::RunEnd(r) => self.end(r.run),
            _ => {}
        }
    }
}
