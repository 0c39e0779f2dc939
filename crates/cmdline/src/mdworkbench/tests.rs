use super::*;
use std::path::Path;
use workload::ior::DataPacket as Dp;
use workload::mdworkbench::validate::validate;

fn args(line: &str) -> Vec<String> {
    line.split_whitespace().map(String::from).collect()
}

fn ok(line: &str) -> MdWorkbenchCommand {
    parse(&args(line)).unwrap_or_else(|e| panic!("{line}: {e}"))
}

type Check = (&'static str, fn(&MdWorkbenchCommand) -> bool);

#[rustfmt::skip]
const ACCEPTED: &[Check] = &[
    ("", |c| c.params.phases.precreate && c.params.phases.benchmark && c.params.phases.cleanup),
    ("", |c| (c.params.precreate_per_set, c.params.objects_per_set, c.params.data_sets, c.params.object_size, c.params.iterations, c.params.offset) == (3000, 1000, 10, 3901, 3, 1)),
    ("", |c| c.params.dir == Path::new("./out") && c.params.run_info_file == Path::new("md-workbench.status")),
    ("", |c| c.params.data_packet == Dp::Incompressible && c.params.seed.is_none()),
    ("-1", |c| c.params.phases.precreate && !c.params.phases.benchmark && !c.params.phases.cleanup),
    ("-2 -3", |c| !c.params.phases.precreate && c.params.phases.benchmark && c.params.phases.cleanup),
    ("-23", |c| !c.params.phases.precreate && c.params.phases.benchmark && c.params.phases.cleanup),
    ("--run-cleanup", |c| c.params.phases.cleanup && !c.params.phases.benchmark),
    ("-P 1k -I=512 -D5 -S 4k", |c| (c.params.precreate_per_set, c.params.objects_per_set, c.params.data_sets, c.params.object_size) == (1024, 512, 5, 4096)),
    ("--precreate-per-set=7 --obj-per-proc 3 --data-sets=2 --object-size 10 --iterations=4 --offset 2", |c| (c.params.precreate_per_set, c.params.objects_per_set, c.params.data_sets, c.params.object_size, c.params.iterations, c.params.offset) == (7, 3, 2, 10, 4, 2)),
    ("-O=1 -R=2", |c| c.params.offset == 1 && c.params.iterations == 2),
    ("-G=-312303232", |c| c.params.seed == Some(-312303232)),
    ("-G -1", |c| c.params.seed.is_none()),
    ("-t=0.000000", |c| c.params.waiting_factor == 0.0),
    ("--waiting-time 0.5 -T", |c| c.params.waiting_factor == 0.5 && c.params.adaptive_waiting),
    ("-w 0.5 -W", |c| c.params.stonewall_s == 0.5 && c.params.wear_out),
    ("--stonewall-timer=300 --stonewall-wear-out", |c| c.params.stonewall_s == 300.0 && c.params.wear_out),
    ("-X --read-only --ignore-precreate-errors", |c| c.params.verify_read && c.params.read_only && c.params.ignore_precreate_errors),
    ("--dataPacketType=timestamp", |c| c.params.data_packet == Dp::Timestamp),
    ("--start-item 40 --run-info-file=/tmp/st", |c| c.params.start_item == Some(40) && c.params.run_info_file == Path::new("/tmp/st")),
    ("-o=/x/mdworkbench", |c| c.params.dir == Path::new("/x/mdworkbench")),
    ("-q --process-reports --print-detailed-stats -vv", |c| c.params.quiet && c.params.process_reports && c.params.detailed_stats && c.params.verbose == 2),
    ("-a dummy --dummy.delay-create=10", |c| c.params.engine.api == "DUMMY" && c.params.engine.number("dummy.delay-create") == 10),
    ("--api POSIX", |c| c.params.engine.api == "POSIX"),
    ("--tasks 4 --fake-nodes 2 --json r.json", |c| c.launch.tasks == Some(4) && c.launch.fake_nodes == Some(2) && c.launch.json.is_some()),
    ("-h", |c| c.launch.help),
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
    let base = "--dataPacketType=timestamp --process-reports -a POSIX -o=/x/mdworkbench -t=0.000000 -O=1 --run-info-file=/r/mdworkbench.status -D=10 -G=-1234 -P=300 -I=300";
    for phase in ["-1", "-2 -R=2 -X", "-3"] {
        let c = ok(&format!("{base} {phase}"));
        validate(&c.params, 4).unwrap_or_else(|e| panic!("{phase}: {e}"));
    }
}

/// (command line, how the one-line error starts)
#[rustfmt::skip]
const ERRORS: &[(&str, &str)] = &[
    ("-L /tmp/lat", "md-workbench: -L (--latency) is not supported: per-operation latency files"),
    ("--latency-all", "md-workbench: --latency-all is not supported"),
    ("--allocateBufferOnGPU=1", "md-workbench: --allocateBufferOnGPU is not supported: GPU"),
    ("--posix.odirect", "md-workbench: --posix.odirect is not supported: back-end module options"),
    ("-a MMAP", "md-workbench: -a MMAP: the MMAP engine has no metadata operations"),
    ("--dummy.delay-creat=5", "md-workbench: unknown option --dummy.delay-creat; did you mean --dummy.delay-create?"),
    ("--read-onyl", "md-workbench: unknown option --read-onyl; did you mean --read-only?"),
    ("-j", "md-workbench: unknown option -j; see iogauge md-workbench --help"),
    ("-run-precreate", "md-workbench: unknown option -run-precreate; did you mean --run-precreate?"),
    ("out", "md-workbench: unexpected argument \"out\""),
    ("-P", "md-workbench: -P needs a value"),
    ("-P x", "md-workbench: -P: \"x\" is not a size"),
    ("-I 1.5k", "md-workbench: -I: \"1.5k\" is not a whole number"),
    ("-O -1", "md-workbench: -O: \"-1\" is negative"),
    ("-w -1", "md-workbench: -w -1: must not be negative"),
    ("-t x", "md-workbench: -t: \"x\" is not a number"),
    ("--dataPacketType=z", "md-workbench: --dataPacketType z: unknown data packet type"),
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
