//! Options the tokenizer cannot place: named in the error, with the nearest known spelling
//! when one is close (`text::suggest`), but never pointed at a refused option or at an engine
//! option the tool does not take.

use super::fields::Fields;
use super::tokenize::Tokenizer;

/// `--posix.odirect`, ... for the engine options that pass `keep`.
fn engine_longs(keep: impl Fn(&engine::EngineOption) -> bool) -> Vec<String> {
    engine::all_options()
        .filter(|(_, o)| keep(o))
        .map(|(e, o)| format!("--{}", e.full_name(o)))
        .collect()
}

impl<T: Copy + PartialEq, G, F: Fields<T>> Tokenizer<'_, T, G, F> {
    /// A letter neither taken nor refused: `-J`, `-J (in -wJ)`.
    pub(super) fn unknown_short(&self, shown: &str, arg: &str, body: &str) -> String {
        let within = if body.chars().count() > 1 {
            format!(" (in {arg})")
        } else {
            String::new()
        };
        let tool = self.table.tool;
        format!("unknown option {shown}{within}; see iogauge {tool} --help")
    }

    /// A long option typed with one dash (`-verify-read`), which would otherwise parse as a
    /// group of letters; only for tables with dash hints.
    pub(super) fn one_dash_long(&self, arg: &str, body: &str) -> Option<String> {
        let t = self.table;
        let named = body.split('=').next().unwrap_or(body);
        let known = t.by_long(named).is_some()
            || t.refused_long(named).is_some()
            || self.engine_option(named).is_some();
        (t.dash_hints && named.chars().count() > 1 && known)
            .then(|| format!("unknown option {arg}; did you mean --{body}?"))
    }

    pub(super) fn unknown_long(&self, name: &str, shown: &str) -> String {
        let t = self.table;
        if let Some(spec) = t.by_key(name).filter(|s| s.long.is_none()) {
            let key = spec.keys[0];
            return format!(
                "unknown option {shown}; {key} is an -O key: use -O {key}={}",
                spec.meta
            );
        }
        let all_engine = engine_longs(|_| true);
        let accepted = engine_longs(|o| t.accepts(o));
        let listed = |list: &[String], s: &str| list.iter().any(|l| l == s);
        let taken = |s: &&str| !listed(&all_engine, s) || listed(&accepted, s);
        if let Some(why) = engine::refused_option(name) {
            return format!("{shown} is not supported: {why}");
        }
        if let Some(module) = engine::module_of(name) {
            // A near miss of an engine's option of the same module gets a suggestion
            // (`--posix.odirekt`); other module options are refused (`--hdfs.odirect` is
            // IOR's HDFS option, not a typo).
            let near = text::suggest(name, all_engine.iter().map(String::as_str));
            let same_module = |s: &&str| {
                let m = s.trim_start_matches('-').split('.').next().unwrap_or("");
                m.eq_ignore_ascii_case(module)
            };
            if let Some(s) = near.filter(taken).filter(same_module) {
                return format!("unknown option {shown}; did you mean {s}?");
            }
            return format!("{shown} is not supported: {}", (t.module_refusal)(module));
        }
        // A letter typed with two dashes (`--n`).
        if let (Some(c), 1, true) = (name.chars().next(), name.chars().count(), t.dash_hints) {
            if t.by_short(c).is_some() {
                return format!("unknown option {shown}; did you mean -{c}?");
            }
        }
        let longs: Vec<String> = t
            .options
            .iter()
            .filter_map(|o| o.long)
            .chain(t.refused.iter().filter_map(|r| r.long))
            .map(|l| format!("--{l}"))
            .chain(all_engine.iter().cloned())
            .collect();
        // A near miss of a refused option gets no hint rather than another option.
        let hint = text::suggest(name, longs.iter().map(String::as_str))
            .filter(taken)
            .filter(|s| t.refused_long(&s[2..]).is_none())
            .map_or(String::new(), |s| format!("; did you mean {s}?"));
        format!("unknown option {shown}{hint}")
    }

    /// An `-O` key neither taken nor refused.
    pub(super) fn unknown_key(&self, key: &str) -> String {
        let t = self.table;
        let keys = t.options.iter().flat_map(|o| o.keys.iter());
        let engine_keys = engine::all_options()
            .filter(|(_, o)| t.accepts(o))
            .flat_map(|(_, o)| o.ior_keys.iter());
        let no_keys = t.refused.iter().flat_map(|r| r.keys.iter());
        let all = keys.chain(engine_keys).chain(no_keys).copied();
        // A near miss of a refused key gets no hint rather than another key.
        let hint = text::suggest(key, all)
            .filter(|k| t.refused_key(k).is_none())
            .map_or(String::new(), |k| format!("; did you mean {k}?"));
        format!("unknown -O key {key}{hint}")
    }
}
