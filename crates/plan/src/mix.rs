//! The resolved plan of `iogauge mix`: a mix of metadata operations in percentages over a
//! tree of files prepared per rank, driven open-loop at a target rate that rises in steps
//! until a latency limit is exceeded. The parsers of the ramp and the limit are here because
//! they are pure and the plan's own vocabulary; the rules across options are the workload's
//! (`workload::mix::validate`).

use std::fmt;
use std::path::PathBuf;

use engine::EngineConfig;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// The operations a mix is made of. The index (`op as usize`) is the recorder's kind.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize, JsonSchema,
)]
#[serde(rename_all = "kebab-case")]
pub enum MixOp {
    /// Create a new file and write `file_size` bytes (open O_CREAT, write, close).
    Create,
    /// Open a file, read up to `io_size` bytes from offset 0, close.
    OpenRead,
    /// Open an existing file, write `io_size` bytes at offset 0, close.
    OpenWrite,
    Stat,
    /// List one of the rank's directories.
    Readdir,
    /// Change a file's permission bits (a setattr).
    Chmod,
    /// Rename a file to a free name in the rank's tree.
    Rename,
    /// Remove a file.
    Unlink,
    /// Make an empty directory.
    Mkdir,
    /// Remove an empty directory the run made.
    Rmdir,
}

impl MixOp {
    pub const ALL: [MixOp; 10] = [
        MixOp::Create,
        MixOp::OpenRead,
        MixOp::OpenWrite,
        MixOp::Stat,
        MixOp::Readdir,
        MixOp::Chmod,
        MixOp::Rename,
        MixOp::Unlink,
        MixOp::Mkdir,
        MixOp::Rmdir,
    ];

    /// The name in mix files, results and messages (`open-read`).
    pub fn label(self) -> &'static str {
        match self {
            MixOp::Create => "create",
            MixOp::OpenRead => "open-read",
            MixOp::OpenWrite => "open-write",
            MixOp::Stat => "stat",
            MixOp::Readdir => "readdir",
            MixOp::Chmod => "chmod",
            MixOp::Rename => "rename",
            MixOp::Unlink => "unlink",
            MixOp::Mkdir => "mkdir",
            MixOp::Rmdir => "rmdir",
        }
    }

    pub fn from_label(name: &str) -> Option<MixOp> {
        MixOp::ALL.into_iter().find(|o| o.label() == name)
    }

    /// Needs an existing file as its target (else the slot becomes a create).
    pub fn needs_file(self) -> bool {
        matches!(
            self,
            MixOp::OpenRead
                | MixOp::OpenWrite
                | MixOp::Stat
                | MixOp::Chmod
                | MixOp::Rename
                | MixOp::Unlink
        )
    }
}

impl fmt::Display for MixOp {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.label())
    }
}

/// One operation's share of the mix, in percent.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Share {
    pub op: MixOp,
    pub percent: f64,
}

/// The tree each rank prepares before the first step: `dirs` directories of
/// `files_per_dir` files of `file_size` bytes, and `empty_dirs` empty ones for rmdir.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct Tree {
    pub dirs: u64,
    pub files_per_dir: u64,
    pub file_size: u64,
    /// Bytes an open-read reads and an open-write writes.
    pub io_size: u64,
    pub empty_dirs: u64,
}

impl Default for Tree {
    fn default() -> Self {
        Tree {
            dirs: 10,
            files_per_dir: 100,
            file_size: 4096,
            io_size: 4096,
            empty_dirs: 0,
        }
    }
}

impl Tree {
    pub fn files(&self) -> u64 {
        self.dirs.saturating_mul(self.files_per_dir)
    }
}

/// A mix as read from its file.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Mix {
    pub name: String,
    /// The file it came from, or `built-in`.
    pub source: String,
    /// What the mix is and where its percentages come from.
    pub description: String,
    /// In the order of `MixOp::ALL` (not the file's: TOML tables have none to keep); the
    /// percentages add up to 100.
    pub shares: Vec<Share>,
    pub tree: Tree,
}

impl Mix {
    /// The share of `op` in percent (0 when absent).
    pub fn percent(&self, op: MixOp) -> f64 {
        self.shares
            .iter()
            .filter(|s| s.op == op)
            .map(|s| s.percent)
            .sum()
    }
}

/// `--ramp START:STEP:MAX`: target rates in operations per second for the whole run.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct Ramp {
    pub start: u64,
    pub step: u64,
    pub max: u64,
}

impl Default for Ramp {
    fn default() -> Self {
        Ramp {
            start: 1000,
            step: 1000,
            max: 10000,
        }
    }
}

