//! `iogauge mdtest`: mdtest's command line, parsed into an [`MdtestCommand`].
//!
//! mdtest shares IOR's option parser (`option.c`): `-n 1k`, `-n1k`, `-n=1k`; flags group and
//! count; long options `--name=value` and `--name value`. Options iogauge does not provide are
//! refused by name, never ignored. The table is in `options.rs`, the field each option sets in
//! `parse.rs`, the help text in `help.rs`; the token rules are `crate::optparse`'s, the
//! cross-option rules `workload::mdtest::validate`'s.

mod help;
pub mod options;
mod parse;

pub use crate::optparse::UsageError;
use crate::Launch;
pub use help::help_text;
pub use parse::parse;

/// A parsed `iogauge mdtest` command line.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct MdtestCommand {
    pub params: workload::mdtest::MdtestParams,
    /// `--tasks`, `--fake-nodes`, `--fake-placement`, `--json`, `--help`.
    pub launch: Launch,
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;
    use workload::ior::DataPacket as Dp;
    use workload::mdtest::validate::validate;

    fn args(line: &str) -> Vec<String> {
        line.split_whitespace().map(String::from).collect()
    }

    fn ok(line: &str) -> MdtestCommand {
        parse(&args(line)).unwrap_or_else(|e| panic!("{line}: {e}"))
    }

    type Check = (&'static str, fn(&MdtestCommand) -> bool);

    #[rustfmt::skip]
    const ACCEPTED: &[Check] = &[
        ("-n 1k", |c| c.params.items == 1024),
        ("-n=5", |c| c.params.items == 5),
        ("-n5", |c| c.params.items == 5),
        ("-uF -n 3", |c| c.params.unique_dir && c.params.files && !c.params.dirs_too && c.params.items == 3),
        ("-uFn7", |c| c.params.unique_dir && c.params.items == 7),
        ("-F -F=0", |c| c.params.files && c.params.dirs_too),
        ("-vvv", |c| c.params.verbose == 3),
        ("-V 2", |c| c.params.verbose == 2),
        ("-D", |c| !c.params.files && c.params.dirs_too),
        ("", |c| c.params.files && c.params.dirs_too && c.params.phases.create && c.params.phases.rename),
        ("-C", |c| c.params.phases.create && !c.params.phases.stat && !c.params.phases.rename),
        ("-T -E", |c| c.params.phases.stat && c.params.phases.read && !c.params.phases.create),
        ("-r", |c| c.params.phases.remove && !c.params.phases.read),
        ("-U", |c| c.params.phases.rename && !c.params.phases.create),
        ("-d /a@/b", |c| c.params.dirs == [Path::new("/a"), Path::new("/b")]),
        ("-z 2 -b 3 -I 100 -L", |c| (c.params.depth, c.params.branch, c.params.items_per_dir) == (2, 3, 100) && c.params.leaf_only),
        ("-w 3901 -e 3901 -X -y -Y", |c| c.params.write_bytes == 3901 && c.params.read_bytes == 3901 && c.params.verify_read && c.params.sync_file && c.params.call_sync),
        ("--verify-read", |c| c.params.verify_read),
        ("-G 7", |c| c.params.seed == Some(7)),
        ("-G=-1", |c| c.params.seed.is_none()),
        ("-G=0", |c| c.params.seed == Some(0)),
        ("-R", |c| c.params.random && c.params.random_seed.is_none()),
        ("--random-seed=5", |c| c.params.random && c.params.random_seed == Some(5)),
        ("--random-seed 0", |c| !c.params.random),
        ("-W 0.5", |c| c.params.stonewall_s == 0.5),
        ("-n 1KiB -w 4kB -e 4096b", |c| c.params.items == 1024 && c.params.write_bytes == 4096 && c.params.read_bytes == 4096),
        ("-n 5 -n 7 -d a -d b", |c| c.params.items == 7 && c.params.dirs == [Path::new("b")]),
        ("-v -V 3 -v", |c| c.params.verbose == 4),
        ("-W 300 -x /tmp/sw", |c| c.params.stonewall_s == 300.0 && c.params.status_file.as_deref() == Some(Path::new("/tmp/sw"))),
        ("-N 1 -i 3 -t -P -Z", |c| c.params.nstride == 1 && c.params.iterations == 3 && c.params.time_unique_dir_overhead && c.params.print_rate_and_time && c.params.print_time),
        ("--dataPacketType=timestamp", |c| c.params.data_packet == Dp::Timestamp),
        ("--dataPacketType o", |c| c.params.data_packet == Dp::Offset),
        ("", |c| c.params.data_packet == Dp::Incompressible),
        ("--saveRankPerformanceDetails=r.csv --showRankStatistics", |c| c.params.rank_details_csv.is_some() && c.params.show_rank_statistics),
        ("-a dummy --dummy.delay-create=10 --dummy.delay-only-rank0 --dummy.delay-sync 3", |c| c.params.engine.api == "DUMMY" && c.params.engine.number("dummy.delay-create") == 10 && c.params.engine.flag("dummy.delay-only-rank0") && c.params.engine.number("dummy.delay-sync") == 3),
        ("--tasks 4 --fake-nodes 2 --fake-placement round-robin --json r.json", |c| c.launch.tasks == Some(4) && c.launch.fake_nodes == Some(2) && c.launch.round_robin && c.launch.json.is_some()),
        ("-h", |c| c.launch.help),
        ("--help", |c| c.launch.help),
    ];

    #[test]
    fn accepted_forms() {
        for (line, pred) in ACCEPTED {
            let c = ok(line);
            assert!(pred(&c), "{line}: {c:#?}");
        }
    }

    #[test]
    fn io500_command_lines_parse_and_validate() {
        for line in [
            "--dataPacketType=timestamp -n 1000 -u -L -F -P -G 27 -N 1 -d /x/mdtest-easy -x /x/easy.sw -C -Y -W 300 --saveRankPerformanceDetails=/x/e.csv",
            "--dataPacketType=timestamp -n 1000 -u -L -F -P -G 27 -N 1 -d /x/mdtest-easy -x /x/easy.sw -T",
            "--dataPacketType=timestamp -n 1000 -t -w 3901 -e 3901 -P -G=27 -N 1 -F -d /x/mdtest-hard -x /x/hard.sw -C -Y -W 300",
            "--dataPacketType=timestamp -n 1000 -t -w 3901 -e 3901 -P -G=27 -N 1 -F -d /x/mdtest-hard -x /x/hard.sw -E -X",
            "--dataPacketType=timestamp -n 1000 -t -w 3901 -e 3901 -P -G=27 -N 1 -F -d /x/mdtest-hard -x /x/hard.sw -r",
        ] {
            let c = ok(line);
            validate(&c.params, 2).unwrap_or_else(|e| panic!("{line}: {e}"));
        }
    }

    /// (command line, how the one-line error starts)
    #[rustfmt::skip]
    const ERRORS: &[(&str, &str)] = &[
        ("-F -D", "mdtest: -F and -D together"),
        ("-B", "mdtest: -B is not supported: "),
        ("-c", "mdtest: -c is not supported: collective creates"),
        ("-f 1", "mdtest: -f is not supported: task-count sweeps"),
        ("-l 4", "mdtest: -l is not supported: "),
        ("-s 2", "mdtest: -s is not supported: "),
        ("-k", "mdtest: -k is not supported: "),
        ("-p 5", "mdtest: -p is not supported: "),
        ("-S", "mdtest: -S is not supported: "),
        ("-uS", "mdtest: -S is not supported: "),
        ("--print-all-procs", "mdtest: --print-all-procs is not supported: "),
        ("--savePerOpDataCSV=x", "mdtest: --savePerOpDataCSV is not supported: "),
        ("--run-cmd-before-phase=ls", "mdtest: --run-cmd-before-phase is not supported: "),
        ("--verify-write", "mdtest: --verify-write is not supported: "),
        ("--warningAsErrors", "mdtest: --warningAsErrors is not supported"),
        ("--posix.odirect", "mdtest: --posix.odirect is not supported: back-end module options"),
        ("--dummy.delay-xfer=5", "mdtest: --dummy.delay-xfer is not supported: back-end module options"),
        ("--dummy.delay-creat=5", "mdtest: unknown option --dummy.delay-creat; did you mean --dummy.delay-create?"),
        ("-a MMAP", "mdtest: -a MMAP: the MMAP engine has no metadata operations"),
        ("-a HDF5", "mdtest: -a HDF5 is not supported"),
        ("-a posx", "mdtest: -a posx: unknown API"),
        ("--verify-reed", "mdtest: unknown option --verify-reed; did you mean --verify-read?"),
        ("--randomseed=3", "mdtest: unknown option --randomseed; did you mean --random-seed?"),
        ("--showRankStats", "mdtest: unknown option --showRankStats; did you mean --showRankStatistics?"),
        ("--n 5", "mdtest: unknown option --n; did you mean -n?"),
        ("-j", "mdtest: unknown option -j; see iogauge mdtest --help"),
        ("-uj", "mdtest: unknown option -j (in -uj)"),
        ("-verify-read", "mdtest: unknown option -verify-read; did you mean --verify-read?"),
        ("out", "mdtest: unexpected argument \"out\""),
        ("-n", "mdtest: -n needs a value"),
        ("-n -F", "mdtest: -n needs a value"),
        ("-n=", "mdtest: -n needs a value"),
        ("-n x", "mdtest: -n: \"x\" is not a size"),
        ("-n -5", "mdtest: -n: \"-5\" is negative"),
        ("-n=-5", "mdtest: -n: \"-5\" is negative"),
        ("-z 5g", "mdtest: -z 5g: too large"),
        ("-G x", "mdtest: -G: \"x\" is not an integer"),
        ("-n 1.5k", "mdtest: -n: \"1.5k\" is not a whole number"),
        ("-W -1", "mdtest: -W -1: must not be negative"),
        ("-W x", "mdtest: -W: \"x\" is not a number"),
        ("-F=yes", "mdtest: -F: \"yes\" is not an integer"),
        ("--dataPacketType=z", "mdtest: --dataPacketType z: unknown data packet type"),
        ("--tasks 0", "mdtest: --tasks 0: at least 1 is needed"),
        ("--fake-placement x", "mdtest: --fake-placement x: expected block or round-robin"),
    ];

    #[test]
    fn errors_name_the_option() {
        for (line, start) in ERRORS {
            let e = parse(&args(line)).expect_err(line).0;
            assert!(
                e.starts_with(start),
                "{line}:\n  got  {e}\n  want {start}..."
            );
            assert!(!e.contains('\n'), "{line}: one line");
        }
    }
}
