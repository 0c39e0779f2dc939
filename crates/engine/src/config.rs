//! What a plan says about its engine: the API and the engine options given, as plain data
//! (serde, JSON Schema) so that plans and result documents carry it unchanged. Parsers fill
//! it, [`crate::check`] validates it, each engine's constructor reads it; its values with the
//! declared defaults filled in are in `defaults.rs`.

use std::collections::BTreeMap;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::options::OptValue;

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
}

#[cfg(test)]
mod tests {
    use super::*;

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
