//! `iogauge io500 --quick`: the IO500 with every phase run for real, but sizes small enough
//! and a stonewall short enough that the whole run takes a minute or two on a laptop. It is
//! not a valid IO500 submission, and says so: the rules require a 300 s stonewall.

use std::path::{Path, PathBuf};

use workload::io500::config::Config;

/// Seconds of the stonewall (the rules require 300).
pub const STONEWALL_S: u64 = 5;
/// ior-easy: 1 MiB transfers, at most this much per run in total (all ranks).
const IOR_EASY_TOTAL_MIB: u64 = 1024;
/// ior-hard: at most this many 47008-byte segments in total (about 450 MiB).
const IOR_HARD_TOTAL_SEGMENTS: u64 = 10_000;
/// mdtest: at most this many files per run in total (easy: empty; hard: 3901 bytes each).
const MDTEST_EASY_TOTAL: u64 = 400_000;
const MDTEST_HARD_TOTAL: u64 = 100_000;

/// The data directory when `--dir` is not given: under the system's temp directory.
pub fn default_data_dir() -> PathBuf {
    std::env::temp_dir().join("iogauge-io500")
}

/// The `--quick` configuration for `ranks` ranks: the IO500 defaults with a short stonewall
/// and per-rank sizes that bound the whole run's capacity, whatever the rank count.
pub fn config(ranks: usize, data_dir: &Path) -> Config {
    let r = ranks.max(1) as u64;
    let mut c = Config::defaults();
    let set = |c: &mut Config, s: &str, k: &str, v: String| {
        c.set(s, k, &v)
            .expect("the --quick settings are valid IO500 values");
    };
    set(&mut c, "global", "datadir", data_dir.display().to_string());
    set(&mut c, "debug", "stonewall-time", STONEWALL_S.to_string());
    set(&mut c, "ior-easy", "transferSize", "1m".into());
    set(
        &mut c,
        "ior-easy",
        "blockSize",
        format!("{}m", (IOR_EASY_TOTAL_MIB / r).max(16)),
    );
    set(
        &mut c,
        "ior-hard",
        "segmentCount",
        (IOR_HARD_TOTAL_SEGMENTS / r).max(100).to_string(),
    );
    set(
        &mut c,
        "mdtest-easy",
        "n",
        (MDTEST_EASY_TOTAL / r).max(1000).to_string(),
    );
    set(
        &mut c,
        "mdtest-hard",
        "n",
        (MDTEST_HARD_TOTAL / r).max(500).to_string(),
    );
    c
}

/// Bytes the data directory may hold at once: both IOR files and the mdtest-hard files (one
/// 4 KiB block each), from the configuration's own values.
pub fn planned_bytes(c: &Config, ranks: usize) -> u64 {
    let r = ranks as u64;
    let easy = c.u64("ior-easy", "blockSize").unwrap_or(0) * r;
    let hard = c.u64("ior-hard", "segmentCount").unwrap_or(0) * 47008 * r;
    let md = c.u64("mdtest-hard", "n").unwrap_or(0) * 4096 * r;
    easy + hard + md
}

/// Free bytes for an unprivileged user on the file system of `dir` (or its nearest existing
/// ancestor); None when statvfs fails.
pub fn free_bytes(dir: &Path) -> Option<u64> {
    use std::os::unix::ffi::OsStrExt;
    let mut p = dir.to_path_buf();
    while !p.exists() {
        if !p.pop() {
            return None;
        }
    }
    let c = std::ffi::CString::new(p.as_os_str().as_bytes()).ok()?;
    // SAFETY: statvfs fills the zeroed struct; the path is NUL-terminated.
    let mut st: libc::statvfs = unsafe { std::mem::zeroed() };
    if unsafe { libc::statvfs(c.as_ptr(), &mut st) } != 0 {
        return None;
    }
    Some(st.f_bavail as u64 * st.f_frsize as u64)
}

/// Refuses a data directory without room for the run (plus a quarter to spare).
pub fn check_space(c: &Config, ranks: usize, dir: &Path) -> Result<(), String> {
    let need = planned_bytes(c, ranks);
    match free_bytes(dir) {
        Some(free) if free < need + need / 4 => Err(format!(
            "io500: --quick needs about {:.1} GiB in {}, which has {:.1} GiB free; choose another \
             directory with --dir DIR",
            need as f64 / (1u64 << 30) as f64,
            dir.display(),
            free as f64 / (1u64 << 30) as f64
        )),
        _ => Ok(()),
    }
}

/// What the user is told before the run starts.
pub fn banner(ranks: usize, data: &str, result: &str) -> String {
    format!(
        "iogauge io500 --quick: every IO500 phase for real, {ranks} thread rank(s), small sizes and a \
         {STONEWALL_S} s stonewall.\nNOT a valid IO500 submission: stonewall-time {STONEWALL_S}s != \
         300s (the rules require 300 s, and sizes large enough that every write phase runs that long).\n\
         Data: {data} (removed at the end)\nResults: {result} (kept)\n\n"
    )
}
