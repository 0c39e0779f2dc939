//! Tests of the IO500 `.ini` parser, value types, getters, API precedence and `runs`.

use super::parse::{classify, Line};
use super::*;

fn parse_err(text: &str) -> ConfigError {
    Config::parse(text).expect_err("should be rejected")
}

#[test]
fn lines_are_classified_like_the_io500_regexes() {
    assert_eq!(classify("[global]"), Line::Section("global"));
    assert_eq!(
        classify("  [ ior-easy ]  # note"),
        Line::Section("ior-easy")
    );
    assert_eq!(
        classify("[debug];x"),
        Line::Garbage,
        "comment needs whitespace"
    );
    assert_eq!(classify("[debug]\r"), Line::Section("debug"));
    assert_eq!(classify("[a b]"), Line::Garbage);
    assert_eq!(classify("key = v"), Line::Key("key", "v"));
    assert_eq!(classify("\tkey=v w \t\r"), Line::Key("key", "v w"));
    assert_eq!(classify("key = v # c"), Line::Key("key", "v"));
    assert_eq!(classify("key = v\t; c"), Line::Key("key", "v"));
    assert_eq!(classify("key = v#c"), Line::Garbage);
    assert_eq!(classify("key =#c"), Line::Garbage);
    assert_eq!(classify("key = #c"), Line::Key("key", ""));
    assert_eq!(classify("key ="), Line::Key("key", ""));
    assert_eq!(
        classify("posix.odirect = 1"),
        Line::Key("posix.odirect", "1")
    );
    assert_eq!(classify("a key = v"), Line::Garbage);
    for blank in ["", "   ", "\r", "# x", "  ; y = z", "#"] {
        assert_eq!(classify(blank), Line::Blank, "{blank:?}");
    }
    assert_eq!(classify("hello"), Line::Garbage);
}

#[test]
fn names_are_case_insensitive_and_hashed_as_spelled_in_the_schema() {
    let c = Config::parse("[GLOBAL]\nDataDir = /d\n[Ior-Easy]\ntransfersize = 4m\napi = MPIIO\n")
        .unwrap();
    assert_eq!(c.get("global", "datadir"), Some("/d"));
    assert_eq!(c.get("IOR-EASY", "TRANSFERSIZE"), Some("4m"));
    assert_eq!(c.get("ior-easy", "API"), Some("MPIIO"));
    let mut d = Config::defaults();
    d.set("global", "datadir", "/d").unwrap();
    d.set("ior-easy", "transferSize", "4m").unwrap();
    d.set("ior-easy", "API", "MPIIO").unwrap();
    assert_eq!(c.hash(), d.hash());
}

#[test]
fn comments_blank_lines_cr_and_trailing_space() {
    let text = "# head\r\n; other\r\n\r\n[global] ; c\r\ndatadir = /data \t\r\n\
                api = POSIX --posix.odirect # inline\r\n  # indented\r\n";
    let c = Config::parse(text).unwrap();
    assert_eq!(c.get("global", "datadir"), Some("/data"));
    assert_eq!(c.get("global", "api"), Some("POSIX --posix.odirect"));
    assert_eq!(c.raw_text(), text);
    assert_eq!(Config::defaults().raw_text(), "");
}

#[test]
fn an_empty_value_keeps_the_default_before_any_other_check() {
    // IO500 skips `key =` lines first: even an unknown key or one outside a section.
    let c = Config::parse("stray =\n[global]\napi = \nnosuch =   # c\n[find]\nnproc =\n").unwrap();
    assert_eq!(c.get("global", "api"), Some("POSIX"));
    assert_eq!(c.get("find", "nproc"), None);
    assert_eq!(c.get("find", "external-mpi-args"), Some(""));
    assert_eq!(
        c,
        Config {
            raw: c.raw_text().into(),
            ..Config::defaults()
        }
    );
}

#[test]
fn errors_name_the_line_and_suggest_the_nearest_name() {
    let e = parse_err("[ior-easy]\ntranferSize = 2m\n");
    assert_eq!(e.line, Some(2));
    assert_eq!(
        e.to_string(),
        "config.ini:2: unknown key 'tranferSize' in [ior-easy]; did you mean 'transferSize'?"
    );
    assert_eq!(
        e.in_file("my.ini"),
        e.to_string().replace("config.ini", "my.ini")
    );

    let e = parse_err("[global]\n\n[ior-eazy]\n");
    assert_eq!(
        (e.line, e.message.as_str()),
        (
            Some(3),
            "unknown section [ior-eazy]; did you mean [ior-easy]?"
        )
    );
    let e = parse_err("[ior-rnd4K]\n");
    assert!(e.message.contains("removed"), "{e}");
    let e = parse_err("[ior-easy]\nsegmentCount = 5\n");
    assert!(e.message.ends_with("it belongs in [ior-hard]"), "{e}");
    let e = parse_err("[ior-easy]\nhintsFileName = h\n");
    assert!(e.message.contains("--mpiio.hintsFileName"), "{e}");
    let e = parse_err("[timestamp]\nrun = TRUE\n");
    assert!(e.message.ends_with("[timestamp] has no keys"), "{e}");
    let e = parse_err("[global]\nrun = TRUE\n");
    assert!(e.message.ends_with("and 20 more sections"), "{e}");
    let e = parse_err("# c\ndatadir = /x\n");
    assert_eq!(e.line, Some(2));
    assert_eq!(
        e.message,
        "key 'datadir' is outside any section; put it under [global]"
    );
    let e = parse_err("[global]\ndatadir = /a#b\n");
    assert_eq!(e.line, Some(2));
    assert!(e.message.contains("needs whitespace before it"), "{e}");
    let e = parse_err("[global]\n\nthis is not ini\n");
    assert_eq!(e.line, Some(3));
    assert!(
        e.message
            .starts_with("unexpected content \"this is not ini\""),
        "{e}"
    );
}

