//! The contracts every engine passes: `target_info` answers without making anything, and
//! `alloc_buffer` honours `Caps::alignment`.

use std::path::Path;

use super::check::{done, ensure, listing, Outcome};
use crate::{Engine, FileKind, Target};

/// `target_info` answers for a directory and for a path that does not exist, and makes
/// nothing. An engine that moves bytes tells what is there and names the file system.
pub fn target_info(e: &dyn Engine, dir: &Path) -> Outcome {
    let at_dir = done(
        "target_info of a directory",
        e.target_info(Target::from(dir)),
    )?;
    let missing = dir.join("missing/below");
    let at_missing = done(
        "target_info of a missing path",
        e.target_info(Target::from(&missing)),
    )?;
    ensure(listing(dir).is_empty(), || {
        format!("target_info made {:?}", listing(dir))
    })?;
    ensure(
        at_dir.fs_type.as_deref().is_some_and(|t| !t.is_empty()),
        || format!("target_info names no file-system type: {at_dir:?}"),
    )?;
    if !e.caps().does_io {
        return Ok(());
    }
    ensure(
        at_dir.exists && at_dir.is_dir && !at_dir.is_file && at_dir.kind == Some(FileKind::Dir),
        || format!("target_info of a directory: {at_dir:?}"),
    )?;
    ensure(at_dir.writable, || {
        format!("target_info: a new temporary directory is not writable: {at_dir:?}")
    })?;
    ensure(
        !at_missing.exists && at_missing.kind.is_none() && at_missing.resolved.is_none(),
        || format!("target_info of a missing path: {at_missing:?}"),
    )?;
    // Where a path would be made: the file system of its nearest existing ancestor.
    ensure(at_missing.fs_type == at_dir.fs_type, || {
        format!(
            "target_info of a missing path names {:?}, its directory {:?}",
            at_missing.fs_type, at_dir.fs_type
        )
    })?;
    let f = dir.join("f");
    std::fs::write(&f, b"x").map_err(|err| format!("write: {err}"))?;
    let at_file = done("target_info of a file", e.target_info(Target::from(&f)))?;
    ensure(
        at_file.exists && at_file.is_file && at_file.kind == Some(FileKind::File),
        || format!("target_info of a regular file: {at_file:?}"),
    )
}

/// Buffers are zeroed, of the length asked, at an address that is a multiple of the
/// engine's alignment (and of a page).
pub fn buffers(e: &dyn Engine, _dir: &Path) -> Outcome {
    let align = e.caps().alignment.max(4096);
    for len in [1, 4096, 1 << 20] {
        let buf = e.alloc_buffer(len);
        ensure(buf.len() == len, || {
            format!("alloc_buffer({len}) has {} bytes", buf.len())
        })?;
        let addr = buf.as_ptr() as usize;
        ensure(addr.is_multiple_of(align), || {
            format!("alloc_buffer({len}) at {addr:#x}, not a multiple of {align}")
        })?;
        ensure(buf.iter().all(|&b| b == 0), || {
            format!("alloc_buffer({len}) is not zeroed")
        })?;
    }
    Ok(())
}
