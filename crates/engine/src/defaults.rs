//! An [`EngineConfig`]'s option values with the defaults its engines declare filled in: the
//! part of the plan's engine data that needs the registry.

use crate::config::EngineConfig;
use crate::options::OptValue;
use crate::registry::{find_option, ENGINES};

impl Default for EngineConfig {
    /// The default API is the first row of the engine table (POSIX), as in IOR.
    fn default() -> Self {
        EngineConfig::new(ENGINES[0].name)
    }
}

impl EngineConfig {
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
            .filter(|(name, v)| find_option(name).is_none_or(|(_, o)| o.default != **v))
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
}
