//! The object seam from outside the crate, as the S3 and MPI-IO crates use it: a row
//! registered at start-up is found (and a refused IOR API it provides is no longer refused),
//! object targets reach file engines as `Unsupported`, and S3's multipart limits. A test
//! binary of its own: registration is process-wide.

use std::io;
use std::path::Path;

use engine::{
    Caps, Engine, EngineConfig, EngineError, EngineInfo, MultipartLimits, ObjectCaps, Target,
};

fn make(cfg: &EngineConfig, rank: usize) -> Box<dyn Engine> {
    engine::ENGINES
        .iter()
        .find(|e| e.name == "DUMMY")
        .unwrap()
        .make(cfg, rank)
}

static OBJECTS: EngineInfo = EngineInfo::new(
    "S3-curl",
    "s3-curl",
    "a registered object engine (test)",
    Caps {
        does_io: false,
        metadata: false,
        alignment: 1,
        needs_file_size: false,
        page_cache: false,
        api_name: "S3-curl",
        collective: false,
        container: false,
        queued: false,
        object: Some(ObjectCaps {
            ranged_get: true,
            multipart: Some(MultipartLimits::S3),
            listing: true,
            transfer_objects: false,
        }),
    },
    &[],
    &[],
    None,
    None,
    make,
);

#[test]
fn a_registered_engine_is_found_after_its_refusal() {
    assert!(matches!(
        engine::lookup("s3-curl"),
        Err(EngineError::Refused { .. })
    ));
    engine::register(&OBJECTS);
    let info = engine::lookup("s3-curl").unwrap();
    assert_eq!(info.name, "S3-curl");
    assert!(info.caps.object.is_some());
    let names: Vec<&str> = engine::engines().map(|e| e.name).collect();
    assert_eq!(names.last(), Some(&"S3-curl"));
    assert_eq!(
        names[..engine::ENGINES.len()],
        engine::ENGINES.iter().map(|e| e.name).collect::<Vec<_>>()[..]
    );
    assert!(std::panic::catch_unwind(|| engine::register(&OBJECTS)).is_err());
}

#[test]
fn objects_reach_file_engines_as_unsupported() {
    let t = Target::Object {
        bucket: "b",
        key: "dir/f.00000001",
    };
    assert_eq!(t.to_string(), "s3://b/dir/f.00000001");
    assert_eq!(t.as_object(), Some(("b", "dir/f.00000001")));
    let posix = engine::PosixEngine::new(false);
    let e = posix.remove(t).unwrap_err();
    assert_eq!(e.kind(), io::ErrorKind::Unsupported, "{e}");
    assert!(e.to_string().contains("s3://b/dir/f.00000001"), "{e}");
    let p = Target::from(Path::new("/x"));
    assert_eq!(
        p.object("S3").unwrap_err().kind(),
        io::ErrorKind::Unsupported
    );
}

#[test]
fn multipart_limits_refuse_small_parts_and_too_many() {
    let s3 = MultipartLimits::S3;
    // One part needs no minimum; several need 5 MiB each.
    assert_eq!(s3.refuse(4096, 4096), None);
    assert!(s3.refuse(1 << 20, 4 << 20).unwrap().contains("5 MiB"));
    assert_eq!(s3.refuse(5 << 20, 50 << 20), None);
    assert!(s3
        .refuse(5 << 20, (5 << 20) * 10_001)
        .unwrap()
        .contains("at most 10000"));
}
