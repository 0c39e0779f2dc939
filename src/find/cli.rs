//! `iogauge find`: pfind's command line (GNU-find-like predicates after the paths) plus
//! iogauge's own options, parsed into a [`FindCommand`] without touching the file system.

use crate::world::prefixed;
use std::path::PathBuf;

use workload::find::{parse_size, FindParams, NamePattern, MIN_QUEUE_LENGTH};

/// A parsed `iogauge find` command line.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct FindCommand {
    /// The paths, predicates and pfind options.
    pub params: FindParams,
    pub tasks: Option<usize>,
    pub json: Option<PathBuf>,
    pub help: bool,
}

pub const HELP: &str = "\
iogauge find: a parallel find with pfind's semantics, as the IO500 find phase uses it

Usage: iogauge find [OPTIONS] PATH... [-newer FILE] [-size Nc] [-name GLOB]

Predicates (all given ones must hold; each at most once):
  -newer FILE   the entry's ctime is at least FILE's ctime, in whole seconds, both via lstat
                (pfind; GNU find compares mtime and needs strictly newer)
  -size Nc      exactly N bytes (lstat's st_size); only the c suffix, as in pfind
  -name GLOB    unanchored match on the entry name: '*' matches any run, every other character
                itself, so '*01*' and '01' both mean \"contains 01\" (pfind's regex semantics);
                ? [ ] \\ ^ $ are refused. Quote the pattern so the shell does not expand it.

Counting (pfind's): every non-directory entry found is examined and counted; directories are
read, not counted and never matched; an entry whose name does not match is counted without a
stat. Symlinks are entries, never followed.

Options:
  --tasks N     ranks (threads) walking the tree together, default 1
  -C            count only: print no paths
  -N            an idle rank steals from the previous rank half of the time, else from a
                random one (pfind -N); default: a random rank
  -q N          per-rank queue length before directories spill to a private list (pfind -q,
                default 100000, at least 10)
  -P            also print one result line per rank
  -D rates      accepted for pfind compatibility; the rate is always printed
  --json PATH   write the result document (docs/results.md)
  -h, --help    this help

Output: matching paths (unless -C), then the counts, runtime and rate (examined entries per
second over the slowest rank's walk, the IO500's find rate), and as the last line
MATCHED <found>/<examined>.

Examples:
  iogauge find --tasks 2 /data/io500 -newer /results/timestampfile -size 3901c -name '*01*' -C
  iogauge find /tmp/tree -name '*.log'
";

/// Accepted pfind options iogauge does not provide, with the reason.
pub const REFUSED: [(&str, &str); 8] = [
    ("-H", "splitting one directory between ranks (pfind -H) is not provided"),
    ("-e", "iogauge never deletes files it did not create (pfind -e erases matches)"),
    ("-E", "iogauge never deletes directories it did not create (pfind -E)"),
    ("-s", "pfind's stonewall timer is not provided (the IO500 does not use it)"),
    ("-M", "thread ranks steal without waiting for the victim, so pfind's readdir batch limit has no meaning"),
    ("-r", "per-rank result files are not provided; use --json"),
    ("-regex", "only -name is provided; write the pattern with '*' and literal characters"),
    ("-v", "verbosity levels are not provided; use -P for per-rank lines"),
];

/// Every option and predicate name, for suggestions.
pub const KNOWN: [&str; 12] = [
    "-newer", "-size", "-name", "-C", "-N", "-P", "-q", "-D", "--tasks", "--json", "--help", "-h",
];

fn suggest(word: &str) -> String {
    let names = KNOWN.iter().chain(REFUSED.iter().map(|(n, _)| n));
    match text::suggest(word, names.copied()) {
        Some(k) => format!("; did you mean {k}?"),
        None => "; see iogauge find --help".to_string(),
    }
}

fn number(name: &str, text: &str) -> Result<usize, String> {
    text.parse()
        .map_err(|_| prefixed("find", format!("{name} {text}: expected a whole number")))
}

/// pfind's flags: `-C`, `-N`, `-P`, bare or with a value (`-C=0`), as IOR's option.c reads
/// them.
fn flag_name(arg: &str) -> Option<&'static str> {
    let name = arg.split('=').next().unwrap_or(arg);
    ["-C", "-N", "-P"].into_iter().find(|f| *f == name)
}

/// A flag's state: on when bare, else its value's (`-C=0` off; negative is 0, as option.c;
/// atoi would drop a suffix, so one is refused).
fn flag_value(arg: &str, name: &str) -> Result<bool, String> {
    let Some(v) = arg.strip_prefix(name).and_then(|r| r.strip_prefix('=')) else {
        return Ok(true);
    };
    let bad = || {
        prefixed(
            "find",
            format!("{arg}: expected a plain integer (0 turns {name} off)"),
        )
    };
    let suffixed = v.ends_with(|c: char| c.is_ascii_alphabetic());
    match text::parse_signed(v) {
        Ok(n) if !suffixed => Ok(n > 0),
        _ => Err(bad()),
    }
}

/// `-q10000`, `-q10k`: a short option with its number attached.
fn is_attached_number(arg: &str, name: &str) -> bool {
    arg.strip_prefix(name)
        .is_some_and(|r| r.bytes().next().is_some_and(|b| b.is_ascii_digit()))
}

/// Splits `--name=value` and `-qVALUE` forms.
fn inline_value<'a>(arg: &'a str, name: &str) -> Option<&'a str> {
    let rest = arg.strip_prefix(name)?;
    if name.starts_with("--") {
        rest.strip_prefix('=')
    } else if rest.is_empty() {
        None
    } else {
        Some(rest.strip_prefix('=').unwrap_or(rest))
    }
}

