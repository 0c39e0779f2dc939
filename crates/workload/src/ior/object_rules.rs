//! What ior cannot do on an object store (`Caps::object`), refused before any I/O with the
//! option and the reason: an object is written whole, as one PUT or one multipart upload
//! whose parts are the transfers, so IOR's `-E` (write into the existing file), `-Y` (an
//! fsync after every transfer) and a stonewall without wear-out (the parts not written would
//! leave a gap, shifting every later offset) cannot be honoured, and the parts must keep the
//! store's limits (S3: at least 5 MiB each but the last, at most 10,000).

use engine::Caps;

use crate::ior::IorParams;

/// Err names the option that `caps`' object store cannot honour, for `tasks` ranks.
pub fn check(p: &IorParams, tasks: u64, caps: &Caps) -> Result<(), String> {
    let Some(object) = caps.object.filter(|o| !o.transfer_objects) else {
        // A file engine, or one whose transfers are objects of their own: nothing is whole.
        return Ok(());
    };
    let api = &p.engine.api;
    if p.use_existing_test_file {
        return Err(format!(
            "-E: -a {api} writes every object whole (a PUT or a multipart upload); it cannot \
             write into an existing object and keep its other bytes"
        ));
    }
    if p.fsync_per_write {
        return Err(format!(
            "-Y: -a {api} has no fsync after each transfer: an object exists once its upload \
             completes, at the close (-e completes it before the transfers' time ends)"
        ));
    }
    if p.write_file && p.deadline_for_stonewalling_s > 0.0 && !p.stonewall_wear_out {
        return Err(format!(
            "-D {}: on -a {api} a stonewalled write leaves out the parts not written, and an \
             object's parts are joined without gaps, which would shift every later offset: \
             add -O stoneWallingWearOut=1 (every rank then writes the same parts)",
            p.deadline_for_stonewalling_s
        ));
    }
    let object_bytes = p.file_size(tasks);
    if p.write_file && object_bytes > p.transfer_size {
        let Some(limits) = object.multipart else {
            return Err(format!(
                "-t {}: -a {api} writes an object in one request, and each object here is \
                 {object_bytes} bytes: make -t equal to the object (-b {}{})",
                p.transfer_size,
                p.block_size,
                if p.file_per_proc { " -s 1" } else { "" }
            ));
        };
        if let Some(why) = limits.refuse(p.transfer_size, object_bytes) {
            return Err(format!(
                "-t {}: on -a {api} each transfer is a part of a multipart upload: {why}",
                p.transfer_size
            ));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use engine::{MultipartLimits, ObjectCaps, PosixEngine};

    const OBJECT: Caps = Caps {
        object: Some(ObjectCaps {
            ranged_get: true,
            multipart: Some(MultipartLimits::S3),
            listing: true,
            transfer_objects: false,
        }),
        ..PosixEngine::CAPS
    };

    fn params(t: u64, b: u64, fpp: bool) -> IorParams {
        let mut p = IorParams {
            transfer_size: t,
            block_size: b,
            file_per_proc: fpp,
            write_file: true,
            read_file: true,
            ..IorParams::default()
        };
        p.engine.api = "S3".into();
        p
    }

    #[test]
    fn file_engines_and_transfer_objects_are_not_asked() {
        let mut p = params(1, 4096, false);
        p.use_existing_test_file = true;
        assert!(check(&p, 4, &PosixEngine::CAPS).is_ok());
        let fragments = Caps {
            object: Some(ObjectCaps {
                transfer_objects: true,
                ..OBJECT.object.unwrap()
            }),
            ..OBJECT
        };
        assert!(check(&p, 4, &fragments).is_ok());
    }

    #[test]
    fn parts_keep_the_limits() {
        const MIB: u64 = 1 << 20;
        // One transfer per object: a PUT, any size.
        assert!(check(&params(4096, 4096, true), 4, &OBJECT).is_ok());
        assert!(check(&params(5 * MIB, 20 * MIB, false), 4, &OBJECT).is_ok());
        let e = check(&params(MIB, 4 * MIB, true), 2, &OBJECT).unwrap_err();
        assert!(e.starts_with("-t 1048576:") && e.contains("5 MiB"), "{e}");
        // A shared object of 4 ranks' blocks is more than one part even for -t = -b.
        let e = check(&params(MIB, MIB, false), 4, &OBJECT).unwrap_err();
        assert!(e.contains("4 parts"), "{e}");
        let mut p = params(5 * MIB, 5 * MIB, true);
        p.segment_count = 10_001;
        let e = check(&p, 1, &OBJECT).unwrap_err();
        assert!(e.contains("10001 parts") && e.contains("10000"), "{e}");
        // Reading only writes nothing.
        let mut p = params(MIB, 4 * MIB, true);
        p.write_file = false;
        assert!(check(&p, 2, &OBJECT).is_ok());
    }

    #[test]
    fn options_an_object_cannot_honour() {
        let mut p = params(4096, 4096, true);
        p.use_existing_test_file = true;
        assert!(check(&p, 1, &OBJECT).unwrap_err().starts_with("-E:"));
        let mut p = params(4096, 4096, true);
        p.fsync_per_write = true;
        assert!(check(&p, 1, &OBJECT).unwrap_err().starts_with("-Y:"));
        let mut p = params(4096, 4096, true);
        p.deadline_for_stonewalling_s = 2.0;
        let e = check(&p, 1, &OBJECT).unwrap_err();
        assert!(
            e.starts_with("-D 2:") && e.contains("stoneWallingWearOut"),
            "{e}"
        );
        p.stonewall_wear_out = true;
        assert!(check(&p, 1, &OBJECT).is_ok());
        let one_put = Caps {
            object: Some(ObjectCaps {
                multipart: None,
                ..OBJECT.object.unwrap()
            }),
            ..OBJECT
        };
        let e = check(&params(4096, 8192, true), 1, &one_put).unwrap_err();
        assert!(e.contains("in one request"), "{e}");
    }
}
