//! The top-level command line. Workload arguments are passed through untouched, because IOR
//! and mdtest have parsing rules of their own (`-t1m`, `-z -z`, `-O k=v`) that clap does not.

use clap::{Arg, CommandFactory, FromArgMatches, Parser, Subcommand};

use crate::command::registry::{WorkloadInfo, WORKLOADS};

/// `iogauge --help`'s examples after the workloads' own (`registry::WorkloadInfo::examples`).
const MORE_EXAMPLES: &[(&str, &str)] = &[
    ("iogauge runs", "the stored runs (every run is stored)"),
    ("iogauge compare 42 57 --fail-if-slower 5%", "phase by phase; exit 1 on a regression"),
    ("iogauge report 42 -o run42.html", "one self-contained HTML file with charts"),
    ("iogauge import results/2024.11.11-00.01.32/", "store an IO500 result directory"),
    (
        "iogauge sweep --vary tasks=1..8:x2 --vary t=64k,1m --repeat 3 -- ior -w -r -F -b 16m -o /tmp/d/f",
        "a parameter matrix, its table and findings",
    ),
];

const EXIT_STATUS: &str = "\
Exit status: 0 success; 1 the benchmark ran but failed (I/O or verification error);
2 bad usage or bad input, found before any I/O.";

/// The examples block: every workload's, then the rest, each command with what it does.
fn examples() -> String {
    let all = WORKLOADS
        .iter()
        .flat_map(|w| w.examples.iter())
        .chain(MORE_EXAMPLES.iter());
    let mut out = String::from("Examples:\n");
    for (command, what) in all {
        if command.len() > 62 {
            out += &format!("  {command}\n  {:62} {what}\n", "");
        } else {
            out += &format!("  {command:62} {what}\n");
        }
    }
    format!("{out}\n{EXIT_STATUS}")
}

