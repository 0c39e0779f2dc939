//! The contracts of engines that move bytes (`Caps::does_io`): positional transfers, the end
//! of a file, open modes, sync, size, remove and errno names. The final size is passed at
//! every open for writing (`OpenHints::file_size`), which `Caps::needs_file_size` engines
//! (MMAP) need and others ignore.

use std::path::Path;

use super::check::{done, ensure, fails_with_errno, pattern, Outcome};
use crate::{Engine, OpenHints, OpenMode, Target};

/// Where the blocks of the round trip go: out of order, odd offsets, a hole between.
const BLOCKS: [(u64, usize); 4] = [(70_001, 4_999), (0, 4096), (4096, 3), (131_072, 65_536)];
const SIZE: u64 = 131_072 + 65_536;

fn hints(file_size: u64) -> OpenHints {
    OpenHints {
        file_size,
        rank: 0,
        layout: None,
    }
}

/// Writes `data` at offset 0 of a new file of that size, and closes it.
fn write_file(e: &dyn Engine, path: &Path, data: &[u8]) -> Outcome {
    let mut f = done(
        "open CreateTruncate",
        e.open(
            Target::from(path),
            OpenMode::CreateTruncate,
            &hints(data.len() as u64),
        ),
    )?;
    let n = done("write_at", f.write_at(data, 0))?;
    ensure(n == data.len(), || {
        format!("write_at moved {n} of {}", data.len())
    })?;
    done("close", f.close())
}

/// Reads `len` bytes at `offset` of `path`, opened read-only.
fn read_back(e: &dyn Engine, path: &Path, offset: u64, len: usize) -> Result<Vec<u8>, String> {
    let mut f = done(
        "open ReadOnly",
        e.open(
            Target::from(path),
            OpenMode::ReadOnly,
            &OpenHints::default(),
        ),
    )?;
    let mut buf = vec![0u8; len];
    let n = done("read_at", f.read_at(&mut buf, offset))?;
    buf.truncate(n);
    done("close", f.close())?;
    Ok(buf)
}

/// Blocks written at arbitrary offsets, in any order, read back as written; a hole reads
/// as zeros; the file's size is the end of the last block.
pub fn round_trip(e: &dyn Engine, dir: &Path) -> Outcome {
    let path = dir.join("f");
    let mut f = done(
        "open CreateTruncate",
        e.open(Target::from(&path), OpenMode::CreateTruncate, &hints(SIZE)),
    )?;
    for (i, &(offset, len)) in BLOCKS.iter().enumerate() {
        let n = done("write_at", f.write_at(&pattern(len, i as u8), offset))?;
        ensure(n == len, || {
            format!("write_at {offset}: moved {n} of {len}")
        })?;
    }
    done("close", f.close())?;
    let size = done("file_size", e.file_size(Target::from(&path)))?;
    ensure(size == SIZE, || format!("file_size is {size}, not {SIZE}"))?;
    for (i, &(offset, len)) in BLOCKS.iter().enumerate() {
        let got = read_back(e, &path, offset, len)?;
        ensure(got == pattern(len, i as u8), || {
            format!("{len} bytes at {offset} did not read back as written")
        })?;
    }
    let hole = read_back(e, &path, 8192, 1000)?;
    ensure(hole.iter().all(|&b| b == 0), || {
        "a hole read back other than zeros".to_string()
    })
}

/// A read that spans the end returns what exists (the engine retries short transfers, so
/// short means the end); one at or past the end returns 0.
pub fn end_of_file(e: &dyn Engine, dir: &Path) -> Outcome {
    let path = dir.join("f");
    let data = pattern(10_000, 7);
    write_file(e, &path, &data)?;
    let tail = read_back(e, &path, 9_000, 4096)?;
    ensure(tail == data[9_000..], || {
        format!(
            "a read spanning the end returned {} bytes, not 1000",
            tail.len()
        )
    })?;
    for offset in [10_000, 10_001, 1 << 40] {
        let past = read_back(e, &path, offset, 4096)?;
        ensure(past.is_empty(), || {
            format!(
                "a read at {offset}, past the end, returned {} bytes",
                past.len()
            )
        })?;
    }
    Ok(())
}

