//! `iogauge mark TEXT [--run ID]`: finds the run in progress through its control socket, sends
//! the mark and prints it as the run stored it.

use std::io::{BufRead, BufReader, ErrorKind, Write};
use std::os::unix::fs::FileTypeExt;
use std::os::unix::net::UnixStream;
use std::path::{Path, PathBuf};
use std::time::Duration;

use super::dir;
use super::proto::{self, Reply, Request};

/// How long the client waits for the run's answer: the hub's lock may be held while a phase
/// ends and its sinks write.
const REPLY_TIMEOUT: Duration = Duration::from_secs(30);

/// Which run `--run` names.
#[derive(Debug, PartialEq)]
pub enum Wanted {
    Pid(u32),
    RunId(String, u32),
}

impl Wanted {
    pub fn parse(id: &str) -> Result<Wanted, String> {
        match dir::run_pid(id) {
            Some(pid) if id.bytes().all(|b| b.is_ascii_digit()) => Ok(Wanted::Pid(pid)),
            Some(pid) => Ok(Wanted::RunId(id.to_string(), pid)),
            None => Err(format!(
                "--run {id}: give a process id (1234) or a run id ending in one \
                 (ior-20260101T120000Z-1234)"
            )),
        }
    }

    fn pid(&self) -> u32 {
        match self {
            Wanted::Pid(p) | Wanted::RunId(_, p) => *p,
        }
    }
}

/// A run whose socket answered.
struct Live {
    pid: u32,
    path: PathBuf,
}

/// `iogauge mark`; returns the exit status.
pub fn main(text: &str, run: Option<&str>) -> u8 {
    let fail = |code: u8, message: String| {
        eprintln!("iogauge mark: {message}");
        code
    };
    if let Err(e) = proto::check_text(text) {
        return fail(2, e);
    }
    let wanted = match run.map(Wanted::parse).transpose() {
        Ok(w) => w,
        Err(e) => return fail(2, e),
    };
    let dir = dir::base();
    let live = match live_runs(&dir) {
        Ok(l) => l,
        Err(e) => return fail(1, e),
    };
    let chosen = match choose(&live, wanted.as_ref()) {
        Ok(c) => c,
        Err((code, message)) => return fail(code, message),
    };
    let request = Request {
        mark: Some(text.to_string()),
        ..Request::default()
    };
    match ask(&chosen.path, &request) {
        Ok(r) if r.ok => {
            crate::outln!("iogauge: {}", stored_line(&r));
            0
        }
        Ok(r) => fail(
            1,
            format!(
                "run {} refused the mark: {}",
                chosen.pid,
                r.error.unwrap_or_default()
            ),
        ),
        Err(e) => fail(1, format!("run {}: {e}", chosen.pid)),
    }
}

/// `mark "TEXT" at 12.3 s of run ID (phase 2, 4.1 s in)`; phases count from 1 here.
pub fn stored_line(r: &Reply) -> String {
    let at = match (r.phase, r.phase_t_s) {
        (Some(p), Some(t)) => format!("phase {}, {t:.1} s in", p + 1),
        _ => "between phases".to_string(),
    };
    format!(
        "mark \"{}\" at {:.1} s of run {} ({at})",
        r.text.as_deref().unwrap_or_default(),
        r.elapsed_s.unwrap_or_default(),
        r.run_id.as_deref().unwrap_or("?"),
    )
}

/// The runs in progress that have a socket in `dir`. A socket whose process is gone, or that
/// nobody listens on (the pid was reused), is stale and removed.
fn live_runs(dir: &Path) -> Result<Vec<Live>, String> {
    if std::fs::symlink_metadata(dir).is_err() {
        return Ok(Vec::new());
    }
    // A directory another user could have made is not trusted with the text.
    dir::check(dir)?;
    let entries = std::fs::read_dir(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let proc_mounted = Path::new("/proc/self").exists();
    let mut live = Vec::new();
    for entry in entries.flatten() {
        let name = entry.file_name();
        let Some(pid) = name.to_str().and_then(dir::socket_pid) else {
            continue;
        };
        let path = entry.path();
        if proc_mounted && !Path::new("/proc").join(pid.to_string()).exists() {
            remove_stale(&path);
            continue;
        }
        match UnixStream::connect(&path) {
            Ok(_) => live.push(Live { pid, path }),
            Err(e) if e.kind() == ErrorKind::ConnectionRefused => remove_stale(&path),
            // Gone meanwhile, or not ours to judge.
            Err(_) => {}
        }
    }
    live.sort_by_key(|l| l.pid);
    Ok(live)
}

/// Removes a socket file (only a socket: the directory is ours, its other files are not).
fn remove_stale(path: &Path) {
    if std::fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_socket()) {
        let _ = std::fs::remove_file(path);
    }
}

