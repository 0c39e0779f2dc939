//! Tests of the engine table: names, lookup, suggestions, declared options and the checks.

use super::*;
use crate::Target;
use crate::{IoShape, OptValue};
use std::collections::HashSet;

#[test]
fn table_order_and_default() {
    let names: Vec<_> = ENGINES.iter().map(|e| e.name).collect();
    assert_eq!(names, ["POSIX", "MMAP", "DUMMY", "IOURING", "AIO"]);
    assert_eq!(EngineConfig::default().api, "POSIX");
    for e in ENGINES {
        assert_eq!(e.caps.api_name, e.name);
        assert_eq!(e.module, e.name.to_ascii_lowercase());
        assert!(!REFUSED_APIS
            .iter()
            .any(|r| r.name.eq_ignore_ascii_case(e.name)));
    }
    assert_eq!(REFUSED_APIS.len(), 18);
}

#[test]
fn lookup_ignores_case() {
    assert_eq!(lookup("posix").unwrap().name, "POSIX");
    assert_eq!(lookup("MmAp").unwrap().name, "MMAP");
    assert_eq!(lookup("DUMMY").unwrap().name, "DUMMY");
}

#[test]
fn refused_api_message() {
    let err = lookup("mpiio").unwrap_err();
    assert!(matches!(&err, EngineError::Refused { api, .. } if api == "MPIIO"));
    let msg = err.to_string();
    assert!(
        msg.starts_with("-a MPIIO is not supported by iogauge: "),
        "{msg}"
    );
    assert!(msg.contains("MPI-IO"), "{msg}");
    assert!(matches!(
        lookup("s3-CURL"),
        Err(EngineError::Refused { .. })
    ));
    assert!(matches!(lookup("gfarm"), Err(EngineError::Refused { .. })));
}

#[test]
fn unknown_api_suggestion() {
    let err = lookup("POSXI").unwrap_err();
    assert_eq!(
        err,
        EngineError::Unknown {
            api: "POSXI".into(),
            suggestion: Some("POSIX".into())
        }
    );
    assert_eq!(
        err.to_string(),
        "-a POSXI: unknown API; known: POSIX, MMAP, DUMMY, IOURING, AIO; did you mean POSIX?"
    );
    assert_eq!(
        lookup("dumy").unwrap_err(),
        EngineError::Unknown {
            api: "dumy".into(),
            suggestion: Some("DUMMY".into())
        }
    );
    let near = |api: &str| match lookup(api) {
        Err(EngineError::Unknown { suggestion, .. }) => suggestion,
        other => panic!("{api}: {other:?}"),
    };
    assert_eq!(near("MAP").as_deref(), Some("MMAP"));
    assert_eq!(near("posx").as_deref(), Some("POSIX"));
    let far = lookup("FOO").unwrap_err();
    assert_eq!(
        far,
        EngineError::Unknown {
            api: "FOO".into(),
            suggestion: None
        }
    );
    assert_eq!(
        far.to_string(),
        "-a FOO: unknown API; known: POSIX, MMAP, DUMMY, IOURING, AIO"
    );
    assert!(matches!(lookup(""), Err(EngineError::Unknown { .. })));
}

#[test]
fn metadata_engines_and_refusal() {
    let names: Vec<_> = metadata_engines().map(|e| e.name).collect();
    assert_eq!(names, ["POSIX", "DUMMY"]);
    assert_eq!(
        lookup("mmap")
            .unwrap()
            .for_metadata()
            .unwrap_err()
            .to_string(),
        "-a MMAP: the MMAP engine has no metadata operations (mdtest refuses it too); use \
         POSIX or DUMMY"
    );
    assert!(lookup("dummy").unwrap().for_metadata().is_ok());
}

#[test]
fn module_prefixes_come_from_both_tables() {
    assert_eq!(module_of("posix.rangelocks"), Some("posix"));
    assert_eq!(module_of("MPIIO.showHints"), Some("mpiio"));
    assert_eq!(module_of("S3-libs3.host"), Some("s3-libs3"));
    assert_eq!(module_of("s3.bucket"), Some("s3"));
    assert_eq!(module_of("dummy.delay-create"), Some("dummy"));
    assert_eq!(module_of("foo.bar"), None);
    assert_eq!(module_of("posix"), None);
    let all: HashSet<&str> = ENGINES
        .iter()
        .map(|e| e.module)
        .chain(REFUSED_APIS.iter().flat_map(|r| r.modules.iter().copied()))
        .collect();
    // IOR's module prefixes (`--<module>.`), as iogauge refuses or accepts them.
    let ior: HashSet<&str> = [
        "posix", "mmap", "mpiio", "hdf5", "ncmpi", "dfs", "hdfs", "rados", "cephfs", "ime",
        "libnfs", "chfs", "finchfs", "aio", "s3-libs3", "s3-4c", "s3-curl", "s3", "gfarm", "pmdk",
        "dummy", "iouring",
    ]
    .into();
    assert_eq!(all, ior);
}

