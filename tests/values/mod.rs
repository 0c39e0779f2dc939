//! Option values through the binary (issue 12): times keep the fraction the originals cut
//! (`-d 0.1`, `-D 0.3`, mdtest `-W 0.3`), and values the originals would silently misread
//! exit with status 2 before anything is created, naming the option and the value.

use std::time::Instant;

use crate::common::{iogauge, json, listing, tmp};

#[test]
fn ior_delay_takes_a_fraction() {
    let d = tmp();
    let dir = d.path().display();
    let start = Instant::now();
    iogauge(&format!(
        "ior -a DUMMY -d 0.5 -i 2 -t 1m -b 1m -w --json {dir}/r.json -o {dir}/f"
    ))
    .ok();
    // IOR's parser reads -d 0.5 as 0; iogauge waits half a second before the write of each
    // of the two repetitions (as IOR waits -d seconds there). A sleep never ends early.
    assert!(start.elapsed().as_secs_f64() >= 1.0);
    let doc = json(&d.path().join("r.json"));
    assert_eq!(doc["parameters"]["inter_test_delay_s"], 0.5);
}

#[test]
fn ior_stonewall_takes_a_fraction() {
    let d = tmp();
    let dir = d.path().display();
    // 100 transfers of 0.1 s each: 10 s without the stonewall, which IOR's -D 0.3 would be.
    iogauge(&format!(
        "ior -a DUMMY --dummy.delay-xfer=100000 -D 0.3 -O stoneWallingWearOut=1 -t 1m \
         -b 100m -w --json {dir}/r.json -o {dir}/f"
    ))
    .ok();
    let doc = json(&d.path().join("r.json"));
    assert_eq!(doc["parameters"]["deadline_for_stonewalling_s"], 0.3);
    let wall = &doc["phases"][0]["stonewall"];
    assert_eq!(wall["deadline_s"], 0.3);
    assert!(wall["pairs_max"].as_u64().unwrap() < 100, "{wall}");
}

#[test]
fn mdtest_stonewall_takes_a_fraction() {
    let d = tmp();
    let dir = d.path().display();
    // 100 creates of 0.1 s each: 10 s without the stonewall, which mdtest's -W 0.3 would be.
    iogauge(&format!(
        "mdtest -a DUMMY --dummy.delay-create=100000 -n 100 -F -C -W 0.3 \
         --json {dir}/r.json -d {dir}/md"
    ))
    .ok();
    let doc = json(&d.path().join("r.json"));
    assert_eq!(doc["parameters"]["stonewall_s"], 0.3);
    let phases = doc["phases"].as_array().unwrap();
    let create = phases.iter().find(|p| p["operation"] == "file-create");
    let wall = &create.expect("a file-create phase")["stonewall"];
    assert!(wall["pairs_max"].as_u64().unwrap() < 100, "{wall}");
}

#[test]
fn misread_values_are_refused_naming_option_and_value() {
    for (args, message) in [
        ("ior -t 1.5m", "ior: -t: \"1.5m\" is not a whole number"),
        ("ior -t abc", "ior: -t: \"abc\" is not a size"),
        ("ior -b 1m -s 2.5", "ior: -s: \"2.5\" is not a whole number"),
        ("ior -d abc", "ior: -d: \"abc\" is not a number"),
        ("ior -D -1", "ior: -D -1: must not be negative"),
        ("ior -F=yes", "ior: -F: \"yes\" is not an integer"),
        (
            "ior -O repetitions=1k",
            "ior: -O repetitions=1k: IOR reads this value as a plain integer",
        ),
        (
            "mdtest -n 2.5k",
            "mdtest: -n: \"2.5k\" is not a whole number",
        ),
        ("mdtest -W x", "mdtest: -W: \"x\" is not a number"),
        ("find DIR -q 1.5k", "find: -q 1.5k: expected a whole number"),
    ] {
        let d = tmp();
        let dir = d.path().display().to_string();
        let line = match args.split(' ').next() {
            Some("ior") => format!("{args} -o {dir}/f"),
            Some("mdtest") => format!("{args} -d {dir}/md"),
            _ => args.replace("DIR", &dir),
        };
        let r = iogauge(&line).code(2);
        let first = r.stderr.lines().next().unwrap_or_default();
        assert!(
            first.starts_with(&format!("iogauge {message}")),
            "{line}: {}",
            r.stderr
        );
        assert_eq!(
            r.stderr.lines().count(),
            1,
            "{line}: one line: {}",
            r.stderr
        );
        assert!(listing(d.path()).is_empty(), "{line}: created something");
    }
}
