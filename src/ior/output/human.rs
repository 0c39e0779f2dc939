//! IOR's human-readable report (`ior-output.c`): header, `Options:`, results table, notices and
//! `Summary of all tests:`.

use workload::ior::{Access, IorParams, PhaseOutcome, VerifyOutcome};

use super::format::{kv, pp_double};
use super::{Header, OpSummary, Row};
use text::human_size;

/// A value of the `Options` block: JSON prints integers as numbers.
#[derive(Debug, Clone, PartialEq)]
pub(super) enum OptValue {
    Text(String),
    Int(i64),
}

impl OptValue {
    fn text(&self) -> String {
        match self {
            OptValue::Text(s) => s.clone(),
            OptValue::Int(n) => n.to_string(),
        }
    }
}

/// The keys and values of IOR's `ShowSetup`, in its order and with its conditions.
pub(super) fn options(p: &IorParams, h: &Header) -> Vec<(&'static str, OptValue)> {
    use OptValue::{Int, Text};
    let t = |s: &str| Text(s.to_string());
    let access = match p.file_per_proc {
        true => "file-per-process",
        false => "single-shared-file",
    };
    let ordering = if p.random_offset > 0 {
        "random"
    } else {
        "sequential"
    };
    let mut o = vec![
        ("api", t(&p.engine.api)),
        ("apiVersion", t(&h.api_version)),
        ("test filename", t(&p.test_file)),
        ("access", t(access)),
        (
            "type",
            t(if p.collective {
                "collective"
            } else {
                "independent"
            }),
        ),
        ("segments", Int(p.segment_count as i64)),
        ("ordering in a file", t(ordering)),
    ];
    if !p.reorder_tasks && p.reorder_tasks_random == 0 {
        o.push(("ordering inter file", t("no tasks offsets")));
    }
    if p.reorder_tasks {
        o.push(("ordering inter file", t("constant task offset")));
        o.push(("task offset", Int(p.task_per_node_offset as i64)));
    }
    if p.reorder_tasks_random > 0 {
        o.push(("ordering inter file", t("random task offset")));
        o.push(("task offset", Int(p.task_per_node_offset as i64)));
        o.push(("reorder random seed", Int(p.reorder_tasks_random_seed)));
    }
    let aggregate = p.expected_aggregate_size(h.tasks as u64);
    o.extend([
        ("nodes", Int(h.nodes as i64)),
        ("tasks", Int(h.tasks as i64)),
        ("clients per node", Int(h.tasks_per_node as i64)),
        ("memoryBuffer", t("CPU")),
        ("dataAccess", t("CPU")),
        ("GPUDirect", t("0")),
        ("repetitions", Int(p.repetitions as i64)),
        ("xfersize", Text(human_size(p.transfer_size))),
        ("blocksize", Text(human_size(p.block_size))),
        ("aggregate filesize", Text(human_size(aggregate))),
    ]);
    if p.verbose > 0 {
        o.push(("verbose", Int(p.verbose as i64)));
    }
    if p.deadline_for_stonewalling_s > 0.0 {
        // f64's Display: `300` as IOR prints it, `0.5` for a fraction IOR would have cut.
        let deadline = p.deadline_for_stonewalling_s.to_string();
        o.push(("stonewallingTime", Text(deadline)));
        o.push(("stoneWallingWearOut", Int(p.stonewall_wear_out as i64)));
    }
    o
}

/// Everything before the results table: header lines, `Options:` block, `Results:`.
pub(super) fn start(p: &IorParams, h: &Header) -> String {
    let mut s = format!(
        "iogauge-{}: IOR-compatible test of parallel I/O\n",
        h.version
    );
    let mut line = |k: &str, v: &str| {
        s += &kv(k, v);
        s.push('\n');
    };
    line("Began", &h.began);
    line("Command line", &h.command_line);
    line("Machine", &h.machine);
    line("TestID", "0");
    line("StartTime", &h.began);
    line("Path", &h.path);
    if !h.fs_line.is_empty() {
        line("FS", &h.fs_line);
    }
    s += "\nOptions: \n";
    for (k, v) in options(p, h) {
        s += &kv(k, &v.text());
        s.push('\n');
    }
    s += "\nResults: \n";
    s
}

