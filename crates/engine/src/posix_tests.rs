//! Tests of the POSIX engine (kept apart so that `posix.rs` stays about the engine).

use super::*;
use crate::AlignedBuf;
use crate::Target;
use std::os::unix::ffi::OsStrExt;

fn hints() -> OpenHints {
    OpenHints::default()
}

#[test]
fn round_trip_at_offsets() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("f");
    let e = PosixEngine::new(false);
    let mut f = e
        .open(Target::from(&p), OpenMode::CreateTruncate, &hints())
        .unwrap();
    assert_eq!(f.write_at(b"world", 100).unwrap(), 5);
    assert_eq!(f.write_at(b"hello", 0).unwrap(), 5);
    f.sync().unwrap();
    f.close().unwrap();
    assert_eq!(e.file_size(Target::from(&p)).unwrap(), 105);

    let mut f = e
        .open(Target::from(&p), OpenMode::ReadOnly, &hints())
        .unwrap();
    let mut buf = [0u8; 5];
    assert_eq!(f.read_at(&mut buf, 100).unwrap(), 5);
    assert_eq!(&buf, b"world");
    assert_eq!(f.read_at(&mut buf, 0).unwrap(), 5);
    assert_eq!(&buf, b"hello");
    // The hole in between reads as zeros.
    assert_eq!(f.read_at(&mut buf, 50).unwrap(), 5);
    assert_eq!(buf, [0; 5]);
    // Read-only files refuse writes.
    assert!(f.write_at(b"x", 0).is_err());
    f.close().unwrap();
}

#[test]
fn truncate_versus_keep() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("f");
    let e = PosixEngine::new(false);
    let mut f = e
        .open(Target::from(&p), OpenMode::CreateTruncate, &hints())
        .unwrap();
    f.write_at(&[1u8; 1000], 0).unwrap();
    f.close().unwrap();

    let mut f = e
        .open(Target::from(&p), OpenMode::CreateKeep, &hints())
        .unwrap();
    f.write_at(&[2u8; 10], 0).unwrap();
    f.close().unwrap();
    assert_eq!(e.file_size(Target::from(&p)).unwrap(), 1000);
    let data = fs::read(&p).unwrap();
    assert_eq!(&data[..10], &[2u8; 10]);
    assert_eq!(data[10], 1);

    let f = e
        .open(Target::from(&p), OpenMode::CreateTruncate, &hints())
        .unwrap();
    f.close().unwrap();
    assert_eq!(e.file_size(Target::from(&p)).unwrap(), 0);
    assert!(e
        .open(
            Target::from(&dir.path().join("missing")),
            OpenMode::ReadOnly,
            &hints()
        )
        .is_err());
}

#[test]
fn short_read_only_at_eof() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("f");
    fs::write(&p, vec![9u8; 300]).unwrap();
    let e = PosixEngine::new(false);
    let mut f = e
        .open(Target::from(&p), OpenMode::ReadOnly, &hints())
        .unwrap();
    let mut buf = vec![0u8; 256];
    assert_eq!(f.read_at(&mut buf, 0).unwrap(), 256);
    assert_eq!(f.read_at(&mut buf, 256).unwrap(), 44);
    assert!(buf[..44].iter().all(|&b| b == 9));
    assert_eq!(f.read_at(&mut buf, 300).unwrap(), 0);
    assert_eq!(f.read_at(&mut buf, 10_000).unwrap(), 0);
}

#[test]
fn odirect_round_trip() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("d");
    let e = PosixEngine::new(true);
    assert_eq!(e.caps().alignment, 4096);
    let mut f = match e.open(Target::from(&p), OpenMode::CreateTruncate, &hints()) {
        Err(err) if err.raw_os_error() == Some(libc::EINVAL) => {
            eprintln!(
                "note: {} rejects O_DIRECT; skipping the O_DIRECT round trip",
                dir.path().display()
            );
            return;
        }
        other => other.unwrap(),
    };
    let mut buf = e.alloc_buffer(8192);
    assert_eq!(buf.as_ptr() as usize % 4096, 0);
    for (i, b) in buf.iter_mut().enumerate() {
        *b = (i % 251) as u8;
    }
    assert_eq!(f.write_at(&buf, 4096).unwrap(), 8192);
    f.sync().unwrap();
    f.close().unwrap();
    assert_eq!(e.file_size(Target::from(&p)).unwrap(), 12288);

    let mut f = e
        .open(Target::from(&p), OpenMode::ReadOnly, &hints())
        .unwrap();
    let mut back = AlignedBuf::new(8192, 4096);
    assert_eq!(f.read_at(&mut back, 4096).unwrap(), 8192);
    assert_eq!(back.as_slice(), buf.as_slice());
    // Past the end of the file the read is short, not an error.
    assert_eq!(f.read_at(&mut back, 8192).unwrap(), 4096);
    f.close().unwrap();
}

