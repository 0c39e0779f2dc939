//! Which sinks a run gets besides its workload's own formats: the progress line on a terminal
//! (first, so it is cleared before anything else prints), the result document (`--json`, the
//! IO500's result.json), the event log (`--events`), the live metrics (`--metrics`,
//! `--influx`), the summary of warnings and rank spread, and the result store (last, so its
//! closing line is the run's last). A new output is one new file in `sinks/` and one line here.
//! Only the process that reports (thread ranks, or MPI rank 0) gets any, but for the push of
//! live figures to rank 0's metrics endpoint (`monitoring.rs`).

mod event_log;
mod progress;
mod summary;
mod system_summary;

use std::io::IsTerminal;
use std::path::PathBuf;

use results::{Fanout, JsonFiles, Sink};

use crate::world::Global;

/// The run's fan-out: `own` (the workload's terminal and file formats) first, then the common
/// sinks; `json` are the paths the result document is kept at.
pub fn choose(own: Vec<Box<dyn Sink>>, json: Vec<PathBuf>, global: &Global) -> Fanout {
    if !crate::world::is_root() {
        // Other MPI processes push their live figures to rank 0's endpoint, if any.
        return Fanout::new(crate::monitoring::follower_sink().into_iter().collect());
    }
    let mut sinks: Vec<Box<dyn Sink>> = Vec::new();
    if !global.quiet && std::io::stderr().is_terminal() {
        sinks.push(Box::new(progress::Progress::stderr()));
    } else if !global.quiet
        && crate::world::is_mpi()
        && std::io::stdout().is_terminal()
        && launcher_on_terminal()
    {
        // mpirun gives rank 0 a pseudo-terminal on standard output only, also when its own
        // output goes to a file: draw only where mpirun's own standard output is a terminal.
        sinks.push(Box::new(progress::Progress::stdout()));
    }
    sinks.extend(own);
    let json: Vec<PathBuf> = json
        .into_iter()
        .chain(global.json.iter().cloned())
        .collect();
    if !json.is_empty() {
        sinks.push(Box::new(JsonFiles::new(json)));
    }
    if let Some(path) = &global.events {
        sinks.push(Box::new(event_log::EventLog::new(path)));
    }
    sinks.extend(global.monitoring.sink());
    sinks.push(Box::new(summary::Summary {
        quiet: global.quiet,
    }));
    sinks.extend(global.storing.sink());
    Fanout::new(sinks)
}

/// Whether the process that started this one (mpirun, or its daemon on another node) writes
/// its standard output to a terminal: its descriptor 1 links to `/dev/pts/N` or `/dev/ttyN`.
/// Unknown (another user's process, no `/proc`) counts as no.
fn launcher_on_terminal() -> bool {
    // SAFETY: getppid cannot fail.
    let parent = unsafe { libc::getppid() };
    std::fs::read_link(format!("/proc/{parent}/fd/1"))
        .is_ok_and(|l| l.starts_with("/dev/pts/") || l.starts_with("/dev/tty"))
}
