//! The live progress line on a terminal (`docs/warnings.md`): one line on standard error
//! (under mpirun on standard output, the stream it gives a terminal), redrawn at every live
//! sample (the session's sampler thread reads the ranks' counters; the I/O path does nothing
//! for it), and cleared before any other event, so the tool's own lines (on the same
//! terminal) never print into it. First in the fan-out for that reason.
//!
//! Under MPI the samples hold only rank 0's process's ranks: the line says so.

use std::io::Write;
use std::time::Instant;

use results::sink::{Event, Expect, IntervalSample, PhaseStart, Sink};

const MIB: f64 = 1_048_576.0;
/// Erase the line and go back to its start.
const CLEAR: &str = "\r\x1b[2K";

pub struct Progress {
    out: Box<dyn Write + Send>,
    width: fn() -> usize,
    phase: Option<Current>,
    drawn: bool,
}

/// The phase on the line.
struct Current {
    label: String,
    ranks: usize,
    expect: Expect,
    started: Instant,
    /// The previous sample and the seconds into the phase it was taken.
    last: Option<(f64, IntervalSample)>,
}

/// Rates since the previous sample, per second; `busy` is accelerator-seconds per second.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
struct Rates {
    bytes: f64,
    ops: f64,
    samples: f64,
    busy: f64,
}

impl Progress {
    /// On standard error, as wide as the terminal.
    pub fn stderr() -> Progress {
        Progress::new(Box::new(std::io::stderr()), || {
            width_of(libc::STDERR_FILENO)
        })
    }

    /// On standard output: under mpirun, which gives rank 0 a terminal for standard output
    /// only (standard error is a pipe).
    pub fn stdout() -> Progress {
        Progress::new(Box::new(std::io::stdout()), || {
            width_of(libc::STDOUT_FILENO)
        })
    }

    pub fn new(out: Box<dyn Write + Send>, width: fn() -> usize) -> Progress {
        Progress {
            out,
            width,
            phase: None,
            drawn: false,
        }
    }

    fn clear(&mut self) {
        if self.drawn {
            let _ = self
                .out
                .write_all(CLEAR.as_bytes())
                .and_then(|_| self.out.flush());
            self.drawn = false;
        }
    }

    fn start(&mut self, p: &PhaseStart) {
        let label = match &p.io500_phase {
            Some(name) => name.clone(),
            None => format!("{} #{}", p.operation, p.iteration),
        };
        self.phase = Some(Current {
            label,
            ranks: p.ranks,
            expect: p.expect,
            started: Instant::now(),
            last: None,
        });
    }

    fn sample(&mut self, s: &IntervalSample) {
        let width = (self.width)();
        let Some(c) = &mut self.phase else { return };
        let t = c.started.elapsed().as_secs_f64();
        let now = c.last.as_ref().and_then(|(t0, s0)| {
            let dt = t - t0;
            let per_s = |a: u64, b: u64| a.saturating_sub(b) as f64 / dt;
            (dt > 0.0).then(|| Rates {
                bytes: per_s(s.bytes, s0.bytes),
                ops: per_s(s.ops, s0.ops),
                samples: per_s(s.samples, s0.samples),
                busy: (s.busy_s - s0.busy_s).max(0.0) / dt,
            })
        });
        c.last = Some((t, s.clone()));
        let text = fit(&line(c, s, t, now), width);
        let _ = write!(self.out, "{CLEAR}{text}").and_then(|_| self.out.flush());
        self.drawn = true;
    }
}

impl Sink for Progress {
    fn event(&mut self, e: &Event<'_>) {
        match e {
            Event::Interval(s) => self.sample(s),
            other => {
                self.clear();
                match other {
                    Event::PhaseStart(p) => self.start(p),
                    Event::PhaseEnd(_) | Event::RunEnd(_) => self.phase = None,
                    _ => {}
                }
            }
        }
    }
}

