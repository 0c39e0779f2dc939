//! Warnings with a stable id and their evidence (`docs/warnings.md`): what iogauge says where
//! the page cache, a short run or a straggler could be inflating or bending a number. The ids
//! never change meaning; reports and tests refer to them. [`RULES`] is the one table of the
//! ids, their thresholds and defaults; `--warn ID=VALUE` adjusts them ([`Thresholds::set`]).

use std::collections::BTreeMap;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// One warning: its stable id, the sentence for people, and the figures it rests on.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq, JsonSchema)]
pub struct Alert {
    /// One of the ids of `docs/warnings.md` (`read-cached`, `short-phase`, ...).
    pub id: String,
    pub message: String,
    /// The measured figures and the threshold they were held against, by name.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub evidence: BTreeMap<String, Value>,
}

impl Alert {
    pub fn new(id: AlertId, message: String) -> Alert {
        Alert {
            id: id.as_str().to_string(),
            message,
            evidence: BTreeMap::new(),
        }
    }

    /// Adds a figure of the evidence.
    pub fn with(mut self, name: &str, value: impl Into<Value>) -> Alert {
        self.evidence.insert(name.to_string(), value.into());
        self
    }

    pub fn is(&self, id: AlertId) -> bool {
        self.id == id.as_str()
    }
}

/// The warnings iogauge knows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum AlertId {
    ReadCached,
    WriteNoFsync,
    ShortPhase,
    DatasetFitsMemory,
    ReadFasterThanWrite,
    Straggler,
    ReadSameNode,
    CacheDropLimited,
    DlioDatasetBelowMinimum,
    DlioCheckpointCache,
    WriteNotOnDevice,
    SmallDeviceRequests,
    ClientCpuSaturated,
    ReadNotFromDevice,
}

/// How a rule's value reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Unit {
    /// A share: `0.5` or `50%`.
    Fraction,
    /// Seconds: `5` or `5s`.
    Seconds,
    /// A factor: `1.5`.
    Ratio,
    /// No value: on or off.
    Switch,
}

/// One warning's rule: its id, what its value is, the default and what it means.
pub struct Rule {
    pub id: AlertId,
    pub unit: Unit,
    /// The threshold (1 for a switch).
    pub default: f64,
    pub help: &'static str,
}

/// Every warning, in the order `docs/warnings.md` lists them.
pub const RULES: &[Rule] = &[
    Rule { id: AlertId::ReadCached, unit: Unit::Fraction, default: 0.5,
        help: "a read phase's data was more than this share resident in the page cache when it started" },
    Rule { id: AlertId::WriteNoFsync, unit: Unit::Switch, default: 1.0,
        help: "a write phase's timed window ends without fsync (IOR -e, mdtest -y or -Y)" },
    Rule { id: AlertId::ShortPhase, unit: Unit::Seconds, default: 5.0,
        help: "a phase took less than this many seconds" },
    Rule { id: AlertId::DatasetFitsMemory, unit: Unit::Ratio, default: 1.0,
        help: "the data a read phase read per node is less than this many times a node's memory" },
    Rule { id: AlertId::ReadFasterThanWrite, unit: Unit::Ratio, default: 3.0,
        help: "a read phase's bandwidth is more than this many times that of the write of the same data" },
    Rule { id: AlertId::Straggler, unit: Unit::Ratio, default: 1.5,
        help: "the last rank finished later than this many times the median rank's time" },
    Rule { id: AlertId::ReadSameNode, unit: Unit::Switch, default: 1.0,
        help: "reads run on the node that wrote the data although -C asked for another" },
    Rule { id: AlertId::CacheDropLimited, unit: Unit::Switch, default: 1.0,
        help: "--drop-caches could not drop everything a phase may hit (no root, tmpfs)" },
    Rule { id: AlertId::DlioDatasetBelowMinimum, unit: Unit::Switch, default: 1.0,
        help: "a dlio training data set is smaller than MLPerf Storage's minimum for the run's ranks and host memory" },
    Rule { id: AlertId::DlioCheckpointCache, unit: Unit::Switch, default: 1.0,
        help: "a dlio checkpoint run reads back what it wrote without --drop-caches while a client wrote less than 3x its memory" },
    Rule { id: AlertId::WriteNotOnDevice, unit: Unit::Fraction, default: 0.5,
        help: "less than this share of a write phase's bytes reached the target's block device before the phase ended" },
    Rule { id: AlertId::SmallDeviceRequests, unit: Unit::Ratio, default: 4.0,
        help: "the device's requests were more than this many times smaller than the phase's transfers (or the device's largest request)" },
    Rule { id: AlertId::ClientCpuSaturated, unit: Unit::Fraction, default: 0.9,
        help: "the run's processes used more than this share of the CPUs available to them, or the node was this busy" },
    Rule { id: AlertId::ReadNotFromDevice, unit: Unit::Fraction, default: 0.1,
        help: "the target's block device delivered less than this share of a read phase's bytes" },
];

