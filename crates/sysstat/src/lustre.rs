//! Lustre's client counters, `llite.<fsname>-<superblock>.stats`
//! (`lustre/obdclass/lprocfs_status.c` `lprocfs_stats_seq_show`): a `snapshot_time` line,
//! `start_time` and `elapsed_time` in newer releases, then one line per counter that has
//! samples, `%-25s %lld samples [unit]`, plus ` min max sum` and maybe ` sumsq`.
//! `read_bytes`/`write_bytes` count VFS read()/write() calls and their bytes, cache hits
//! included. The files live in `/proc/fs/lustre/llite/*/stats` up to 2.11 and in
//! `/sys/kernel/debug/lustre/llite/*/stats` (debugfs, root only) from 2.12.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// One counter line.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct LliteCounter {
    /// Events counted (`read_bytes`: read() calls).
    pub samples: u64,
    /// The bracketed unit without brackets: `bytes`, `regs`, `reqs`, `usecs`, `pages`.
    pub unit: String,
    /// Smallest and largest sample and their sum, since the counter began (0 when the line
    /// has none, as `[regs]` lines of older releases).
    pub min: u64,
    pub max: u64,
    pub sum: u64,
}

impl LliteCounter {
    /// `samples` and `sum` from `earlier` to `self` (saturating); `min` and `max` are
    /// `self`'s, extremes since the counter began, not the window's.
    pub fn since(&self, earlier: &LliteCounter) -> LliteCounter {
        LliteCounter {
            samples: self.samples.saturating_sub(earlier.samples),
            sum: self.sum.saturating_sub(earlier.sum),
            ..self.clone()
        }
    }
}

/// One read of a stats file.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct LliteStats {
    /// When it was read, seconds since the epoch.
    pub snapshot_s: f64,
    /// When its counters began (newer releases; `stats=clear` moves it).
    pub start_s: Option<f64>,
    pub counters: BTreeMap<String, LliteCounter>,
}

impl LliteStats {
    /// What happened from `earlier` to `self`. A counter missing from `earlier` counts
    /// from 0 (a counter without samples has no line); one missing from `self` is left out.
    pub fn since(&self, earlier: &LliteStats) -> LliteDelta {
        let zero = LliteCounter::default();
        let mut reset = self.start_s != earlier.start_s;
        let mut counters = BTreeMap::new();
        for (name, c) in &self.counters {
            let before = earlier.counters.get(name).unwrap_or(&zero);
            reset |= c.samples < before.samples;
            counters.insert(name.clone(), c.since(before));
        }
        reset |= earlier
            .counters
            .keys()
            .any(|k| !self.counters.contains_key(k));
        LliteDelta {
            elapsed_s: self.snapshot_s - earlier.snapshot_s,
            counters,
            reset,
        }
    }
}

/// What one client mount did between two reads.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct LliteDelta {
    /// Seconds between the two snapshot times.
    pub elapsed_s: f64,
    pub counters: BTreeMap<String, LliteCounter>,
    /// The counters were cleared in between (`start_time` moved, a count went back or a
    /// counter vanished): the figures are not the window's.
    pub reset: bool,
}

impl LliteDelta {
    /// The counter `name`'s samples in the window (0 without a line).
    pub fn samples(&self, name: &str) -> u64 {
        self.counters.get(name).map_or(0, |c| c.samples)
    }

    /// The counter `name`'s sum in the window (0 without a line).
    pub fn sum(&self, name: &str) -> u64 {
        self.counters.get(name).map_or(0, |c| c.sum)
    }

    /// read() calls.
    pub fn read_calls(&self) -> u64 {
        self.samples("read_bytes")
    }

    /// Bytes read() returned.
    pub fn read_bytes(&self) -> u64 {
        self.sum("read_bytes")
    }

    pub fn write_calls(&self) -> u64 {
        self.samples("write_bytes")
    }

    pub fn write_bytes(&self) -> u64 {
        self.sum("write_bytes")
    }

    pub fn opens(&self) -> u64 {
        self.samples("open")
    }

    pub fn closes(&self) -> u64 {
        self.samples("close")
    }

    pub fn fsyncs(&self) -> u64 {
        self.samples("fsync")
    }
}

/// A stats file's text (`lctl get_param`'s `llite.….stats=` line may precede it); `None`
/// without a `snapshot_time`. A second `snapshot_time` (the next file of a dump) ends it;
/// lines of another shape are skipped.
pub fn parse_llite(text: &str) -> Option<LliteStats> {
    let mut snapshot = None;
    let mut start = None;
    let mut counters = BTreeMap::new();
    for line in text.lines() {
        let Some((key, rest)) = line.trim_start().split_once(char::is_whitespace) else {
            continue;
        };
        match key.trim_end_matches(':') {
            "snapshot_time" if snapshot.is_some() => break,
            "snapshot_time" => snapshot = parse_time(rest),
            "start_time" => start = parse_time(rest),
            "elapsed_time" => {}
            name => {
                if let Some(c) = parse_counter(rest) {
                    counters.insert(name.to_string(), c);
                }
            }
        }
    }
    Some(LliteStats {
        snapshot_s: snapshot?,
        start_s: start,
        counters,
    })
}