#[derive(Parser, Debug)]
#[command(
    name = "iogauge",
    version,
    about = "Storage benchmark and analysis suite: IOR-compatible bandwidth tests with latency histograms",
    long_about = "iogauge measures storage the way parallel-file-system people do. `iogauge ior` takes an \
IOR command line and produces the same files, offsets and access order as IOR under `mpirun -np N`, \
with ranks as threads of one process. Every transfer's latency and a per-interval time series are \
recorded; `--json PATH` writes the full result document."
)]
pub struct Cli {
    /// Number of ranks for every workload (threads; under MPI at most the MPI ranks); a
    /// workload's own -N/--tasks overrides it
    #[arg(long, value_name = "N", global = false)]
    pub tasks: Option<usize>,
    /// Start MPI even without a launcher's environment (MPI builds; a launcher is detected anyway)
    #[arg(long)]
    pub mpi: bool,
    /// Testing aid: pretend the ranks run on K nodes (block placement), like IOR_FAKE_NODES
    #[arg(long, value_name = "K")]
    pub fake_nodes: Option<usize>,
    /// Write every event of the run (start, phases, live samples, notices, end) as one JSON
    /// line to PATH: a log for debugging
    #[arg(long, value_name = "PATH")]
    pub events: Option<std::path::PathBuf>,
    /// Write iogauge's result document to PATH (also after a workload's own options)
    #[arg(long, value_name = "PATH")]
    pub json: Vec<std::path::PathBuf>,
    /// The result store [default: $XDG_DATA_HOME/iogauge/results.sqlite]; anywhere on the line
    #[arg(long, value_name = "PATH")]
    pub db: Option<std::path::PathBuf>,
    /// Do not store the run; anywhere on the line
    #[arg(long)]
    pub no_store: bool,
    /// Label the run (repeatable); with runs and scaling, show only runs with the label;
    /// anywhere on the line
    #[arg(long, value_name = "KEY=VALUE")]
    pub label: Vec<String>,
    /// No terminal output but errors and warnings (no progress line); anywhere on the line
    #[arg(long)]
    pub quiet: bool,
    /// Do not read what the system did in each phase (CPU, devices, dirty pages, NFS and
    /// Lustre counters: docs/system.md); anywhere on the line
    #[arg(long)]
    pub no_system: bool,
    /// Serve live metrics at http://ADDR:PORT/metrics for Prometheus (docs/monitoring.md);
    /// anywhere on the line
    #[arg(long, value_name = "ADDR:PORT")]
    pub metrics: Option<String>,
    /// After the run, serve the final metrics this long [default: 30; 0: stop at once]
    #[arg(long, value_name = "SECONDS")]
    pub metrics_linger: Option<String>,
    /// Push the metrics to an InfluxDB write endpoint (1.x /write?db=, 2.x /api/v2/write?org=&bucket=)
    #[arg(long, value_name = "URL")]
    pub influx: Option<String>,
    /// Seconds between InfluxDB pushes [default: 1]
    #[arg(long, value_name = "SECONDS")]
    pub influx_interval: Option<String>,
    /// InfluxDB token (else INFLUX_TOKEN from the environment)
    #[arg(long, value_name = "PATH")]
    pub influx_token_file: Option<std::path::PathBuf>,
    /// Push the metrics to OpenTSDB's HTTP API (URL/api/put, e.g. http://tsdb:4242); marks as
    /// the metric iogauge.mark
    #[arg(long, value_name = "URL")]
    pub opentsdb: Option<String>,
    /// Seconds between OpenTSDB pushes [default: 1]
    #[arg(long, value_name = "SECONDS")]
    pub opentsdb_interval: Option<String>,
    /// Drop the page cache before each phase: the node's (root), else the files each read
    /// reads; =system or =files chooses (docs/warnings.md); anywhere on the line
    #[arg(long, value_name = "MODE", num_args = 0..=1, require_equals = true)]
    pub drop_caches: Option<String>,
    /// Set a warning's threshold, or turn it off (repeatable): short-phase=10s,
    /// read-cached=80%, straggler=off (docs/warnings.md); anywhere on the line
    #[arg(long, value_name = "ID=VALUE")]
    pub warn: Vec<String>,
    /// Let mdtest -d, md-workbench's directory or the IO500's datadir be `/`, $HOME or a
    /// mount point's root (refused otherwise, docs/safety.md); anywhere on the line
    #[arg(long)]
    pub allow_root_target: bool,
    /// Another command than a workload's (those come from the registry: [`parse`]).
    #[command(subcommand)]
    pub command: Option<Command>,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Print the JSON Schema of the result document (--json, result.json; docs/results.md)
    Schema,
    /// List the stored runs: id, when, host, workload, labels, headline figures
    Runs {
        /// Only runs of this workload (a command of `iogauge --help`: ior, mdtest, ...)
        #[arg(long)]
        workload: Option<String>,
        /// Only runs on this host
        #[arg(long)]
        host: Option<String>,
        #[arg(long, value_parser = format_values(), default_value = "table")]
        format: Format,
    },
    /// One stored run in full: parameters, environment, every phase, scores, warnings
    Show {
        id: i64,
        #[arg(long, value_parser = format_values(), default_value = "table")]
        format: Format,
    },
    /// Stored runs side by side per phase; the first is the baseline
    Compare {
        #[arg(num_args = 2.., required = true)]
        ids: Vec<i64>,
        /// Exit with status 1 when a phase of a later run is more than P % slower than the
        /// first run's (for CI)
        #[arg(long, value_name = "P%")]
        fail_if_slower: Option<String>,
        /// The figures to show, a comma list of bw, iops, time, p50, p99 and score
        #[arg(long, value_name = "LIST")]
        figures: Option<String>,
        #[arg(long, value_parser = format_values(), default_value = "table")]
        format: Format,
    },
    /// Per-rank and aggregate figures against the rank or node count, with the parallel
    /// efficiency: of the runs named, or of the runs with the --label given
    Scaling {
        ids: Vec<i64>,
        /// What to scale over [default: nodes when they differ, else ranks]
        #[arg(long, value_enum)]
        by: Option<ScaleOver>,
        #[arg(long, value_parser = format_values(), default_value = "table")]
        format: Format,
    },
    /// One self-contained HTML file: a run, or a comparison of several
    Report {
        #[arg(num_args = 1.., required = true)]
        ids: Vec<i64>,
        /// The HTML file to write
        #[arg(short = 'o', long = "output", value_name = "FILE")]
        output: std::path::PathBuf,
        /// The comparison's figures, a comma list of bw, iops, time, p50, p99 and score
        #[arg(long, value_name = "LIST")]
        figures: Option<String>,
    },
    /// A workload over a matrix of parameter values, stored point by point, with the table
    /// and findings; `sweep show ID` re-prints one (docs/sweep.md)
    #[command(args_conflicts_with_subcommands = true)]
    Sweep {
        #[command(subcommand)]
        action: Option<SweepAction>,
        #[command(flatten)]
        run: SweepRun,
    },
    /// Named workloads from the field: list, show (the file), run (docs/presets.md)
    Preset {
        #[command(subcommand)]
        action: PresetAction,
    },
    /// Store IO500 result directories (official io500 or iogauge) or iogauge JSON documents
    Import {
        #[arg(num_args = 1.., required = true, value_name = "PATH")]
        paths: Vec<std::path::PathBuf>,
    },
    /// Put a timestamped mark into the run in progress, from another shell: "disk 3 pulled"
    /// (docs/marks.md)
    Mark {
        /// One line of text, at most 1000 bytes (quote it)
        #[arg(value_name = "TEXT")]
        text: String,
        /// The run when several are in progress: its process id or its run id
        #[arg(long, value_name = "ID")]
        run: Option<String>,
    },
}