#[test]
fn odirect_misaligned_is_invalid_input() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("d");
    let e = PosixEngine::new(true);
    let mut f = match e.open(Target::from(&p), OpenMode::CreateTruncate, &hints()) {
        Err(err) if err.raw_os_error() == Some(libc::EINVAL) => {
            eprintln!("note: {} rejects O_DIRECT; skipping", dir.path().display());
            return;
        }
        other => other.unwrap(),
    };
    let buf = AlignedBuf::new(8192, 4096);
    // Address, length and offset off the 512 bytes no device relaxes are each refused before
    // the syscall (a file system that needs more is asked before the run).
    for (slice, off) in [(&buf[1..4097], 0u64), (&buf[..100], 0), (&buf[..4096], 100)] {
        let err = f.write_at(slice, off).unwrap_err();
        assert_eq!(err.kind(), io::ErrorKind::InvalidInput);
        assert!(err.to_string().contains("O_DIRECT"), "{err}");
    }
    f.close().unwrap();
    assert_eq!(fs::metadata(&p).unwrap().len(), 0, "nothing was written");
}

#[test]
fn metadata_ops() {
    let dir = tempfile::tempdir().unwrap();
    let e = PosixEngine::new(false);
    let d = dir.path().join("sub");
    e.mkdir(Target::from(&d)).unwrap();
    assert!(
        e.mkdir(Target::from(&d)).is_err(),
        "mkdir of an existing directory fails"
    );
    let st = e.stat(Target::from(&d)).unwrap();
    assert!(st.is_dir);
    assert!(st.ctime_sec > 0);

    let f = d.join("item");
    e.create_file(Target::from(&f), b"payload").unwrap();
    e.create_file(Target::from(&d.join("empty")), b"").unwrap();
    e.mkdir(Target::from(&d.join("child"))).unwrap();
    let st = e.stat(Target::from(&f)).unwrap();
    assert_eq!((st.size, st.is_dir), (7, false));

    let mut buf = [0u8; 16];
    assert_eq!(e.read_file(Target::from(&f), &mut buf).unwrap(), 7);
    assert_eq!(&buf[..7], b"payload");
    let mut small = [0u8; 3];
    assert_eq!(e.read_file(Target::from(&f), &mut small).unwrap(), 3);
    assert_eq!(&small, b"pay");
    // The whole file through any buffer; the default (through `open`) agrees.
    assert_eq!(e.read_whole(Target::from(&f), &mut small).unwrap(), 7);
    assert_eq!(e.read_whole(Target::from(&f), &mut buf).unwrap(), 7);
    assert_eq!(
        e.read_whole(Target::from(&d.join("empty")), &mut small)
            .unwrap(),
        0
    );
    let mmap = crate::MmapEngine::new();
    assert_eq!(mmap.read_whole(Target::from(&f), &mut small).unwrap(), 7);
    assert!(e
        .read_whole(Target::from(&d.join("absent")), &mut small)
        .is_err());

    let mut entries = e.read_dir(Target::from(&d)).unwrap();
    entries.sort_by(|a, b| a.name.cmp(&b.name));
    let got: Vec<_> = entries
        .iter()
        .map(|x| (x.name.to_str().unwrap(), x.is_dir))
        .collect();
    assert_eq!(
        got,
        vec![
            ("child", Some(true)),
            ("empty", Some(false)),
            ("item", Some(false))
        ]
    );

    assert!(
        e.rmdir(Target::from(&d)).is_err(),
        "rmdir of a non-empty directory fails"
    );
    e.remove(Target::from(&f)).unwrap();
    e.remove(Target::from(&d.join("empty"))).unwrap();
    e.rmdir(Target::from(&d.join("child"))).unwrap();
    assert!(e.stat(Target::from(&f)).is_err());
    e.rmdir(Target::from(&d)).unwrap();
    assert_eq!(
        e.stat(Target::from(&d)).unwrap_err().kind(),
        io::ErrorKind::NotFound
    );
}