/// One stats file, read now.
pub fn read_llite(path: &Path) -> std::io::Result<LliteStats> {
    let text = std::fs::read_to_string(path)?;
    parse_llite(&text)
        .ok_or_else(|| std::io::Error::other(format!("{} has no snapshot_time", path.display())))
}

/// Where the stats files are, below a root (`/` on a client).
const LLITE_DIRS: [&str; 2] = ["proc/fs/lustre/llite", "sys/kernel/debug/lustre/llite"];

/// Every client mount's stats file below `root`, as (instance, path), sorted. A directory
/// that cannot be read (debugfs without root) gives nothing.
pub fn llite_instances(root: &Path) -> Vec<(String, PathBuf)> {
    let mut out = Vec::new();
    for dir in LLITE_DIRS {
        let Ok(entries) = std::fs::read_dir(root.join(dir)) else {
            continue;
        };
        for e in entries.flatten() {
            let stats = e.path().join("stats");
            if let (Some(name), true) = (e.file_name().to_str(), stats.is_file()) {
                out.push((name.to_string(), stats));
            }
        }
    }
    out.sort();
    out
}

/// The file system's name in an instance's: `lustrefs-ffff88082d691000` → `lustrefs`.
/// `None` when the name does not end in `-<hex>`.
pub fn fsname(instance: &str) -> Option<&str> {
    let (fs, sb) = instance.rsplit_once('-')?;
    let hex = !sb.is_empty() && sb.bytes().all(|b| b.is_ascii_hexdigit());
    (!fs.is_empty() && hex).then_some(fs)
}

/// The one instance of file system `name`; `None` when there is none or several (the same
/// file system mounted twice: `lfs getname MNT` tells them apart).
pub fn instance_for_fsname<'a>(
    instances: &'a [(String, PathBuf)],
    name: &str,
) -> Option<&'a (String, PathBuf)> {
    let mut hits = instances.iter().filter(|(i, _)| fsname(i) == Some(name));
    match (hits.next(), hits.next()) {
        (Some(one), None) => Some(one),
        _ => None,
    }
}

/// The file system's name in a Lustre mount's source (mountinfo, unescaped):
/// `10.0.0.1@tcp:/lustrefs` → `lustrefs`, `a@o2ib,b@o2ib:/scratch/sub` → `scratch`.
pub fn fsname_from_source(source: &str) -> Option<&str> {
    let (_, path) = source.rsplit_once(":/")?;
    let fs = path.split('/').next()?;
    (!fs.is_empty()).then_some(fs)
}

/// `<secs>.<frac> secs.usecs|secs.nsecs` as seconds. Releases differ: `%lu.%lu secs.usecs`
/// (microseconds, not zero-padded), `%llu.%9lu secs.usecs` (nanoseconds padded with spaces
/// to 9 characters, under the usecs label) and `%llu.%09lu secs.nsecs`. A 9-character
/// fraction is therefore nanoseconds whatever the label says.
fn parse_time(rest: &str) -> Option<f64> {
    let at = rest.find("secs.")?;
    let unit = rest[at..].split_whitespace().next()?;
    let number = rest[..at].trim();
    let (secs, frac) = number.split_once('.').unwrap_or((number, ""));
    let secs: u64 = secs.parse().ok()?;
    let scale = match unit {
        _ if frac.len() == 9 => 1e9,
        "secs.nsecs" => 1e9,
        "secs.usecs" => 1e6,
        _ => return None,
    };
    let frac: u64 = match frac.trim() {
        "" => 0,
        f => f.parse().ok()?,
    };
    Some(secs as f64 + frac as f64 / scale)
}

/// `N samples [unit] [min max sum [sumsq]]`.
fn parse_counter(rest: &str) -> Option<LliteCounter> {
    let f: Vec<&str> = rest.split_whitespace().collect();
    let samples = f.first()?.parse().ok()?;
    if f.get(1) != Some(&"samples") {
        return None;
    }
    let bracketed = f
        .get(2)
        .and_then(|u| u.strip_prefix('[')?.strip_suffix(']'));
    let (unit, at) = bracketed.map_or(("", 2), |u| (u, 3));
    let n = |i: usize| crate::field(&f, at + i).unwrap_or(0);
    Some(LliteCounter {
        samples,
        unit: unit.to_string(),
        min: n(0),
        max: n(1),
        sum: n(2),
    })
}

#[cfg(test)]
mod tests;
