//! The IO500's result files and console as a sink: result.txt, result_summary.txt (also on
//! the console, as the IO500's `dupprintf`), and the `ERROR INVALID` / `WARNING` lines. In a
//! dry run nothing is written to disk: result.txt's text goes to the console and the summary
//! follows it at the end. In `--cleanup` mode the earlier run's files stay as they are. A
//! `--quick` run writes the same files and shows its own console view ([`QuickConsole`]).

use std::fs::{File, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};

use results::sink::{Event, Io500Text, Notice, Sink};
use workload::io500::format::{invalid_comment, invalid_console, warning_comment, warning_console};

use super::quick::console::QuickConsole;

pub struct ResultDir {
    /// `$R` when the run writes result files (not a dry run, not `--cleanup`).
    dir: Option<PathBuf>,
    dry: bool,
    txt: Option<File>,
    summary: Option<File>,
    held_summary: String,
    /// The console of a `--quick` run; None: the IO500's.
    quick: Option<QuickConsole>,
}

impl ResultDir {
    pub fn new(dir: Option<&Path>, dry: bool, quick: Option<QuickConsole>) -> ResultDir {
        ResultDir {
            dir: dir.map(Path::to_path_buf),
            dry,
            txt: None,
            summary: None,
            held_summary: String::new(),
            quick,
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
        if s.is_empty() {
            return;
        }
        let mut out = std::io::stdout();
        let _ = out.write_all(s.as_bytes()).and_then(|_| out.flush());
    }

    fn write(file: &mut Option<File>, s: &str) {
        if let Some(f) = file {
            let _ = f.write_all(s.as_bytes());
        }
    }

    fn text(&mut self, t: &Io500Text<'_>) {
        // The files, as the IO500 writes them.
        let txt = match t {
            Io500Text::Result(s) => s.to_string(),
            Io500Text::Summary(s) => {
                Self::write(&mut self.summary, s);
                String::new()
            }
            Io500Text::Invalid { reason, .. } => invalid_comment(reason),
            Io500Text::Warning(text) => warning_comment(text),
        };
        Self::write(&mut self.txt, &txt);
        // The console.
        let shown = match &mut self.quick {
            Some(q) => q.show(t),
            // A dry run shows result.txt's text, and the summary at the end.
            None if self.dry => match t {
                Io500Text::Summary(s) => {
                    self.held_summary.push_str(s);
                    String::new()
                }
                _ => txt,
            },
            None => match t {
                Io500Text::Result(_) => String::new(),
                Io500Text::Summary(s) => s.to_string(),
                Io500Text::Invalid { context, reason } => invalid_console(context, reason),
                Io500Text::Warning(text) => warning_console(text),
            },
        };
        Self::console(&shown);
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
