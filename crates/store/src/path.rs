//! Where the store lives when `--db` does not say: the XDG data directory.

use std::ffi::OsString;
use std::path::PathBuf;

const FILE: &str = "iogauge/results.sqlite";

/// `$XDG_DATA_HOME/iogauge/results.sqlite`, else `~/.local/share/iogauge/results.sqlite`;
/// None when neither variable gives a directory.
pub fn default_path() -> Option<PathBuf> {
    default_path_from(std::env::var_os("XDG_DATA_HOME"), std::env::var_os("HOME"))
}

/// [`default_path`] from the two variables' values. The XDG spec ignores a relative
/// `XDG_DATA_HOME`, so does this.
pub fn default_path_from(
    xdg_data_home: Option<OsString>,
    home: Option<OsString>,
) -> Option<PathBuf> {
    let absolute = |v: Option<OsString>| v.map(PathBuf::from).filter(|p| p.is_absolute());
    if let Some(data) = absolute(xdg_data_home) {
        return Some(data.join(FILE));
    }
    absolute(home).map(|h| h.join(".local/share").join(FILE))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(s: &str) -> Option<OsString> {
        Some(OsString::from(s))
    }

    #[test]
    fn xdg_first_then_home() {
        assert_eq!(
            default_path_from(p("/data"), p("/home/u")),
            Some(PathBuf::from("/data/iogauge/results.sqlite"))
        );
        assert_eq!(
            default_path_from(None, p("/home/u")),
            Some(PathBuf::from("/home/u/.local/share/iogauge/results.sqlite"))
        );
        assert_eq!(
            default_path_from(p("relative"), p("/home/u")),
            Some(PathBuf::from("/home/u/.local/share/iogauge/results.sqlite"))
        );
        assert_eq!(default_path_from(p(""), p("")), None);
        assert_eq!(default_path_from(None, None), None);
    }
}
