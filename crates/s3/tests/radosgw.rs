//! The client against a real S3 server: Ceph's RADOS Gateway, started by
//! `scripts/s3-server.sh` in a folder of this test's and stopped at its end (as root the
//! script installs Debian's packages when they are missing; elsewhere without them the test
//! says so and passes). One test, so the server starts once.

use std::collections::HashMap;

#[path = "support/proxy.rs"]
mod proxy;
#[path = "../../../tests/common/s3_server.rs"]
#[allow(dead_code)] // its admin helpers are for the binary's tests
mod s3_server;

use engine::{Engine, OpenHints, OpenMode, Target};
use s3::client::Retry;
use s3::credentials::{self, Credentials};
use s3::endpoint::{self, Endpoint};
use s3::{Client, Created, S3Engine};
use s3_server::Server;

fn resolved(vars: &HashMap<String, String>) -> (Endpoint, Credentials) {
    let env = |k: &str| vars.get(k).cloned();
    let e = endpoint::resolve(&endpoint::Given::default(), &env).unwrap();
    let c = credentials::resolve(&credentials::Given::default(), &env, None).unwrap();
    (e, c)
}

#[test]
fn every_request_against_radosgw() {
    let Some(server) = Server::start() else {
        return;
    };
    let (endpoint, creds) = resolved(&server.vars);
    let secret = creds.secret.expose().unwrap().to_string();
    let client = Client::new(endpoint.clone(), &creds, 4);
    let b = client.bucket("iogauge-client-test").unwrap();
    assert!(!b.exists().unwrap());
    assert_eq!(b.create().unwrap(), Created::Made);
    assert_eq!(b.create().unwrap(), Created::Existed);
    assert!(b.exists().unwrap());

    // PUT, HEAD, ranged GETs (inside, across the end, beyond it).
    let data: Vec<u8> = (0..10_000u32).map(|i| (i % 251) as u8).collect();
    b.put("dir/a", &data).unwrap();
    assert_eq!(b.size("dir/a").unwrap(), 10_000);
    let mut buf = vec![0u8; 100];
    assert_eq!(b.get_range("dir/a", 1000, &mut buf).unwrap(), 100);
    assert_eq!(&buf[..], &data[1000..1100]);
    assert_eq!(b.get_range("dir/a", 9950, &mut buf).unwrap(), 50);
    assert_eq!(&buf[..50], &data[9950..]);
    assert_eq!(b.get_range("dir/a", 20_000, &mut buf).unwrap(), 0);

    // A multipart upload of two 5 MiB parts and a short last one, read back across a seam.
    let part = 5 << 20;
    let upload = b.start_upload("big").unwrap();
    let mut etags = Vec::new();
    for (n, fill) in [(1u16, 1u8), (2, 2), (3, 3)] {
        let len = if n == 3 { 1000 } else { part };
        etags.push(b.upload_part("big", &upload, n, &vec![fill; len]).unwrap());
    }
    b.complete_upload("big", &upload, &etags).unwrap();
    assert_eq!(b.size("big").unwrap(), 2 * part as u64 + 1000);
    let mut seam = vec![0u8; 10];
    b.get_range("big", part as u64 - 5, &mut seam).unwrap();
    assert_eq!(seam, [1, 1, 1, 1, 1, 2, 2, 2, 2, 2]);
    // An aborted upload leaves no object.
    let gone = b.start_upload("aborted").unwrap();
    b.upload_part("aborted", &gone, 1, &[9u8; 100]).unwrap();
    b.abort_upload("aborted", &gone).unwrap();

    // Listing by prefix, over pages (5 objects in pages of 2).
    for i in 0..5 {
        b.put(&format!("many/{i:04}"), b"x").unwrap();
    }
    let (first, next) = b.list_page("many/", None, Some(2)).unwrap();
    assert_eq!((first.len(), next.is_some()), (2, true));
    let listed = b.list_all_paged("many/", Some(2)).unwrap();
    assert_eq!(listed.len(), 5);
    assert!(listed.iter().all(|o| o.size == 1));
    let mut all: Vec<String> = b.list_all("").unwrap().into_iter().map(|o| o.key).collect();
    all.retain(|k| !k.starts_with("many/"));
    assert_eq!(all, ["big", "dir/a"]);

    // Errors: one line, status and S3's code, no secret.
    let e = b.size("missing").unwrap_err();
    assert_eq!(e.status(), Some(404), "{e}");
    let missing = client.bucket("no-such-bucket-here").unwrap();
    let e = missing.put("k", b"x").unwrap_err();
    assert_eq!(e.code(), Some("NoSuchBucket"), "{e}");
    let mut wrong = creds.clone();
    wrong.secret = engine::Secret::new(format!("{secret}x"));
    let bad = Client::new(endpoint.clone(), &wrong, 1);
    let e = bad
        .bucket("iogauge-client-test")
        .unwrap()
        .put("k", b"x")
        .unwrap_err();
    assert_eq!(e.code(), Some("SignatureDoesNotMatch"), "{e}");
    let line = e.to_string();
    assert!(!line.contains(&secret) && !line.contains('\n'), "{line}");
    assert!(line.contains(&endpoint.url), "{line}");
    let unreachable = Endpoint {
        url: "http://127.0.0.1:9".into(),
        ..endpoint.clone()
    };
    let e = Client::new(unreachable, &creds, 1)
        .bucket("x")
        .unwrap()
        .exists()
        .unwrap_err();
    assert!(e.to_string().contains("127.0.0.1:9"), "{e}");
    assert_eq!(e.errno(), libc::ECONNREFUSED, "{e}");

    // Throttling: behind a proxy that answers two requests in three with 503 SlowDown,
    // every request passes after its retries, each throttled one counted; one that is always
    // throttled fails after its attempts with the code in its line.
    let upstream: std::net::SocketAddr =
        endpoint.url.trim_start_matches("http://").parse().unwrap();
    let via = |throttle: fn(u64) -> bool| Endpoint {
        url: format!("http://{}", proxy::start(upstream, throttle)),
        ..endpoint.clone()
    };
    let slowed = Client::new(via(|n| n % 3 != 2), &creds, 2);
    let sb = slowed.bucket("iogauge-client-test").unwrap();
    sb.put("slow", b"through").unwrap();
    let mut back = [0u8; 7];
    assert_eq!(sb.get_range("slow", 0, &mut back).unwrap(), 7);
    assert_eq!(&back, b"through");
    assert_eq!(slowed.throttled(), 4);
    let quick = Retry {
        attempts: 3,
        base: std::time::Duration::from_millis(1),
        cap: std::time::Duration::from_millis(4),
    };
    let stopped = Client::new(via(|_| true), &creds, 1).with_retry(quick);
    let e = stopped
        .bucket("iogauge-client-test")
        .unwrap()
        .size("slow")
        .unwrap_err();
    assert!(e.is_throttled(), "{e}");
    assert_eq!(stopped.throttled(), 3);
    b.remove("slow").unwrap();

    engine_on_objects(&endpoint, &creds);

    // A bucket that holds objects is not removed; emptied, it is.
    assert_eq!(b.delete().unwrap_err().code(), Some("BucketNotEmpty"));
    for o in b.list_all("").unwrap() {
        b.remove(&o.key).unwrap();
    }
    b.remove("never-there").unwrap();
    b.delete().unwrap();
    assert!(!b.exists().unwrap());
}