impl AlertId {
    pub fn as_str(self) -> &'static str {
        match self {
            AlertId::ReadCached => "read-cached",
            AlertId::WriteNoFsync => "write-no-fsync",
            AlertId::ShortPhase => "short-phase",
            AlertId::DatasetFitsMemory => "dataset-fits-memory",
            AlertId::ReadFasterThanWrite => "read-faster-than-write",
            AlertId::Straggler => "straggler",
            AlertId::ReadSameNode => "read-same-node",
            AlertId::CacheDropLimited => "cache-drop-limited",
            AlertId::DlioDatasetBelowMinimum => "dlio-dataset-below-minimum",
            AlertId::DlioCheckpointCache => "dlio-checkpoint-cache",
            AlertId::WriteNotOnDevice => "write-not-on-device",
            AlertId::SmallDeviceRequests => "small-device-requests",
            AlertId::ClientCpuSaturated => "client-cpu-saturated",
            AlertId::ReadNotFromDevice => "read-not-from-device",
        }
    }

    pub fn parse(s: &str) -> Option<AlertId> {
        RULES.iter().map(|r| r.id).find(|id| id.as_str() == s)
    }

    pub fn rule(self) -> &'static Rule {
        RULES
            .iter()
            .find(|r| r.id == self)
            .expect("every id has a rule")
    }
}

/// The thresholds in force: the defaults of [`RULES`], as `--warn` changed them; `None` is off.
#[derive(Debug, Clone, PartialEq)]
pub struct Thresholds {
    values: BTreeMap<AlertId, Option<f64>>,
}

impl Default for Thresholds {
    fn default() -> Self {
        Thresholds {
            values: RULES.iter().map(|r| (r.id, Some(r.default))).collect(),
        }
    }
}

impl Thresholds {
    /// The threshold of `id`, `None` when it is off.
    pub fn get(&self, id: AlertId) -> Option<f64> {
        self.values.get(&id).copied().flatten()
    }

    pub fn is_on(&self, id: AlertId) -> bool {
        self.get(id).is_some()
    }

    /// Whether an alert with this id string is wanted (unknown ids are).
    pub fn wants(&self, id: &str) -> bool {
        AlertId::parse(id).is_none_or(|i| self.is_on(i))
    }

    /// Applies `ID=VALUE` (`read-cached=80%`, `short-phase=10s`, `straggler=2`,
    /// `write-no-fsync=off`); Err is the message for bad usage.
    pub fn set(&mut self, spec: &str) -> Result<(), String> {
        let ids = || {
            RULES
                .iter()
                .map(|r| r.id.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        };
        let (name, value) = spec
            .split_once('=')
            .ok_or_else(|| format!("--warn {spec}: give ID=VALUE or ID=off (ids: {})", ids()))?;
        let id = AlertId::parse(name)
            .ok_or_else(|| format!("--warn {spec}: no warning {name:?} (ids: {})", ids()))?;
        let v = match value {
            "off" => None,
            "on" => Some(id.rule().default),
            _ => Some(
                parse_value(id.rule().unit, value)
                    .ok_or_else(|| format!("--warn {spec}: {}", expected(id.rule().unit)))?,
            ),
        };
        self.values.insert(id, v);
        Ok(())
    }
}

fn expected(unit: Unit) -> &'static str {
    match unit {
        Unit::Fraction => "the value is a share: 0.5 or 50%, or off",
        Unit::Seconds => "the value is seconds: 5 or 5s, or off",
        Unit::Ratio => "the value is a factor above 0: 1.5, or off",
        Unit::Switch => "this warning has no threshold: on or off",
    }
}

fn parse_value(unit: Unit, v: &str) -> Option<f64> {
    let x = match unit {
        Unit::Fraction => match v.strip_suffix('%') {
            Some(p) => p.parse::<f64>().ok()? / 100.0,
            None => v.parse().ok()?,
        },
        Unit::Seconds => v.strip_suffix('s').unwrap_or(v).parse().ok()?,
        Unit::Ratio => v.parse().ok()?,
        Unit::Switch => return None,
    };
    let ok = x.is_finite()
        && match unit {
            Unit::Fraction => (0.0..=1.0).contains(&x),
            _ => x > 0.0,
        };
    ok.then_some(x)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_round_trip_and_are_unique() {
        let mut seen = std::collections::BTreeSet::new();
        for r in RULES {
            assert_eq!(AlertId::parse(r.id.as_str()), Some(r.id));
            assert!(seen.insert(r.id.as_str()));
        }
        assert_eq!(AlertId::parse("nothing"), None);
    }

    #[test]
    fn defaults_and_settings() {
        let mut t = Thresholds::default();
        assert_eq!(t.get(AlertId::ReadCached), Some(0.5));
        assert_eq!(t.get(AlertId::ShortPhase), Some(5.0));
        t.set("read-cached=80%").unwrap();
        t.set("short-phase=10s").unwrap();
        t.set("straggler=2").unwrap();
        t.set("write-no-fsync=off").unwrap();
        assert_eq!(t.get(AlertId::ReadCached), Some(0.8));
        assert_eq!(t.get(AlertId::ShortPhase), Some(10.0));
        assert_eq!(t.get(AlertId::Straggler), Some(2.0));
        assert!(!t.is_on(AlertId::WriteNoFsync) && !t.wants("write-no-fsync"));
        assert!(t.wants("some-future-id"));
        t.set("write-no-fsync=on").unwrap();
        assert!(t.is_on(AlertId::WriteNoFsync));
    }

    #[test]
    fn bad_settings_are_named() {
        let mut t = Thresholds::default();
        for (spec, says) in [
            ("read-cached", "give ID=VALUE"),
            ("cached=1", "no warning \"cached\""),
            ("read-cached=150%", "a share"),
            ("short-phase=-1", "seconds"),
            ("straggler=x", "a factor"),
            ("write-no-fsync=2", "no threshold"),
        ] {
            let e = t.set(spec).unwrap_err();
            assert!(e.starts_with(&format!("--warn {spec}: ")), "{e}");
            assert!(e.contains(says), "{spec}: {e}");
        }
        assert_eq!(t, Thresholds::default());
    }
}
