//! The contracts of queued engines (`Caps::queued`, `queue.rs`): the bound on requests in
//! flight, each token returned once whatever the order, requests outside the buffers refused,
//! and, for engines that move bytes, blocks written and read back through the queue as the
//! synchronous contracts do through one call at a time.

use std::collections::BTreeMap;
use std::io::ErrorKind;
use std::path::Path;

use super::check::{done, ensure, fails_with, pattern, Outcome};
use crate::{
    Completion, Engine, OpenHints, OpenMode, QueueSpec, QueuedFile, Request, SlotBuffers, Target,
};

const DEPTH: usize = 4;
const BLOCK: usize = 4096;
/// Blocks of the round trip, four times the depth, written in this (shuffled) order.
const ORDER: [u64; 16] = [9, 2, 14, 0, 7, 11, 4, 15, 1, 12, 6, 3, 13, 8, 10, 5];

const SPEC: QueueSpec = QueueSpec {
    depth: DEPTH,
    buf_len: BLOCK,
};

fn open(e: &dyn Engine, path: &Path, mode: OpenMode) -> Result<Box<dyn QueuedFile>, String> {
    let hints = OpenHints {
        file_size: (ORDER.len() * BLOCK) as u64,
        rank: 0,
        layout: None,
    };
    done(
        "open_queued",
        e.open_queued(Target::from(path), mode, &hints, SlotBuffers::new(SPEC)),
    )
}

/// Closes `f`; it hands back the buffers it was opened with, with what the last requests left
/// in them.
fn close(f: Box<dyn QueuedFile>) -> Result<SlotBuffers, String> {
    let bufs = done("close", f.close())?;
    ensure(bufs.spec() == SPEC, || {
        format!(
            "close handed back buffers of {:?}, not {SPEC:?}",
            bufs.spec()
        )
    })?;
    Ok(bufs)
}

/// Waits for what is in flight; every token must come back once.
fn settle(f: &mut dyn QueuedFile, seen: &mut BTreeMap<u64, Completion>) -> Outcome {
    let mut out = Vec::new();
    let wait = f.in_flight();
    done("submit", f.submit(wait, &mut out))?;
    ensure(out.len() >= wait.min(1), || {
        format!("submit({wait}) returned {} completions", out.len())
    })?;
    for c in out {
        ensure(seen.insert(c.token, c).is_none(), || {
            format!("token {} completed twice", c.token)
        })?;
    }
    Ok(())
}

/// At most `depth` requests in flight; tokens come back once each, in any order; a request
/// outside the buffers is refused at the push; a sync completes with 0 bytes.
pub fn bound_and_tokens(e: &dyn Engine, dir: &Path) -> Outcome {
    let mut f = open(e, &dir.join("f"), OpenMode::CreateTruncate)?;
    let outside = Request::Write {
        slot: 0,
        at: BLOCK - 1,
        len: 2,
        offset: 0,
    };
    fails_with(
        "push beyond the buffer",
        f.push(outside, 99),
        ErrorKind::InvalidInput,
    )?;
    for slot in 0..DEPTH {
        f.buffer(slot).copy_from_slice(&pattern(BLOCK, slot as u8));
        let req = Request::Write {
            slot,
            at: 0,
            len: BLOCK,
            offset: (slot * BLOCK) as u64,
        };
        done("push", f.push(req, 100 + slot as u64))?;
    }
    ensure(f.in_flight() == DEPTH, || {
        format!("{} in flight after {DEPTH} pushes", f.in_flight())
    })?;
    let extra = Request::Read {
        slot: 0,
        at: 0,
        len: BLOCK,
        offset: 0,
    };
    fails_with(
        "a push beyond the depth",
        f.push(extra, 5),
        ErrorKind::WouldBlock,
    )?;
    let mut seen = BTreeMap::new();
    while f.in_flight() > 0 {
        settle(&mut *f, &mut seen)?;
    }
    let tokens: Vec<u64> = seen.keys().copied().collect();
    ensure(tokens == [100, 101, 102, 103], || {
        format!("tokens back: {tokens:?}")
    })?;
    for c in seen.values() {
        ensure(c.result == Ok(BLOCK), || {
            format!("token {}: {:?}, not {BLOCK} bytes", c.token, c.result)
        })?;
    }
    done("push Sync", f.push(Request::Sync, 7))?;
    seen.clear();
    settle(&mut *f, &mut seen)?;
    ensure(seen.get(&7).map(|c| c.result) == Some(Ok(0)), || {
        format!("the sync completed as {:?}", seen.get(&7))
    })?;
    close(f).map(drop)
}

