//! A YAML scalar as the type a DLIO key holds, the way DLIO's configs write them: `True` and
//! `true` for booleans, `1.0` for a whole number, sizes as plain numbers. Errors name the key.

use yaml_rust2::Yaml;

use super::error::{ConfigError, ErrorKind};

/// How a value reads in a message: as it was written.
pub(super) fn shown(v: &Yaml) -> String {
    match v {
        Yaml::Real(s) | Yaml::String(s) => s.clone(),
        Yaml::Integer(i) => i.to_string(),
        Yaml::Boolean(b) => if *b { "True" } else { "False" }.to_string(),
        Yaml::Null => "null".to_string(),
        Yaml::Array(_) => "a list".to_string(),
        Yaml::Hash(_) => "a mapping".to_string(),
        Yaml::Alias(_) | Yaml::BadValue => "an unreadable value".to_string(),
    }
}

fn bad(key: &str, v: &Yaml, wanted: &str) -> ConfigError {
    ConfigError::at(
        ErrorKind::BadValue,
        key,
        format!("{} is not {wanted}", shown(v)),
    )
}

pub(super) fn boolean(key: &str, v: &Yaml) -> Result<bool, ConfigError> {
    match v {
        Yaml::Boolean(b) => Ok(*b),
        // OmegaConf reads true/false in any case; YAML 1.2 resolves only three spellings.
        Yaml::String(s) if s.eq_ignore_ascii_case("true") => Ok(true),
        Yaml::String(s) if s.eq_ignore_ascii_case("false") => Ok(false),
        _ => Err(bad(key, v, "True or False")),
    }
}

/// A real number: an integer or a real, finite.
pub(super) fn real(key: &str, v: &Yaml) -> Result<f64, ConfigError> {
    let x = match v {
        Yaml::Integer(i) => *i as f64,
        Yaml::Real(s) => s.parse::<f64>().map_err(|_| bad(key, v, "a number"))?,
        _ => return Err(bad(key, v, "a number")),
    };
    if x.is_finite() {
        Ok(x)
    } else {
        Err(bad(key, v, "a finite number"))
    }
}

/// A whole number, signed; a real is taken when it is whole (`1.0`, `1e6`).
pub(super) fn signed(key: &str, v: &Yaml) -> Result<i64, ConfigError> {
    match v {
        Yaml::Integer(i) => Ok(*i),
        Yaml::Real(_) => {
            let x = real(key, v)?;
            // Up to 2^53 a double holds every whole number exactly.
            let exact = 9_007_199_254_740_992.0;
            if x.fract() == 0.0 && x.abs() <= exact {
                Ok(x as i64)
            } else {
                Err(bad(key, v, "a whole number"))
            }
        }
        _ => Err(bad(key, v, "a whole number")),
    }
}

/// A whole number, 0 or more.
pub(super) fn count(key: &str, v: &Yaml) -> Result<u64, ConfigError> {
    let n = signed(key, v)?;
    u64::try_from(n).map_err(|_| bad(key, v, "a whole number of 0 or more"))
}

/// Text: DLIO's string keys take whatever YAML gives (`name: 3d` is a string; `name: 12`
/// an integer that Python formats back as `12`).
pub(super) fn text(key: &str, v: &Yaml) -> Result<String, ConfigError> {
    match v {
        Yaml::String(s) | Yaml::Real(s) => Ok(s.clone()),
        Yaml::Integer(i) => Ok(i.to_string()),
        Yaml::Boolean(_) => Ok(shown(v)),
        _ => Err(bad(key, v, "text")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn y(s: &str) -> Yaml {
        yaml_rust2::YamlLoader::load_from_str(s).unwrap().remove(0)
    }

    #[test]
    fn the_forms_dlio_configs_use() {
        assert!(boolean("k", &y("True")).unwrap());
        assert!(!boolean("k", &y("false")).unwrap());
        assert!(boolean("k", &y("tRUE")).unwrap());
        assert_eq!(count("k", &y("1.0")).unwrap(), 1);
        assert_eq!(count("k", &y("1e6")).unwrap(), 1_000_000);
        assert_eq!(signed("k", &y("-1")).unwrap(), -1);
        assert_eq!(real("k", &y("114660.07")).unwrap(), 114660.07);
        assert_eq!(real("k", &y("7")).unwrap(), 7.0);
        assert_eq!(text("k", &y("data/unet3d")).unwrap(), "data/unet3d");
    }

    #[test]
    fn wrong_types_name_the_key_and_value() {
        for (v, says) in [
            ("1.5", "k: 1.5 is not a whole number"),
            ("-3", "k: -3 is not a whole number of 0 or more"),
            ("yes", "k: yes is not True or False"),
            ("'64'", "k: 64 is not a whole number"),
            ("1e999", "k: 1e999 is not a finite number"),
            ("[1, 2]", "k: a list is not a whole number"),
        ] {
            let e = if v == "yes" {
                boolean("k", &y(v)).unwrap_err()
            } else if v == "1e999" {
                real("k", &y(v)).unwrap_err()
            } else {
                count("k", &y(v)).unwrap_err()
            };
            assert_eq!(e.kind, ErrorKind::BadValue);
            assert_eq!(e.message, format!("workload.{says}"), "{v}");
        }
    }
}