#[test]
fn declared_options() {
    let names: Vec<_> = all_options().map(|(e, o)| e.full_name(o)).collect();
    assert_eq!(
        names,
        [
            "posix.odirect",
            "dummy.delay-create",
            "dummy.delay-close",
            "dummy.delay-sync",
            "dummy.delay-xfer",
            "dummy.delay-only-rank0",
            "dummy.depth",
            "dummy.complete-delay",
            "dummy.reorder",
            "dummy.fail-at",
            "dummy.fail-errno",
            "dummy.short-at",
            "dummy.fault-rank",
            "iouring.depth",
            "iouring.odirect",
            "iouring.sqpoll",
            "iouring.fixed-bufs",
            "iouring.register-files",
            "iouring.batch",
            "iouring.complete-min",
            "iouring.taskrun",
            "aio.max-pending",
            "aio.granularity",
        ]
    );
    // fio's spellings reach the same options.
    for (alias, own) in crate::ALIASES {
        let (e, o) = find_option(alias).expect(alias);
        assert_eq!(e.full_name(o), *own);
    }
    let mdtest: Vec<_> = all_options()
        .filter(|(_, o)| o.metadata)
        .map(|(_, o)| o.name)
        .collect();
    assert_eq!(
        mdtest,
        [
            "delay-create",
            "delay-sync",
            "delay-only-rank0",
            "fail-at",
            "fail-errno",
            "short-at",
            "fault-rank"
        ]
    );
    for (e, o) in all_options() {
        assert_eq!(o.takes_value(), !o.meta.is_empty(), "{}", e.full_name(o));
        assert_eq!(module_of(&e.full_name(o)), Some(e.module));
    }
    let patterns: Vec<_> = ENGINES.iter().map(EngineInfo::options_pattern).collect();
    let want = [
        Some("--posix.odirect"),
        None,
        Some("--dummy.*"),
        Some("--iouring.*"),
        Some("--aio.*"),
    ];
    assert_eq!(patterns, want.map(|p| p.map(String::from)));
    let (e, o) = find_option("posix.odirect").unwrap();
    assert_eq!((e.name, o.name), ("POSIX", "odirect"));
    assert!(
        find_option("POSIX.odirect").is_none(),
        "exact, as IOR's long names"
    );
    assert!(find_option("posix.odirec").is_none());
    assert!(find_option("dummy.odirect").is_none());
    assert_eq!(find_ior_key("useo_direct").unwrap().1.name, "odirect");
    assert!(find_ior_key("odirect").is_none());
}

fn io(t: u64, b: u64, fsync_per_write: bool) -> Workload {
    Workload::Io(IoShape {
        transfer_size: t,
        block_size: b,
        fsync_per_write,
        ..IoShape::default()
    })
}

fn cfg(api: &str, options: &[(&str, OptValue)]) -> EngineConfig {
    let mut c = EngineConfig::new(api);
    for (n, v) in options {
        c.set(n, v.clone());
    }
    c
}

const ON: OptValue = OptValue::Flag(true);
const OFF: OptValue = OptValue::Flag(false);

#[test]
fn checks_pass() {
    let mb = 1 << 20;
    let ok = |c: EngineConfig, w: Workload| check(&c, &w).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(ok(cfg("posix", &[]), io(47008, 47008, true)).name, "POSIX");
    ok(
        cfg("POSIX", &[("posix.odirect", ON)]),
        io(mb, 16 * mb, false),
    );
    ok(
        cfg("MMAP", &[("posix.odirect", OFF)]),
        io(47008, 47008, false),
    );
    ok(cfg("MMAP", &[]), io(mb, mb, true));
    ok(
        cfg("POSIX", &[("dummy.delay-xfer", OptValue::Number(0))]),
        io(8, 8, false),
    );
    let delays = [
        ("dummy.delay-xfer", OptValue::Number(5)),
        ("dummy.delay-only-rank0", ON),
    ];
    ok(cfg("DUMMY", &delays), io(8, 8, false));
    ok(
        cfg("DUMMY", &[("dummy.delay-create", OptValue::Number(5))]),
        Workload::Metadata,
    );
    ok(cfg("POSIX", &[("posix.odirect", OFF)]), Workload::Metadata);
}