impl Ramp {
    /// START, START+STEP, ... up to MAX (MAX itself only where the steps reach it).
    pub fn rates(&self) -> Vec<u64> {
        let mut v = Vec::new();
        let mut r = self.start;
        while r <= self.max {
            v.push(r);
            match r.checked_add(self.step) {
                Some(n) if self.step > 0 => r = n,
                _ => break,
            }
        }
        v
    }

    /// `START:STEP:MAX`, whole operations per second; STEP may be 0 only when START = MAX.
    pub fn parse(text: &str) -> Result<Ramp, String> {
        let parts: Vec<&str> = text.split(':').collect();
        let [start, step, max] = parts[..] else {
            return Err(
                "expected START:STEP:MAX in operations per second (1000:1000:20000)".into(),
            );
        };
        let num = |what: &str, s: &str| -> Result<u64, String> {
            s.trim().parse::<u64>().map_err(|_| {
                format!("{what} \"{s}\" is not a whole number of operations per second")
            })
        };
        let r = Ramp {
            start: num("START", start)?,
            step: num("STEP", step)?,
            max: num("MAX", max)?,
        };
        if r.start == 0 {
            return Err("START must be at least 1 operation per second".into());
        }
        if r.max < r.start {
            return Err(format!("MAX {} is below START {}", r.max, r.start));
        }
        if r.step == 0 && r.max != r.start {
            return Err("STEP 0 only for one step (START = MAX)".into());
        }
        Ok(r)
    }
}

impl fmt::Display for Ramp {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}:{}", self.start, self.step, self.max)
    }
}

/// Which figure of a step's latencies the limit holds.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum Statistic {
    Mean,
    /// The p-th percentile, 0 < p <= 100.
    Percentile(f64),
}

/// `--latency-limit 10ms` (the mean) or `p99=10ms` (a percentile).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct LatencyLimit {
    pub statistic: Statistic,
    pub limit_ns: u64,
}

impl Default for LatencyLimit {
    fn default() -> Self {
        LatencyLimit {
            statistic: Statistic::Mean,
            limit_ns: 10_000_000,
        }
    }
}

impl LatencyLimit {
    /// `10ms`, `mean=10ms`, `p99=2.5ms`, `p99.9=500us`; units ns, us (µs), ms, s.
    pub fn parse(text: &str) -> Result<LatencyLimit, String> {
        let (stat, time) = match text.split_once('=') {
            Some((s, t)) => (Some(s.trim()), t),
            None => (None, text),
        };
        let statistic = match stat {
            None | Some("mean") => Statistic::Mean,
            Some(s) => {
                let p = s
                    .strip_prefix('p')
                    .and_then(|n| n.parse::<f64>().ok())
                    .filter(|p| *p > 0.0 && *p <= 100.0)
                    .ok_or_else(|| {
                        format!("\"{s}\": expected mean or a percentile p1 .. p100 (p99, p99.9)")
                    })?;
                Statistic::Percentile(p)
            }
        };
        let limit_ns = duration_ns(time)?;
        if limit_ns == 0 {
            return Err("the limit must be more than 0".into());
        }
        Ok(LatencyLimit {
            statistic,
            limit_ns,
        })
    }

    /// `mean`, `p99`, `p99.9`.
    pub fn statistic_name(&self) -> String {
        match self.statistic {
            Statistic::Mean => "mean".to_string(),
            Statistic::Percentile(p) => format!("p{p}"),
        }
    }
}

impl fmt::Display for LatencyLimit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} <= {}",
            self.statistic_name(),
            show_ns(self.limit_ns as f64)
        )
    }
}

/// A duration with its unit (`10ms`, `1.5 ms`, `500us`, `2s`) in nanoseconds: the
/// command line's duration parser (`text::parse_duration`), but a limit must name its unit.
pub fn duration_ns(text: &str) -> Result<u64, String> {
    let t = text.trim();
    if t.ends_with(|c: char| c.is_ascii_digit() || c == '.') {
        return Err(format!("\"{t}\" has no unit (ns, us, ms or s)"));
    }
    let seconds = text::parse_duration(&t.replace(' ', ""))
        .map_err(|_| format!("\"{t}\" is not a duration (expected e.g. 10ms, 1.5s or 250us)"))?;
    let ns = (seconds * 1e9).round();
    if ns > 1e18 {
        return Err(format!("\"{t}\" is out of range"));
    }
    Ok(ns as u64)
}

