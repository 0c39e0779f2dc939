//! `--verify` against the official result of IO500 submission 731 (SC24) and tampering.

use crate::common::{iogauge_args, tmp};

fn testdata(name: &str) -> String {
    format!(
        "{}/crates/workload/src/io500/testdata/{name}",
        env!("CARGO_MANIFEST_DIR")
    )
}

#[test]
fn the_official_score_hash_of_submission_731_verifies() {
    let cfg = testdata("sc24-731-config.ini");
    let res = testdata("sc24-731-result.txt");
    let r = iogauge_args(&["io500", &cfg, "--verify", &res]).code(1);
    assert!(
        r.stdout.starts_with(
            "result file ver = io500-sc24_v1\nWARNING Verify the output with the matching version"
        ),
        "{}",
        r.stdout
    );
    assert!(r
        .stdout
        .contains("config-hash     = 451AE3DE\nscore-hash      = F69F17DE\n"));
    // The score hash matches (no score error); the config hash differs only because IO500
    // HEAD, which iogauge follows, has one more section than io500-sc24_v1:
    // [ior-rnd4K-easy-read] run = TRUE, and 451AE3DE ^ kv("run", "TRUE") = 45139E67.
    assert!(
        r.stdout
            .contains("ERROR: Configuration hash expected: 45139E67 read: 451AE3DE"),
        "{}",
        r.stdout
    );
    assert!(!r.stdout.contains("Score hash"), "{}", r.stdout);
    let h = iogauge_args(&["io500", &cfg, "--config-hash"]).ok().stdout;
    assert_eq!(h, "config-hash     = 45139E67\n");
}

#[test]
fn a_changed_score_is_detected() {
    let d = tmp();
    let text = std::fs::read_to_string(testdata("sc24-731-result.txt"))
        .unwrap()
        .replace(
            "score           = 305.670500",
            "score           = 405.670500",
        );
    let res = d.path().join("result.txt");
    std::fs::write(&res, text).unwrap();
    let r = iogauge_args(&[
        "io500",
        &testdata("sc24-731-config.ini"),
        "--verify",
        res.to_str().unwrap(),
    ])
    .code(1);
    assert!(
        r.stdout.contains("\nERROR: Score hash expected: \""),
        "{}",
        r.stdout
    );
    assert!(r.stdout.contains("\" read: \"F69F17DE\"\n"), "{}", r.stdout);
}
