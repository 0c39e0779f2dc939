//! An [`EngineConfig`]'s option values with the defaults its engines declare filled in: the
//! part of the plan's engine data that needs the registry.

use crate::config::EngineConfig;
use crate::options::{EngineOption, OptKind, OptValue};
use crate::registry::{find_option, ENGINES};
use crate::secret::Secret;

impl Default for EngineConfig {
    /// The default API is the first row of the engine table (POSIX), as in IOR.
    fn default() -> Self {
        EngineConfig::new(ENGINES[0].name)
    }
}

impl EngineConfig {
    /// The value of option `name`: as given, else its declared default (None when no engine
    /// declares it, and for a secret not given).
    pub fn value(&self, name: &str) -> Option<OptValue> {
        let given = self.options.get(name).cloned();
        given.or_else(|| find_option(name).and_then(|(_, o)| o.kind.default_value()))
    }

    /// A flag option's value (false when unset or not a flag).
    pub fn flag(&self, name: &str) -> bool {
        self.value(name) == Some(OptValue::Flag(true))
    }

    /// A number or size option's value (0 when unset or not a number).
    pub fn number(&self, name: &str) -> u64 {
        match self.value(name) {
            Some(OptValue::Number(n)) => n,
            _ => 0,
        }
    }

    /// A text or path option's value (None when unset, empty or not text).
    pub fn text(&self, name: &str) -> Option<String> {
        match self.value(name) {
            Some(OptValue::Text(t)) if !t.is_empty() => Some(t),
            _ => None,
        }
    }

    /// A secret option's value: read from the file the option named, else from the
    /// environment variable its declaration names. None when neither has one.
    pub fn secret(&self, name: &str) -> Option<Secret> {
        self.secret_of(name, find_option(name)?.1)
    }

    /// [`EngineConfig::secret`] of option `opt`, whose full name is `name`.
    pub(crate) fn secret_of(&self, name: &str, opt: &EngineOption) -> Option<Secret> {
        if let Some(OptValue::Secret(s)) = self.options.get(name) {
            return Some(s.clone());
        }
        match opt.kind {
            OptKind::Secret { env: Some(var) } => Secret::from_env(var),
            _ => None,
        }
    }

    /// The options given with a value other than their declared default: those that change
    /// what an engine does. Undeclared names count as changed.
    pub fn changed(&self) -> impl Iterator<Item = (&str, &OptValue)> + '_ {
        self.options
            .iter()
            .filter(|(name, v)| find_option(name).is_none_or(|(_, o)| !o.is_default(v)))
            .map(|(name, v)| (name.as_str(), v))
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
