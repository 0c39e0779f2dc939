//! `iogauge io500`'s command line: the IO500's own options (`io500 <ini> [--dry-run]
//! [--cleanup] [--config-hash] [--mode=...] [--timestamp=...] [-v] [--verbose=N]`, `--verify`,
//! `--list`, `--list-mandatory`) plus iogauge's (`--quick`, `--tasks`, `--dir`, `--json`).

use std::path::PathBuf;

use workload::io500::phases::Mode;

/// A parsed `iogauge io500` command line.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Io500Command {
    pub config: Option<PathBuf>,
    pub tasks: Option<usize>,
    pub dry_run: bool,
    pub list: bool,
    pub list_mandatory: bool,
    pub verify: Option<PathBuf>,
    pub mode: Mode,
    pub timestamp: Option<String>,
    pub quick: bool,
    pub dir: Option<PathBuf>,
    pub json: Option<PathBuf>,
    pub config_hash: bool,
    pub cleanup: bool,
    /// `-v` (counted) or `--verbose=N`: overrides `[global] verbosity`.
    pub verbosity: Option<u32>,
    pub help: bool,
}

pub const HELP: &str = "\
iogauge io500: the IO500 benchmark suite, with ranks as threads of one process

Usage:
  iogauge io500 --quick [--tasks N] [--dir DIR]    a short run: 5 s stonewall, data sized to the
                                                   room in DIR (not a valid IO500 submission),
                                                   results in ./results/<ts>
  iogauge io500 CONFIG.ini [options]               run an IO500 .ini unchanged
  iogauge io500 CONFIG.ini --dry-run               print each phase's command line, run nothing
  iogauge io500 CONFIG.ini --verify RESULT.txt     check result.txt's config and score hashes
  iogauge io500 --list | -l                        every section and key with default and help
  iogauge io500 --list-mandatory | -lm             the same without the extended-mode sections

Options:
  --tasks N              thread ranks (default: the available CPUs)
  --mode standard|extended
                         extended adds find-easy, find-hard and md-workbench's create, bench
                         and delete phases; [SCOREX] scores them too
  --timestamp TS         the run's timestamp (directory names and seeds); default: now
  --dir DIR              the data directory (the file system under test): [global] datadir
  --json PATH            also write the result document here (always: <resultdir>/result.json)
  --config-hash          print the configuration hash and exit
  --cleanup              run only the delete phases and clean-up of an earlier run (--timestamp)
  -v, --verbose=N        result.txt verbosity (as [global] verbosity)
  -h, --help             this help