/// Blocks written through the queue in a shuffled order, slots reused as they complete,
/// read back the same way; reads at the end of the file are short, then 0; a missing file
/// is ENOENT.
pub fn round_trip(e: &dyn Engine, dir: &Path) -> Outcome {
    let path = dir.join("f");
    let mut f = open(e, &path, OpenMode::CreateTruncate)?;
    let mut seen = BTreeMap::new();
    let mut slot_of = BTreeMap::new();
    let mut free: Vec<usize> = (0..DEPTH).rev().collect();
    for &block in &ORDER {
        // A slot is the caller's again once the request that used it has completed.
        while free.is_empty() {
            let mut out = Vec::new();
            done("submit", f.submit(1, &mut out))?;
            for c in out {
                ensure(seen.insert(c.token, c).is_none(), || {
                    format!("token {} completed twice", c.token)
                })?;
                free.push(slot_of[&c.token]);
            }
        }
        let slot = free.pop().expect("a free slot");
        f.buffer(slot).copy_from_slice(&pattern(BLOCK, block as u8));
        let req = Request::Write {
            slot,
            at: 0,
            len: BLOCK,
            offset: block * BLOCK as u64,
        };
        done("push", f.push(req, block))?;
        slot_of.insert(block, slot);
    }
    while f.in_flight() > 0 {
        settle(&mut *f, &mut seen)?;
    }
    ensure(seen.len() == ORDER.len(), || {
        format!("{} of {} writes completed", seen.len(), ORDER.len())
    })?;
    ensure(seen.values().all(|c| c.result == Ok(BLOCK)), || {
        "a write moved other than the whole block".to_string()
    })?;
    close(f)?;
    let size = (ORDER.len() * BLOCK) as u64;
    let got = done("file_size", e.file_size(Target::from(&path)))?;
    ensure(got == size, || format!("file_size is {got}, not {size}"))?;

    let mut r = open(e, &path, OpenMode::ReadOnly)?;
    for chunk in ORDER.chunks(DEPTH) {
        for (slot, &block) in chunk.iter().enumerate() {
            let req = Request::Read {
                slot,
                at: 0,
                len: BLOCK,
                offset: block * BLOCK as u64,
            };
            done("push", r.push(req, slot as u64))?;
        }
        let mut seen = BTreeMap::new();
        while r.in_flight() > 0 {
            settle(&mut *r, &mut seen)?;
        }
        for (slot, &block) in chunk.iter().enumerate() {
            ensure(
                r.buffer(slot) == pattern(BLOCK, block as u8).as_slice(),
                || format!("block {block} did not read back as written"),
            )?;
        }
    }
    // The end of the file: 100 bytes left, then none.
    for (offset, want) in [(size - 100, 100), (size, 0)] {
        let req = Request::Read {
            slot: 0,
            at: 0,
            len: BLOCK,
            offset,
        };
        done("push", r.push(req, 1))?;
        let mut seen = BTreeMap::new();
        settle(&mut *r, &mut seen)?;
        let result = seen.get(&1).map(|c| c.result);
        ensure(result == Some(Ok(want)), || {
            format!("a read at {offset} of a {size}-byte file returned {result:?}, not {want}")
        })?;
    }
    let mut bufs = close(r)?;
    ensure(
        bufs.slot(0)[..100] == pattern(BLOCK, 15)[BLOCK - 100..],
        || "the buffers handed back do not hold the last read".to_string(),
    )?;
    match e.open_queued(
        Target::from(&dir.join("missing")),
        OpenMode::ReadOnly,
        &OpenHints::default(),
        SlotBuffers::new(QueueSpec {
            depth: 1,
            buf_len: BLOCK,
        }),
    ) {
        Err(err) if err.kind() == ErrorKind::NotFound => Ok(()),
        Err(err) => Err(format!(
            "opening a missing file: expected ENOENT, got {err}"
        )),
        Ok(_) => Err("opening a missing file read-only succeeded".to_string()),
    }
}