#[test]
fn type_rules_follow_io500() {
    let ok = |s: &str, k: &str, v: &str| {
        let mut c = Config::defaults();
        c.set(s, k, v).map(|_| c.get(s, k).unwrap().to_string())
    };
    // INT ^-?[0-9]+$
    assert_eq!(ok("ior-hard", "segmentCount", "-5").unwrap(), "-5");
    assert_eq!(ok("debug", "stonewall-time", "007").unwrap(), "007");
    for bad in ["1e6", "10k", "+5", "-", "1 2"] {
        assert!(ok("ior-hard", "segmentCount", bad).is_err(), "{bad}");
    }
    // UINT ^[0-9]+$
    assert!(ok("mdtest-easy", "n", "-1").is_err());
    assert!(ok("find", "nproc", "4k").is_err());
    assert_eq!(ok("global", "verbosity", "3").unwrap(), "3");
    // FLOAT ^[0-9e.+-]+$ (as loose as IO500's)
    assert_eq!(
        ok("mdworkbench", "waitingTime", "1.5e-3").unwrap(),
        "1.5e-3"
    );
    assert!(ok("mdworkbench", "waitingTime", "0.5s").is_err());
    // BOOL true/false any case, 1/0; normalised
    for (v, want) in [
        ("true", "TRUE"),
        ("FALSE", "FALSE"),
        ("1", "TRUE"),
        ("0", "FALSE"),
        ("True", "TRUE"),
    ] {
        assert_eq!(ok("ior-easy", "uniqueDir", v).unwrap(), want);
    }
    for bad in ["yes", "on", "2", "t"] {
        assert!(ok("ior-easy", "uniqueDir", bad).is_err(), "{bad}");
    }
    // STRING: anything (sizes are checked by their users)
    assert_eq!(ok("ior-easy", "transferSize", "2x").unwrap(), "2x");

    let e = parse_err("[mdtest-hard]\nn = -3\n");
    assert_eq!(
        e.to_string(),
        "config.ini:2: 'n' in [mdtest-hard] expects an integer >= 0 (digits only), got '-3'"
    );
    let c = Config::parse("[global]\ndrop-caches = true\nscc = 0\n").unwrap();
    assert!(c.bool("global", "drop-caches"));
    assert_eq!(c.get("global", "scc"), Some("FALSE"));
    assert!(!c.bool("ior-hard", "collective"), "unset bool is false");
}

#[test]
fn typed_getters_and_sizes() {
    let c = Config::defaults();
    assert_eq!(c.u64("ior-easy", "transferSize"), Some(2 << 20));
    assert_eq!(c.u64("ior-easy", "blockSize"), Some(9_920_000 << 20));
    assert_eq!(c.u64("mdtest-hard", "n"), Some(1_000_000));
    assert_eq!(c.u64("ior-hard", "segmentCount"), Some(10_000_000));
    assert_eq!(c.u64("debug", "stonewall-time"), Some(300));
    assert_eq!(c.u64("find", "nproc"), None);
    assert_eq!(c.f64("mdworkbench", "waitingTime"), Some(0.0));
    assert_eq!(c.i64("global", "verbosity"), Some(1));
    let mut c = c;
    c.set("ior-easy", "transferSize", "2x").unwrap();
    assert_eq!(c.u64("ior-easy", "transferSize"), None);
    assert!(c
        .try_u64("ior-easy", "transferSize")
        .unwrap_err()
        .message
        .contains("'2x' is not a size"));
    assert_eq!(parse_size("1K"), Ok(1024));
    assert_eq!(parse_size("3t"), Ok(3 << 40));
    assert_eq!(parse_size("47008"), Ok(47008));
    assert!(parse_size("16384p").is_err(), "overflow");
    assert!(parse_size("-1").is_err());
    c.reset("ior-easy", "transferSize");
    assert_eq!(c.get("ior-easy", "transferSize"), Some("2m"));
}