/// Nanoseconds in the unit that suits them: `850 ns`, `12.5 us`, `10 ms`, `1.2 s`.
pub fn show_ns(ns: f64) -> String {
    let (v, unit) = if ns < 1e3 {
        (ns, "ns")
    } else if ns < 1e6 {
        (ns / 1e3, "us")
    } else if ns < 1e9 {
        (ns / 1e6, "ms")
    } else {
        (ns / 1e9, "s")
    };
    let s = format!("{v:.3}");
    let s = s.trim_end_matches('0').trim_end_matches('.');
    format!("{s} {unit}")
}

/// `--arrivals`: how a rank spaces its operations.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum Arrivals {
    /// Evenly spaced, the ranks staggered so the run's arrivals are evenly spaced too.
    #[default]
    Fixed,
    /// Exponential inter-arrival times (a Poisson process) of the same mean.
    Poisson,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
// Missing fields take their defaults, so abridged documents still read.
#[serde(default)]
pub struct MixParams {
    /// `-a` and the engine's options.
    pub engine: EngineConfig,
    /// `--dir`: the run's directory; each rank's tree is `DIR/r<rank>`.
    pub dir: PathBuf,
    /// `--mix`: the operations and the tree.
    pub mix: Mix,
    /// `--ramp`: the target rates of the steps, for the whole run.
    pub ramp: Ramp,
    /// `--step-seconds`.
    #[serde(serialize_with = "crate::whole::serialize")]
    #[schemars(range(min = 0))]
    pub step_seconds: f64,
    /// `--latency-limit`.
    pub latency_limit: LatencyLimit,
    /// `--arrivals`.
    pub arrivals: Arrivals,
    /// `--seed`: the operation choices, targets and Poisson arrivals follow from it.
    pub seed: u64,
}

impl Default for MixParams {
    fn default() -> Self {
        MixParams {
            engine: EngineConfig::default(),
            dir: PathBuf::from("./mix"),
            mix: Mix::default(),
            ramp: Ramp::default(),
            step_seconds: 10.0,
            latency_limit: LatencyLimit::default(),
            arrivals: Arrivals::Fixed,
            seed: 1,
        }
    }
}

impl MixParams {
    /// The longest the steps can take (every step run), seconds.
    pub fn max_seconds(&self) -> f64 {
        self.ramp.rates().len() as f64 * self.step_seconds
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ramps() {
        let r = Ramp::parse("1000:500:2600").unwrap();
        assert_eq!(r.rates(), [1000, 1500, 2000, 2500]);
        assert_eq!(Ramp::parse("5:0:5").unwrap().rates(), [5]);
        assert_eq!(Ramp::parse("1:1:3").unwrap().to_string(), "1:1:3");
        let top = Ramp::parse(&format!("{}:1:{}", u64::MAX - 1, u64::MAX)).unwrap();
        assert_eq!(top.rates().len(), 2);
        for bad in [
            "", "1:2", "0:1:5", "5:1:4", "1:0:5", "a:1:2", "1.5:1:2", "1:1:2:3",
        ] {
            assert!(Ramp::parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn limits() {
        let l = LatencyLimit::parse("10ms").unwrap();
        assert_eq!((l.statistic, l.limit_ns), (Statistic::Mean, 10_000_000));
        assert_eq!(l.to_string(), "mean <= 10 ms");
        let p = LatencyLimit::parse("p99.9=500us").unwrap();
        assert_eq!(p.statistic, Statistic::Percentile(99.9));
        assert_eq!(p.limit_ns, 500_000);
        assert_eq!(p.to_string(), "p99.9 <= 500 us");
        assert_eq!(
            LatencyLimit::parse("mean=1.5 ms").unwrap().limit_ns,
            1_500_000
        );
        assert_eq!(
            LatencyLimit::parse("p50=2s").unwrap().limit_ns,
            2_000_000_000
        );
        assert_eq!(duration_ns("750ns").unwrap(), 750);
        assert_eq!(duration_ns("3µs").unwrap(), 3000);
        for bad in [
            "10", "ms", "10 m", "p0=1ms", "p101=1ms", "q99=1ms", "0ms", "-1ms", "1e3ms",
        ] {
            assert!(LatencyLimit::parse(bad).is_err(), "{bad}");
        }
        assert_eq!(show_ns(1_250_000.0), "1.25 ms");
        assert_eq!(show_ns(999.0), "999 ns");
    }

    #[test]
    fn ops_by_label() {
        for op in MixOp::ALL {
            assert_eq!(MixOp::from_label(op.label()), Some(op));
        }
        assert_eq!(MixOp::from_label("open_read"), None);
        assert!(MixOp::Unlink.needs_file() && !MixOp::Create.needs_file());
    }
}