/// IOR's table header plus iogauge's latency columns.
pub(super) fn table_header() -> String {
    "\naccess    bw(MiB/s)  IOPS       Latency(s)  block(KiB) xfer(KiB)  open(s)    wr/rd(s)   \
     close(s)   total(s)   iter p50(s)     p99(s)     max(s)\n\
     ------    ---------  ----       ----------  ---------- ---------  --------   --------   \
     --------   --------   ---- ------     ------     ------\n"
        .to_string()
}

/// One results row: IOR's columns, then p50, p99 and max latency of all transfers.
pub(super) fn result_row(r: &Row) -> String {
    let mut s = format!("{:<10}", r.access.label());
    s += &pp_double(r.bw_mib, " ");
    s += &pp_double(r.iops, " ");
    s += &pp_double(r.latency_s, "  ");
    for v in [
        r.block_kib,
        r.xfer_kib,
        r.open_s,
        r.xfer_s,
        r.close_s,
        r.total_s,
    ] {
        s += &pp_double(v, " ");
    }
    s += &format!("{:<4} ", r.iteration);
    for v in [r.p50_s, r.p99_s, r.max_s] {
        s += &pp_double(v.unwrap_or(-1.0), " ");
    }
    s.push('\n');
    s
}

/// The verbose `remove` row.
pub(super) fn remove_row(iteration: u32, time_s: f64) -> String {
    format!(
        "remove    -          -          -           -          -          -          -          \
         -          {}{:<4}\n",
        pp_double(time_s, " "),
        iteration
    )
}

/// Verification result: nothing when clean.
pub(super) fn verify_notices(access: Access, v: &VerifyOutcome) -> Vec<String> {
    let mut out = Vec::new();
    if v.errors > 0 {
        out.push(format!(
            "WARNING: Incorrect data on {} ({} errors found).",
            access.label(),
            v.errors
        ));
        if let Some(e) = &v.first_error {
            out.push(format!(
                "First incorrect data: rank {}, file {}, offset {}",
                e.rank, e.file, e.offset
            ));
        }
    }
    out
}

/// What IOR prints during and after a phase, before its row (in IOR's order): the stonewall
/// line, the verification warning, the file-size warning block, then the phase's own warnings.
pub(super) fn phase_notices(p: &PhaseOutcome, params: &IorParams) -> Vec<String> {
    const GIB: f64 = 1073741824.0;
    let mut out = Vec::new();
    if let Some(sw) = &p.stonewall {
        out.push(format!(
            "stonewalling pairs accessed min: {} max: {} -- min data: {:.1} GiB mean data: {:.1} \
             GiB time: {:.1}s",
            sw.pairs_min,
            sw.pairs_max,
            sw.bytes_min as f64 / GIB,
            sw.bytes_mean / GIB,
            sw.time_s
        ));
    }
    if let Some(v) = &p.verification {
        out.extend(verify_notices(p.access, v));
    }
    if p.size_checked && (p.expected_size != p.bytes || p.stat_size != p.bytes) {
        for (what, n) in [
            ("Expected aggregate file size      ", p.expected_size),
            ("Stat() of aggregate file size     ", p.stat_size),
            ("Using actual aggregate bytes moved", p.bytes),
        ] {
            out.push(format!("WARNING: {what} = {n}"));
        }
        if params.deadline_for_stonewalling_s > 0.0 || p.stonewall.is_some() {
            out.push("WARNING: Maybe caused by deadlineForStonewalling".to_string());
        }
    }
    out.extend(p.warnings.iter().map(|w| format!("WARNING: {w}")));
    out
}

/// IOR's wear-out pair count when no status file keeps it (the text corrected).
pub(super) fn pairs_line(params: &IorParams, rows: &[&Row]) -> Option<String> {
    if !params.stonewall_wear_out || params.stonewall_status_file.is_some() {
        return None;
    }
    let first = |a: Option<Access>| {
        rows.iter()
            .filter(|r| a.is_none_or(|a| r.access == a))
            .find_map(|r| r.stonewall)
    };
    let sw = first(Some(Access::Write)).or_else(|| first(None))?;
    Some(format!("Pairs accessed (stonewall): {}", sw.pairs_max))
}

/// `Max Write` / `Max Read` over the repetitions (verbosity >= 1).
pub(super) fn max_lines(params: &IorParams, rows: &[&Row]) -> String {
    let max = |a: Access| {
        rows.iter()
            .filter(|r| r.access == a && r.total_s > 0.0)
            .map(|r| r.bytes as f64 / r.total_s)
            .fold(0.0, f64::max)
    };
    let mut s = String::new();
    for (on, a, label) in [
        (params.write_file, Access::Write, "Write:"),
        (params.read_file, Access::Read, "Read: "),
    ] {
        if on {
            let b = max(a);
            s += &format!(
                "Max {label} {:.2} MiB/sec ({:.2} MB/sec)\n",
                b / 1048576.0,
                b / 1e6
            );
        }
    }
    s
}

