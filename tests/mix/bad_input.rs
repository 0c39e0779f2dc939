//! Bad input ends with exit status 2 and one line naming the option, key or file, before
//! anything is created; `--dry-run` prints the plan and creates nothing.

use super::{mix_file, SMALL};
use crate::common::{iogauge, iogauge_args, tmp, tree};

#[test]
fn refusals_touch_nothing() {
    let cfg = tmp();
    let c = cfg.path();
    let unknown_key = mix_file(c, "k.toml", &format!("{SMALL}depth = 3\n"));
    let unknown_top = mix_file(c, "t.toml", &format!("colour = 1\n{SMALL}"));
    let unknown_op = mix_file(c, "o.toml", "[operations]\nstat = 50\nlink = 50\n");
    let not_100 = mix_file(c, "s.toml", "[operations]\nstat = 50\ncreate = 40\n");
    let d = tmp();
    let p = d.path();
    let out = p.join("out");
    let cases = [
        ("--frobnicate".to_string(), "--frobnicate"),
        (format!("--mix {unknown_key}"), "unknown field `depth`"),
        (format!("--mix {unknown_top}"), "unknown field `colour`"),
        (format!("--mix {unknown_op}"), "unknown operation \"link\""),
        (format!("--mix {not_100}"), "add up to 90, not 100"),
        (
            "--mix /nonexistent.toml".to_string(),
            "--mix /nonexistent.toml",
        ),
        ("--ramp 10:5".to_string(), "START:STEP:MAX"),
        ("--ramp 10:0:20".to_string(), "STEP 0"),
        ("--latency-limit 10".to_string(), "no unit"),
        ("--latency-limit q9=1ms".to_string(), "percentile"),
        ("--arrivals bursty".to_string(), "fixed or poisson"),
        ("-a MMAP".to_string(), "MMAP"),
        ("--step-seconds 0".to_string(), "--step-seconds 0"),
        ("operand".to_string(), "takes no operands"),
    ];
    for (args, msg) in &cases {
        let r = iogauge(&format!("--no-store mix --dir {} {args}", out.display())).code(2);
        assert!(
            r.stderr.starts_with("iogauge mix: "),
            "{args}: {}",
            r.stderr
        );
        assert!(r.stderr.contains(msg), "{args}: {}", r.stderr);
        assert_eq!(r.stderr.lines().count(), 1, "{args}: {}", r.stderr);
        assert!(tree(p).is_empty(), "{args}: {:?}", tree(p));
    }
    let r = iogauge("--no-store mix --ramp 1:1:2").code(2);
    assert!(r.stderr.contains("--dir DIR is required"), "{}", r.stderr);
    // A tree an earlier run left: refused, nothing touched.
    std::fs::create_dir_all(p.join("r1")).unwrap();
    let dir = p.display().to_string();
    let r = iogauge_args(&["--no-store", "mix", "--tasks", "2", "--dir", &dir]).code(2);
    assert!(r.stderr.contains("r1 already exists"), "{}", r.stderr);
    assert_eq!(tree(p), ["r1"]);
}

#[test]
fn dry_run_prints_the_plan_and_creates_nothing() {
    let d = tmp();
    let out = d.path().join("out");
    let r = iogauge(&format!(
        "--no-store mix --tasks 3 --dir {} --ramp 100:50:300 --step-seconds 2 --dry-run",
        out.display()
    ))
    .ok();
    assert!(r.stdout.contains("build-like"), "{}", r.stdout);
    assert!(r.stdout.contains("3000 files in all"), "{}", r.stdout);
    assert!(
        r.stdout.contains("in 5 steps of 2 s (at most 10 s)"),
        "{}",
        r.stdout
    );
    assert!(r.stdout.contains("nothing was created"), "{}", r.stdout);
    assert!(!out.exists());
}
