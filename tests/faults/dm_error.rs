//! A real failing device: a device-mapper `error` target (every I/O fails with EIO). ior
//! writes to it with O_DIRECT (`-E -k`: the device node is used, never removed) and must
//! report EIO with the operation, the device, the offset and the rank. Needs root and a
//! kernel with device-mapper that lets this container create devices; skipped with a message
//! otherwise.

use std::process::Command;

use crate::common::iogauge;

/// Removes the device however the test ends.
struct Device(String);

impl Drop for Device {
    fn drop(&mut self) {
        let _ = Command::new("dmsetup").args(["remove", &self.0]).status();
    }
}

#[test]
fn ior_on_a_device_mapper_error_target_reports_eio() {
    let name = format!("iogauge-test-err-{}", std::process::id());
    // 2048 sectors (1 MiB) that fail every read and write.
    let made = Command::new("dmsetup")
        .args(["create", &name, "--table", "0 2048 error"])
        .output();
    match made {
        Ok(o) if o.status.success() => {}
        Ok(o) => {
            eprintln!(
                "device-mapper error target not permitted here, skipped: {}",
                String::from_utf8_lossy(&o.stderr)
                    .lines()
                    .next()
                    .unwrap_or("")
            );
            return;
        }
        Err(e) => {
            eprintln!("dmsetup not available ({e}), skipped (Debian package dmsetup)");
            return;
        }
    }
    let dev = Device(name);
    let path = format!("/dev/mapper/{}", dev.0);
    let r = iogauge(&format!(
        "ior -a POSIX --posix.odirect -E -k -w -t 4k -b 64k -o {path} --no-store"
    ));
    assert_eq!(r.code, 1, "{}", r.stderr);
    assert!(
        r.stderr
            .contains(&format!("rank 0: write {path} at offset 0"))
            && r.stderr.contains("Input/output error"),
        "{}",
        r.stderr
    );
    assert!(
        std::path::Path::new(&path).exists(),
        "the device node was removed"
    );
}