A run writes, in resultdir/<timestamp>: result_summary.txt and result.txt in the IO500's format,
config-orig.ini and config.ini, <phase>.txt (each tool's output), <phase>.csv (per rank) and
result.json (iogauge's result document, rewritten after every phase). It removes the data it
wrote; it never removes what it did not create. See docs/io500.md.
";

pub const KNOWN: [&str; 17] = [
    "--tasks",
    "--dry-run",
    "--list",
    "--list-mandatory",
    "--verify",
    "--mode",
    "--timestamp",
    "--quick",
    "--dir",
    "--json",
    "--config-hash",
    "--cleanup",
    "--verbose",
    "--help",
    "-l",
    "-lm",
    "-v",
];

fn suggest(word: &str) -> String {
    text::suggest(word, KNOWN).map_or_else(
        || "; see iogauge io500 --help".to_string(),
        |k| format!("; did you mean {k}?"),
    )
}

/// Parses the arguments after `io500`. Errors start with `io500: ` (exit status 2).
pub fn parse(args: &[String]) -> Result<Io500Command, String> {
    let mut c = Io500Command::default();
    let mut i = 0;
    while i < args.len() {
        let arg = args[i].as_str();
        let (name, inline) = match arg.split_once('=') {
            Some((n, v)) if n.starts_with("--") => (n, Some(v.to_string())),
            _ => (arg, None),
        };
        let mut value = |what: &str| -> Result<String, String> {
            if let Some(v) = &inline {
                return Ok(v.clone());
            }
            i += 1;
            args.get(i)
                .cloned()
                .filter(|v| !v.is_empty())
                .ok_or_else(|| format!("io500: {name} needs {what}"))
        };
        match name {
            "-h" | "--help" => c.help = true,
            "-l" | "--list" => c.list = true,
            "-lm" | "--list-mandatory" => c.list_mandatory = true,
            "--dry-run" => c.dry_run = true,
            "--quick" => c.quick = true,
            "--config-hash" => c.config_hash = true,
            "--cleanup" => c.cleanup = true,
            "-v" => c.verbosity = Some(c.verbosity.unwrap_or(0) + 1),
            "--verbose" => {
                let v = value("a level")?;
                let n = v
                    .parse()
                    .map_err(|_| format!("io500: --verbose={v}: expected 1 to 10"))?;
                c.verbosity = Some(n);
            }
            "--tasks" => {
                let v = value("a number")?;
                let n: usize = v
                    .parse()
                    .map_err(|_| format!("io500: --tasks {v}: expected a whole number"))?;
                if n == 0 {
                    return Err("io500: --tasks 0: at least 1 is needed".into());
                }
                c.tasks = Some(n);
            }
            "--mode" => {
                c.mode = match value("standard or extended")?.as_str() {
                    "standard" => Mode::Standard,
                    "extended" => Mode::Extended,
                    other => {
                        return Err(format!(
                            "io500: --mode {other}: expected standard or extended"
                        ))
                    }
                }
            }
            "--timestamp" => c.timestamp = Some(value("a value")?),
            "--verify" => c.verify = Some(PathBuf::from(value("a result.txt")?)),
            "--dir" => c.dir = Some(PathBuf::from(value("a directory")?)),
            "--json" => c.json = Some(PathBuf::from(value("a path")?)),
            _ if arg.starts_with('-') && arg.len() > 1 => {
                return Err(format!("io500: unknown option {name}{}", suggest(name)))
            }
            _ if c.config.is_none() => c.config = Some(PathBuf::from(arg)),
            _ => {
                return Err(format!(
                    "io500: unexpected argument \"{arg}\" (the config file is {})",
                    c.config
                        .as_ref()
                        .map_or(String::new(), |p| p.display().to_string())
                ))
            }
        }
        i += 1;
    }
    if c.quick && c.config.is_some() {
        return Err(
            "io500: --quick runs without a config file; to shorten a config run, lower \
                    [debug] stonewall-time and the sizes in it"
                .into(),
        );
    }
    if c.quick && (c.cleanup || c.verify.is_some()) {
        return Err("io500: --quick cannot be combined with --cleanup or --verify".into());
    }
    Ok(c)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(line: &str) -> Result<Io500Command, String> {
        parse(
            &line
                .split_whitespace()
                .map(String::from)
                .collect::<Vec<_>>(),
        )
    }

    #[test]
    fn io500_and_iogauge_options() {
        let c = p("my.ini --dry-run --mode=extended --timestamp=TS -v -v --tasks 3").unwrap();
        assert_eq!(c.config, Some(PathBuf::from("my.ini")));
        assert!(c.dry_run && c.mode == Mode::Extended);
        assert_eq!(
            (c.timestamp.as_deref(), c.verbosity, c.tasks),
            (Some("TS"), Some(2), Some(3))
        );
        let c = p("my.ini --verify r/result.txt --timestamp T2 --mode standard").unwrap();
        assert_eq!(c.verify, Some(PathBuf::from("r/result.txt")));
        assert_eq!(c.timestamp.as_deref(), Some("T2"));
        let c = p("--quick --dir /tmp/x --json j.json --verbose=3").unwrap();
        assert!(c.quick && c.config.is_none());
        assert_eq!(
            (c.dir, c.json, c.verbosity),
            (Some("/tmp/x".into()), Some("j.json".into()), Some(3))
        );
        assert!(p("-l").unwrap().list && p("-lm").unwrap().list_mandatory);
        assert!(p("x.ini --config-hash --cleanup").unwrap().cleanup);
    }

    #[test]
    fn bad_usage_is_named() {
        for (line, needle) in [
            ("--quik", "unknown option --quik; did you mean --quick?"),
            ("a.ini --dry_run", "did you mean --dry-run?"),
            ("--mode fast", "--mode fast: expected standard or extended"),
            ("--tasks 0", "--tasks 0: at least 1"),
            ("--tasks", "--tasks needs a number"),
            ("--timestamp", "--timestamp needs a value"),
            ("a.ini b.ini", "unexpected argument \"b.ini\""),
            ("a.ini --quick", "--quick runs without a config file"),
        ] {
            let e = p(line).unwrap_err();
            assert!(
                e.starts_with("io500: ") && e.contains(needle),
                "{line}: {e}"
            );
        }
    }
}
