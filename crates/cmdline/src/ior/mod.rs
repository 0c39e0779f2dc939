//! `iogauge ior`: IOR's command line, parsed into an [`IorCommand`].
//!
//! IOR's rules (`option.c`, `parse_options.c`): short options take `-t 1m`, `-t1m`, `-t=1m`;
//! long ones `--name=value` and `--name value`; flags group (`-wr`) and count (`-vvv`);
//! `-O key=value[,...]` reaches every option by its long name, case-insensitively. Options
//! iogauge does not provide are refused by name, never ignored. The table is in `options.rs`,
//! the field each option sets in `parse.rs`, the help text in `help.rs`; the token rules are
//! `crate::optparse`'s, the cross-option rules `workload::ior::validate`'s.

mod help;
pub mod options;
mod parse;

pub use crate::optparse::UsageError;
use crate::Launch;
pub use help::help_text;
pub use parse::parse;

/// A parsed `iogauge ior` command line.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct IorCommand {
    pub params: workload::ior::IorParams,
    /// `-N`/`--tasks`, `--fake-nodes`, `--fake-placement`, `--json`, `--help`.
    pub launch: Launch,
    /// `--overwrite`: accepted for old scripts; the test files are replaced as IOR does anyway.
    pub overwrite: bool,
    /// Values reset the way IOR resets them, with a warning (`-i 0` -> 1, `-d -5` -> 0).
    pub warnings: Vec<String>,
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::PathBuf;
    use workload::ior::{validate::validate, DataPacket as Dp, SummaryFormat as Sf};

    fn args(line: &str) -> Vec<String> {
        line.split_whitespace().map(String::from).collect()
    }

    fn ok(line: &str) -> IorCommand {
        let c = parse(&args(line)).unwrap_or_else(|e| panic!("{line}: {e}"));
        validate(&c.params, c.launch.tasks.unwrap_or(1)).unwrap_or_else(|e| panic!("{line}: {e}"));
        c
    }

    fn bad(line: &str) -> String {
        parse(&args(line)).expect_err(line).0
    }

    type Check = (&'static str, fn(&IorCommand) -> bool);

    fn check(table: &[Check]) {
        for (line, pred) in table {
            let c = parse(&args(line)).unwrap_or_else(|e| panic!("{line}: {e}"));
            assert!(pred(&c), "{line}: {c:#?}");
        }
    }

    fn path(p: &Option<PathBuf>, s: &str) -> bool {
        p.as_deref() == Some(std::path::Path::new(s))
    }

    #[rustfmt::skip]
    const SYNTAX: &[Check] = &[
        ("-t1m", |c| c.params.transfer_size == 1 << 20),
        ("-t=1m", |c| c.params.transfer_size == 1 << 20),
        ("-t 1m", |c| c.params.transfer_size == 1 << 20),
        ("--transferSize=1m", |c| c.params.transfer_size == 1 << 20),
        ("--transferSize 1m", |c| c.params.transfer_size == 1 << 20),
        ("-O transferSize=1m", |c| c.params.transfer_size == 1 << 20),
        ("-s 1k", |c| c.params.segment_count == 1024),
        ("-b4g", |c| c.params.block_size == 4 << 30),
        ("-wr", |c| c.params.write_file && c.params.read_file && !c.params.check_read),
        ("-wrk", |c| c.params.write_file && c.params.read_file && c.params.keep_file),
        ("-wt1m", |c| c.params.write_file && c.params.transfer_size == 1 << 20),
        ("-vvv", |c| c.params.verbose == 3),
        ("-v -v", |c| c.params.verbose == 2),
        ("-z -z", |c| c.params.random_offset == 2),
        ("-Z -Z", |c| c.params.reorder_tasks_random == 2),
        ("-F -F=0", |c| !c.params.file_per_proc),
        ("-F=1", |c| c.params.file_per_proc),
        ("-F=-3", |c| !c.params.file_per_proc),
        ("-z=2", |c| c.params.random_offset == 2),
        ("--filePerProc=0", |c| !c.params.file_per_proc),
        ("-O filePerProc=1", |c| c.params.file_per_proc),
        ("-O verbose=4", |c| c.params.verbose == 4),
        // IOR's rule: with none of -w, -r, -W, -R, both write and read.
        ("-t 1m", |c| c.params.write_file && c.params.read_file),
        ("-w", |c| c.params.write_file && !c.params.read_file),
        ("-r", |c| !c.params.write_file && c.params.read_file),
        ("-R -G 5", |c| !c.params.write_file && !c.params.read_file && c.params.check_read),
        ("-W", |c| !c.params.write_file && !c.params.read_file && c.params.check_write),
        ("-w=0 -r=0", |c| c.params.write_file && c.params.read_file),
    ];

    #[rustfmt::skip]
    const DIRECTIVES: &[Check] = &[
        ("-O stoneWallingWearOut=1,stoneWallingStatusFile=/tmp/sw",
            |c| c.params.stonewall_wear_out && path(&c.params.stonewall_status_file, "/tmp/sw")),
        ("-O summaryFormat=JSON", |c| c.params.summary_format == Sf::Json),
        ("-O summaryformat=csv", |c| c.params.summary_format == Sf::Csv),
        ("-O --posix.odirect=1", |c| c.params.engine.flag("posix.odirect")),
        ("-O useO_DIRECT=1", |c| c.params.engine.flag("posix.odirect")),
        ("--posix.odirect", |c| c.params.engine.flag("posix.odirect")),
        ("-O reorderTasksConstant=1", |c| c.params.reorder_tasks),
        ("-O stoneWallingWearOutIterations=12", |c| c.params.stonewall_wear_out_iterations == 12),
        ("-O deadlineForStonewalling=5", |c| c.params.deadline_for_stonewalling_s == 5.0),
        ("-O maxTimeDuration=2", |c| c.params.max_time_duration_min == 2.0),
        ("-O numTasks=3", |c| c.launch.tasks == Some(3)),
        ("-O api=mmap", |c| c.params.engine.api == "MMAP"),
        ("-O summaryFile=/tmp/s.txt", |c| path(&c.params.summary_file, "/tmp/s.txt")),
        ("-O saveRankPerformanceDetailsCSV=r.csv", |c| path(&c.params.rank_details_csv, "r.csv")),
        ("-O testFile=/a/b,keepFile=1", |c| c.params.test_file == "/a/b" && c.params.keep_file),
    ];

    #[rustfmt::skip]
    const VALUES: &[Check] = &[
        ("-G 0", |c| c.params.time_stamp_signature.is_none()),
        ("-G=27", |c| c.params.time_stamp_signature == Some(27)),
        ("--random-offset-seed=-1", |c| c.params.random_offset_seed.is_none()),
        ("--random-offset-seed 9", |c| c.params.random_offset_seed == Some(9)),
        ("-X -3", |c| c.params.reorder_tasks_random_seed == -3),
        ("-l timestamp", |c| c.params.data_packet == Dp::Timestamp),
        ("-l o", |c| c.params.data_packet == Dp::Offset),
        ("-l random", |c| c.params.data_packet == Dp::Incompressible),
        ("--dataPacketType=i", |c| c.params.data_packet == Dp::Incompressible),
        ("-t 1m", |c| c.params.data_packet == Dp::Incompressible),
        ("-a posix", |c| c.params.engine.api == "POSIX"),
        ("-a dummy --dummy.delay-xfer=10 --dummy.delay-only-rank0",
            |c| c.params.engine.number("dummy.delay-xfer") == 10 && c.params.engine.flag("dummy.delay-only-rank0")),
        ("--tasks 4 --fake-nodes 2 --fake-placement round-robin",
            |c| c.launch.tasks == Some(4) && c.launch.fake_nodes == Some(2) && c.launch.round_robin),
        ("--json /tmp/r.json --overwrite", |c| path(&c.launch.json, "/tmp/r.json") && c.overwrite),
        ("-N -1", |c| c.launch.tasks.is_none()),
        ("-o a@b", |c| c.params.test_file_names() == ["a", "b"]),
        ("-h", |c| c.launch.help),
        ("--help", |c| c.launch.help),
        ("-i 3 -d 2", |c| c.params.repetitions == 3 && c.warnings.is_empty()),
        ("-i 0 -d -5", |c| c.params.repetitions == 1 && c.params.inter_test_delay_s == 0.0),
        ("-i 0 -d -5", |c| c.warnings.len() == 2 && c.warnings[0].starts_with("-i 0")),
    ];

    /// Values as IOR takes them; times keep the fraction IOR's parser would cut (issue 12).
    #[rustfmt::skip]
    const IOR_VALUES: &[Check] = &[
        ("-d 0.1", |c| c.params.inter_test_delay_s == 0.1 && c.warnings.is_empty()),
        ("-d .5", |c| c.params.inter_test_delay_s == 0.5),
        ("-d 1k", |c| c.params.inter_test_delay_s == 1024.0),
        ("-d -0.5", |c| c.params.inter_test_delay_s == 0.0 && c.warnings.len() == 1),
        ("-O interTestDelay=0.25", |c| c.params.inter_test_delay_s == 0.25),
        ("-D 1.5", |c| c.params.deadline_for_stonewalling_s == 1.5),
        ("-O deadlineForStonewalling=2.5", |c| c.params.deadline_for_stonewalling_s == 2.5),
        ("-T 0.5", |c| c.params.max_time_duration_min == 0.5),
        ("-t 4KiB -b 1MB", |c| c.params.transfer_size == 4096 && c.params.block_size == 1 << 20),
        ("-t +8 -b 16b", |c| c.params.transfer_size == 8 && c.params.block_size == 16),
        ("-O segmentCount=1k", |c| c.params.segment_count == 1024),
        // Given twice: the last wins; -O and the letter set the same field.
        ("-t 1m -t 2m", |c| c.params.transfer_size == 2 << 20),
        ("-o a -o b", |c| c.params.test_file == "b"),
        ("-O repetitions=3 -i 2", |c| c.params.repetitions == 2),
        ("-O verbose=2 -v", |c| c.params.verbose == 3),
        ("-v -v -v", |c| c.params.verbose == 3),
        ("-C -C", |c| c.params.reorder_tasks),
        ("-X -1k", |c| c.params.reorder_tasks_random_seed == -1024),
        ("-A -7 -G -3", |c| c.params.ref_num == -7 && c.params.time_stamp_signature == Some(-3)),
        ("-Q 2k", |c| c.params.task_per_node_offset == 2048),
        // IOR's scripts and -O stop at `#`.
        ("-O transferSize=1m#note", |c| c.params.transfer_size == 1 << 20),
        ("-O keepFile=1,fsync=1#both", |c| c.params.keep_file && c.params.fsync),
    ];

    #[test]
    fn values_as_ior_takes_them() {
        check(IOR_VALUES);
    }

    #[test]
    fn syntax_forms() {
        check(SYNTAX);
    }

    #[test]
    fn directives() {
        check(DIRECTIVES);
    }

    #[test]
    fn values() {
        check(VALUES);
    }

    #[test]
    fn file_per_process_with_all_checks() {
        let c = ok("-N 4 -a POSIX -t 1m -b 64m -s 4 -F -C -e -w -r -W -R -k -o /tmp/x/testfile");
        let p = &c.params;
        assert_eq!(c.launch.tasks, Some(4));
        let sizes = (p.transfer_size, p.block_size, p.segment_count);
        assert_eq!(sizes, (1 << 20, 64 << 20, 4));
        assert!(p.file_per_proc && p.reorder_tasks && p.fsync && p.keep_file);
        assert!(p.write_file && p.read_file && p.check_write && p.check_read);
        assert_eq!(p.test_file, "/tmp/x/testfile");
    }

    #[test]
    fn ior_hard() {
        let c = ok("-N 2 -t 47008 -b 47008 -s 20000 -C -Q 1 -g -e -w -r -R -o /dev/shm/y/file");
        let p = &c.params;
        let sizes = (p.transfer_size, p.block_size, p.segment_count);
        assert_eq!(sizes, (47008, 47008, 20000));
        assert!(p.reorder_tasks && p.intra_test_barriers && !p.file_per_proc && p.check_read);
        assert_eq!(p.task_per_node_offset, 1);
    }

    #[test]
    fn old_iors_hints_file_option() {
        // Parsed only: -a MPIIO is the MPI build's (this crate registers no engine).
        let c = parse(&args("-c -U /etc/hints -o /tmp/z/f")).unwrap();
        assert!(c.params.collective);
        let hints = c.params.engine.options.get("mpiio.hintsFileName");
        assert_eq!(hints, Some(&engine::OptValue::Text("/etc/hints".into())));
        let e = validate(&c.params, 1).unwrap_err();
        assert!(
            e.contains("--mpiio.hintsFileName is an option of -a MPIIO"),
            "{e}"
        );
    }

    #[test]
    fn odirect_mmap() {
        let c = ok("-N 2 -a POSIX --posix.odirect -t 16m -b 256m -i 3 -e -F -o /tmp/z/out.dat");
        assert!(c.params.engine.flag("posix.odirect") && c.params.file_per_proc && c.params.fsync);
        assert_eq!(c.params.repetitions, 3);
        assert!(c.params.write_file && c.params.read_file, "no -w/-r: both");
        let c = ok("-N 2 -a MMAP -t 4m -b 64m -F -w -r -o /dev/shm/m/f");
        assert_eq!(
            (c.params.engine.api.as_str(), c.params.block_size),
            ("MMAP", 64 << 20)
        );
    }

    #[test]
    fn stonewalled_write() {
        let line = "-N 2 -t 1m -b 100g -F -w -D 5 -O stoneWallingWearOut=1 \
                    -O stoneWallingStatusFile=/tmp/sw -o /tmp/s/f";
        let c = parse(&args(line)).unwrap();
        let p = &c.params;
        assert_eq!(
            (p.block_size, p.deadline_for_stonewalling_s),
            (100 << 30, 5.0)
        );
        assert!(p.stonewall_wear_out && !p.read_file);
        assert!(path(&p.stonewall_status_file, "/tmp/sw"));
        // IOR refuses a status file without -k; iogauge keeps the files and warns.
        assert!(p.keep_file);
        assert!(c.warnings.iter().any(|w| w.contains("without -k")));
        validate(p, 2).unwrap();
    }

    #[test]
    fn io500_ior_easy_write() {
        let c = ok("--dataPacketType=timestamp -g -G=27 -k -e -o x -C -Q 1 \
                    -O stoneWallingStatusFile=y -t 2m -b 9920000m -F -w -D 300 \
                    -O stoneWallingWearOut=1 -a POSIX -O saveRankPerformanceDetailsCSV=z");
        let p = &c.params;
        assert_eq!(p.data_packet, Dp::Timestamp);
        assert_eq!(p.time_stamp_signature, Some(27));
        assert_eq!(p.block_size, 9_920_000 << 20);
        assert_eq!(p.deadline_for_stonewalling_s, 300.0);
        assert!(path(&p.rank_details_csv, "z") && path(&p.stonewall_status_file, "y"));
        assert!(p.write_file && !p.read_file && p.stonewall_wear_out && p.keep_file);
        assert_eq!(c.launch.tasks, None);
    }

    /// (command line, how the one-line error starts)
    #[rustfmt::skip]
    const ERRORS: &[(&str, &str)] = &[
        ("-f script.txt", "ior: -f is not supported: "),
        ("-j 5", "ior: -j (--outlierThreshold) is not supported: "),
        ("-M 2g", "ior: -M (--memoryPerNode) is not supported: "),
        ("-y", "ior: -y (--dualMount) is not supported: "),
        ("--randomPrefill=2m", "ior: --randomPrefill is not supported: "),
        ("--warningAsErrors", "ior: --warningAsErrors is not supported: "),
        ("--dryRun", "ior: --dryRun is not supported: "),
        ("--gpuDirect", "ior: --gpuDirect is not supported: "),
        ("-O summaryAlways=1", "ior: -O summaryAlways is not supported: "),
        ("-O savePerOpDataCSV=x", "ior: -O savePerOpDataCSV is not supported: "),
        ("-O minTimeDuration=5", "ior: -O minTimeDuration is not supported: "),
        ("-O interIODelay=5", "ior: -O interIODelay is not supported: "),
        ("-O memoryPerTask=1g", "ior: -O memoryPerTask is not supported: "),
        ("-O memorypernode=1g", "ior: -O memorypernode is not supported: "),
        ("-O numNodes=2", "ior: -O numNodes is not supported: "),
        ("-O numTasksOnNode0=2", "ior: -O numTasksOnNode0 is not supported: "),
        ("-O platform=x", "ior: -O platform is not supported: "),
        ("-O debug=x", "ior: -O debug is not supported: "),
        ("-O allocateBufferOnGPU=1", "ior: -O allocateBufferOnGPU is not supported: "),
        ("-O GPUid=0", "ior: -O GPUid is not supported: "),
        ("-O GPUDirect=1", "ior: -O GPUDirect is not supported: "),
        ("-O IOR_HINT__MPI__romio_cb_write=enable", "ior: -O IOR_HINT__MPI__romio_cb_write is not supported: IOR takes hints from the environment"),
        ("--posix.rangelocks", "ior: --posix.rangelocks is not supported: IOR's posix module options"),
        ("--posix.lustre.stripecount=4", "ior: --posix.lustre.stripecount is not supported: "),
        ("--posix.gpfs.hintaccess", "ior: --posix.gpfs.hintaccess is not supported: "),
        ("--posix.beegfs.NumTargets=2", "ior: --posix.beegfs.NumTargets is not supported: "),
        ("--mmap.madv_dont_need", "ior: --mmap.madv_dont_need is not supported: "),
        ("--mpiio.showHints", "ior: --mpiio.showHints is not supported: "),
        ("--hdf5.noFill", "ior: --hdf5.noFill is not supported: "),
        ("-O --mpiio.preallocate=1", "ior: -O --mpiio.preallocate is not supported: "),
        ("-a HDF5", "ior: -a HDF5 is not supported"),
        // Unknown options, with a suggestion when one is close.
        ("--blocksize=1m", "ior: unknown option --blocksize; did you mean --blockSize?"),
        ("--transfersize 1m", "ior: unknown option --transfersize; did you mean --transferSize?"),
        ("--posix.odirekt", "ior: unknown option --posix.odirekt; did you mean --posix.odirect?"),
        ("--hdfs.odirect", "ior: --hdfs.odirect is not supported: "),
        ("--stoneWallingWearOut=1", "ior: unknown option --stoneWallingWearOut; stoneWallingWearOut is an -O key: use -O stoneWallingWearOut="),
        ("--frobnicate", "ior: unknown option --frobnicate"),
        ("-J", "ior: unknown option -J; see"),
        ("-wJ", "ior: unknown option -J (in -wJ)"),
        ("-O blocksise=1m", "ior: unknown -O key blocksise; did you mean blockSize?"),
        ("testfile", "ior: unexpected argument \"testfile\""),
        ("-a posx", "ior: -a posx: unknown API"),
        // Missing and bad values.
        ("-t", "ior: -t needs a value"),
        ("-o -F", "ior: -o needs a value"),
        ("-t=", "ior: -t needs a value"),
        ("--transferSize", "ior: --transferSize needs a value"),
        ("-t 1x", "ior: -t: \"1x\" is not a size"),
        ("-b -4", "ior: -b: \"-4\" is negative"),
        ("-s many", "ior: -s: \"many\" is not a size"),
        ("-O blockSize=1q", "ior: -O blockSize: \"1q\" is not a size"),
        ("-i x", "ior: -i: \"x\" is not an integer"),
        ("-t 1.5m", "ior: -t: \"1.5m\" is not a whole number (expected an integer with an optional k, m, g, t or p suffix; IOR's parser would silently read 1)"),
        ("-t abc", "ior: -t: \"abc\" is not a size"),
        ("-s 0.5", "ior: -s: \"0.5\" is not a whole number"),
        ("-d abc", "ior: -d: \"abc\" is not a number"),
        ("-d 0.5k", "ior: -d: \"0.5k\" is not a number"),
        ("-D -1", "ior: -D -1: must not be negative"),
        ("-T -0.5", "ior: -T -0.5: must not be negative"),
        ("-O repetitions=1k", "ior: -O repetitions=1k: IOR reads this value as a plain integer"),
        ("-O filePerProc=1k", "ior: -O filePerProc=1k: IOR reads this value as a plain integer"),
        ("-v=1k", "ior: -v=1k: IOR reads this value as a plain integer"),
        ("-O interTestDelay=1k", "ior: -O interTestDelay=1k: IOR reads"),
        ("-F=yes", "ior: -F: \"yes\" is not an integer"),
        ("-l z", "ior: -l z: unknown data packet type"),
        ("-O summaryFormat=xml", "ior: -O summaryFormat=xml: expected default, JSON or CSV"),
        ("-O stoneWallingWearOut", "ior: -O stoneWallingWearOut: expected KEY=VALUE"),
        ("-O verbose=1,,keepFile=1", "ior: -O \"verbose=1,,keepFile=1\": empty entry"),
        ("-O testFile=", "ior: -O testFile needs a value"),
        ("-N 0", "ior: -N 0: at least 1 task is needed"),
        ("--tasks 0", "ior: --tasks 0: at least 1 is needed"),
        ("--fake-placement cyclic", "ior: --fake-placement cyclic: expected block or round-robin"),
    ];

    #[test]
    fn errors_name_the_option() {
        for (line, start) in ERRORS {
            let e = bad(line);
            assert!(
                e.starts_with(start),
                "{line}:\n  got  {e}\n  want {start}..."
            );
            assert!(!e.contains('\n'), "{line}: one line");
        }
    }
}
