//! What the system did in each phase (`docs/system.md`), as a user sees it: an `ior` write on
//! a file system of its own (ext4 on a loop device) with and without `-e`, a tmpfs target
//! with no device, and `--no-system`.

mod loopfs;

use serde_json::Value;

use crate::common::{iogauge_args, json, shm, tmp};
use loopfs::LoopFs;

const MIB: u64 = 1 << 20;

fn write_phase(doc: &Value) -> &Value {
    doc["phases"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["operation"] == "write")
        .expect("a write phase")
}

fn alert<'a>(phase: &'a Value, id: &str) -> Option<&'a Value> {
    phase["alerts"]
        .as_array()
        .and_then(|a| a.iter().find(|x| x["id"] == id))
}

/// `ior -w -t 1m -b 64m` into `dir` with `extra` options; the document.
fn ior_write(dir: &std::path::Path, extra: &[&str]) -> Value {
    let out = tmp();
    let doc = out.path().join("doc.json");
    let file = dir.join("f");
    let mut args = vec!["ior", "-w", "-k", "-t", "1m", "-b", "64m", "-o"];
    args.push(file.to_str().unwrap());
    args.extend_from_slice(&["--no-store", "--json", doc.to_str().unwrap()]);
    args.extend_from_slice(extra);
    let run = iogauge_args(&args).ok();
    assert!(
        run.stderr
            .contains("iogauge: CPU utilization and devices per phase"),
        "{}",
        run.stderr
    );
    json(&doc)
}

#[test]
fn a_write_without_fsync_stays_in_the_page_cache_and_with_it_reaches_the_device() {
    let fs = match LoopFs::new(512) {
        Ok(fs) => fs,
        Err(why) => {
            eprintln!("SKIPPED: no loop-device file system: {why}");
            return;
        }
    };
    // The node's dirty pages well below the background threshold, so that the flusher does
    // not start writing back this test's pages inside the phase.
    // SAFETY: sync has no preconditions.
    unsafe { libc::sync() };
    let doc = ior_write(fs.path(), &[]);
    let p = write_phase(&doc);
    let bytes = p["bytes"].as_u64().unwrap();
    assert_eq!(bytes, 64 * MIB);
    let s = &p["system"];
    let dev = &s["devices"][0];
    assert_eq!(dev["name"], fs.name(), "{s:#}");
    assert_eq!(dev["role"], "target");
    let written = dev["write_bytes"].as_u64().unwrap();
    assert!(
        written < bytes / 2,
        "device wrote {written} of {bytes}: {s:#}"
    );
    assert!(s["page_cache"]["dirty_end_bytes"].as_u64().is_some());
    let a = alert(p, "write-not-on-device").unwrap_or_else(|| panic!("no warning: {p:#}"));
    assert_eq!(a["evidence"]["device"], fs.name());
    assert!(a["evidence"]["bytes_not_on_device"].as_u64().unwrap() > bytes / 2);
    assert!(a["message"].as_str().unwrap().contains(fs.name()));
    assert!(a["evidence"]["dirty_end_bytes"].is_u64());
    // The process's own counter says it dirtied the bytes, not that they reached the device.
    assert!(s["process_io"]["write_bytes"].as_u64().unwrap() >= bytes);

    let doc = ior_write(fs.path(), &["-e"]);
    let p = write_phase(&doc);
    let dev = &p["system"]["devices"][0];
    assert_eq!(dev["name"], fs.name());
    let written = dev["write_bytes"].as_u64().unwrap();
    assert!(
        written * 10 >= bytes * 9,
        "with -e the device wrote {written} of {bytes}"
    );
    assert!(alert(p, "write-not-on-device").is_none(), "{p:#}");
}

#[test]
fn cpu_per_phase_and_absent_sources_on_tmpfs() {
    let dir = shm();
    let doc = ior_write(dir.path(), &[]);
    let s = &write_phase(&doc)["system"];
    let cpu = &s["cpu"];
    assert!(cpu["user_s"].as_f64().unwrap() + cpu["system_s"].as_f64().unwrap() > 0.0);
    assert!(cpu["utilization_pct"].as_f64().unwrap() > 0.0);
    assert!(s["window_s"].as_f64().unwrap() > 0.0);
    assert!(s.get("devices").is_none(), "{s:#}");
    if dir.path().starts_with("/dev/shm") {
        assert!(
            s["absent"]["devices"]
                .as_str()
                .unwrap()
                .starts_with("none:"),
            "{s:#}"
        );
    }
    assert!(s["absent"]["nfs"]
        .as_str()
        .unwrap()
        .contains("not an NFS mount"));
    assert!(s["absent"]["lustre"].is_string());
    assert!(s["process_io"]["wchar"].as_u64().unwrap() >= 64 * MIB);
}

#[test]
fn no_system_reads_nothing() {
    let dir = shm();
    let out = tmp();
    let doc_path = out.path().join("doc.json");
    let file = dir.path().join("f");
    let run = iogauge_args(&[
        "ior",
        "-w",
        "-t",
        "1m",
        "-b",
        "4m",
        "-o",
        file.to_str().unwrap(),
        "--no-store",
        "--no-system",
        "--json",
        doc_path.to_str().unwrap(),
    ])
    .ok();
    assert!(!run.stderr.contains("CPU utilization"), "{}", run.stderr);
    let doc = json(&doc_path);
    assert!(write_phase(&doc).get("system").is_none());
    iogauge_args(&["ior", "--no-system=1", "-w"]).code(2);
}
