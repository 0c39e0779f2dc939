//! The top-level command line. Workload arguments are passed through untouched, because IOR
//! and mdtest have parsing rules of their own (`-t1m`, `-z -z`, `-O k=v`) that clap does not.

use clap::{Parser, Subcommand};

const EXAMPLES: &str = "\
Examples:
  iogauge io500 --quick                                          the IO500 suite, briefly (not a valid submission)
  iogauge io500 config.ini --tasks 8                             an IO500 .ini, unchanged (iogauge io500 --help)
  iogauge ior -N 4 -t 1m -b 64m -F -C -e -o /tmp/x/testfile     IOR-compatible bandwidth test
  iogauge ior -N 2 -t 47008 -b 47008 -s 20000 -C -Q 1 -g -e -o /dev/shm/y/file   IO500 ior-hard pattern
  iogauge ior --help                                             every IOR option iogauge supports
  iogauge mdtest --tasks 4 -n 2000 -F -u -d /tmp/md              mdtest-compatible metadata test
  iogauge find --tasks 2 /data -newer /r/ts -size 3901c -name '*01*' -C   IO500 find (pfind semantics)

Exit status: 0 success; 1 the benchmark ran but failed (I/O or verification error);
2 bad usage or bad input, found before any I/O.";

#[derive(Parser, Debug)]
#[command(
    name = "iogauge",
    version,
    about = "Storage benchmark and analysis suite: IOR-compatible bandwidth tests with latency histograms",
    long_about = "iogauge measures storage the way parallel-file-system people do. `iogauge ior` takes an \
IOR command line and produces the same files, offsets and access order as IOR under `mpirun -np N`, \
with ranks as threads of one process. Every transfer's latency and a per-interval time series are \
recorded; `--json PATH` writes the full result document.",
    after_help = EXAMPLES
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
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// IOR-compatible bandwidth benchmark (see `iogauge ior --help`)
    #[command(disable_help_flag = true)]
    Ior {
        /// IOR options, e.g. -t 1m -b 64m -F -o /tmp/x/file
        #[arg(trailing_var_arg = true, allow_hyphen_values = true, num_args = 0..)]
        args: Vec<String>,
    },
    /// mdtest-compatible metadata benchmark (see `iogauge mdtest --help`)
    #[command(disable_help_flag = true)]
    Mdtest {
        /// mdtest options, e.g. -n 1000 -u -F -d /tmp/md
        #[arg(trailing_var_arg = true, allow_hyphen_values = true, num_args = 0..)]
        args: Vec<String>,
    },
    /// Parallel find with pfind's semantics, as the IO500 runs it (see `iogauge find --help`)
    #[command(disable_help_flag = true)]
    Find {
        /// PATH... [-newer FILE] [-size Nc] [-name GLOB] [-C] [--tasks N]
        #[arg(trailing_var_arg = true, allow_hyphen_values = true, num_args = 0..)]
        args: Vec<String>,
    },
    /// The IO500 suite: an IO500 .ini unchanged, or --quick (see `iogauge io500 --help`)
    #[command(disable_help_flag = true)]
    Io500 {
        /// [CONFIG.ini] [--quick] [--dry-run] [--list] [--verify RESULT.txt] [--tasks N] ...
        #[arg(trailing_var_arg = true, allow_hyphen_values = true, num_args = 0..)]
        args: Vec<String>,
    },
    /// Print the JSON Schema of the result document (--json, result.json; docs/results.md)
    Schema,
}
