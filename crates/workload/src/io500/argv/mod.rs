//! The argv the IO500 hands to IOR, mdtest and pfind for each phase (reference §1.1; IO500
//! HEAD `src/phase_*.c`), built from the configuration. These strings are result.txt's
//! `exe = ` lines and, parsed by the ior/mdtest/find command-line parsers, the phases' plans.

use super::config::Config;
use super::phases::{Family, How, IorStep, MdStep, Phase};
use super::seeds::{phase_seed, IOR_EASY, IOR_HARD, MDTEST_EASY, MDTEST_HARD};
pub use mdworkbench::{first_counts, mdworkbench};

/// Where and when: the resolved directories (`$D`, `$R`), the run's timestamp, the stonewall
/// and the number of ranks.
#[derive(Debug, Clone)]
pub struct Where {
    pub data: String,
    pub result: String,
    pub timestamp: String,
    pub stonewall: i64,
    pub ranks: usize,
}

/// What a phase runs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Command {
    /// `./ior ...`, `./mdtest ...` or `./pfind ...`: argv[0] names the tool.
    Argv(Vec<String>),
    /// An external find script, run by rank 0 through the shell.
    Shell(String),
}

impl Command {
    /// result.txt's `exe`: the argv joined by single spaces (`u_flatten_argv`).
    pub fn exe(&self) -> String {
        match self {
            Command::Argv(v) => v.join(" "),
            Command::Shell(s) => s.clone(),
        }
    }

    /// The arguments after the tool name.
    pub fn args(&self) -> &[String] {
        match self {
            Command::Argv(v) => &v[1..],
            Command::Shell(_) => &[],
        }
    }

    /// The equivalent `iogauge <tool> --tasks N ...` command line, shell-quoted (`tool` is the
    /// phase's, [`crate::io500::phases::Phase::tool`]).
    pub fn iogauge(&self, tool: &str, ranks: usize) -> Option<String> {
        let Command::Argv(v) = self else { return None };
        let args: Vec<String> = v[1..].iter().map(|a| text::shell_quote(a)).collect();
        Some(format!("iogauge {tool} --tasks {ranks} {}", args.join(" ")))
    }
}

/// A phase's command and what goes with it.
#[derive(Debug, Clone)]
pub struct Built {
    pub command: Command,
    /// Ranks that take part (find's `nproc`; everything else all ranks).
    pub ranks: usize,
    /// find's `nproc = ` pair, printed before the run (pfind: always; a script: when set).
    pub nproc_pair: Option<usize>,
    /// Printed as `; WARNING` in the phase's section when it runs (API option prefixes).
    pub warnings: Vec<String>,
    /// Printed once before the first phase (IO500 `validate()` warnings).
    pub early_warnings: Vec<String>,
    /// result.txt pairs printed before `exe` (md-workbench's counts).
    pub pairs: Vec<(String, String)>,
}

fn s(x: impl ToString) -> String {
    x.to_string()
}

/// `-a <API> [options]`: the phase's own API, else its parent's, else `[global] api`, split at
/// spaces; options without the `--<api>.` prefix get IO500's warning.
fn push_api(argv: &mut Vec<String>, warnings: &mut Vec<String>, cfg: &Config, phase: &str) {
    let api = cfg.api_for(phase);
    let mut tokens = api.split(' ').filter(|t| !t.is_empty());
    argv.push(s("-a"));
    let name = tokens.next().unwrap_or("POSIX");
    argv.push(s(name));
    let prefix = format!("--{}.", name.to_ascii_lowercase());
    for t in tokens {
        if !t.to_ascii_lowercase().starts_with(&prefix) {
            warnings.push(format!(
                "Provided API option {t} starts with a different prefix and might be not supported - don't worry if you checked!"
            ));
        }
        argv.push(s(t));
    }
}

fn verbosity(cfg: &Config, section: &str) -> usize {
    cfg.i64(section, "verbosity").unwrap_or(0).max(0) as usize
}

