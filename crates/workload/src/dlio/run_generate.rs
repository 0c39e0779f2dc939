//! The generation (`workflow.generate_data`) as a timed write phase: rank 0 makes the data
//! folder, `train/`, `valid/` and their subfolders; after a barrier every rank encodes its
//! files (DLIO's round robin, `data::rank_files`) and writes each one through the engine
//! (create-truncate, the whole file, close), one operation per file. As in DLIO, nothing is
//! flushed inside the window.

use engine::{Engine, OpenHints, OpenMode, Target};
use measure::{now_ns, secs, IntervalSeries, LatencyHistogram};
use results::dlio::{GenerateOutcome, GenerateRank, PhaseOutcome, GENERATE_KINDS};
use results::sink::{Detail, Expect};
use results::Operation;

use super::config;
use super::data::{rank_files, FileEncoder, Split};
use super::error::DlioError;
use super::run_ctx::Ctx;
use crate::bracket;
use crate::reduce::{self, RankFigures};

const WRITE: usize = 0;

/// Rank 0 makes the folders; every rank learns whether that worked (a message from rank 0).
fn make_folders(ctx: &Ctx) -> Result<(), DlioError> {
    let mine = if ctx.comm.rank() == 0 {
        folders(ctx.p, ctx.engine).err().unwrap_or_default()
    } else {
        String::new()
    };
    let got = ctx.comm.broadcast_bytes(mine.as_bytes(), 0)?;
    match (got.is_empty(), ctx.comm.rank()) {
        (true, _) => Ok(()),
        (false, 0) => Err(DlioError::Prepare(String::from_utf8_lossy(&got).into())),
        (false, _) => Err(DlioError::Comm(exec::CommError::PeerFailed {
            rank: 0,
            message: "making the data folders failed".into(),
        })),
    }
}

fn folders(p: &plan::dlio::DlioParams, engine: &dyn Engine) -> Result<(), String> {
    let mut dirs = vec![config::data_folder(p)];
    for split in [Split::Train, Split::Valid] {
        let l = config::layout(p, split);
        dirs.push(l.split_dir());
        dirs.extend(l.subfolders());
    }
    for d in dirs {
        if d.is_dir() {
            continue;
        }
        engine
            .mkdir(Target::from(&d))
            .map_err(|e| format!("mkdir {}: {}", d.display(), engine::errno::describe(&e)))?;
    }
    Ok(())
}

/// Runs the generation on this rank; rank 0 reports it. `Some(signal)`: a signal stopped it.
pub(crate) fn generate(ctx: &Ctx) -> Result<Option<i32>, DlioError> {
    let comm = ctx.comm;
    let p = ctx.p;
    make_folders(ctx)?;
    let mut encoder =
        FileEncoder::new(config::gen_spec(p)).map_err(|e| DlioError::Prepare(e.to_string()))?;
    let layouts = [
        config::layout(p, Split::Train),
        config::layout(p, Split::Valid),
    ];
    let (train, valid) = (p.dataset.num_files_train, p.dataset.num_files_eval);
    let (rank, ranks) = (comm.rank() as u64, comm.size() as u64);
    let page_cache = crate::cache::before_phase(ctx.session, comm, ctx.engine.caps(), None, false)?;
    let expect = Expect {
        bytes: None,
        ops: Some(train + valid),
        deadline_s: None,
    };
    let event = bracket::start(Operation::DlioGenerate, 0, comm.size(), expect);
    let mut rec = bracket::prepare(
        ctx.session,
        comm,
        ctx.slot,
        GENERATE_KINDS.len(),
        Some(event),
    );
    let epoch = bracket::epoch(comm, &mut rec)?;
    let mut buf = Vec::new();
    comm.barrier()?;
    let t0 = now_ns();
    rec.start(t0);
    let (mut files, mut bytes) = (0u64, 0u64);
    let mut result = Ok(());
    for (split, index) in rank_files(train, valid, rank, ranks) {
        if exec::interrupt::requested() {
            break;
        }
        let path = layouts[(split == Split::Valid) as usize].file_path(index);
        let written = encoder
            .encode(split, index, &mut buf)
            .map_err(|e| DlioError::Encode(format!("{}: {e}", path.display())))
            .and_then(|enc| write_file(ctx.engine, &path, &buf, rank as usize).map(|()| enc.len));
        match written {
            Ok(len) => {
                rec.record(WRITE, len);
                files += 1;
                bytes += len;
            }
            Err(e) => {
                result = Err(e);
                break;
            }
        }
    }
    result?;
    let done_s = secs(rec.prev().saturating_sub(t0));
    let (_, stop) = crate::stop::after_phase(comm, exec::interrupt::requested())?;
    let m = rec.finish();
    let report = RankFigures {
        seconds: vec![done_s],
        counts: vec![rank, files, bytes],
        latency: m.latency,
        series: Some(m.series),
        ..RankFigures::default()
    };
    let Some(all) = reduce::gather(Some(ctx.session), comm, &report)? else {
        return Ok(stop);
    };
    let mut latency = vec![LatencyHistogram::new()];
    let mut series = IntervalSeries::new(ctx.session.interval_ns(), epoch);
    let mut ranks_out = Vec::new();
    for r in all.reports() {
        let (_, r) = r?;
        r.merge_latency(&mut latency)?;
        series.merge(r.series()?);
        let [done_s] = r.seconds_n()?;
        let [rank, files, bytes] = r.counts_n()?;
        ranks_out.push(GenerateRank {
            rank,
            done_s,
            files,
            bytes,
        });
    }
    let o = PhaseOutcome::Generate(GenerateOutcome {
        ranks: ranks_out,
        latency: latency.remove(0),
        series,
        flushed: false,
    });
    let mut result = results::dlio::phase_result(&o);
    result.interrupted = stop.is_some();
    result.page_cache = page_cache;
    ctx.session.hub().phase_end(result, Detail::of(&o));
    ctx.phases.push(o);
    Ok(stop)
}

/// One file: create-truncate, the whole buffer, close.
fn write_file(
    engine: &dyn Engine,
    path: &std::path::Path,
    data: &[u8],
    rank: usize,
) -> Result<(), DlioError> {
    let hints = OpenHints {
        file_size: data.len() as u64,
        rank,
        layout: None,
    };
    let mut f = engine
        .open(Target::from(path), OpenMode::CreateTruncate, &hints)
        .map_err(|e| DlioError::io("create", path, e))?;
    let mut at = 0;
    while at < data.len() {
        let n = f
            .write_at(&data[at..], at as u64)
            .map_err(|e| DlioError::io("write", path, e))?;
        if n == 0 {
            return Err(DlioError::io(
                "write",
                path,
                std::io::ErrorKind::WriteZero.into(),
            ));
        }
        at += n;
    }
    f.close().map_err(|e| DlioError::io("close", path, e))
}
