//! The tokenizer: IOR's token rules (`option.c`) over a tool's [`Table`]. What it finds goes
//! to the tool's [`Fields`]; what it cannot place is refused or unknown (`unknown.rs`).

use engine::{EngineInfo, EngineOption, OptValue};
use text::parse_signed;

use super::fields::{atoi_suffix, Fields, Given};
use super::table::{display_refused, Arg, Refused, Spec, Table};
use super::UsageError;

/// Whether the next token was taken as a value; errors without the tool's name.
pub(super) type Step = Result<bool, String>;

impl<T: Copy + PartialEq, G> Table<T, G> {
    /// Parses a tool's arguments into `fields` (the rules are in the module docs).
    pub fn parse(&self, fields: &mut impl Fields<T>, args: &[String]) -> Result<(), UsageError> {
        let mut t = Tokenizer {
            table: self,
            fields,
        };
        let mut i = 0;
        while i < args.len() {
            let next = args.get(i + 1).map(String::as_str);
            let used_next = t.token(&args[i], next, "").map_err(|m| self.usage(m))?;
            i += 1 + usize::from(used_next);
        }
        Ok(())
    }
}

pub(super) struct Tokenizer<'a, T: 'static, G: 'static, F> {
    pub(super) table: &'a Table<T, G>,
    fields: &'a mut F,
}

/// `{name} is not supported: {reason}`, named as typed (`-O numNodes`) or as the table has it.
pub(super) fn refused(r: &Refused, shown: Option<&str>) -> String {
    let name = shown.map_or_else(|| display_refused(r), str::to_string);
    format!("{name} is not supported: {}", r.reason)
}