/// CreateTruncate empties a file, CreateKeep keeps what is in it, ReadOnly refuses writes.
pub fn open_modes(e: &dyn Engine, dir: &Path) -> Outcome {
    let path = dir.join("f");
    let data = pattern(8192, 3);
    write_file(e, &path, &data)?;
    let mut f = done(
        "open CreateKeep",
        e.open(Target::from(&path), OpenMode::CreateKeep, &hints(8192)),
    )?;
    done("write_at", f.write_at(b"kept", 100))?;
    done("close", f.close())?;
    let mut want = data.clone();
    want[100..104].copy_from_slice(b"kept");
    ensure(read_back(e, &path, 0, 8192)? == want, || {
        "CreateKeep did not keep the file's bytes".to_string()
    })?;
    let mut f = done(
        "open ReadOnly",
        e.open(
            Target::from(&path),
            OpenMode::ReadOnly,
            &OpenHints::default(),
        ),
    )?;
    let refused = f.write_at(b"no", 0).is_err();
    done("close", f.close())?;
    ensure(refused, || "a read-only file took a write".to_string())?;
    ensure(read_back(e, &path, 0, 8192)? == want, || {
        "a refused write changed the file".to_string()
    })?;
    let f = done(
        "open CreateTruncate",
        e.open(Target::from(&path), OpenMode::CreateTruncate, &hints(0)),
    )?;
    done("close", f.close())?;
    let size = done("file_size", e.file_size(Target::from(&path)))?;
    ensure(size == 0, || format!("CreateTruncate left {size} bytes"))
}

/// `sync` after writes succeeds, and the bytes are there after the close.
pub fn sync(e: &dyn Engine, dir: &Path) -> Outcome {
    let path = dir.join("f");
    let mut f = done(
        "open CreateTruncate",
        e.open(Target::from(&path), OpenMode::CreateTruncate, &hints(4096)),
    )?;
    done("write_at", f.write_at(&pattern(4096, 9), 0))?;
    done("sync", f.sync())?;
    done("sync", f.sync())?;
    done("close", f.close())?;
    ensure(read_back(e, &path, 0, 4096)? == pattern(4096, 9), || {
        "synced bytes did not read back".to_string()
    })
}

/// `file_size` follows the file; `remove` deletes it, and a second remove fails.
pub fn size_and_remove(e: &dyn Engine, dir: &Path) -> Outcome {
    let path = dir.join("f");
    write_file(e, &path, &pattern(12_345, 1))?;
    let size = done("file_size", e.file_size(Target::from(&path)))?;
    ensure(size == 12_345, || format!("file_size is {size}, not 12345"))?;
    done("remove", e.remove(Target::from(&path)))?;
    ensure(!path.exists(), || "remove left the file".to_string())?;
    fails_with_errno(
        "file_size of a removed file",
        e.file_size(Target::from(&path)),
        libc::ENOENT,
    )?;
    fails_with_errno("remove twice", e.remove(Target::from(&path)), libc::ENOENT)
}

/// Errors are the system's, with their errno names: opening a missing file read-only is
/// ENOENT, `No such file or directory (ENOENT)`.
pub fn errno_names(e: &dyn Engine, dir: &Path) -> Outcome {
    let missing = dir.join("missing");
    let r = e.open(
        Target::from(&missing),
        OpenMode::ReadOnly,
        &OpenHints::default(),
    );
    if let Err(err) = &r {
        let text = crate::errno::describe(err);
        ensure(text == "No such file or directory (ENOENT)", || {
            format!("open of a missing file: {text}")
        })?;
    }
    fails_with_errno("open ReadOnly of a missing file", r, libc::ENOENT)?;
    ensure(!missing.exists(), || {
        "a read-only open created the file".to_string()
    })
}
