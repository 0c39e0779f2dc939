//! An option table: what a tool accepts (letter, long name, `-O` keys, help), what it refuses
//! by name, and the few ways its syntax differs from another tool's. The tokenizer and the
//! help text read it; nothing else lists options.

use engine::EngineOption;

use super::UsageError;

/// Whether an option takes a value. Flags count how often they are given (`-vvv` = 3) and
/// accept an explicit value (`-F=0`, `-O filePerProc=1`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Arg {
    Flag,
    Value,
}

/// Where an option comes from, for the help text's marks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Origin {
    /// The tool's own option (IOR's, mdtest's), same meaning.
    Tool,
    /// The tool's option, behaviour noted in the help.
    Differs,
    /// An iogauge addition.
    Iogauge,
}

/// One accepted option; `T` is what it sets, `G` its help section.
#[derive(Debug, Clone, Copy)]
pub struct Spec<T, G> {
    /// The letter (`-t`), if any.
    pub short: Option<char>,
    /// The long name (`--transferSize`), matched case-sensitively as in IOR.
    pub long: Option<&'static str>,
    /// `-O` keys (case-insensitive); IOR accepts every long name of its table as a key.
    pub keys: &'static [&'static str],
    pub arg: Arg,
    pub target: T,
    pub group: G,
    pub origin: Origin,
    /// Placeholder for the value in the help text (`SIZE`, `N`, ...); empty for flags.
    pub meta: &'static str,
    /// Default shown in the help text; empty for none.
    pub default: &'static str,
    pub help: &'static str,
}

/// One refused option: named so that it is never silently ignored.
#[derive(Debug, Clone, Copy)]
pub struct Refused {
    pub short: Option<char>,
    pub long: Option<&'static str>,
    pub keys: &'static [&'static str],
    pub reason: &'static str,
}

/// A table row: `' '` is no letter, `""` no long name.
#[allow(clippy::too_many_arguments)]
pub const fn spec<T, G>(
    short: char,
    long: &'static str,
    keys: &'static [&'static str],
    arg: Arg,
    target: T,
    group: G,
    origin: Origin,
    meta: &'static str,
    default: &'static str,
    help: &'static str,
) -> Spec<T, G> {
    Spec {
        short: if short == ' ' { None } else { Some(short) },
        long: if long.is_empty() { None } else { Some(long) },
        keys,
        arg,
        target,
        group,
        origin,
        meta,
        default,
        help,
    }
}

/// A row of a table without `-O` keys (mdtest's, md-workbench's): `' '` is no letter, `""`
/// no long name.
#[allow(clippy::too_many_arguments)]
pub const fn opt<T, G>(
    short: char,
    long: &'static str,
    arg: Arg,
    target: T,
    group: G,
    origin: Origin,
    meta: &'static str,
    default: &'static str,
    help: &'static str,
) -> Spec<T, G> {
    spec(
        short,
        long,
        &[],
        arg,
        target,
        group,
        origin,
        meta,
        default,
        help,
    )
}

/// A refused row: `' '` is no letter, `""` no long name.
pub const fn refuse(
    short: char,
    long: &'static str,
    keys: &'static [&'static str],
    reason: &'static str,
) -> Refused {
    Refused {
        short: if short == ' ' { None } else { Some(short) },
        long: if long.is_empty() { None } else { Some(long) },
        keys,
        reason,
    }
}

/// How a refused option is named in messages: `-c (--collective)`, `-f`, `--dryRun`,
/// `-O numNodes`.
pub fn display_refused(r: &Refused) -> String {
    match (r.short, r.long) {
        (Some(c), Some(l)) => format!("-{c} (--{l})"),
        (Some(c), None) => format!("-{c}"),
        (None, Some(l)) => format!("--{l}"),
        (None, None) => format!("-O {}", r.keys.first().copied().unwrap_or("?")),
    }
}

