//! find's argv: pfind's (`src/phase_find*.c`), or the command line of an external script.

use std::os::unix::fs::PermissionsExt;

use super::{s, Built, Command, Where};
use crate::io500::config::Config;
use crate::io500::phases::{FindScope, Phase};

pub(super) fn find(p: &Phase, scope: FindScope, cfg: &Config, w: &Where) -> Result<Built, String> {
    let sec = p.name;
    // A disabled find is not checked (the IO500's validate() returns first).
    let enabled = cfg.bool(sec, "run");
    let nproc = match cfg.get(sec, "nproc").map(|v| v.parse::<usize>()) {
        None => None,
        Some(_) if !enabled => None,
        Some(Ok(n)) if (1..=w.ranks).contains(&n) => Some(n),
        Some(_) => {
            return Err(format!(
                "[{sec}] nproc = {}: must be between 1 and the {} rank(s) of the run",
                cfg.get(sec, "nproc").unwrap_or(""),
                w.ranks
            ))
        }
    };
    let ts = format!("{}/timestampfile", w.result);
    let (root, newer) = match scope {
        FindScope::All => (w.data.clone(), true),
        FindScope::Easy => (format!("{}/mdtest-easy/", w.data), false),
        FindScope::Hard => (format!("{}/mdtest-hard/", w.data), true),
    };
    let mpi = cfg.get(sec, "external-mpi-args").unwrap_or("");
    let extra = cfg.get(sec, "external-extra-args").unwrap_or("");
    let mut early = Vec::new();
    if let Some(script) = cfg.get(sec, "external-script").filter(|_| enabled) {
        let meta = std::fs::metadata(script)
            .map_err(|e| format!("[{sec}] external-script {script}: cannot check it ({e})"))?;
        if !meta.is_file() || meta.permissions().mode() & 0o100 == 0 {
            return Err(format!(
                "[{sec}] external-script {script}: the external-script must be an executable file"
            ));
        }
        let query = if newer {
            format!("{root} -newer {ts} -size 3901c -name \"*01*\"")
        } else {
            format!("{root} -name \"*01*\"")
        };
        if nproc.is_some_and(|n| n != w.ranks && n != 1) {
            early.push("An external-script will always be run with nproc=1, note that some MPI implementations do not support to run MPI programs from an MPI program".to_string());
        }
        return Ok(Built {
            command: Command::Shell(format!("{mpi} {script} {extra} {query}")),
            ranks: 1,
            nproc_pair: nproc,
            warnings: Vec::new(),
            early_warnings: early,
            pairs: Vec::new(),
        });
    }
    if enabled && (!mpi.is_empty() || !extra.is_empty()) {
        early.push(
            "Using internal pfind, will ignore any arguments to the external script".to_string(),
        );
    }
    let mut a = vec![s("./pfind"), root];
    if newer {
        a.extend([s("-newer"), ts, s("-size"), s("3901c")]);
    }
    a.extend([s("-name"), s("*01*"), s("-C")]);
    if cfg.bool(sec, "pfind-steal-next") {
        a.push(s("-N"));
    }
    if cfg.bool(sec, "pfind-parallelize-single-dir-access-using-hashing") {
        a.extend([s("-H"), s("1")]);
    }
    a.extend([
        s("-q"),
        s(cfg.i64(sec, "pfind-queue-length").unwrap_or(10000)),
    ]);
    let ranks = nproc.unwrap_or(w.ranks);
    Ok(Built {
        command: Command::Argv(a),
        ranks,
        nproc_pair: Some(ranks),
        warnings: Vec::new(),
        early_warnings: early,
        pairs: Vec::new(),
    })
}
