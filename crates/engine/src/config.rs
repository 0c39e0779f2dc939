//! What a plan says about its engine: the API and the engine options given, as plain data
//! (serde, JSON Schema) so that plans and result documents carry it unchanged. Parsers fill
//! it, [`crate::check`] validates it, each engine's constructor reads it.

use std::collections::BTreeMap;
use std::fmt;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::registry::{find_option, ENGINES};

/// The value of an engine option: a flag, or a number (microseconds, counts).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(untagged)]
pub enum OptValue {
    Flag(bool),
    Number(u64),
}

impl fmt::Display for OptValue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OptValue::Flag(b) => write!(f, "{b}"),
            OptValue::Number(n) => write!(f, "{n}"),
        }
    }
}

impl OptValue {
    /// Whether `self` is of the same kind (flag or number) as `other`.
    pub fn same_kind(self, other: OptValue) -> bool {
        matches!(
            (self, other),
            (OptValue::Flag(_), OptValue::Flag(_)) | (OptValue::Number(_), OptValue::Number(_))
        )
    }
}

/// The engine of a plan.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct EngineConfig {
    /// IOR's `-a` name as the engine table spells it (`POSIX`, `MMAP`, `DUMMY`).
    pub api: String,
    /// Engine options given, by full name without dashes (`posix.odirect`,
    /// `dummy.delay-create`); options not given have their declared defaults.
    #[serde(default)]
    pub options: BTreeMap<String, OptValue>,
}

impl Default for EngineConfig {
    /// The default API is the first row of the engine table (POSIX), as in IOR.
    fn default() -> Self {
        EngineConfig::new(ENGINES[0].name)
    }
}

impl EngineConfig {
    /// `api` with no options given.
    pub fn new(api: &str) -> Self {
        EngineConfig {
            api: api.to_string(),
            options: BTreeMap::new(),
        }
    }

    /// Sets option `name` (full name, e.g. `posix.odirect`), replacing an earlier value.
    pub fn set(&mut self, name: &str, value: OptValue) {
        self.options.insert(name.to_string(), value);
    }

    /// The value of option `name`: as given, else its declared default (None when no engine
    /// declares it).
    pub fn value(&self, name: &str) -> Option<OptValue> {
        let given = self.options.get(name).copied();
        given.or_else(|| find_option(name).map(|(_, o)| o.default))
    }

    /// A flag option's value (false when unset or not a flag).
    pub fn flag(&self, name: &str) -> bool {
        self.value(name) == Some(OptValue::Flag(true))
    }

    /// A number option's value (0 when unset or not a number).
    pub fn number(&self, name: &str) -> u64 {
        match self.value(name) {
            Some(OptValue::Number(n)) => n,
            _ => 0,
        }
    }

    /// The options given with a value other than their declared default: those that change
    /// what an engine does. Undeclared names count as changed.
    pub fn changed(&self) -> impl Iterator<Item = (&str, OptValue)> + '_ {
        self.options
            .iter()
            .filter(|(name, v)| find_option(name).map_or(true, |(_, o)| o.default != **v))
            .map(|(name, v)| (name.as_str(), *v))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_and_given_values() {
        let mut c = EngineConfig::default();
        assert_eq!(c.api, "POSIX");
        assert!(!c.flag("posix.odirect"));
        assert_eq!(c.value("posix.odirect"), Some(OptValue::Flag(false)));
        assert_eq!(c.value("posix.nosuch"), None);
        c.set("posix.odirect", OptValue::Flag(true));
        c.set("dummy.delay-xfer", OptValue::Number(7));
        assert!(c.flag("posix.odirect"));
        assert_eq!(c.number("dummy.delay-xfer"), 7);
        assert_eq!(c.number("dummy.delay-close"), 0);
        c.set("posix.odirect", OptValue::Flag(false));
        let changed: Vec<_> = c.changed().map(|(n, _)| n).collect();
        assert_eq!(changed, ["dummy.delay-xfer"]);
    }

    #[test]
    fn serde_form() {
        let mut c = EngineConfig::new("DUMMY");
        c.set("dummy.delay-create", OptValue::Number(1));
        c.set("dummy.delay-only-rank0", OptValue::Flag(true));
        let json = serde_json::to_string(&c).unwrap();
        assert_eq!(
            json,
            r#"{"api":"DUMMY","options":{"dummy.delay-create":1,"dummy.delay-only-rank0":true}}"#
        );
        assert_eq!(serde_json::from_str::<EngineConfig>(&json).unwrap(), c);
        let bare: EngineConfig = serde_json::from_str(r#"{"api":"MMAP"}"#).unwrap();
        assert_eq!(bare, EngineConfig::new("MMAP"));
    }
}