impl<T: Copy + PartialEq, G, F: Fields<T>> Tokenizer<'_, T, G, F> {
    /// One command-line token; `ctx` is `"-O "` for options given inside `-O`.
    fn token(&mut self, arg: &str, next: Option<&str>, ctx: &str) -> Step {
        if let Some(body) = arg.strip_prefix("--").filter(|b| !b.is_empty()) {
            self.long(body, next, ctx)
        } else if let Some(body) = arg.strip_prefix('-').filter(|b| !b.is_empty()) {
            self.short_group(arg, body, next, ctx)
        } else {
            let why = self.table.operands;
            Err(format!("unexpected argument \"{arg}\" ({why})"))
        }
    }

    fn long(&mut self, body: &str, next: Option<&str>, ctx: &str) -> Step {
        let (name, inline) = match body.split_once('=') {
            Some((n, v)) => (n, Some(v)),
            None => (body, None),
        };
        let shown = format!("{ctx}--{name}");
        if let Some(spec) = self.table.by_long(name) {
            return self.apply(spec, &shown, inline, next, false);
        }
        if let Some((info, opt)) = self.engine_option(name) {
            return self.engine_value(info, opt, &shown, inline, next);
        }
        if let Some(r) = self.table.refused_long(name) {
            return Err(refused(r, None));
        }
        Err(self.unknown_long(name, &shown))
    }

    fn short_group(&mut self, arg: &str, body: &str, next: Option<&str>, ctx: &str) -> Step {
        if let Some(hint) = self.one_dash_long(arg, body) {
            return Err(hint);
        }
        let mut rest = body;
        while let Some(c) = rest.chars().next() {
            let after = &rest[c.len_utf8()..];
            let shown = format!("{ctx}-{c}");
            let Some(spec) = self.table.by_short(c) else {
                if let Some(r) = self.table.refused_short(c) {
                    return Err(refused(r, None));
                }
                return Err(self.unknown_short(&shown, arg, body));
            };
            match spec.arg {
                Arg::Flag => {
                    if let Some(v) = after.strip_prefix('=') {
                        return self.apply(spec, &shown, Some(v), None, false);
                    }
                    self.apply(spec, &shown, None, None, false)?;
                    rest = after;
                }
                Arg::Value => {
                    // `-t1m`, `-t=1m`, or the value in the next token (`-t 1m`).
                    let inline =
                        (!after.is_empty()).then(|| after.strip_prefix('=').unwrap_or(after));
                    return self.apply(spec, &shown, inline, next, false);
                }
            }
        }
        Ok(false)
    }

    /// Applies one option. `inline` is a value attached to the token; `next` the following
    /// token, taken as the value when needed; `key`: given as an `-O` key.
    fn apply(
        &mut self,
        spec: &Spec<T, G>,
        shown: &str,
        inline: Option<&str>,
        next: Option<&str>,
        key: bool,
    ) -> Step {
        match spec.arg {
            Arg::Flag => {
                // IOR reads a flag's value with atoi, on the command line too.
                if let Some(v) = inline {
                    atoi_suffix(shown, v, true)?;
                }
                let given = flag_value(shown, inline)?;
                self.fields.slot(spec.target).set(given);
                Ok(false)
            }
            Arg::Value => {
                // `-O` values may carry dashes (`-O --posix.odirect=1`).
                let directive = self.table.directive == Some(spec.target);
                let (text, used) = value_of(shown, inline, next, directive)?;
                if directive {
                    self.directive(text)?;
                } else {
                    self.fields.set(spec.target, Given { shown, text, key })?;
                }
                Ok(used)
            }
        }
    }

    /// The engine option `name` (`posix.odirect`) if the tool takes it.
    pub(super) fn engine_option(
        &self,
        name: &str,
    ) -> Option<(&'static EngineInfo, &'static EngineOption)> {
        engine::find_option(name).filter(|(_, o)| self.table.accepts(o))
    }

    /// An engine's option (`--posix.odirect`, `-O useO_DIRECT=1`, `--dummy.delay-xfer=5`):
    /// a flag as the tool's flags, else a value read as its kind says (`EngineOption::parse`:
    /// numbers and sizes with the size suffixes; a secret's value names its file).
    fn engine_value(
        &mut self,
        info: &EngineInfo,
        opt: &EngineOption,
        shown: &str,
        inline: Option<&str>,
        next: Option<&str>,
    ) -> Step {
        let (value, used) = if opt.takes_value() {
            let (v, used) = value_of(shown, inline, next, false)?;
            (opt.parse(shown, v)?, used)
        } else {
            let on = flag_value(shown, inline)?.is_none_or(|n| n > 0);
            (OptValue::Flag(on), false)
        };
        self.fields.engine().set(&info.full_name(opt), value);
        Ok(used)
    }

    /// IOR's `-O key=value[,key=value...]`: keys case-insensitive; dashed keys are options;
    /// `#` starts a comment, as in IOR's scripts (`ParseLine`).
    fn directive(&mut self, given: &str) -> Result<(), String> {
        let text = given.split('#').next().unwrap_or_default();
        for entry in text.split(',') {
            let entry = entry.trim();
            if entry.is_empty() {
                return Err(format!(
                    "-O \"{given}\": empty entry (expected KEY=VALUE[,KEY=VALUE...])"
                ));
            }
            let Some((key, value)) = entry.split_once('=') else {
                return Err(format!("-O {entry}: expected KEY=VALUE"));
            };
            let (key, value) = (key.trim(), value.trim());
            if key.starts_with('-') {
                // Module options keep their dashes: `-O --posix.odirect=1`.
                self.token(&format!("{key}={value}"), None, "-O ")?;
                continue;
            }
            let shown = format!("-O {key}");
            let engine_key = engine::find_ior_key(key).filter(|(_, o)| self.table.accepts(o));
            let lower = key.to_ascii_lowercase();
            let by_prefix = self.table.refused_key_prefix;
            if let Some(spec) = self.table.by_key(key) {
                self.apply(spec, &shown, Some(value), None, true)?;
            } else if let Some((info, opt)) = engine_key {
                self.engine_value(info, opt, &shown, Some(value), None)?;
            } else if let Some(r) = self.table.refused_key(key) {
                return Err(refused(r, Some(&shown)));
            } else if let Some((_, why)) = by_prefix.filter(|(p, _)| lower.starts_with(p)) {
                return Err(format!("{shown} is not supported: {why}"));
            } else {
                return Err(self.unknown_key(key));
            }
        }
        Ok(())
    }
}

/// A token that starts another option (but not a negative number such as `-1`).
fn is_option(token: &str) -> bool {
    let mut chars = token.chars();
    chars.next() == Some('-') && chars.next().is_some_and(|c| !c.is_ascii_digit())
}

/// The value of an option that takes one: attached to the token, or the next token unless
/// that starts another option (`-o -F`; `any` takes it regardless). Returns the value and
/// whether the next token was used.
fn value_of<'a>(
    shown: &str,
    inline: Option<&'a str>,
    next: Option<&'a str>,
    any: bool,
) -> Result<(&'a str, bool), String> {
    let missing = || format!("{shown} needs a value");
    let (value, used) = match (inline, next) {
        (Some(v), _) => (v, false),
        // A negative number is a value (`-X -1`).
        (None, Some(n)) if any || !is_option(n) => (n, true),
        _ => return Err(missing()),
    };
    if value.trim().is_empty() {
        return Err(missing());
    }
    Ok((value, used))
}

/// A flag's explicit value (`-F=0`), negative counting as 0 as in IOR; `None` when bare.
fn flag_value(shown: &str, explicit: Option<&str>) -> Result<Option<u32>, String> {
    let Some(v) = explicit else { return Ok(None) };
    let n = parse_signed(v).map_err(|e| format!("{shown}: {e}"))?;
    Ok(Some(n.clamp(0, i64::from(u32::MAX)) as u32))
}
