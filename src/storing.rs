//! Where runs are stored: the global options `--db`, `--no-store` and `--label`, and the store
//! a benchmark command opens before its run (a bad `--db` is bad input, exit 2, before any
//! I/O) and hands to its fan-out as the last sink.

use std::io::Write;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};

use results::Sink;
use store::{Label, Store, StoreSink};

use crate::global_opts::GlobalOpts;

#[derive(Default)]
pub struct Storing {
    /// `--db PATH`; `None`: the default file in the user's data directory.
    db: Option<PathBuf>,
    /// `--no-store`.
    off: bool,
    /// `--label KEY=VALUE`: stored with a run, or a filter for `runs` and `scaling`.
    pub labels: Vec<Label>,
    /// The store a benchmark opened before its run, until its fan-out takes it.
    opened: Mutex<Option<Store>>,
    /// The sink's closing line (`stored as run 42: ...`), printed after the command's own
    /// last lines.
    closing: Deferred,
}

impl std::fmt::Debug for Storing {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Storing")
            .field("db", &self.db)
            .field("off", &self.off)
            .field("labels", &self.labels)
            .finish_non_exhaustive()
    }
}

/// Output kept until [`Storing::print_closing`].
#[derive(Debug, Default, Clone)]
struct Deferred(Arc<Mutex<Vec<u8>>>);

impl Write for Deferred {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .extend_from_slice(buf);
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

impl Storing {
    /// The store settings of the global options; Err names a malformed label.
    pub fn from_opts(o: &GlobalOpts) -> Result<Storing, String> {
        let labels = o
            .labels
            .iter()
            .map(|l| Label::parse(l).map_err(|e| format!("--label: {e}")))
            .collect::<Result<_, _>>()?;
        Ok(Storing {
            db: o.db.clone(),
            off: o.no_store,
            labels,
            ..Storing::default()
        })
    }

    /// `--no-store` was given.
    pub fn is_off(&self) -> bool {
        self.off
    }

    /// The store file: `--db`, else the default.
    pub fn path(&self) -> Result<PathBuf, String> {
        self.db.clone().or_else(store::default_path).ok_or_else(|| {
            "no place for the result store: neither XDG_DATA_HOME nor HOME is an absolute \
             path; give --db PATH or --no-store"
                .to_string()
        })
    }

    /// Opens the store (query commands, import).
    pub fn open(&self) -> Result<Store, String> {
        let path = self.path()?;
        Store::open(&path).map_err(|e| {
            // The store's error names the file already.
            format!("{e} (--db PATH chooses another file, --no-store runs without it)")
        })
    }

    /// Before a benchmark's run, on the reporting process: opens the store for the run's sink
    /// unless `--no-store`.
    pub fn prepare(&self) -> Result<(), String> {
        if !self.off {
            let store = self.open()?;
            *self.opened.lock().unwrap_or_else(|e| e.into_inner()) = Some(store);
        }
        Ok(())
    }

    /// The sink that stores the run, once: `None` with `--no-store` or when the command did
    /// not prepare the store.
    pub fn sink(&self) -> Option<Box<dyn Sink>> {
        let store = self
            .opened
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .take()?;
        let out = Box::new(self.closing.clone());
        Some(Box::new(StoreSink::with_output(
            store,
            self.labels.clone(),
            out,
        )))
    }

    /// Prints where the run was stored, if it was: the last line of a benchmark command. On
    /// standard error, after everything on standard output, so that output piped into a
    /// program (IOR's JSON and CSV, find's listing) stays as the tool writes it.
    pub fn print_closing(&self) {
        let text = std::mem::take(&mut *self.closing.0.lock().unwrap_or_else(|e| e.into_inner()));
        if !text.is_empty() {
            let _ = std::io::stdout().flush();
            let mut err = std::io::stderr().lock();
            let _ = err.write_all(&text);
            let _ = err.flush();
        }
    }
}
