//! The value of a secret engine option (a password, an access key). It is read from a file or
//! an environment variable, never from the command line's text, and never shown: `Display`
//! and `Debug` print `<secret>`, and its serde form (plans and result documents record the
//! engine options) is the string `"<secret>"` without the value. A secret read back from a
//! document is that placeholder: its value is gone.

use std::fmt;
use std::path::Path;

use schemars::JsonSchema;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// What a secret shows wherever it is printed or stored.
pub const SHOWN: &str = "<secret>";

/// A secret value; `None` once it has been through a document.
#[derive(Clone, PartialEq, Eq)]
pub struct Secret(Option<String>);

impl Secret {
    pub fn new(value: String) -> Self {
        Secret(Some(value))
    }

    /// A secret whose value is not known (read back from a document).
    pub fn redacted() -> Self {
        Secret(None)
    }

    /// The value, for the engine that sends it; never print it.
    pub fn expose(&self) -> Option<&str> {
        self.0.as_deref()
    }

    /// The first line of `file` (a key file ends with a newline the key does not have).
    /// `option` names the option in the message, which never quotes the file's name: a user
    /// who typed the secret itself where the file belongs would see it printed.
    pub fn read_file(option: &str, file: &Path) -> Result<Secret, String> {
        let text = std::fs::read_to_string(file).map_err(|e| {
            format!(
                "{option}: the value names a file that holds the secret, and it cannot be read \
                 ({}); a secret is never given on the command line itself",
                crate::errno::describe(&e)
            )
        })?;
        let value = text.lines().next().unwrap_or_default();
        if value.is_empty() {
            return Err(format!("{option}: the secret's file is empty"));
        }
        Ok(Secret::new(value.to_string()))
    }

    /// The value of environment variable `var`, if it is set and not empty.
    pub fn from_env(var: &str) -> Option<Secret> {
        std::env::var(var)
            .ok()
            .filter(|v| !v.is_empty())
            .map(Secret::new)
    }
}

impl fmt::Display for Secret {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(SHOWN)
    }
}

impl fmt::Debug for Secret {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(SHOWN)
    }
}

impl Serialize for Secret {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(SHOWN)
    }
}

/// Only the placeholder deserializes to a secret, so an untagged [`crate::OptValue`] reads
/// any other string as text.
impl<'de> Deserialize<'de> for Secret {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let s = String::deserialize(d)?;
        if s == SHOWN {
            Ok(Secret::redacted())
        } else {
            Err(serde::de::Error::custom("not the secret placeholder"))
        }
    }
}

impl JsonSchema for Secret {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "Secret".into()
    }

    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({
            "description": "A secret engine option: its value is never recorded.",
            "const": SHOWN
        })
    }
}
