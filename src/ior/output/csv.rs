//! `-O summaryFormat=CSV` rows and the per-rank CSV of `-O saveRankPerformanceDetailsCSV=F`.

use std::fs::{File, OpenOptions};
use std::io::{self, Write};
use std::path::Path;

use workload::ior::PhaseOutcome;

use super::Row;
use text::{c_exp, fixed};

/// The column line IOR prints before the first row.
pub const HEADER: &str =
    "access,bw(MiB/s),IOPS,Latency,block(KiB),xfer(KiB),open(s),wr/rd(s),close(s),total(s),numTasks,iter";

/// The header of the per-rank file, written once when the file is created (IOR writes it
/// while parsing the option and appends the rows of every phase afterwards).
pub const RANK_HEADER: &str =
    "access,rank,runtime-with-openclose,runtime,throughput-withopenclose,throughput";

/// One `summaryFormat=CSV` row: all doubles `%.4f`, then the task count and the repetition.
pub(super) fn row(r: &Row, tasks: usize) -> String {
    let mut s = r.access.label().to_string();
    for v in [
        r.bw_mib,
        r.iops,
        r.latency_s,
        r.block_kib,
        r.xfer_kib,
        r.open_s,
        r.xfer_s,
        r.close_s,
        r.total_s,
    ] {
        s.push(',');
        s += &fixed(v, 4);
    }
    s + &format!(",{tasks},{}", r.iteration)
}

/// The per-rank rows of `phases`: each rank's own open-to-close time and access time, and the
/// phase's bytes divided evenly over `tasks` per second of each (IOR's `StoreRankInformation`,
/// `%.10e`).
pub fn rank_rows(phases: &[PhaseOutcome], tasks: usize) -> String {
    let mut s = String::new();
    for p in phases {
        let per_task = p.bytes as f64 / tasks.max(1) as f64;
        for (i, r) in p.ranks.iter().enumerate() {
            let total = r.close_stop - r.open_start;
            let access = r.xfer_stop - r.xfer_start;
            s += &format!(
                "{},{i},{},{},{},{}\n",
                p.access.label(),
                c_exp(total, 10),
                c_exp(access, 10),
                c_exp(per_task / total, 10),
                c_exp(per_task / access, 10)
            );
        }
    }
    s
}

/// Creates (truncates) `path` and writes the header and the rows of `phases` in order: the file
/// IOR leaves behind after the same phases. With no phases it is IOR's option-time header.
pub fn write_rank_csv(path: &Path, phases: &[PhaseOutcome], tasks: usize) -> io::Result<()> {
    let mut f = File::create(path)?;
    f.write_all(format!("{RANK_HEADER}\n{}", rank_rows(phases, tasks)).as_bytes())?;
    f.flush()
}

/// Appends the rows of `phases` (IOR's per-phase append), writing the header first when the
/// file is new or empty, so finished phases stay on disk if a later one fails.
pub fn append_rank_csv(path: &Path, phases: &[PhaseOutcome], tasks: usize) -> io::Result<()> {
    let mut f = OpenOptions::new().create(true).append(true).open(path)?;
    let mut text = String::new();
    if f.metadata()?.len() == 0 {
        text = format!("{RANK_HEADER}\n");
    }
    text += &rank_rows(phases, tasks);
    f.write_all(text.as_bytes())?;
    f.flush()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ior::output::{fixtures, Header, IorPrinter};
    use workload::ior::{Access, IorParams, SummaryFormat};

    #[test]
    fn csv_rows_use_four_decimals() {
        let w = Row::of(&fixtures::example_write());
        assert_eq!(
            row(&w, 2),
            "write,896.7636,896.7997,0.0022,262144.0000,1024.0000,0.0000,0.5709,0.1182,0.5709,2,0"
        );
    }

    #[test]
    fn printer_emits_header_and_rows_only() {
        let p = IorParams {
            summary_format: SummaryFormat::Csv,
            verbose: 1,
            ..IorParams::default()
        };
        let h = Header {
            tasks: 2,
            ..Header::default()
        };
        let mut pr = IorPrinter::new(Vec::new(), &p, h).with_diagnostics(Box::new(io::sink()));
        pr.start().unwrap();
        pr.repetition_start(0).unwrap();
        let mut w = fixtures::example_write();
        w.warnings.push("cache".into());
        pr.phase(&w).unwrap();
        let mut r = fixtures::phase(Access::Read, 1, 512 << 20, [0.5, 0.25, 0.125, 2.0], 0.25);
        r.iteration = 1;
        pr.phase(&r).unwrap();
        pr.warning("not in the stream").unwrap();
        pr.remove(1, 0.1).unwrap();
        pr.finish("done").unwrap();
        assert_eq!(
            pr.warnings(),
            ["WARNING: cache", "WARNING: not in the stream"]
        );
        let out = String::from_utf8(pr.into_inner()).unwrap();
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(lines.len(), 3);
        assert_eq!(lines[0], HEADER);
        assert!(lines[1].starts_with("write,896.7636,"));
        assert_eq!(
            lines[2],
            "read,256.0000,2048.0000,0.0010,262144.0000,1024.0000,0.5000,0.2500,0.1250,2.0000,2,1"
        );
    }

    #[test]
    fn rank_csv_has_one_header_and_a_row_per_rank_and_phase() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("ranks.csv");
        let w = fixtures::phase(Access::Write, 0, 4 << 20, [0.1, 0.5, 0.1, 1.0], 0.5);
        let r = fixtures::phase(Access::Read, 0, 4 << 20, [0.1, 0.25, 0.1, 0.5], 0.25);
        write_rank_csv(&path, std::slice::from_ref(&w), 2).unwrap();
        append_rank_csv(&path, std::slice::from_ref(&r), 2).unwrap();
        let text = std::fs::read_to_string(&path).unwrap();
        // Rank times from the fixture: open_start 0, close_stop = total; access window 1.0..1+x.
        let want = format!(
            "{RANK_HEADER}\n\
             write,0,1.0000000000e+00,5.0000000000e-01,2.0971520000e+06,4.1943040000e+06\n\
             write,1,1.0000000000e+00,5.0000000000e-01,2.0971520000e+06,4.1943040000e+06\n\
             read,0,5.0000000000e-01,2.5000000000e-01,4.1943040000e+06,8.3886080000e+06\n\
             read,1,5.0000000000e-01,2.5000000000e-01,4.1943040000e+06,8.3886080000e+06\n"
        );
        assert_eq!(text, want);
        // Rewriting truncates: the header appears once.
        write_rank_csv(&path, &[w, r], 2).unwrap();
        assert_eq!(std::fs::read_to_string(&path).unwrap(), want);
        let fresh = dir.path().join("fresh.csv");
        append_rank_csv(&fresh, &[], 2).unwrap();
        assert_eq!(
            std::fs::read_to_string(&fresh).unwrap(),
            format!("{RANK_HEADER}\n")
        );
    }
}
