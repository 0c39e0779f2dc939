//! The IO500's find phases: pfind's argv through `iogauge find`'s parser and the parallel
//! walk on the ranks (`find.csv` in pfind's per-rank format), or an external script run by
//! rank 0 through the shell, as the IO500 runs `external-script`.

use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::Instant;

use engine::{Engine, PosixEngine};
use exec::CommError;
use workload::find::{self, FindError, FindOutcome};
use workload::io500::measured::{parse_matched, Measured};

use super::{first_failure, Ran};
use crate::find::cli::{self, FindCommand};
use crate::find::pool::{self, Walk};
use crate::world::RankSetup;

/// Parses the argv (no I/O).
pub fn check(args: &[String]) -> Result<FindCommand, String> {
    cli::parse(args)
}

pub fn run(args: &[String], setup: &RankSetup, txt: &Path, csv: &Path) -> Result<Ran, String> {
    let cmd = check(args)?;
    let posix = PosixEngine::new(false);
    // Other MPI ranks follow rank 0's decision (`follow`), so only it checks.
    for p in cmd.paths.iter().filter(|_| crate::world::is_root()) {
        match posix.stat(p) {
            Ok(st) if st.is_dir => {}
            Ok(_) => return Err(format!("find: {}: not a directory", p.display())),
            Err(e) => return Err(format!("find: {}: {e}", p.display())),
        }
    }
    let ranks = pool::run(setup, &Walk::of(&cmd), |comm, pool| {
        let engine = PosixEngine::new(false);
        find::run(&find::FindCtx {
            comm,
            engine: &engine,
            pool,
            query: &cmd.query,
            list: None,
        })
    });
    let peer = |e: &FindError| matches!(e, FindError::Comm(CommError::PeerFailed { .. }));
    if let Some(msg) = first_failure(&ranks, peer) {
        return Err(msg);
    }
    let o = ranks
        .into_iter()
        .next()
        .and_then(|r| r.ok())
        .flatten()
        .ok_or("find reported no result")?;
    write_file(txt, &text(&o))?;
    write_file(csv, &pfind_csv(&o))?;
    Ok(Ran {
        measured: Measured::Find {
            found: o.total.found,
            examined: o.total.examined,
            runtime_s: o.runtime_s(),
        },
        phase: results::find::phase_result(&o),
        verification_errors: 0,
    })
}

fn write_file(path: &Path, text: &str) -> Result<(), String> {
    std::fs::File::create(path)
        .and_then(|mut f| f.write_all(text.as_bytes()))
        .map_err(|e| format!("{}: {e}", path.display()))
}

/// What `iogauge find -C` prints: pfind's `[DONE]` line, the rate, `MATCHED` last.
fn text(o: &FindOutcome) -> String {
    let t = &o.total;
    format!(
        "[DONE] found: {} (scanned {} files, scanned dirents: {}, unknown dirents: {})\n\
         ranks: {}  directories: {}  lstat calls: {}  directories stolen: {}  errors: {}\n\
         runtime: {:.6} s (slowest rank)  rate: {:.3} kIOPS (examined entries / runtime)\n\
         MATCHED {}/{}\n",
        t.found,
        t.examined,
        t.dirents,
        t.unknown,
        o.ranks.len(),
        t.dirs,
        t.stats,
        t.stolen,
        t.unreadable_dirs + t.stat_errors,
        o.runtime_s(),
        o.rate() / 1000.0,
        t.found,
        t.examined
    )
}

/// The IO500's `find.csv`: the runtime and rate, then one row per rank in pfind's columns.
/// Thread ranks steal without messages or tokens, so those columns are 0.
fn pfind_csv(o: &FindOutcome) -> String {
    let mut s = format!("runtime: {:.6} rate: {:.6}\n", o.runtime_s(), o.rate());
    s.push_str(
        "rank, errors, unknown, found, total, checked, job steal msgs received, work items send, \
         job steal msgs send, work items stolen, time spend in job stealing in s, number of \
         completion tokens send\n",
    );
    for (r, rc) in o.ranks.iter().enumerate() {
        let c = &rc.counts;
        s.push_str(&format!(
            "{r}, {}, {}, {}, {}, {}, 0, 0, {}, {}, 0.000s, 0\n",
            c.unreadable_dirs + c.stat_errors,
            c.unknown,
            c.found,
            c.examined,
            c.dirents,
            c.steal_tries,
            c.stolen
        ));
    }
    s
}

/// `external-script`: `popen` through the shell on rank 0, timed from start to exit; the
/// last output line should be `MATCHED <found>/<total>`.
pub fn script(command: &str) -> Result<Ran, String> {
    use std::os::unix::process::ExitStatusExt;
    let start = Instant::now();
    let mut child = Command::new("sh")
        .arg("-c")
        .arg(command)
        .stdout(Stdio::piped())
        .spawn()
        .map_err(|e| format!("Failed to run find command: \"{command}\" error: {e}"))?;
    let (mut lines, mut last) = (0u64, String::new());
    if let Some(out) = child.stdout.take() {
        for line in BufReader::new(out).lines().map_while(Result::ok) {
            lines += 1;
            last = line;
        }
    }
    let status = child
        .wait()
        .map_err(|e| format!("find command \"{command}\": {e}"))?;
    let runtime_s = start.elapsed().as_secs_f64();
    let mut phase = results::PhaseResult::new(results::Operation::Find, 0);
    phase.times.total_s = runtime_s;
    phase.times.xfer_s = runtime_s;
    if let Some((found, total)) = parse_matched(&last) {
        phase.ops = total;
        phase.iops = results::per_s(total as f64, runtime_s);
        phase.counters.insert("found".into(), found);
        phase.counters.insert("examined".into(), total);
    }
    Ok(Ran {
        measured: Measured::Script {
            command: command.to_string(),
            last_line: last,
            lines,
            status: status.into_raw(),
            runtime_s,
        },
        phase,
        verification_errors: 0,
    })
}
