//! The IO500's result files and console as a sink: result.txt, result_summary.txt (also on
//! the console, as the IO500's `dupprintf`), and the `ERROR INVALID` / `WARNING` lines. In a
//! dry run nothing is written to disk: result.txt's text goes to the console and the summary
//! follows it at the end. In `--cleanup` mode the earlier run's files stay as they are.

use std::fs::{File, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};

use results::sink::{Event, Io500Text, Notice, Sink};
use workload::io500::format::{invalid_comment, warning_comment};

pub struct ResultDir {
    /// `$R` when the run writes result files (not a dry run, not `--cleanup`).
    dir: Option<PathBuf>,
    dry: bool,
    txt: Option<File>,
    summary: Option<File>,
    held_summary: String,
}

impl ResultDir {
    pub fn new(dir: Option<&Path>, dry: bool) -> ResultDir {
        ResultDir {
            dir: dir.map(Path::to_path_buf),
            dry,
            txt: None,
            summary: None,
            held_summary: String::new(),
        }
    }

    /// The run created the files before it started (so an unwritable directory is bad input).
    fn open(&mut self) {
        let Some(dir) = &self.dir else { return };
        let open = |name: &str| {
            let path = dir.join(name);
            match OpenOptions::new().append(true).open(&path) {
                Ok(f) => Some(f),
                Err(e) => {
                    eprintln!(
                        "iogauge io500: warning: cannot write {}: {e}",
                        path.display()
                    );
                    None
                }
            }
        };
        self.txt = open("result.txt");
        self.summary = open("result_summary.txt");
    }

    fn console(s: &str) {
        let mut out = std::io::stdout();
        let _ = out.write_all(s.as_bytes()).and_then(|_| out.flush());
    }

    fn txt(&mut self, s: &str) {
        match &mut self.txt {
            Some(f) => drop(f.write_all(s.as_bytes())),
            None if self.dry => Self::console(s),
            None => {}
        }
    }

    fn summary(&mut self, s: &str) {
        if let Some(f) = &mut self.summary {
            let _ = f.write_all(s.as_bytes());
        }
        if self.dry {
            self.held_summary.push_str(s);
        } else {
            Self::console(s);
        }
    }

    fn text(&mut self, t: &Io500Text<'_>) {
        match t {
            Io500Text::Result(s) => self.txt(s),
            Io500Text::Summary(s) => self.summary(s),
            Io500Text::Invalid { context, reason } => {
                self.txt(&invalid_comment(reason));
                if !self.dry {
                    Self::console(&format!("ERROR INVALID ({context}) {reason}\n"));
                }
            }
            Io500Text::Warning(text) => {
                self.txt(&warning_comment(text));
                if !self.dry {
                    Self::console(&format!("WARNING {text}\n"));
                }
            }
        }
    }
}

impl Sink for ResultDir {
    fn event(&mut self, e: &Event<'_>) {
        match e {
            Event::RunStart(_) => self.open(),
            Event::Notice(Notice::Io500(t)) => self.text(t),
            Event::RunEnd(_) if self.dry => {
                let held = std::mem::take(&mut self.held_summary);
                Self::console(&format!("\n{held}"));
            }
            _ => {}
        }
    }
}