/// The engine on object targets: a file of three parts written out of order and read back
/// across the seams, a file of one PUT, what it refuses, and directories as marker objects.
fn engine_on_objects(endpoint: &Endpoint, creds: &Credentials) {
    let e = S3Engine::new(
        Client::new(endpoint.clone(), creds, 2),
        "iogauge-client-test",
    );
    let obj = |key| Target::Object {
        bucket: "iogauge-client-test",
        key,
    };
    let part = 5usize << 20;
    let hints = OpenHints {
        file_size: 3 * part as u64,
        rank: 0,
        layout: None,
    };
    let block = |n: u8| vec![n; part];
    let mut f = e
        .open(obj("eng/parts"), OpenMode::CreateTruncate, &hints)
        .unwrap();
    for n in [2u8, 1, 3] {
        let at = (u64::from(n) - 1) * part as u64;
        assert_eq!(f.write_at(&block(n), at).unwrap(), part);
    }
    f.close().unwrap();
    assert_eq!(e.file_size(obj("eng/parts")).unwrap(), 3 * part as u64);
    let mut r = e
        .open(obj("eng/parts"), OpenMode::ReadOnly, &hints)
        .unwrap();
    let mut seam = [0u8; 4];
    assert_eq!(r.read_at(&mut seam, 2 * part as u64 - 2).unwrap(), 4);
    assert_eq!(seam, [2, 2, 3, 3]);
    r.close().unwrap();
    // One transfer that is the whole object: one PUT; a second write is refused.
    let one = OpenHints {
        file_size: 100,
        rank: 0,
        layout: None,
    };
    let mut f = e
        .open(obj("eng/one"), OpenMode::CreateTruncate, &one)
        .unwrap();
    f.write_at(&[7u8; 100], 0).unwrap();
    assert!(f.write_at(&[7u8; 100], 0).is_err());
    f.close().unwrap();
    assert_eq!(e.stat(obj("eng/one")).unwrap().size, 100);
    // A part that does not fit the first one's size, partial overwrite, rename: refused.
    let mut f = e
        .open(obj("eng/bad"), OpenMode::CreateTruncate, &hints)
        .unwrap();
    f.write_at(&block(1), 0).unwrap();
    let err = f.write_at(&[1u8; 10], 7).unwrap_err();
    assert_eq!(err.kind(), std::io::ErrorKind::InvalidInput, "{err}");
    f.close().unwrap();
    // An object is written whole: CreateKeep (ior's mode after its removal) writes anew.
    let mut f = e.open(obj("eng/one"), OpenMode::CreateKeep, &one).unwrap();
    f.write_at(&[8u8; 100], 0).unwrap();
    f.close().unwrap();
    assert_eq!(e.stat(obj("eng/one")).unwrap().size, 100);
    // A workload's name is a key in the engine's bucket, without its leading slash.
    assert_eq!(e.target(std::path::Path::new("/eng/one")), obj("eng/one"));
    shared_object(endpoint, creds, &hints);
    assert!(e.rename(obj("eng/one"), obj("eng/two")).is_err());
    let missing = e
        .open(obj("eng/none"), OpenMode::ReadOnly, &hints)
        .err()
        .unwrap();
    assert_eq!(missing.kind(), std::io::ErrorKind::NotFound, "{missing}");

    // Directories: marker objects, listed one level at a time.
    e.mkdir(obj("tree")).unwrap();
    e.mkdir(obj("tree/d1")).unwrap();
    assert_eq!(
        e.mkdir(obj("tree/d1")).unwrap_err().raw_os_error(),
        Some(libc::EEXIST)
    );
    e.create_file(obj("tree/d1/f"), b"abc").unwrap();
    let st = e.stat(obj("tree/d1/f")).unwrap();
    assert_eq!((st.size, st.is_dir), (3, false));
    assert!(e.stat(obj("tree/d1")).unwrap().is_dir);
    let names = |key| {
        let mut v: Vec<(String, Option<bool>)> = e
            .read_dir(obj(key))
            .unwrap()
            .into_iter()
            .map(|d| (d.name.to_string_lossy().into_owned(), d.is_dir))
            .collect();
        v.sort();
        v
    };
    assert_eq!(names("tree"), [("d1".to_string(), Some(true))]);
    assert_eq!(names("tree/d1"), [("f".to_string(), Some(false))]);
    let mut buf = [0u8; 8];
    assert_eq!(e.read_file(obj("tree/d1/f"), &mut buf).unwrap(), 3);
    assert_eq!(
        e.rmdir(obj("tree/d1")).unwrap_err().raw_os_error(),
        Some(libc::ENOTEMPTY)
    );
    e.remove(obj("tree/d1/f")).unwrap();
    e.rmdir(obj("tree/d1")).unwrap();
    e.rmdir(obj("tree")).unwrap();
    assert_eq!(
        e.stat(obj("tree")).unwrap_err().kind(),
        std::io::ErrorKind::NotFound
    );
    let info = e.target_info(obj("eng/one")).unwrap();
    assert!(info.exists && info.is_file);
    assert_eq!(info.fs_type.as_deref(), Some("s3"));
    for k in ["eng/parts", "eng/one", "eng/bad"] {
        e.remove(obj(k)).unwrap();
    }
}