#[test]
fn set_validates_like_the_parser() {
    let mut c = Config::defaults();
    assert!(c
        .set("ior-easy", "tranferSize", "1m")
        .unwrap_err()
        .message
        .contains("did you mean 'transferSize'"));
    assert!(c.set("nosuch", "run", "TRUE").is_err());
    assert_eq!(c.set("mdtest-easy", "n", "-1").unwrap_err().line, None);
    c.set("ior-easy", "run", "0").unwrap();
    assert_eq!(c.get("ior-easy", "run"), Some("FALSE"));
    c.set("ior-easy", "run", "").unwrap();
    assert_eq!(
        c.get("ior-easy", "run"),
        Some("FALSE"),
        "empty changes nothing"
    );
}

#[test]
#[should_panic(expected = "no key")]
fn an_unknown_name_in_code_panics() {
    Config::defaults().get("global", "nosuch");
}

#[test]
fn api_precedence_is_phase_then_parent_then_global() {
    let c = Config::parse(
        "[global]\napi = MPIIO\n[ior-easy]\nAPI = POSIX --posix.odirect\n\
         [ior-easy-read]\nAPI = DFS --dfs.pool=p\n[ior-hard-write]\nAPI = POSIX --posix.gpfs.finegrainwritesharing\n",
    )
    .unwrap();
    assert_eq!(c.api_for("ior-easy-write"), "POSIX --posix.odirect");
    assert_eq!(c.api_for("ior-easy-read"), "DFS --dfs.pool=p");
    assert_eq!(c.api_for("ior-rnd4K-easy-read"), "POSIX --posix.odirect");
    assert_eq!(
        c.api_for("ior-hard-write"),
        "POSIX --posix.gpfs.finegrainwritesharing"
    );
    assert_eq!(c.api_for("ior-hard-read"), "MPIIO");
    assert_eq!(c.api_for("mdtest-easy-write"), "MPIIO");
    assert_eq!(c.api_for("mdworkbench-create"), "MPIIO");
    assert_eq!(c.api_for("find"), "MPIIO");
    assert_eq!(Config::defaults().api_for("mdtest-hard-stat"), "POSIX");
}

#[test]
fn split_api_honours_escaped_spaces() {
    assert_eq!(
        split_api("POSIX --posix.odirect"),
        ("POSIX".into(), vec!["--posix.odirect".into()])
    );
    assert_eq!(
        split_api(" MPIIO  --mpiio.hintsFileName=/a\\ b --mpiio.x "),
        (
            "MPIIO".into(),
            vec!["--mpiio.hintsFileName=/a b".to_string(), "--mpiio.x".into()]
        )
    );
    assert_eq!(split_api("POSIX"), ("POSIX".into(), vec![]));
    assert_eq!(split_api(""), (String::new(), vec![]));
    assert_eq!(
        api_prefix_warnings("POSIX --POSIX.odirect --dfs.pool=x"),
        vec!["--dfs.pool=x".to_string()]
    );
}

#[test]
fn runs_needs_the_phase_and_its_parent() {
    let c = Config::parse("[ior-easy]\nrun = FALSE\n[mdtest-hard-read]\nrun = 0\n").unwrap();
    for p in [
        "ior-easy-write",
        "ior-easy-read",
        "ior-rnd4K-easy-read",
        "mdtest-hard-read",
    ] {
        assert!(!c.runs(p), "{p}");
    }
    for p in [
        "ior-hard-write",
        "mdtest-hard-write",
        "mdtest-hard-delete",
        "timestamp",
        "find",
        "find-easy",
    ] {
        assert!(c.runs(p), "{p}");
    }
    let c = Config::parse("[mdworkbench]\nrun = FALSE\n").unwrap();
    assert!(!c.runs("mdworkbench-bench"));
}

#[test]
fn the_table_is_consistent() {
    assert_eq!(SECTIONS.len(), 26, "IO500_PHASES");
    assert_eq!(SECTIONS.first().unwrap().name, "global");
    assert_eq!(SECTIONS.last().unwrap().name, "ior-rnd4K-easy-read");
    let defaults = SECTIONS
        .iter()
        .flat_map(|s| s.keys)
        .filter(|k| k.default.is_some())
        .count();
    assert_eq!(
        defaults, 58,
        "options with a default in IO500 HEAD's tables"
    );
    for (i, s) in SECTIONS.iter().enumerate() {
        assert_eq!(
            super::schema::section_index(s.name),
            Some(i),
            "unique name {}",
            s.name
        );
        if let Some(p) = s.parent {
            let pi = super::schema::section_index(p).expect("parent exists");
            assert!(pi < i && SECTIONS[pi].parent.is_none(), "{}", s.name);
        }
        for k in s.keys {
            if let Some(d) = k.default {
                if !d.is_empty() {
                    assert_eq!(
                        parse::check_value(k.kind, d).as_deref(),
                        Ok(d),
                        "{}.{}",
                        s.name,
                        k.name
                    );
                }
            }
        }
    }
    let optional: Vec<&str> = SECTIONS
        .iter()
        .filter(|s| s.optional)
        .map(|s| s.name)
        .collect();
    assert_eq!(
        optional,
        [
            "mdworkbench",
            "mdworkbench-create",
            "find-easy",
            "find-hard",
            "mdworkbench-bench",
            "mdworkbench-delete"
        ]
    );
}