/// IOR's `PrintLongSummaryHeader` as printed (its `%10s`/`%13s`/`%8s` padding applied).
const SUMMARY_HEADER: &str = "Operation   Max(MiB)   Min(MiB)  Mean(MiB)     StdDev   Max(OPs)   \
    Min(OPs)  Mean(OPs)     StdDev    Mean(s) Stonewall(s) Stonewall(MiB) Test# #Tasks tPN reps fPP \
    reord reordoff reordrand seed segcnt   blksiz    xsize aggs(MiB)   API RefNum\n";

/// `Summary of all tests:`, one row per operation, and the notes that label per-task and
/// total-window figures.
pub(super) fn summary(sums: &[OpSummary], p: &IorParams, h: &Header) -> String {
    let mut s = String::from("\nSummary of all tests:\n");
    s += SUMMARY_HEADER;
    for o in sums {
        s += &format!("{:<9} ", o.access.label());
        for v in [o.bw.max, o.bw.min, o.bw.mean, o.bw.stddev_population] {
            s += &format!("{v:10.2} ");
        }
        for v in [o.ops.max, o.ops.min, o.ops.mean, o.ops.stddev_population] {
            s += &format!("{v:10.2} ");
        }
        s += &format!("{:10.5} ", o.mean_time_s);
        match &o.stonewall {
            Some(sw) => s += &format!("{:10.2} {:13.2} ", sw.time_avg_s, sw.per_task_mib),
            None => s += &format!("{:>10} {:>13} ", "NA", "NA"),
        }
        s += &format!(
            "{:5} {:6} {:3} {:4} {:3} {:5} {:8} {:9} {:4} {:6} {:8} {:8} {:9.1} {:>3} {:6}\n",
            0,
            h.tasks,
            h.tasks_per_node,
            o.reps,
            p.file_per_proc as u8,
            p.reorder_tasks as u8,
            p.task_per_node_offset,
            p.reorder_tasks_random,
            p.reorder_tasks_random_seed,
            p.segment_count,
            p.block_size,
            p.transfer_size,
            o.aggs_mib,
            p.engine.api,
            p.ref_num
        );
    }
    if !sums.is_empty() {
        s += "Note: OPs are transfers/s over total(s); the IOPS column above uses wr/rd(s)\n";
    }
    for o in sums {
        if let Some(sw) = &o.stonewall {
            s += &format!(
                "Note: Stonewall(MiB) is per task, as in IOR; aggregate stonewall bandwidth: {} \
                 {:.2} MiB/s\n",
                o.access.label(),
                sw.aggregate_mib
            );
        }
    }
    s
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::ior::output::fixtures;

    pub(crate) fn example() -> (IorParams, Header) {
        let p = IorParams {
            transfer_size: 1 << 20,
            block_size: 256 << 20,
            file_per_proc: true,
            reorder_tasks: true,
            write_file: true,
            read_file: true,
            keep_file: true,
            test_file: "/mnt/pfs/ior-easy/testfile".into(),
            ..IorParams::default()
        };
        let h = Header {
            version: "0.1.0".into(),
            began: "Sun Nov 22 09:29:26 2026".into(),
            command_line: "iogauge ior -a POSIX -t 1m -b 256m -F -C -w -r -k".into(),
            machine: "Linux node001".into(),
            path: "/mnt/pfs/ior-easy/testfile.00000000".into(),
            fs_line: "23.5 GiB   Used FS: 17.0%   Inodes: 2.9 Mi   Used Inodes: 0.9%".into(),
            nodes: 1,
            tasks: 2,
            tasks_per_node: 2,
            api_version: String::new(),
        };
        (p, h)
    }

    #[test]
    fn start_matches_ior_layout() {
        let (p, h) = example();
        let want = "iogauge-0.1.0: IOR-compatible test of parallel I/O
Began               : Sun Nov 22 09:29:26 2026
Command line        : iogauge ior -a POSIX -t 1m -b 256m -F -C -w -r -k
Machine             : Linux node001
TestID              : 0
StartTime           : Sun Nov 22 09:29:26 2026
Path                : /mnt/pfs/ior-easy/testfile.00000000
FS                  : 23.5 GiB   Used FS: 17.0%   Inodes: 2.9 Mi   Used Inodes: 0.9%

Options: 
api                 : POSIX
apiVersion          : 
test filename       : /mnt/pfs/ior-easy/testfile
access              : file-per-process
type                : independent
segments            : 1
ordering in a file  : sequential
ordering inter file : constant task offset
task offset         : 1
nodes               : 1
tasks               : 2
clients per node    : 2
memoryBuffer        : CPU
dataAccess          : CPU
GPUDirect           : 0
repetitions         : 1
xfersize            : 1 MiB
blocksize           : 256 MiB
aggregate filesize  : 512 MiB

Results: 
";
        assert_eq!(start(&p, &h), want);
    }

    #[test]
    fn options_conditional_lines() {
        let (mut p, h) = example();
        p.reorder_tasks = false;
        p.random_offset = 1;
        p.transfer_size = 47008;
        p.block_size = 47008;
        p.segment_count = 200000;
        p.deadline_for_stonewalling_s = 2.0;
        p.stonewall_wear_out = true;
        let text = start(&p, &h);
        assert!(text.contains(
            "ordering in a file  : random\nordering inter file : no tasks offsets\nnodes"
        ));
        assert!(text.contains("xfersize            : 47008 bytes\n"));
        assert!(text.contains("aggregate filesize  : 17.51 GiB\nstonewallingTime    : 2\nstoneWallingWearOut : 1\n\nResults: \n"));
        p.reorder_tasks_random = 1;
        p.reorder_tasks_random_seed = -3;
        p.verbose = 1;
        let o = options(&p, &h);
        let keys: Vec<_> = o.iter().map(|(k, _)| *k).collect();
        assert_eq!(
            &keys[7..10],
            ["ordering inter file", "task offset", "reorder random seed"]
        );
        assert_eq!(o[9].1, OptValue::Int(-3));
        assert!(keys.contains(&"verbose"));
    }

    #[test]
    fn result_rows_match_ior_columns() {
        let head = table_header();
        let lines: Vec<&str> = head.lines().collect();
        assert_eq!(lines[0], "");
        assert!(lines[1].starts_with("access    bw(MiB/s)  IOPS       Latency(s)  block(KiB) xfer(KiB)  open(s)    wr/rd(s)   close(s)   total(s)   iter"));
        assert!(lines[2].starts_with("------    ---------  ----       ----------  ---------- ---------  --------   --------   --------   --------   ----"));
        let w = Row::of(&fixtures::example_write());
        let ior = "write     896.76     896.80     0.002230    262144     1024.00    0.000033   0.570919   0.118197   0.570942   0   ";
        // No latency recorded: the extra columns print IOR's "-".
        assert_eq!(
            result_row(&w),
            format!("{ior} {}\n", "   -       ".repeat(3))
        );
        // Percentile columns start where their header does.
        assert_eq!(lines[1].find("p50(s)"), Some(ior.len() + 1));
        let mut p = fixtures::example_write();
        for ns in [1_500_000u64, 2_000_000, 2_500_000, 9_000_000_000] {
            p.latency.record(ns);
        }
        let h = &p.latency;
        let s = |v: u64| pp_double(v as f64 / 1e9, " ");
        let want = format!(
            "{ior} {}{}{}\n",
            s(h.value_at_quantile(0.5)),
            s(h.value_at_quantile(0.99)),
            s(h.max())
        );
        assert_eq!(result_row(&Row::of(&p)), want);
        assert!(want.ends_with("9.00       \n"));
    }

    #[test]
    fn remove_row_layout() {
        assert_eq!(
            remove_row(0, 0.000632),
            "remove    -          -          -           -          -          -          -          -          0.000632   0   \n"
        );
    }

    #[test]
    fn pairs_line_only_without_status_file() {
        let (mut params, _) = example();
        let mut p = fixtures::example_write();
        p.stonewall = Some(fixtures::stonewall(2.0, 1.0, 2));
        let r = Row::of(&p);
        assert_eq!(pairs_line(&params, &[&r]), None, "no wear-out");
        params.stonewall_wear_out = true;
        let want = "Pairs accessed (stonewall): 20082";
        assert_eq!(pairs_line(&params, &[&r]).as_deref(), Some(want));
        params.stonewall_status_file = Some("sw".into());
        assert_eq!(pairs_line(&params, &[&r]), None);
    }
}
