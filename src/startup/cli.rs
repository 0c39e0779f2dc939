//! `iogauge startup`'s command line, parsed into a [`StartupCommand`] and checked across
//! options without touching the file system (`preflight.rs` checks the paths).

use crate::world::prefixed;
use std::path::PathBuf;

use plan::startup::StartupParams;

/// A parsed `iogauge startup` command line.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct StartupCommand {
    pub params: StartupParams,
    pub tasks: Option<usize>,
    pub json: Option<PathBuf>,
    /// `--per-rank`: a line per rank after each phase.
    pub per_rank: bool,
    /// `--dry-run`: check and show what would run; touch nothing.
    pub dry_run: bool,
    pub help: bool,
}

pub const HELP: &str = "\
iogauge startup: the start of an application on every rank at once, as `time mpiexec` sees it

Usage: iogauge startup --dir DIR [OPTIONS]
       iogauge startup --tree DIR [--common-file FILE] [OPTIONS]

Every rank does what a starting application does, on files prepared before the timed phases:
  tree-read    stat, open, read to the end and close every file of a tree of small files (its
               imports); by default a generated tree shaped like a Python package set: 600
               files of 1-16 KiB in nested packages (`__init__.py`, modules, subpackages)
  common-read  stat, open, read sequentially and close one common large file (its binary or
               data; RIKEN's \"dd 256 MiB per process\")
The headline is the time until the last rank is done, from the barrier all ranks leave
together; also the spread of the ranks' own times and the metadata (stats + opens) and data
rates over that time.

What is read:
  --dir DIR            make DIR/iogauge-startup with the generated tree and/or common file
                       before the phases and remove exactly those after (DIR must exist)
  --files N            files of the generated tree (default 600; 0: no tree)
  --seed N             the generated tree's shape and data (default 1)
  --tree DIR           read this existing tree instead (never modified; symbolic links and
                       special files are skipped)
  --common-size SIZE   generate a common file of SIZE (k/m/g, powers of 1024; e.g. 256m)
  --common-file FILE   read this existing file as the common file (never modified); alone
                       (no --dir, --tree or --files) it is all that is read
  --transfer SIZE      bytes per read call (default 1m)

How the ranks start:
  --tasks N            ranks (threads; under mpirun: at most the MPI ranks)
  --ranks-per-node N   only the first N ranks of each node read; the others wait
  --stagger DURATION   reader i starts i times this after the first (e.g. 10ms; default 0)
  --iterations N       start-ups in a row (default 1)
  --drop-caches[=auto|system|files]   drop the caches before each phase (uncached start)

Output:
  --per-rank           a line per rank after each phase
  --json PATH          write the result document (docs/results.md)
  --dry-run            check everything and show what would run; nothing is made or read
  --keep               leave what was generated (for later runs with --tree/--common-file)
  -h, --help           this help

Examples:
  iogauge startup --tasks 8 --dir /scratch/me
  iogauge startup --tasks 8 --dir /scratch/me --files 0 --common-size 256m --drop-caches
  mpirun -np 48 iogauge startup --tree /sw/conda/envs/py311/lib/python3.11 --ranks-per-node 4
";

/// Every option name, for suggestions (and `iogauge sweep`'s names).
pub const KNOWN: [&str; 17] = [
    "--dir",
    "--files",
    "--seed",
    "--tree",
    "--common-size",
    "--common-file",
    "--transfer",
    "--tasks",
    "--ranks-per-node",
    "--stagger",
    "--iterations",
    "--per-rank",
    "--json",
    "--dry-run",
    "--keep",
    "--help",
    "-h",
];

/// The options of [`KNOWN`] that take no value.
pub const FLAGS: [&str; 5] = ["-h", "--help", "--per-rank", "--dry-run", "--keep"];

fn whole(name: &str, text: &str) -> Result<u64, String> {
    text.parse()
        .map_err(|_| prefixed("startup", format!("{name} {text}: expected a whole number")))
}

fn size(name: &str, text: &str) -> Result<u64, String> {
    text::parse_size(text).map_err(|e| prefixed("startup", format!("{name} {text}: {e}")))
}

pub fn parse(args: &[String]) -> Result<StartupCommand, String> {
    let mut cmd = StartupCommand::default();
    let mut files_given = false;
    let p = &mut cmd.params;
    let mut it = args.iter().map(String::as_str);
    while let Some(arg) = it.next() {
        let (name, inline) = match arg.split_once('=') {
            Some((n, v)) if n.starts_with("--") => (n, Some(v)),
            _ => (arg, None),
        };
        let flag = |set: &mut bool| match inline {
            Some(_) => Err(prefixed("startup", format!("{name} takes no value"))),
            None => {
                *set = true;
                Ok(())
            }
        };
        if FLAGS.contains(&name) {
            match name {
                "--per-rank" => flag(&mut cmd.per_rank)?,
                "--dry-run" => flag(&mut cmd.dry_run)?,
                "--keep" => flag(&mut p.keep)?,
                _ => flag(&mut cmd.help)?,
            }
            continue;
        }
        if !KNOWN.contains(&name) {
            let hint = match text::suggest(name, KNOWN) {
                Some(k) => format!("; did you mean {k}?"),
                None => "; see iogauge startup --help".to_string(),
            };
            let what = if name.starts_with('-') {
                "unknown option"
            } else {
                "unexpected argument"
            };
            return Err(prefixed("startup", format!("{what} {arg}{hint}")));
        }
        let v = match inline
            .map(str::to_string)
            .or_else(|| it.next().map(str::to_string))
        {
            Some(v) if !v.is_empty() => v,
            _ => {
                return Err(prefixed(
                    "startup",
                    format!("{name} needs a value; see iogauge startup --help"),
                ))
            }
        };
        match name {
            "--dir" => p.dir = Some(v.into()),
            "--tree" => p.tree = Some(v.into()),
            "--files" => {
                p.files = whole(name, &v)?;
                files_given = true;
            }
            "--seed" => p.seed = whole(name, &v)?,
            "--common-size" => p.common_size = size(name, &v)?,
            "--common-file" => p.common_file = Some(v.into()),
            "--transfer" => p.transfer_size = size(name, &v)?,
            "--tasks" => cmd.tasks = Some(whole(name, &v)? as usize),
            "--ranks-per-node" => p.ranks_per_node = Some(whole(name, &v)?),
            "--stagger" => {
                p.stagger_s = text::parse_duration(&v)
                    .map_err(|e| prefixed("startup", format!("--stagger: {e}")))?
            }
            "--iterations" => {
                p.iterations = u32::try_from(whole(name, &v)?)
                    .map_err(|_| prefixed("startup", format!("--iterations {v}: too many")))?
            }
            _ => cmd.json = Some(v.into()),
        }
    }
    // `--common-file F` alone reads just that file: the tree is generated only where a
    // --dir is given for it (or --files asks for one).
    let p = &mut cmd.params;
    if p.common_file.is_some() && p.dir.is_none() && p.tree.is_none() && !files_given {
        p.files = 0;
    }
    if !cmd.help {
        check(&cmd.params, files_given)?;
    }
    Ok(cmd)
}

/// The rules across options.
fn check(p: &StartupParams, files_given: bool) -> Result<(), String> {
    if p.tree.is_some() && files_given {
        return Err(prefixed(
            "startup",
            "--files sizes the generated tree; --tree reads an existing one: give one of them",
        ));
    }
    if p.common_file.is_some() && p.common_size > 0 {
        return Err(prefixed("startup", "--common-size generates a common file; --common-file reads an existing one: give one of them"));
    }
    if p.tree.is_none() && p.files == 0 && p.common_file.is_none() && p.common_size == 0 {
        return Err(prefixed(
            "startup",
            "nothing to read: --files 0 without --tree, --common-size or --common-file",
        ));
    }
    let generates = p.generates_tree() || p.generates_common();
    if generates && p.dir.is_none() {
        let what = if p.generates_tree() {
            "the generated tree"
        } else {
            "the common file"
        };
        return Err(prefixed("startup", format!(
            "{what} needs --dir DIR to be made in (or read an existing one with --tree/--common-file)"
        )));
    }
    if !generates && p.dir.is_some() {
        return Err(prefixed(
            "startup",
            "--dir is given but nothing is generated (--tree and --common-file are only read)",
        ));
    }
    if p.keep && !generates {
        return Err(prefixed("startup", "--keep: nothing is generated to keep"));
    }
    if p.transfer_size == 0 {
        return Err(prefixed(
            "startup",
            "--transfer 0: a read needs at least 1 byte",
        ));
    }
    if p.transfer_size > 1 << 30 {
        return Err(prefixed(
            "startup",
            "--transfer is at most 1g (one buffer of that size per rank)",
        ));
    }
    if p.iterations == 0 {
        return Err(prefixed("startup", "--iterations must be at least 1"));
    }
    if p.ranks_per_node == Some(0) {
        return Err(prefixed("startup", "--ranks-per-node must be at least 1"));
    }
    if p.files > 1_000_000 {
        return Err(prefixed(
            "startup",
            format!("--files {}: at most 1000000", p.files),
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use plan::startup::DEFAULT_FILES;

    fn p(line: &str) -> Result<StartupCommand, String> {
        parse(
            &line
                .split_whitespace()
                .map(str::to_string)
                .collect::<Vec<_>>(),
        )
    }

    #[test]
    fn options_and_their_forms() {
        let c =
            p("--dir /x --files=50 --common-size 2m --stagger 10ms --tasks 3 --per-rank").unwrap();
        assert_eq!(c.params.dir, Some("/x".into()));
        assert_eq!((c.params.files, c.params.common_size), (50, 2 << 20));
        assert_eq!(
            (c.params.stagger_s, c.tasks, c.per_rank),
            (0.01, Some(3), true)
        );
        let alone = p("--common-file /lib.so").unwrap();
        assert_eq!(alone.params.files, 0);
        assert!(p("--common-file /lib.so --files 10")
            .unwrap_err()
            .contains("needs --dir DIR"));
        let t = p("--tree /env --common-file /lib.so --ranks-per-node 2 --iterations 3 --dry-run")
            .unwrap();
        assert_eq!(
            (t.params.ranks_per_node, t.params.iterations, t.dry_run),
            (Some(2), 3, true)
        );
        assert!(p("--help").unwrap().help);
    }

    #[test]
    fn bad_lines_are_named() {
        for (line, says) in [
            (
                "--dir /x --file 3",
                "unknown option --file; did you mean --files?",
            ),
            ("--dir /x extra", "unexpected argument extra"),
            ("--dir", "--dir needs a value"),
            ("--dir /x --keep=1", "--keep takes no value"),
            (
                "--dir /x --files ten",
                "--files ten: expected a whole number",
            ),
            ("--dir /x --stagger 5min", "\"5min\" is not a duration"),
            ("--dir /x --transfer 0", "--transfer 0"),
            ("--tree /t --files 3", "give one of them"),
            ("--files 0", "nothing to read"),
            ("--files 10", "needs --dir DIR"),
            ("--tree /t --dir /x", "nothing is generated"),
            ("--tree /t --keep", "nothing is generated to keep"),
            (
                "--dir /x --common-file /f --common-size 1m",
                "give one of them",
            ),
            ("--dir /x --iterations 0", "--iterations must be at least 1"),
            (
                "--dir /x --ranks-per-node 0",
                "--ranks-per-node must be at least 1",
            ),
        ] {
            let e = p(line).unwrap_err();
            assert!(e.contains(says), "{line}: {e}");
        }
        assert_eq!(DEFAULT_FILES, p("--dir /x").unwrap().params.files);
    }
}
