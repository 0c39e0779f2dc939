//! The IO500 .ini through the command: the parser's rules, API precedence, bad input.

use super::small_ini;
use crate::common::{iogauge_args, listing, tmp};

fn dry(ini: &std::path::Path, extra: &[&str]) -> String {
    let mut args = vec![
        "io500",
        ini.to_str().unwrap(),
        "--dry-run",
        "--tasks",
        "2",
        "--timestamp",
        "TS",
    ];
    args.extend_from_slice(extra);
    iogauge_args(&args).ok().stdout
}

fn exe<'a>(out: &'a str, phase: &str) -> &'a str {
    let at = out
        .find(&format!("[{phase}]\n"))
        .unwrap_or_else(|| panic!("{phase}:\n{out}"));
    let line = out[at..].lines().find(|l| l.starts_with("exe ")).unwrap();
    &line[18..]
}

#[test]
fn case_comments_and_empty_values() {
    let d = tmp();
    let ini = d.path().join("c.ini");
    std::fs::write(
        &ini,
        "# a comment\n; another\n[GLOBAL]\nDataDir = /data/x   # trailing comment\nAPI =\n\
         Timestamp-DataDir = false\n[Ior-Easy]\ntransfersize = 4m ; size\nblockSize =\n",
    )
    .unwrap();
    let out = dry(&ini, &[]);
    let easy = exe(&out, "ior-easy-write");
    assert!(
        easy.contains(" -o /data/x/ior-easy/ior_file_easy "),
        "{easy}"
    );
    // Empty values keep the defaults: api POSIX, blockSize 9920000m.
    assert!(
        easy.contains(" -t 4m -b 9920000m ") && easy.contains(" -a POSIX "),
        "{easy}"
    );
    assert_eq!(listing(d.path()), ["c.ini"], "a dry run writes nothing");
}

#[test]
fn api_precedence_phase_parent_global() {
    let d = tmp();
    // Sections may appear again (as in the IO500, later lines add to them).
    let ini = small_ini(
        d.path(),
        "\n[global]\napi = POSIX --posix.odirect\n[mdtest-easy]\nAPI = POSIX\n[mdtest-hard]\n\
         API = POSIX\n[ior-hard]\nAPI = MMAP\n[ior-hard-read]\nAPI = POSIX\n",
    );
    let out = dry(&ini, &[]);
    assert!(exe(&out, "ior-easy-write").contains(" -a POSIX --posix.odirect "));
    assert!(exe(&out, "ior-rnd4K-easy-read").contains(" -a POSIX --posix.odirect "));
    assert!(exe(&out, "ior-hard-write").contains(" -a MMAP "));
    assert!(exe(&out, "ior-hard-read").contains(" -a POSIX -O "));
    assert!(exe(&out, "mdtest-easy-write").ends_with(" -a POSIX"));
    assert!(exe(&out, "mdtest-hard-delete").ends_with(" -a POSIX"));
}

#[test]
fn unknown_names_are_fatal_with_the_nearest_name() {
    let d = tmp();
    let ini = d.path().join("bad.ini");
    for (text, needle) in [
        (
            "[ior-easy]\nblocksise = 1m\n",
            "bad.ini:2: unknown key 'blocksise' in [ior-easy]; did you mean 'blockSize'?",
        ),
        (
            "[globl]\n",
            "bad.ini:1: unknown section [globl]; did you mean [global]?",
        ),
        ("[debug]\nstonewall-time = 5s\n", "bad.ini:2:"),
    ] {
        std::fs::write(&ini, text).unwrap();
        let r = iogauge_args(&["io500", ini.to_str().unwrap()]).code(2);
        assert!(r.stderr.contains(needle), "{text}: {}", r.stderr);
        assert_eq!(listing(d.path()), ["bad.ini"], "nothing is created");
    }
}

#[test]
fn options_iogauge_does_not_provide_are_refused_before_any_io() {
    let d = tmp();
    let ini = small_ini(
        d.path(),
        "[ior-hard-write]\nAPI = POSIX --posix.gpfs.finegrainwritesharing\n",
    );
    let r = iogauge_args(&["io500", ini.to_str().unwrap(), "--tasks", "2"]).code(2);
    assert!(
        r.stderr
            .contains("[ior-hard-write] ior: --posix.gpfs.finegrainwritesharing is not supported"),
        "{}",
        r.stderr
    );
    assert!(
        r.stderr.contains("set API = POSIX in [ior-hard-write]"),
        "{}",
        r.stderr
    );
    assert_eq!(listing(d.path()), ["small.ini"]);
    let ini = ini.to_str().unwrap();
    for (args, needle) in [
        (
            vec!["io500", "--quik"],
            "unknown option --quik; did you mean --quick?",
        ),
        (
            vec!["io500", ini, "--timestamp", "a/b"],
            "cannot contain '/'",
        ),
        (vec!["io500", "missing.ini"], "cannot read missing.ini"),
        (vec!["io500"], "no config file given"),
    ] {
        let r = iogauge_args(&args).code(2);
        assert!(r.stderr.contains(needle), "{args:?}: {}", r.stderr);
    }
}

#[test]
fn list_round_trips_and_extended_mode_adds_phases() {
    let d = tmp();
    let list = iogauge_args(&["io500", "--list"]).ok().stdout;
    assert!(list.starts_with("# Supported and current values of the ini file:\n[global]\n# The directory where the IO500 runs\ndatadir = ./datafiles\n"));
    let ini = d.path().join("my.ini");
    std::fs::write(&ini, &list).unwrap();
    let h1 = iogauge_args(&["io500", ini.to_str().unwrap(), "--config-hash"])
        .ok()
        .stdout;
    let h0 = iogauge_args(&["io500", "--config-hash"]).ok().stdout;
    assert!(
        h1.starts_with("config-hash     = ") && h1 == h0,
        "{h1} {h0}"
    );
    let lm = iogauge_args(&["io500", "-lm"]).ok().stdout;
    assert!(!lm.contains("[find-easy]") && lm.contains("[ior-rnd4K-easy-read]"));

    let small = small_ini(d.path(), "");
    let out = dry(&small, &["--mode", "extended"]);
    assert!(out.contains("mode            = extended"));
    assert!(exe(&out, "find-easy").ends_with("/data/TS/mdtest-easy/ -name *01* -C -q 10000"));
    // md-workbench's phases show their commands; mdtest did not run: the assumed rate's
    // counts and the IO500's warning.
    let bench = exe(&out, "mdworkbench-bench");
    assert!(
        bench.starts_with(
            "./md-workbench --dataPacketType=timestamp --process-reports -a POSIX -o="
        ),
        "{bench}"
    );
    assert!(
        bench.contains(" -O=1 --run-info-file=") && bench.contains(" -D=10 -G="),
        "{bench}"
    );
    assert!(bench.ends_with(" -2 -R=2 -X"), "{bench}");
    assert!(out.contains("; iogauge md-workbench --tasks 2 --dataPacketType=timestamp "));
    assert!(
        out.contains("; WARNING MDWorkbench uses the MDTest rates"),
        "{out}"
    );
    assert!(out.contains("[SCOREX] Bandwidth 0.000000 GiB/s"));
}