pub fn parse(args: &[String]) -> Result<FindCommand, String> {
    let mut cmd = FindCommand::default();
    let mut saw_predicate = false;
    let mut it = args.iter().map(String::as_str);
    while let Some(arg) = it.next() {
        let mut value = |name: &str, what: &str| -> Result<String, String> {
            if let Some(v) = inline_value(arg, name) {
                return Ok(v.to_string());
            }
            it.next()
                .map(str::to_string)
                .ok_or_else(|| prefixed("find", format!("{name} needs {what}")))
        };
        match arg {
            "-h" | "--help" => cmd.help = true,
            a if flag_name(a).is_some() => {
                let name = flag_name(a).unwrap_or_default();
                let on = flag_value(a, name)?;
                match name {
                    "-C" => cmd.params.count_only = on,
                    "-N" => cmd.params.steal_next = on,
                    _ => cmd.params.per_rank = on,
                }
            }
            "-newer" | "-size" | "-name" => {
                saw_predicate = true;
                let twice = || {
                    prefixed(
                        "find",
                        format!("{arg} is given twice; give each predicate once"),
                    )
                };
                match arg {
                    "-newer" => {
                        let v = value(arg, "a reference file, e.g. -newer /results/timestampfile")?;
                        if cmd.params.newer.replace(v.into()).is_some() {
                            return Err(twice());
                        }
                    }
                    "-size" => {
                        let v = value(arg, "a size in bytes, e.g. -size 3901c")?;
                        let n = parse_size(&v).map_err(|e| prefixed("find", e))?;
                        if cmd.params.size.replace(n).is_some() {
                            return Err(twice());
                        }
                    }
                    _ => {
                        let v = value(arg, "a pattern, e.g. -name '*01*'")?;
                        NamePattern::parse(&v)
                            .map_err(|e| prefixed("find", format!("-name {v}: {e}")))?;
                        if cmd.params.name.replace(v).is_some() {
                            return Err(twice());
                        }
                    }
                }
            }
            a if a == "--tasks" || a.starts_with("--tasks=") => {
                let v = value("--tasks", "a number of ranks")?;
                cmd.tasks = Some(number("--tasks", &v)?);
            }
            a if a == "--json" || a.starts_with("--json=") => {
                cmd.json = Some(value("--json", "a file path")?.into());
            }
            a if a == "-q" || a.starts_with("-q=") || is_attached_number(a, "-q") => {
                let v = value("-q", "a queue length, e.g. -q 10000")?;
                // pfind reads -q with IOR's string_to_bytes: -q 10k is 10240.
                let n = text::parse_size(&v)
                    .ok()
                    .and_then(|n| usize::try_from(n).ok())
                    .ok_or_else(|| {
                        prefixed(
                            "find",
                            format!("-q {v}: expected a whole number, e.g. 10000 or 10k"),
                        )
                    })?;
                if n < MIN_QUEUE_LENGTH {
                    return Err(prefixed("find", format!(
                        "-q {n}: the queue must hold at least {MIN_QUEUE_LENGTH} directories (as in pfind)"
                    )));
                }
                cmd.params.queue_length = n;
            }
            a if a == "-D" || a.starts_with("-D=") || a == "-Drates" => {
                let v = value("-D", "rates")?;
                if v != "rates" {
                    return Err(prefixed(
                        "find",
                        format!("-D {v}: only -D rates is known (as in pfind)"),
                    ));
                }
            }
            a if a.starts_with('-') && a.len() > 1 => {
                let name = a.split('=').next().unwrap_or(a);
                let refused = REFUSED.iter().find(|(n, _)| {
                    // pfind's short options also come as -H1, -vvv.
                    let flag = n.as_bytes()[1];
                    *n == name
                        || (n.len() == 2
                            && name.starts_with(n)
                            && name
                                .bytes()
                                .skip(2)
                                .all(|b| b.is_ascii_digit() || b == flag))
                });
                return Err(prefixed(
                    "find",
                    match refused {
                        Some((n, why)) => format!("{n} is not supported: {why}"),
                        None => format!(
                            "unknown option or predicate {a}{} (predicates: -newer, -size, -name)",
                            suggest(name)
                        ),
                    },
                ));
            }
            path => {
                if saw_predicate {
                    return Err(prefixed(
                        "find",
                        format!(
                            "paths must come before the predicates: '{path}' (if it came from an \
                         unquoted pattern, quote it: -name '*01*')"
                        ),
                    ));
                }
                cmd.params.paths.push(path.into());
            }
        }
    }
    if cmd.params.paths.is_empty() && !cmd.help {
        return Err(prefixed("find", 
            "no path given; usage: iogauge find [OPTIONS] PATH... [-newer FILE] [-size Nc] [-name GLOB]",
        ));
    }
    Ok(cmd)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(line: &str) -> Result<FindCommand, String> {
        parse(
            &line
                .split_whitespace()
                .map(String::from)
                .collect::<Vec<_>>(),
        )
    }

    #[test]
    fn io500_command_line() {
        let c = p("/data -newer /r/timestampfile -size 3901c -name *01* -C -q 10000").unwrap();
        let f = &c.params;
        assert_eq!(f.paths, [PathBuf::from("/data")]);
        assert_eq!(f.newer, Some("/r/timestampfile".into()));
        assert_eq!(f.size, Some(3901));
        assert_eq!(f.name.as_deref(), Some("*01*"));
        assert!(f.count_only && !f.steal_next && !f.per_rank);
        assert_eq!(f.queue_length, 10000);
        let c = p("--tasks 4 -N a b -P -q=20 --json=x.json").unwrap();
        let f = &c.params;
        assert_eq!(
            (c.tasks, f.steal_next, f.per_rank, f.queue_length),
            (Some(4), true, true, 20)
        );
        assert_eq!(f.paths, [PathBuf::from("a"), "b".into()]);
        assert_eq!(c.json, Some("x.json".into()));
        assert_eq!(p("d -q50 -D rates").unwrap().params.queue_length, 50);
        assert_eq!(p("d -q 10k").unwrap().params.queue_length, 10240);
        let c = p("d -C=1 -N=0 -P -P=-1").unwrap().params;
        assert!(c.count_only && !c.steal_next && !c.per_rank);
        assert_eq!(p("d -q10k").unwrap().params.queue_length, 10240);
        assert_eq!(p("d -q 20 -q 30").unwrap().params.queue_length, 30);
        assert_eq!(
            p("d").unwrap().params.queue_length,
            workload::find::DEFAULT_QUEUE_LENGTH
        );
        assert!(p("--help").unwrap().help);
    }

    #[test]
    fn bad_input_is_named() {
        for (line, needle) in [
            ("", "no path given"),
            ("d -size 3901", "only sizes in bytes with the c suffix"),
            ("d -size", "-size needs a size"),
            ("d -newer", "-newer needs a reference file"),
            ("d -name", "-name needs a pattern"),
            ("d -name f?", "'?' is not supported"),
            ("d -sise 3901c", "did you mean -size?"),
            ("d --task 2", "did you mean --tasks?"),
            ("d -type f", "unknown option or predicate -type"),
            ("d -H 1", "-H is not supported"),
            ("d -H1", "-H is not supported"),
            ("d -vvv", "-v is not supported"),
            ("d -quiet", "unknown option or predicate -quiet"),
            ("d -e", "never deletes"),
            ("d -regex x", "only -name"),
            ("d -q 5", "at least 10"),
            ("d -q x", "-q x: expected a whole number"),
            ("d -q 1.5k", "-q 1.5k: expected a whole number"),
            ("d -C=yes", "-C=yes: expected a plain integer"),
            ("d -N=1k", "-N=1k: expected a plain integer"),
            ("d --tasks two", "--tasks two"),
            ("d -name a -name b", "-name is given twice"),
            (
                "d -name file01 file101",
                "paths must come before the predicates: 'file101'",
            ),
            ("d -D debug", "only -D rates"),
        ] {
            let e = p(line).unwrap_err();
            assert!(e.starts_with("find: ") && e.contains(needle), "{line}: {e}");
        }
    }
}