/// One object written by two ranks (two engines, as two processes would be): the first
/// begins the upload, each writes its parts, the first completes it from every rank's
/// parts; an aborted shared write leaves no object.
fn shared_object(endpoint: &Endpoint, creds: &Credentials, hints: &OpenHints) {
    let ranks = [0, 1].map(|_| {
        S3Engine::new(
            Client::new(endpoint.clone(), creds, 1),
            "iogauge-client-test",
        )
    });
    let name = std::path::Path::new("eng/shared");
    let target = ranks[0].target(name);
    let token = ranks[0].shared_begin(target).unwrap().unwrap();
    let part = 5usize << 20;
    let mut parts = Vec::new();
    // Rank 1 writes parts 1 and 3, rank 0 part 2 (IOR's -s 3 pattern of two ranks, shifted).
    for (rank, numbers) in [(1usize, [1u64, 3].as_slice()), (0, [2].as_slice())] {
        let e = &ranks[rank];
        let mut f = e.open_shared(e.target(name), hints, &token).unwrap();
        for n in numbers {
            f.write_at(&vec![*n as u8; part], (n - 1) * part as u64)
                .unwrap();
        }
        f.sync().unwrap();
        parts.push(f.close_shared().unwrap());
    }
    assert_eq!(
        ranks[0].file_size(target).unwrap_err().kind(),
        std::io::ErrorKind::NotFound,
        "not before the completion"
    );
    ranks[0].shared_end(target, &token, &parts).unwrap();
    assert_eq!(ranks[0].file_size(target).unwrap(), 3 * part as u64);
    let mut r = ranks[1].open(target, OpenMode::ReadOnly, hints).unwrap();
    let mut seam = [0u8; 2];
    r.read_at(&mut seam, part as u64 - 1).unwrap();
    assert_eq!(seam, [1, 2]);
    r.close().unwrap();
    ranks[0].remove(target).unwrap();
    let token = ranks[0].shared_begin(target).unwrap().unwrap();
    let mut f = ranks[1].open_shared(target, hints, &token).unwrap();
    f.write_at(&vec![1u8; part], 0).unwrap();
    drop(f.close_shared().unwrap());
    ranks[0].shared_abort(target, &token).unwrap();
    assert!(
        ranks[0].shared_end(target, &token, &parts).is_err(),
        "an aborted upload is gone"
    );
    assert_eq!(
        ranks[0].file_size(target).unwrap_err().kind(),
        std::io::ErrorKind::NotFound
    );
}