/// The run to mark: the one named, else the only one. Err: the exit status and the message.
fn choose<'a>(live: &'a [Live], wanted: Option<&Wanted>) -> Result<&'a Live, (u8, String)> {
    if live.is_empty() {
        return Err((1, no_run()));
    }
    let Some(w) = wanted else {
        if let [one] = live {
            return Ok(one);
        }
        let list: Vec<String> = live.iter().map(describe).collect();
        return Err((
            2,
            format!(
                "{} runs are in progress; name one with --run PID or --run RUN_ID: {}",
                live.len(),
                list.join("; ")
            ),
        ));
    };
    let in_progress = || {
        let list: Vec<String> = live.iter().map(describe).collect();
        format!("in progress: {}", list.join("; "))
    };
    let Some(found) = live.iter().find(|l| l.pid == w.pid()) else {
        return Err((
            1,
            format!(
                "no run in progress with pid {} ({})",
                w.pid(),
                in_progress()
            ),
        ));
    };
    if let Wanted::RunId(id, _) = w {
        let theirs = who(found).and_then(|r| r.run_id);
        if theirs.as_deref() != Some(id.as_str()) {
            return Err((
                1,
                format!("run {id} is not in progress ({})", in_progress()),
            ));
        }
    }
    Ok(found)
}

/// `1234 (ior-...-1234, ior)`, or the pid alone when the run does not say.
fn describe(l: &Live) -> String {
    match who(l) {
        Some(Reply {
            run_id: Some(id),
            workload: Some(w),
            ..
        }) => format!("pid {} (run {id}, {w})", l.pid),
        _ => format!("pid {}", l.pid),
    }
}

fn who(l: &Live) -> Option<Reply> {
    let r = ask(
        &l.path,
        &Request {
            who: true,
            ..Request::default()
        },
    );
    r.ok().filter(|r| r.ok)
}

/// No socket answered: say where we looked, for whom, and the MPI caveat.
fn no_run() -> String {
    format!(
        "no iogauge run in progress for uid {} (no live control socket in {}); a run listens \
         on the host of its rank 0, so under MPI run `iogauge mark` there",
        dir::euid(),
        dir::base().display()
    )
}

/// One request, one reply.
fn ask(path: &Path, request: &Request) -> Result<Reply, String> {
    let stream = UnixStream::connect(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let _ = stream.set_read_timeout(Some(REPLY_TIMEOUT));
    let mut line = serde_json::to_string(request).map_err(|e| e.to_string())?;
    line.push('\n');
    (&stream)
        .write_all(line.as_bytes())
        .map_err(|e| format!("cannot send the request: {e}"))?;
    let mut answer = String::new();
    BufReader::new(&stream)
        .read_line(&mut answer)
        .map_err(|e| format!("no answer: {e}"))?;
    if answer.is_empty() {
        return Err("the run closed the connection without an answer".into());
    }
    serde_json::from_str(&answer).map_err(|e| format!("a reply that does not parse ({e})"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn run_is_a_pid_or_a_run_id() {
        assert_eq!(Wanted::parse("42"), Ok(Wanted::Pid(42)));
        assert_eq!(
            Wanted::parse("ior-20260101T120000Z-42"),
            Ok(Wanted::RunId("ior-20260101T120000Z-42".into(), 42))
        );
        assert!(Wanted::parse("ior").unwrap_err().contains("--run ior"));
    }

    #[test]
    fn the_stored_line_counts_phases_from_one() {
        let r = Reply {
            ok: true,
            run_id: Some("ior-x-1".into()),
            text: Some("pulled".into()),
            elapsed_s: Some(12.34),
            phase: Some(1),
            phase_t_s: Some(4.06),
            ..Reply::default()
        };
        assert_eq!(
            stored_line(&r),
            "mark \"pulled\" at 12.3 s of run ior-x-1 (phase 2, 4.1 s in)"
        );
        let between = Reply {
            phase: None,
            phase_t_s: None,
            ..r
        };
        assert!(stored_line(&between).ends_with("(between phases)"));
    }
}