#[test]
fn check_messages_are_exact() {
    let err = |c: EngineConfig, w: Workload| check(&c, &w).unwrap_err();
    let hard = io(47008, 47008, true);
    assert_eq!(
        err(cfg("POSIX", &[("posix.odirect", ON)]), hard),
        "--posix.odirect needs -t and -b multiples of 512 (any device's smallest: O_DIRECT \
         needs aligned offsets and lengths): -t 47008 is not"
    );
    assert_eq!(
        err(
            cfg("POSIX", &[("posix.odirect", ON)]),
            io(4096, 4096 * 3 + 8, false)
        ),
        "--posix.odirect needs -t and -b multiples of 512 (any device's smallest: O_DIRECT \
         needs aligned offsets and lengths): -b 12296 is not"
    );
    assert_eq!(
        err(cfg("MMAP", &[]), hard),
        "-Y with -a MMAP needs -t a multiple of the 4096-byte page (msync works on whole \
         pages): -t 47008 is not"
    );
    assert_eq!(
        err(cfg("MMAP", &[("posix.odirect", ON)]), io(4096, 4096, false)),
        "--posix.odirect applies to -a POSIX, not -a MMAP"
    );
    assert_eq!(
        err(
            cfg("POSIX", &[("dummy.delay-xfer", OptValue::Number(5))]),
            hard
        ),
        "--dummy.* options apply to -a DUMMY, not -a POSIX"
    );
    assert_eq!(
        err(
            cfg("POSIX", &[("dummy.delay-only-rank0", ON)]),
            Workload::Metadata
        ),
        "--dummy.* options apply to -a DUMMY, not -a POSIX"
    );
    assert_eq!(
        err(
            cfg("DUMMY", &[("dummy.delay-xfer", OptValue::Number(5))]),
            Workload::Metadata
        ),
        "--dummy.delay-xfer applies to bandwidth workloads (ior), not to mdtest"
    );
    assert_eq!(
        err(cfg("POSIX", &[("posix.odirect", ON)]), Workload::Metadata),
        "--posix.odirect applies to bandwidth workloads (ior), not to mdtest"
    );
    assert!(err(cfg("MMAP", &[]), Workload::Metadata).contains("no metadata operations"));
    assert!(err(cfg("HDF5", &[]), hard).starts_with("-a HDF5 is not supported"));
    // Several errors: the first in table order, the chosen engine's checks at its place.
    let both = [
        ("posix.odirect", ON),
        ("dummy.delay-xfer", OptValue::Number(5)),
    ];
    assert!(err(cfg("POSIX", &both), hard).starts_with("--posix.odirect needs"));
    assert!(err(cfg("DUMMY", &both), hard).starts_with("--posix.odirect applies"));
    assert!(err(cfg("MMAP", &both), hard).starts_with("--posix.odirect applies"));
    assert_eq!(
        err(cfg("POSIX", &[("posix.rangelocks", ON)]), hard),
        "--posix.rangelocks: no engine has this option"
    );
    assert_eq!(
        err(
            cfg("POSIX", &[("posix.odirect", OptValue::Number(1))]),
            hard
        ),
        "--posix.odirect: expected a flag, got 1"
    );
}

#[test]
fn build_passes_options() {
    let e = build(&cfg("POSIX", &[("posix.odirect", ON)]), 3).unwrap();
    assert_eq!(e.caps().alignment, 4096);
    assert!(!e.caps().page_cache);
    assert_eq!(e.caps().api_name, "POSIX");
    assert!(!build(&cfg("dummy", &[]), 0).unwrap().caps().does_io);
    assert!(build(&cfg("MMAP", &[]), 0).unwrap().caps().needs_file_size);
    assert!(matches!(
        build(&cfg("HDF5", &[]), 0),
        Err(EngineError::Refused { .. })
    ));
}

#[test]
fn dummy_delays_reach_the_engine() {
    let slow = cfg(
        "DUMMY",
        &[("dummy.delay-create", OptValue::Number(200_000))],
    );
    let e = build(&slow, 1).unwrap();
    let t = std::time::Instant::now();
    e.mkdir(Target::from(std::path::Path::new("/nonexistent/d")))
        .unwrap();
    assert!(t.elapsed() >= std::time::Duration::from_millis(200));
    let only0 = cfg(
        "DUMMY",
        &[
            ("dummy.delay-create", OptValue::Number(1_000_000)),
            ("dummy.delay-only-rank0", ON),
        ],
    );
    let t = std::time::Instant::now();
    build(&only0, 1)
        .unwrap()
        .mkdir(Target::from(std::path::Path::new("/nonexistent/d")))
        .unwrap();
    assert!(t.elapsed() < std::time::Duration::from_millis(500));
}