fn ior_easy_prefix(cfg: &Config, w: &Where, std_flags: bool) -> Vec<String> {
    let mut a = vec![s("./ior"), ior_packet(cfg)];
    a.extend((0..verbosity(cfg, "ior-easy")).map(|_| s("-v")));
    if cfg.bool("global", "io-buffers-on-gpu") {
        a.extend([s("-O"), s("allocateBufferOnGPU=1")]);
    }
    a.extend([
        s("-g"),
        s("-G"),
        s(phase_seed(IOR_EASY, &w.timestamp)),
        s("-k"),
        s("-e"),
    ]);
    a.extend([s("-o"), format!("{}/ior-easy/ior_file_easy", w.data)]);
    if std_flags {
        a.extend([s("-C"), s("-Q"), s("1"), s("-O")]);
        a.push(format!(
            "stoneWallingStatusFile={}/ior-easy.stonewall",
            w.result
        ));
        a.extend([
            s("-t"),
            s(cfg.get("ior-easy", "transferSize").unwrap_or("2m")),
        ]);
        a.extend([
            s("-b"),
            s(cfg.get("ior-easy", "blockSize").unwrap_or("9920000m")),
        ]);
    }
    if cfg.bool("ior-easy", "uniqueDir") {
        a.push(s("-u"));
    }
    if cfg.bool("ior-easy", "filePerProc") {
        a.push(s("-F"));
    }
    a
}

fn ior_hard_prefix(cfg: &Config, w: &Where) -> Vec<String> {
    let mut a = vec![s("./ior"), ior_packet(cfg)];
    a.extend((0..verbosity(cfg, "ior-hard")).map(|_| s("-v")));
    if cfg.bool("global", "io-buffers-on-gpu") {
        a.extend([s("-O"), s("allocateBufferOnGPU=1")]);
    }
    a.extend([s("-C"), s("-Q"), s("1"), s("-g")]);
    a.push(format!("-G={}", phase_seed(IOR_HARD, &w.timestamp)));
    a.extend([
        s("-k"),
        s("-e"),
        s("-o"),
        format!("{}/ior-hard/file", w.data),
        s("-O"),
    ]);
    a.push(format!(
        "stoneWallingStatusFile={}/ior-hard.stonewall",
        w.result
    ));
    a.extend([s("-t"), s("47008"), s("-b"), s("47008"), s("-s")]);
    a.push(s(cfg.i64("ior-hard", "segmentCount").unwrap_or(10_000_000)));
    a
}

fn ior_packet(cfg: &Config) -> String {
    format!(
        "--dataPacketType={}",
        cfg.get("global", "dataPacketType").unwrap_or("timestamp")
    )
}

/// `-c` when the phase's `collective`, else its parent's, is TRUE.
fn collective(cfg: &Config, phase: &str) -> bool {
    match cfg.get(phase, "collective") {
        Some(v) => v == "TRUE",
        None => cfg.bool("ior-hard", "collective"),
    }
}

fn ior(
    p: &Phase,
    fam: Family,
    step: IorStep,
    cfg: &Config,
    w: &Where,
) -> (Vec<String>, Vec<String>) {
    let mut warn = Vec::new();
    let csv = format!("saveRankPerformanceDetailsCSV={}/{}.csv", w.result, p.name);
    let sw = s(w.stonewall);
    let a = match (fam, step) {
        (Family::Easy, IorStep::Write) => {
            let mut a = ior_easy_prefix(cfg, w, true);
            a.extend([s("-w"), s("-D"), sw, s("-O"), s("stoneWallingWearOut=1")]);
            push_api(&mut a, &mut warn, cfg, p.name);
            a.extend([s("-O"), csv]);
            a
        }
        (Family::Easy, IorStep::Read) => {
            let mut a = ior_easy_prefix(cfg, w, true);
            a.extend([s("-r"), s("-R")]);
            push_api(&mut a, &mut warn, cfg, p.name);
            a.extend([s("-O"), csv]);
            a
        }
        (_, IorStep::Random4k) => {
            let mut a = ior_easy_prefix(cfg, w, false);
            a.extend([s("-r"), s("-D"), sw, s("-z"), s("-z")]);
            push_api(&mut a, &mut warn, cfg, p.name);
            a.extend([s("-O"), csv, s("-t=4096"), s("-b=4096"), s("-s=10000000")]);
            a.extend([s("-O"), s("stoneWallingWearOut=1")]);
            if cfg.bool("ior-easy", "filePerProc") {
                a.extend([s("-C"), s("-Q"), s("2")]);
            }
            a
        }
        (Family::Hard, IorStep::Write) => {
            let mut a = ior_hard_prefix(cfg, w);
            a.push(s("-w"));
            if collective(cfg, p.name) {
                a.push(s("-c"));
            }
            a.extend([s("-D"), sw]);
            push_api(&mut a, &mut warn, cfg, p.name);
            a.extend([s("-O"), csv, s("-O"), s("stoneWallingWearOut=1")]);
            a
        }
        (Family::Hard, IorStep::Read) => {
            let mut a = ior_hard_prefix(cfg, w);
            a.extend([s("-r"), s("-R")]);
            if collective(cfg, p.name) {
                a.push(s("-c"));
            }
            push_api(&mut a, &mut warn, cfg, p.name);
            a.extend([s("-O"), csv]);
            a
        }
    };
    (a, warn)
}

