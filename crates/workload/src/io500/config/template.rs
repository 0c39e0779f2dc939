//! The `.ini` texts IO500 prints (`u_ini_print_values`): `--list`, `--list-mandatory` and the
//! resolved `config.ini` of the result directory.

use super::schema::{SectionSpec, SECTIONS};
use super::Config;

/// `[section]`, then per key an optional `# help` line and `key = value` (unset prints as
/// `key = `), then a blank line; for the given sections in order.
fn print_values<'a>(
    config: &Config,
    sections: impl Iterator<Item = (usize, &'a SectionSpec)>,
    help: bool,
) -> String {
    let mut out = String::new();
    for (s, spec) in sections {
        out.push_str(&format!("[{}]\n", spec.name));
        for (k, key) in spec.keys.iter().enumerate() {
            if help {
                out.push_str(&format!("# {}\n", key.help));
            }
            let value = config.values[s][k].as_deref().unwrap_or("");
            out.push_str(&format!("{} = {value}\n", key.name));
        }
        out.push('\n');
    }
    out
}

/// `io500 --list` (reference §6.2): every section with its help lines and the values of
/// `current` (the defaults for a plain `--list`).
pub fn template(current: &Config) -> String {
    let mut out = String::from("# Supported and current values of the ini file:\n");
    out.push_str(&print_values(current, SECTIONS.iter().enumerate(), true));
    out
}

/// `io500 --list-mandatory`: as [`template`] without the extended-mode-only sections.
pub fn template_mandatory(current: &Config) -> String {
    let mut out =
        String::from("# Supported and current values of the ini file (Mandatory Phases Only):\n");
    let sections = SECTIONS.iter().enumerate().filter(|(_, s)| !s.optional);
    out.push_str(&print_values(current, sections, true));
    out
}

/// `config.ini` as IO500 writes it to the result directory: resolved values, no help.
pub(super) fn resolved_ini(config: &Config) -> String {
    print_values(config, SECTIONS.iter().enumerate(), false)
}