/// What the command line asks for.
pub enum Parsed {
    /// A workload, with the words after its name.
    Workload(&'static WorkloadInfo, Vec<String>),
    Other(Command),
}

/// The workload's subcommand: its arguments pass through untouched, because IOR and mdtest
/// have parsing rules of their own (`-t1m`, `-z -z`, `-O k=v`) that clap does not.
fn subcommand(w: &WorkloadInfo, order: usize) -> clap::Command {
    clap::Command::new(w.name)
        .about(w.about)
        .display_order(order)
        .disable_help_flag(true)
        .arg(
            Arg::new("args")
                .help(w.args)
                .num_args(0..)
                .trailing_var_arg(true)
                .allow_hyphen_values(true),
        )
}

/// `iogauge`'s command line as clap knows it: the commands of the registry, then the others.
pub fn command() -> clap::Command {
    let mut cmd = Cli::command()
        .subcommand_required(true)
        .arg_required_else_help(true)
        .after_help(examples());
    for (i, w) in WORKLOADS.iter().enumerate() {
        cmd = cmd.subcommand(subcommand(w, i));
    }
    cmd
}

/// Parses `args` (the program's name first).
pub fn parse(args: Vec<String>) -> Result<(Cli, Parsed), clap::Error> {
    let mut cmd = command();
    let matches = cmd.try_get_matches_from_mut(args)?;
    let mut cli = Cli::from_arg_matches(&matches).map_err(|e| e.format(&mut cmd))?;
    let workload = matches
        .subcommand()
        .and_then(|(name, sub)| Some((crate::command::registry::find(name)?, sub)));
    let parsed = match (workload, cli.command.take()) {
        (Some((w, sub)), _) => Parsed::Workload(
            w,
            sub.get_many::<String>("args")
                .map(|a| a.cloned().collect())
                .unwrap_or_default(),
        ),
        (None, Some(c)) => Parsed::Other(c),
        (None, None) => unreachable!("clap requires a command"),
    };
    Ok((cli, parsed))
}

/// `iogauge sweep show ID` (src/sweep/).
#[derive(Subcommand, Debug)]
pub enum SweepAction {
    /// Re-print a stored sweep: the matrix over repeats and the findings
    Show {
        id: i64,
        #[arg(long, value_parser = format_values(), default_value = "table")]
        format: Format,
        /// Diminishing returns: doubling adds less than this
        #[arg(long, value_name = "P%", default_value = "5%")]
        threshold: String,
        /// Also write the HTML page (each figure against each varied parameter)
        #[arg(short = 'o', long = "html", value_name = "FILE")]
        html: Option<std::path::PathBuf>,
    },
}

/// `iogauge sweep --vary ... -- COMMAND` (src/sweep/).
#[derive(clap::Args, Debug)]
pub struct SweepRun {
    /// NAME=VALUES: an option of the workload as typed there without dashes (t, b,
    /// transferSize; n, z) or tasks / fake-nodes; values: a list (4k,64k), a range
    /// (1..16:x2, 1m..4m:+1m) or @FILE; a flag takes on,off (repeatable)
    #[arg(long, value_name = "NAME=VALUES")]
    pub vary: Vec<String>,
    /// Run every combination N times
    #[arg(long, value_name = "N", default_value_t = 1)]
    pub repeat: u32,
    /// Run the points in an order drawn from SEED (printed, and kept for --resume)
    #[arg(long, value_name = "SEED", num_args = 0..=1, require_equals = true)]
    pub shuffle: Option<Option<u64>>,
    /// Wait this long between runs (seconds); --drop-caches drops the cache before each phase
    #[arg(long, value_name = "SECONDS")]
    pub pause: Option<f64>,
    /// Continue the newest sweep of this same command line (or sweep ID): skip the points
    /// already stored
    #[arg(long, value_name = "ID", num_args = 0..=1, require_equals = true)]
    pub resume: Option<Option<i64>>,
    /// Print the plan and its estimated time; run nothing
    #[arg(long)]
    pub dry_run: bool,
    /// Diminishing returns: doubling adds less than this
    #[arg(long, value_name = "P%", default_value = "5%")]
    pub threshold: String,
    /// Show each point's own output (default: one line per point)
    #[arg(long)]
    pub show_output: bool,
    /// Also write the HTML page at the end
    #[arg(short = 'o', long = "html", value_name = "FILE")]
    pub html: Option<std::path::PathBuf>,
    /// The workload: -- ior -w -r -F -b 64m -o /scratch/f
    #[arg(last = true, value_name = "COMMAND")]
    pub command: Vec<String>,
}

/// `iogauge preset ...` (src/preset/).
#[derive(Subcommand, Debug)]
pub enum PresetAction {
    /// Every preset with what it measures
    List,
    /// A preset's file, and its commands with this machine's values
    Show { name: String },
    /// Run a preset in a directory of its own under DIR (default: the temporary directory)
    Run {
        name: String,
        #[arg(long, value_name = "DIR")]
        dir: Option<std::path::PathBuf>,
        /// Use each preset's small sizes: a first look or a test, not a measurement
        #[arg(long)]
        small: bool,
        /// Change one of the preset's values (repeatable): --set block=4g
        #[arg(long, value_name = "NAME=VALUE")]
        set: Vec<String>,
        /// Print the commands; run nothing
        #[arg(long)]
        dry_run: bool,
    },
}

/// How `runs`, `show`, `compare`, `scaling` and `sweep show` print: the report crate's
/// formats, by their names.
pub use report::Format;

fn format_values() -> impl clap::builder::TypedValueParser<Value = Format> {
    use clap::builder::TypedValueParser;
    clap::builder::PossibleValuesParser::new(["table", "markdown", "md", "json", "csv"])
        .try_map(|name| name.parse::<Format>())
}

#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum ScaleOver {
    Ranks,
    Nodes,
}

/// clap's error text on one line: its first line without "error: " and its tips, up to the
/// usage block ("Usage:", "For more information").
pub fn one_line(rendered: &str) -> String {
    rendered
        .lines()
        .map(str::trim)
        .take_while(|l| !l.starts_with("Usage:") && !l.starts_with("For more information"))
        .filter(|l| !l.is_empty())
        .map(|l| l.strip_prefix("error: ").unwrap_or(l))
        .collect::<Vec<_>>()
        .join("; ")
}

#[cfg(test)]
mod one_line_tests {
    #[test]
    fn joins_the_error_and_its_tip_and_drops_the_usage() {
        let text = "error: unexpected argument '-5' found\n\n  tip: to pass '-5' as a value, use '-- -5'\n\nUsage: iogauge show <ID>\n\nFor more information, try '--help'.\n";
        assert_eq!(
            super::one_line(text),
            "unexpected argument '-5' found; tip: to pass '-5' as a value, use '-- -5'"
        );
    }
}