fn mdtest(
    p: &Phase,
    fam: Family,
    step: MdStep,
    cfg: &Config,
    w: &Where,
) -> (Vec<String>, Vec<String>) {
    let (section, seed_name) = match fam {
        Family::Easy => ("mdtest-easy", MDTEST_EASY),
        Family::Hard => ("mdtest-hard", MDTEST_HARD),
    };
    let seed = phase_seed(seed_name, &w.timestamp);
    let n = cfg
        .get(section, "n")
        .and_then(|v| v.parse::<u64>().ok())
        .unwrap_or(1_000_000);
    let mut a = vec![s("./mdtest"), ior_packet(cfg)];
    if cfg.bool("global", "io-buffers-on-gpu") {
        a.push(s("--allocateBufferOnGPU"));
    }
    a.extend([s("-n"), s(n)]);
    let per_dir = files_per_dir(cfg);
    match fam {
        Family::Easy => {
            a.extend([
                s("-u"),
                s("-L"),
                s("-F"),
                s("-P"),
                s("-G"),
                s(seed),
                s("-N"),
                s("1"),
            ]);
        }
        Family::Hard => {
            if let Some(i) = per_dir {
                a.push(format!("-I={i}"));
            }
            a.extend([s("-t"), s("-w"), s("3901"), s("-e"), s("3901"), s("-P")]);
            a.extend([format!("-G={seed}"), s("-N"), s("1"), s("-F")]);
        }
    }
    a.extend([s("-d"), format!("{}/{section}", w.data)]);
    a.extend([s("-x"), format!("{}/{section}.stonewall", w.result)]);
    let mut warn = Vec::new();
    match step {
        MdStep::Create => {
            a.extend([s("-C"), s("-Y")]);
            if fam == Family::Hard && per_dir.is_some() {
                warn.push(super::validity::FILES_PER_DIR_WARNING.to_string());
            } else {
                a.extend([s("-W"), s(w.stonewall)]);
            }
        }
        MdStep::Stat => a.push(s("-T")),
        MdStep::Read => a.extend([s("-E"), s("-X")]),
        MdStep::Delete => a.push(s("-r")),
    }
    a.push(format!(
        "--saveRankPerformanceDetails={}/{}.csv",
        w.result, p.name
    ));
    push_api(&mut a, &mut warn, cfg, p.name);
    (a, warn)
}

/// `[mdtest-hard] files-per-dir`, when set and non-zero.
pub fn files_per_dir(cfg: &Config) -> Option<u64> {
    cfg.get("mdtest-hard", "files-per-dir")
        .and_then(|v| v.parse::<u64>().ok())
        .filter(|&v| v > 0)
}

/// The command of a phase; `None` for phases that run no tool (the timestamp, the
/// option-only sections). Errors are bad configuration (exit status 2).
pub fn build(phase: &Phase, cfg: &Config, w: &Where) -> Result<Option<Built>, String> {
    let simple = |(argv, warnings): (Vec<String>, Vec<String>)| Built {
        command: Command::Argv(argv),
        ranks: w.ranks,
        nproc_pair: None,
        warnings,
        early_warnings: Vec::new(),
        pairs: Vec::new(),
    };
    Ok(match phase.how {
        How::Ior(f, st) => Some(simple(ior(phase, f, st, cfg, w))),
        How::Mdtest(f, st) => Some(simple(mdtest(phase, f, st, cfg, w))),
        How::Find(scope) => Some(find(phase, scope, cfg, w)?),
        How::MdWorkbench(step) => Some(mdworkbench(phase.name, step, cfg, w, first_counts(cfg, w))),
        How::Options | How::Timestamp => None,
    })
}

mod find;
mod mdworkbench;
use find::find;

#[cfg(test)]
mod tests;
