//! iogauge under a real `mpirun` (Open MPI): the same commands as with thread ranks, with 2
//! and 4 ranks on one machine (`--oversubscribe`, root allowed). Built only with the `mpi`
//! feature; `scripts/test.sh` runs them. Every run is bounded by `timeout`, so a hang fails
//! the test instead of stalling CI.

mod dlio;
pub(crate) mod failure;
mod find;
#[cfg(feature = "hdf5")]
mod hdf5;
mod io500;
mod ior;
mod mdtest;
mod mdworkbench;
mod metrics;
mod mix;
mod mpiio;
mod progress;
mod startup;
mod system;

use crate::common::{bin, launcher, Run};
use std::collections::BTreeSet;

/// Seconds any one mpirun may take.
pub const LIMIT_S: u64 = 120;

/// `mpirun --oversubscribe -np <np> iogauge <args>`, killed after [`LIMIT_S`].
pub fn mpirun(np: usize, args: &[&str]) -> Run {
    mpirun_with(np, args, LIMIT_S)
}

/// [`mpirun`] with the arguments split on whitespace.
pub fn mpirun_line(np: usize, args: &str) -> Run {
    mpirun(np, &args.split_whitespace().collect::<Vec<_>>())
}

/// [`mpirun_line`] with environment variables set for the ranks (mpirun passes its own
/// environment to the ranks it starts on this node).
pub fn mpirun_env(np: usize, env: &[(&str, &str)], args: &str) -> Run {
    let args: Vec<&str> = args.split_whitespace().collect();
    mpirun_in(np, &args, LIMIT_S, env)
}

pub fn mpirun_with(np: usize, args: &[&str], limit_s: u64) -> Run {
    mpirun_in(np, args, limit_s, &[])
}

fn mpirun_in(np: usize, args: &[&str], limit_s: u64, env: &[(&str, &str)]) -> Run {
    let out = launcher(np, limit_s)
        .envs(env.iter().copied())
        .arg(bin())
        .args(args)
        .output()
        .expect("run timeout/mpirun (scripts/test.sh installs Open MPI)");
    let run = Run {
        code: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    };
    assert_ne!(
        run.code, 124,
        "mpirun did not finish within {limit_s} s\nstdout:\n{}\nstderr:\n{}",
        run.stdout, run.stderr
    );
    run
}

/// The shape of a JSON document: every key path, with values left out and arrays reduced to
/// the union of their elements' shapes.
pub fn shape(v: &serde_json::Value) -> BTreeSet<String> {
    fn walk(v: &serde_json::Value, at: &str, out: &mut BTreeSet<String>) {
        match v {
            serde_json::Value::Object(m) => {
                // Which warnings a run raises (and so their evidence) depends on timing; which
                // system figures a phase has (network interfaces that moved bytes, a device's
                // averages, other nodes) depends on what the machine did.
                for (k, x) in m.iter().filter(|(k, _)| *k != "alerts") {
                    let p = format!("{at}/{k}");
                    out.insert(p.clone());
                    if k != "system" {
                        walk(x, &p, out);
                    }
                }
            }
            serde_json::Value::Array(a) => {
                for x in a {
                    walk(x, &format!("{at}[]"), out);
                }
            }
            _ => {}
        }
    }
    let mut out = BTreeSet::new();
    walk(v, "", &mut out);
    out
}
