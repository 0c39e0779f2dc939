//! Marks beside other sockets: stale ones, two runs at once, an unsafe directory, the IO500.

use std::os::unix::fs::PermissionsExt;
use std::os::unix::net::UnixListener;
use std::time::Duration;

use super::{iogauge_in, long_ior, sockets, start, strs, wait, wait_for_phase};
use crate::common::{json, tmp};

#[test]
fn stale_sockets_are_removed_and_ignored() {
    let d = tmp();
    let xdg = d.path().join("xdg");
    let dir = sockets(&xdg);
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o700)).unwrap();
    // A process that has ended, and one alive (this test) that listens on nothing: a socket
    // of each that nobody serves (std leaves the file when the listener goes).
    let mut gone = std::process::Command::new("true").spawn().unwrap();
    gone.wait().unwrap();
    let stale = [gone.id(), std::process::id()].map(|pid| dir.join(format!("{pid}.sock")));
    for path in &stale {
        drop(UnixListener::bind(path).unwrap());
    }
    // A file that only looks like one is left alone.
    let not_socket = dir.join("1.sock");
    std::fs::write(&not_socket, "").unwrap();

    let r = iogauge_in(&xdg, &["mark", "x"]).code(1);
    assert!(
        r.stderr.contains("no iogauge run in progress"),
        "{}",
        r.stderr
    );
    for path in &stale {
        assert!(!path.exists(), "{} is removed", path.display());
    }
    assert!(not_socket.exists());

    // With a run in progress beside a stale socket, the run is the one.
    drop(UnixListener::bind(&stale[1]).unwrap());
    let run = start(&xdg, &strs(&long_ior(d.path(), "run", 2)));
    wait_for_phase(&d.path().join("run.events"));
    iogauge_in(&xdg, &["mark", "only live"]).ok();
    assert!(!stale[1].exists());
    wait(run).ok();
    let doc = json(&d.path().join("run.json"));
    assert_eq!(doc["marks"][0]["text"], "only live");
}

#[test]
fn two_runs_need_run_by_pid_or_run_id() {
    let d = tmp();
    let xdg = d.path().join("xdg");
    std::fs::create_dir(&xdg).unwrap();
    let a = start(&xdg, &strs(&long_ior(d.path(), "a", 4)));
    let b = start(&xdg, &strs(&long_ior(d.path(), "b", 4)));
    let (pid_a, pid_b) = (a.id(), b.id());
    let id_a = wait_for_phase(&d.path().join("a.events"));
    let id_b = wait_for_phase(&d.path().join("b.events"));

    let r = iogauge_in(&xdg, &["mark", "which"]).code(2);
    for needle in [
        format!("pid {pid_a} (run {id_a}, ior)"),
        format!("pid {pid_b} (run {id_b}, ior)"),
        "--run".to_string(),
    ] {
        assert!(r.stderr.contains(&needle), "{needle}: {}", r.stderr);
    }
    let by_pid = iogauge_in(&xdg, &["mark", "to a", "--run", &pid_a.to_string()]).ok();
    assert!(by_pid.stdout.contains(&id_a), "{}", by_pid.stdout);
    let by_id = iogauge_in(&xdg, &["mark", "--run", &id_b, "to b"]).ok();
    assert!(by_id.stdout.contains(&id_b), "{}", by_id.stdout);
    // A run id whose pid is live but whose run is another is not taken.
    let wrong = format!("ior-20000101T000000Z-{pid_a}");
    let r = iogauge_in(&xdg, &["mark", "x", "--run", &wrong]).code(1);
    assert!(r.stderr.contains("is not in progress"), "{}", r.stderr);

    wait(a).ok();
    wait(b).ok();
    let texts = |name: &str| -> Vec<String> {
        let doc = json(&d.path().join(format!("{name}.json")));
        let marks = doc["marks"].as_array().cloned().unwrap_or_default();
        marks
            .iter()
            .map(|m| m["text"].as_str().unwrap().to_string())
            .collect()
    };
    assert_eq!(texts("a"), ["to a"]);
    assert_eq!(texts("b"), ["to b"]);
}

#[test]
fn an_unsafe_directory_turns_marks_off_and_the_run_goes_on() {
    let d = tmp();
    let xdg = d.path().join("xdg");
    let dir = sockets(&xdg);
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o755)).unwrap();
    let f = d.path().join("f").display().to_string();
    let short = [
        "ior",
        "-a",
        "DUMMY",
        "-t",
        "1m",
        "-b",
        "4m",
        "-w",
        "-o",
        &f,
        "--no-store",
    ];
    let r = iogauge_in(&xdg, &short).ok();
    let warning = "iogauge: marks are off for this run: ";
    let line = r.stderr.lines().find(|l| l.starts_with(warning));
    assert!(
        line.is_some_and(|l| l.contains("mode 0755") && l.contains("chmod 700")),
        "{}",
        r.stderr
    );
    assert!(
        std::fs::read_dir(&dir).unwrap().next().is_none(),
        "no socket"
    );
    let r = iogauge_in(&xdg, &["mark", "x"]).code(1);
    assert!(r.stderr.contains("mode 0755"), "{}", r.stderr);

    // A socket path over sun_path's 108 bytes: the same, naming the limit.
    let deep = d.path().join("d".repeat(100));
    std::fs::create_dir(&deep).unwrap();
    let r = iogauge_in(&deep, &short).ok();
    assert!(
        r.stderr.contains(warning) && r.stderr.contains("108"),
        "{}",
        r.stderr
    );
}

#[test]
fn the_io500_takes_marks_into_its_document() {
    let d = tmp();
    let xdg = d.path().join("xdg");
    std::fs::create_dir(&xdg).unwrap();
    let ini = crate::io500::small_ini(d.path(), "");
    let doc = d.path().join("doc.json");
    let args = [
        "io500",
        ini.to_str().unwrap(),
        "--tasks",
        "1",
        "--timestamp",
        "T",
        "--no-store",
        "--json",
        doc.to_str().unwrap(),
    ];
    let run = start(&xdg, &args);
    let socket = sockets(&xdg).join(format!("{}.sock", run.id()));
    let deadline = std::time::Instant::now() + Duration::from_secs(60);
    while !socket.exists() {
        assert!(std::time::Instant::now() < deadline, "no socket");
        std::thread::sleep(Duration::from_millis(10));
    }
    let r = iogauge_in(&xdg, &["mark", "during the suite"]).ok();
    assert!(r.stdout.contains("of run io500-"), "{}", r.stdout);
    wait(run).ok();
    let doc = json(&doc);
    assert_eq!(
        doc["marks"][0]["text"], "during the suite",
        "{}",
        doc["marks"]
    );
}