/// A tool's options and the rules in which its parser differs from another's.
pub struct Table<T: 'static, G: 'static> {
    /// The tool's name, starting every message: `ior`.
    pub tool: &'static str,
    pub options: &'static [Spec<T, G>],
    pub refused: &'static [Refused],
    /// The option whose value is IOR's `-O KEY=VALUE[,...]`; `None`: no `-O` keys.
    pub directive: Option<T>,
    /// `-O` keys refused by prefix (IOR's `IOR_HINT__*`): lower-case prefix and reason.
    pub refused_key_prefix: Option<(&'static str, &'static str)>,
    /// Why a bare argument is wrong: `IOR takes no operands; the file name goes to -o`.
    pub operands: &'static str,
    /// Only the engine options marked for metadata workloads are accepted (mdtest).
    pub metadata_only: bool,
    /// Hints for a long option typed with one dash (`-verify-read`) or a letter with two
    /// (`--n`); IOR reads `-verify-read` as a group of letters, as its parser does.
    pub dash_hints: bool,
    /// The reason given for a back-end module option the tool does not take.
    pub module_refusal: fn(&str) -> String,
}

impl<T: Copy + PartialEq, G> Table<T, G> {
    /// Bad usage, with the tool's name in front: `ior: -t needs a value`.
    pub fn usage(&self, msg: impl Into<String>) -> UsageError {
        UsageError(format!("{}: {}", self.tool, msg.into()))
    }

    pub fn by_short(&self, c: char) -> Option<&'static Spec<T, G>> {
        self.options.iter().find(|o| o.short == Some(c))
    }

    pub fn by_long(&self, name: &str) -> Option<&'static Spec<T, G>> {
        self.options.iter().find(|o| o.long == Some(name))
    }

    pub fn by_key(&self, key: &str) -> Option<&'static Spec<T, G>> {
        let keys = |o: &&Spec<T, G>| o.keys.iter().any(|k| k.eq_ignore_ascii_case(key));
        self.options.iter().find(keys)
    }

    pub fn refused_short(&self, c: char) -> Option<&'static Refused> {
        self.refused.iter().find(|r| r.short == Some(c))
    }

    pub fn refused_long(&self, name: &str) -> Option<&'static Refused> {
        self.refused.iter().find(|r| r.long == Some(name))
    }

    pub fn refused_key(&self, key: &str) -> Option<&'static Refused> {
        self.refused
            .iter()
            .find(|r| r.keys.iter().any(|k| k.eq_ignore_ascii_case(key)))
    }

    /// Whether the tool takes this engine option.
    pub fn accepts(&self, o: &EngineOption) -> bool {
        !self.metadata_only || o.metadata
    }
}

/// Why a metadata tool (mdtest, md-workbench) refuses a back-end module option: only the
/// engine options marked for metadata workloads are taken.
pub fn metadata_module_refusal(tool: &str, module: &str) -> String {
    let longs: Vec<String> = engine::all_options()
        .filter(|(_, o)| o.metadata)
        .map(|(e, o)| format!("--{}", e.full_name(o)))
        .collect();
    format!(
        "back-end module options are not supported by iogauge {tool} (only {}; module {module})",
        text::join_words(&longs, "and")
    )
}

/// No letter or long name twice among a table's accepted and refused options and the engine
/// options; every option has a name, and a placeholder exactly when it takes a value.
#[cfg(test)]
pub fn check_unique_names<T: std::fmt::Debug, G>(options: &[Spec<T, G>], refused: &[Refused]) {
    use std::collections::HashSet;
    let mut shorts = HashSet::new();
    let mut longs = HashSet::new();
    let engine_opts: Vec<String> = engine::all_options().map(|(e, o)| e.full_name(o)).collect();
    let all = options
        .iter()
        .map(|o| (o.short, o.long))
        .chain(refused.iter().map(|r| (r.short, r.long)))
        .chain(engine_opts.iter().map(|n| (None, Some(n.as_str()))));
    for (s, l) in all {
        if let Some(s) = s {
            assert!(shorts.insert(s), "short -{s} twice");
        }
        if let Some(l) = l {
            assert!(longs.insert(l), "long --{l} twice");
        }
    }
    for o in options {
        assert!(o.short.is_some() || o.long.is_some());
        assert_eq!(o.arg == Arg::Value, !o.meta.is_empty(), "{:?}", o.target);
    }
}
