//! The contracts of metadata operations: what they do on an engine with `Caps::metadata` that
//! moves bytes (checked against the file system the engine names), `Unsupported` on one
//! without, and on an engine that moves nothing (DUMMY): success without a trace.

use std::io::ErrorKind;
use std::os::unix::fs::PermissionsExt;
use std::path::Path;

use super::check::{done, ensure, fails_with, fails_with_errno, listing, Outcome};
use crate::{Engine, FileKind, OpenHints, OpenMode, Target};

/// mkdir, create_file(_synced), stat, lstat, read_file, read_whole, read_dir, rename, chmod,
/// remove and rmdir do what their names say, and fail with the system's errno.
pub fn operations(e: &dyn Engine, dir: &Path) -> Outcome {
    let d = dir.join("d");
    done("mkdir", e.mkdir(Target::from(&d)))?;
    fails_with_errno(
        "mkdir of an existing directory",
        e.mkdir(Target::from(&d)),
        libc::EEXIST,
    )?;
    let st = done("stat", e.stat(Target::from(&d)))?;
    ensure(st.is_dir && st.kind == FileKind::Dir, || {
        format!("stat of a directory: {st:?}")
    })?;

    let f = d.join("f");
    done(
        "create_file",
        e.create_file(Target::from(&f), b"hello world"),
    )?;
    let g = d.join("g");
    done(
        "create_file_synced",
        e.create_file_synced(Target::from(&g), b""),
    )?;
    let st = done("stat", e.stat(Target::from(&f)))?;
    ensure(
        st.size == 11 && !st.is_dir && st.kind == FileKind::File,
        || format!("stat of an 11-byte file: {st:?}"),
    )?;
    ensure(st.ctime_sec > 0, || format!("stat without a ctime: {st:?}"))?;
    let mut buf = [0u8; 5];
    let n = done("read_file", e.read_file(Target::from(&f), &mut buf))?;
    ensure(n == 5 && &buf == b"hello", || {
        format!("read_file read {n}: {buf:?}")
    })?;
    let mut buf = [0u8; 4];
    let n = done("read_whole", e.read_whole(Target::from(&f), &mut buf))?;
    ensure(n == 11, || format!("read_whole read {n} of 11 bytes"))?;

    let link = d.join("l");
    std::os::unix::fs::symlink(&f, &link).map_err(|err| format!("symlink: {err}"))?;
    let st = done("lstat", e.lstat(Target::from(&link)))?;
    ensure(st.kind == FileKind::Symlink && !st.is_dir, || {
        format!("lstat of a symbolic link: {st:?}")
    })?;
    let st = done("stat", e.stat(Target::from(&link)))?;
    ensure(st.kind == FileKind::File && st.size == 11, || {
        format!("stat through a symbolic link: {st:?}")
    })?;

    let mut names: Vec<(String, Option<bool>)> = done("read_dir", e.read_dir(Target::from(&d)))?
        .into_iter()
        .map(|entry| (entry.name.to_string_lossy().into_owned(), entry.is_dir))
        .collect();
    names.sort();
    let want = [("f", Some(false)), ("g", Some(false)), ("l", Some(false))];
    let want: Vec<(String, Option<bool>)> = want.iter().map(|(n, k)| (n.to_string(), *k)).collect();
    ensure(names == want, || format!("read_dir listed {names:?}"))?;

    done("chmod", e.chmod(Target::from(&f), 0o600))?;
    let mode = std::fs::metadata(&f)
        .map(|m| m.permissions().mode() & 0o777)
        .map_err(|err| format!("metadata: {err}"))?;
    ensure(mode == 0o600, || format!("chmod 0600 left mode {mode:o}"))?;

    let moved = dir.join("moved");
    done("rename", e.rename(Target::from(&d), Target::from(&moved)))?;
    ensure(!d.exists() && moved.join("f").exists(), || {
        "rename did not move the directory".to_string()
    })?;
    fails_with_errno(
        "stat of a missing name",
        e.stat(Target::from(&d)),
        libc::ENOENT,
    )?;
    fails_with_errno(
        "rmdir of a full directory",
        e.rmdir(Target::from(&moved)),
        libc::ENOTEMPTY,
    )?;
    for name in ["f", "g", "l"] {
        done("remove", e.remove(Target::from(&moved.join(name))))?;
    }
    done("rmdir", e.rmdir(Target::from(&moved)))?;
    ensure(listing(dir).is_empty(), || {
        format!("left behind: {:?}", listing(dir))
    })
}

/// An engine without metadata operations says so with `ErrorKind::Unsupported` and
/// touches nothing.
pub fn unsupported(e: &dyn Engine, dir: &Path) -> Outcome {
    let p = dir.join("x");
    let t = Target::from(&p);
    let no = ErrorKind::Unsupported;
    fails_with("mkdir", e.mkdir(t), no)?;
    fails_with("rmdir", e.rmdir(t), no)?;
    fails_with("stat", e.stat(t), no)?;
    fails_with("lstat", e.lstat(t), no)?;
    fails_with("create_file", e.create_file(t, b"x"), no)?;
    fails_with("create_file_synced", e.create_file_synced(t, b"x"), no)?;
    fails_with("read_file", e.read_file(t, &mut [0u8; 4]), no)?;
    fails_with("read_dir", e.read_dir(Target::from(dir)), no)?;
    fails_with("rename", e.rename(t, t), no)?;
    fails_with("chmod", e.chmod(t, 0o600), no)?;
    fails_with("sync_all", e.sync_all(), no)?;
    ensure(listing(dir).is_empty(), || {
        format!("left behind: {:?}", listing(dir))
    })
}

/// An engine that moves no bytes (`does_io` false) takes every call and leaves no trace:
/// nothing is created where its targets point.
pub fn no_trace(e: &dyn Engine, dir: &Path) -> Outcome {
    let p = dir.join("f");
    let t = Target::from(&p);
    let hints = OpenHints {
        file_size: 8192,
        rank: 0,
        layout: None,
    };
    for mode in [
        OpenMode::CreateTruncate,
        OpenMode::CreateKeep,
        OpenMode::ReadOnly,
    ] {
        let mut f = done("open", e.open(t, mode, &hints))?;
        let mut buf = vec![0u8; 4096];
        done("write_at", f.write_at(&buf, 0))?;
        done("read_at", f.read_at(&mut buf, 4096))?;
        done("sync", f.sync())?;
        done("close", f.close())?;
    }
    done("file_size", e.file_size(t))?;
    done("remove", e.remove(t))?;
    if e.caps().metadata {
        let d = dir.join("d");
        done("mkdir", e.mkdir(Target::from(&d)))?;
        done("create_file", e.create_file(t, b"data"))?;
        done("create_file_synced", e.create_file_synced(t, b"data"))?;
        done("stat", e.stat(t))?;
        done("lstat", e.lstat(t))?;
        done("read_file", e.read_file(t, &mut [0u8; 8]))?;
        done("read_whole", e.read_whole(t, &mut [0u8; 8]))?;
        done("read_dir", e.read_dir(Target::from(&d)))?;
        done("rename", e.rename(t, Target::from(&dir.join("g"))))?;
        done("chmod", e.chmod(t, 0o600))?;
        done("sync_all", e.sync_all())?;
        done("rmdir", e.rmdir(Target::from(&d)))?;
    }
    ensure(listing(dir).is_empty(), || {
        format!("an engine without I/O left {:?}", listing(dir))
    })
}
