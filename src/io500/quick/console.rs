//! What `--quick` shows on the terminal. The result directory keeps the IO500's text, its
//! `ERROR INVALID` notes included; the terminal leaves out the stonewall-time rule that a quick
//! run breaks by design (its header says so once) and marks the score `[QUICK]`. Every other
//! reason a phase or the run is invalid is still shown, and keeps `[INVALID]` on its line.

use results::sink::Io500Text;
use workload::io500::format::{invalid_console, warning_console};
use workload::io500::phases::by_name;
use workload::io500::validity::{rule_of, Rule, Validity};

pub struct QuickConsole {
    stonewall_s: u64,
    /// The running phase's reasons (phase, reason), other than the stonewall-time rule; shown
    /// with its summary line, which follows them.
    pending: Vec<(String, String)>,
    /// A reason other than the stonewall-time rule spoils `[SCORE ]` / `[SCOREX]`.
    spoiled: bool,
    spoiled_extended: bool,
}

impl QuickConsole {
    pub fn new(stonewall_s: u64) -> QuickConsole {
        QuickConsole {
            stonewall_s,
            pending: Vec::new(),
            spoiled: false,
            spoiled_extended: false,
        }
    }

    /// The terminal's text for a piece of the IO500's text (empty: nothing to show).
    pub fn show(&mut self, t: &Io500Text<'_>) -> String {
        match *t {
            Io500Text::Result(_) => String::new(),
            Io500Text::Warning(text) => warning_console(text),
            Io500Text::Invalid { context, reason } => self.invalid(context, reason),
            Io500Text::Summary(line) => self.summary(line),
        }
    }

    fn invalid(&mut self, context: &str, reason: &str) -> String {
        if rule_of(reason) == Rule::StonewallTime {
            return String::new();
        }
        self.spoiled_extended = true;
        match by_name(context) {
            Some(phase) => {
                self.spoiled |= !phase.optional();
                self.pending.push((context.to_string(), reason.to_string()));
                String::new()
            }
            // The whole run (`run`): no phase line follows to wait for.
            None => {
                self.spoiled = true;
                invalid_console(context, reason)
            }
        }
    }

    fn summary(&mut self, line: &str) -> String {
        let invalid = Validity::suffix(false);
        let body = line.strip_suffix('\n').unwrap_or(line);
        let bare = body.strip_suffix(invalid).unwrap_or(body);
        if let Some(tag) = body.get(..8).filter(|t| t.starts_with("[SCORE")) {
            let spoiled = if tag == "[SCOREX]" {
                self.spoiled_extended
            } else {
                self.spoiled
            };
            return format!("{bare} [QUICK]{}\n", Validity::suffix(!spoiled));
        }
        // A phase's line (or the version line): `[INVALID]` only for a reason shown above it.
        let notes = self.notes();
        let shown = if self.pending.is_empty() { bare } else { body };
        self.pending.clear();
        format!("{notes}{shown}\n")
    }

    /// The running phase's reasons. A write phase whose only fault is that it ended before
    /// the stonewall ran out of data: one line says why, in `--quick`'s terms. Otherwise the
    /// other reasons as the IO500 prints them (ending early then follows from them).
    fn notes(&self) -> String {
        let others: Vec<_> = self
            .pending
            .iter()
            .filter(|(_, r)| rule_of(r) != Rule::EndedEarly)
            .collect();
        match (self.pending.first(), others.is_empty()) {
            (Some((phase, _)), true) => format!(
                "INVALID ({phase}) its data ran out before the {} s stonewall: --quick caps the \
                 data at a share of the free space and memory, and this storage writes faster\n",
                self.stonewall_s
            ),
            _ => others
                .iter()
                .map(|(phase, r)| invalid_console(phase, r))
                .collect(),
        }
    }
}

#[cfg(test)]
#[path = "console_tests.rs"]
mod tests;