/// The line for sample `s`, `t` seconds into the phase; `now` are the rates since the previous
/// sample.
fn line(c: &Current, s: &IntervalSample, t: f64, now: Option<Rates>) -> String {
    let local = s.rank_ops.len().max(1);
    let share = |total: u64| total as f64 * local as f64 / c.ranks.max(1) as f64;
    // The unit the phase's plan counts in; bytes when it names none and bytes move.
    let bytes = match (c.expect.bytes, c.expect.ops) {
        (Some(b), _) => b > 0,
        (None, Some(_)) => false,
        (None, None) => s.bytes > 0,
    };
    let (done, expected) = if bytes {
        (s.bytes as f64, c.expect.bytes.map(share))
    } else {
        (s.ops as f64, c.expect.ops.map(share))
    };
    let fraction = expected.filter(|&e| e > 0.0).map(|e| (done / e).min(1.0));
    let mut parts = vec![c.label.clone()];
    if local < c.ranks {
        parts.push(format!("[rank 0's {local} of {} ranks]", c.ranks));
    }
    let avg = if t > 0.0 { done / t } else { 0.0 };
    parts.push(match (c.expect.deadline_s, fraction) {
        (Some(d), _) if t > d => format!("{t:.1} s, past the {d} s stonewall"),
        (Some(d), _) => format!("{t:.1} s of the {d} s stonewall"),
        (None, Some(f)) if f > 0.0 && f < 1.0 => {
            let left = t / f - t;
            let digits = usize::from(left < 10.0);
            format!("{t:.1} s, ~{left:.digits$} s left")
        }
        _ => format!("{t:.1} s"),
    });
    parts.push(match (bytes, now) {
        // A training phase: its samples and AU say more than its steps per second.
        _ if s.samples > 0 => training(s, t, now, local),
        (true, Some(r)) => format!("{:.1} MiB/s (avg {:.1})", r.bytes / MIB, avg / MIB),
        (true, None) => format!("avg {:.1} MiB/s", avg / MIB),
        (false, Some(r)) => format!("{:.0} ops/s (avg {avg:.0})", r.ops),
        (false, None) => format!("avg {avg:.0} ops/s"),
    });
    if let Some(f) = fraction {
        parts.push(format!("{:.0} %", f * 100.0));
    }
    // A queued engine's requests in flight, over rank 0's ranks.
    if s.in_flight > 0 {
        parts.push(format!("{} in flight", s.in_flight));
    }
    if let Some(slow) = slowest(c, s) {
        parts.push(slow);
    }
    parts.join("  ")
}

/// A training phase's samples/s and AU (emulated compute time over the phase's time, per rank)
/// over this process's `local` ranks.
fn training(s: &IntervalSample, t: f64, now: Option<Rates>, local: usize) -> String {
    let (avg_samples, avg_au) = if t > 0.0 {
        (s.samples as f64 / t, s.busy_s / t / local as f64 * 100.0)
    } else {
        (0.0, 0.0)
    };
    match now {
        Some(r) => format!(
            "{:.0} samples/s (avg {avg_samples:.0})  AU {:.1} % (avg {avg_au:.1})",
            r.samples,
            r.busy / local as f64 * 100.0
        ),
        None => format!("avg {avg_samples:.0} samples/s  AU avg {avg_au:.1} %"),
    }
}

/// The slowest of the ranks the samples hold: how far through its share, or its count
/// against the median when the share is not known.
fn slowest(c: &Current, s: &IntervalSample) -> Option<String> {
    if s.rank_ops.len() < 2 {
        return None;
    }
    let (rank, &ops) = s.rank_ops.iter().enumerate().min_by_key(|(_, &o)| o)?;
    match c.expect.ops.filter(|&e| e > 0) {
        Some(total) => {
            let per_rank = total as f64 / c.ranks.max(1) as f64;
            Some(format!(
                "slowest rank {rank} at {:.0} %",
                (ops as f64 / per_rank * 100.0).min(100.0)
            ))
        }
        None => {
            let mut v = s.rank_ops.clone();
            v.sort_unstable();
            Some(format!(
                "slowest rank {rank}: {ops} ops (median {})",
                v[v.len() / 2]
            ))
        }
    }
}

/// At most `width - 1` characters, so the terminal never wraps the line.
fn fit(s: &str, width: usize) -> String {
    s.chars().take(width.saturating_sub(1).max(10)).collect()
}

/// Columns of the terminal on descriptor `fd`; else `$COLUMNS`, else 80.
fn width_of(fd: libc::c_int) -> usize {
    // SAFETY: an all-zero winsize is a valid value to be overwritten by the ioctl.
    let mut ws: libc::winsize = unsafe { std::mem::zeroed() };
    // SAFETY: TIOCGWINSZ writes one winsize through the valid pointer.
    let ok = unsafe { libc::ioctl(fd, libc::TIOCGWINSZ, &mut ws) } == 0;
    if ok && ws.ws_col > 0 {
        return ws.ws_col as usize;
    }
    std::env::var("COLUMNS")
        .ok()
        .and_then(|c| c.parse().ok())
        .filter(|&c| c > 0)
        .unwrap_or(80)
}

#[cfg(test)]
#[path = "progress_tests.rs"]
mod tests;