#[test]
fn stat_long_paths_and_nul_bytes() {
    let dir = tempfile::tempdir().unwrap();
    let e = PosixEngine::new(false);
    // Longer than the stack buffer: nested directories of 100-byte names.
    let mut p = dir.path().to_path_buf();
    for _ in 0..5 {
        p.push("d".repeat(100));
        e.mkdir(Target::from(&p)).unwrap();
    }
    let f = p.join("f");
    e.create_file(Target::from(&f), b"12345").unwrap();
    assert!(f.as_os_str().len() > 384);
    assert_eq!(e.stat(Target::from(&f)).unwrap().size, 5);
    assert!(e.stat(Target::from(&p)).unwrap().is_dir);
    assert_eq!(
        e.stat(Target::from(&p.join("nope"))).unwrap_err().kind(),
        io::ErrorKind::NotFound
    );
    let nul = Path::new(std::ffi::OsStr::from_bytes(b"a\0b"));
    assert_eq!(
        e.stat(Target::from(nul)).unwrap_err().kind(),
        io::ErrorKind::InvalidInput
    );
}

#[test]
fn rename_synced_create_and_sync_all() {
    let dir = tempfile::tempdir().unwrap();
    let e = PosixEngine::new(false);
    let f = dir.path().join("f");
    e.create_file_synced(Target::from(&f), b"abc").unwrap();
    assert_eq!(fs::read(&f).unwrap(), b"abc");
    // Like mdtest's create: no truncate, so a shorter write keeps the tail.
    e.create_file_synced(Target::from(&f), b"x").unwrap();
    assert_eq!(fs::read(&f).unwrap(), b"xbc");
    let d = dir.path().join("d");
    e.mkdir(Target::from(&d)).unwrap();
    let moved = dir.path().join("d-XX");
    e.rename(Target::from(&d), Target::from(&moved)).unwrap();
    assert!(e.stat(Target::from(&moved)).unwrap().is_dir);
    assert_eq!(
        e.stat(Target::from(&d)).unwrap_err().kind(),
        io::ErrorKind::NotFound
    );
    assert_eq!(
        e.rename(Target::from(&d), Target::from(&moved))
            .unwrap_err()
            .kind(),
        io::ErrorKind::NotFound
    );
    e.sync_all().unwrap();
}

#[test]
fn chmod_sets_the_permission_bits() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    let e = PosixEngine::new(false);
    let f = dir.path().join("f");
    e.create_file(Target::from(&f), b"").unwrap();
    for mode in [0o600, 0o644] {
        e.chmod(Target::from(&f), mode).unwrap();
        assert_eq!(
            fs::metadata(&f).unwrap().permissions().mode() & 0o7777,
            mode
        );
    }
    let gone = dir.path().join("gone");
    assert_eq!(
        e.chmod(Target::from(&gone), 0o644).unwrap_err().kind(),
        io::ErrorKind::NotFound
    );
}

#[test]
fn lstat_does_not_follow_symlinks() {
    let dir = tempfile::tempdir().unwrap();
    let e = PosixEngine::new(false);
    let target = dir.path().join("target");
    e.mkdir(Target::from(&target)).unwrap();
    let link = dir.path().join("link");
    std::os::unix::fs::symlink("target", &link).unwrap();
    assert!(e.stat(Target::from(&link)).unwrap().is_dir);
    let st = e.lstat(Target::from(&link)).unwrap();
    assert_eq!(
        (st.size, st.is_dir),
        (6, false),
        "the link itself: 6 bytes of target name"
    );
    assert!(st.ctime_sec > 0);
    assert_eq!(
        e.lstat(Target::from(&dir.path().join("missing")))
            .unwrap_err()
            .kind(),
        io::ErrorKind::NotFound
    );
}

#[test]
fn create_file_reopens_an_existing_file_and_never_follows_a_symlink() {
    let dir = tempfile::tempdir().unwrap();
    let e = PosixEngine::new(false);
    // mdtest's create has no O_TRUNC and no O_EXCL: an earlier run's file is rewritten in place.
    let f = dir.path().join("file.mdtest.0.0");
    std::fs::write(&f, b"0123456789").unwrap();
    e.create_file(Target::from(&f), b"abc").unwrap();
    assert_eq!(std::fs::read(&f).unwrap(), b"abc3456789");
    // A symlink at the name would write elsewhere: refused, the target untouched.
    let target = dir.path().join("target");
    std::fs::write(&target, b"mine").unwrap();
    let link = dir.path().join("file.mdtest.0.1");
    std::os::unix::fs::symlink(&target, &link).unwrap();
    assert!(e.create_file(Target::from(&link), b"abc").is_err());
    assert!(e.create_file_synced(Target::from(&link), b"abc").is_err());
    let dangling = dir.path().join("file.mdtest.0.2");
    std::os::unix::fs::symlink(dir.path().join("nowhere"), &dangling).unwrap();
    assert!(e.create_file(Target::from(&dangling), b"").is_err());
    assert!(!dir.path().join("nowhere").exists());
    assert_eq!(std::fs::read(&target).unwrap(), b"mine");
}
