//! The option kinds no engine declares yet (size, text, path, secret), on a table of test
//! options: how their text is read, that `check` refuses a value of another kind, and that a
//! secret never shows.

use super::*;
use crate::registry::check_kinds;
use crate::{EngineConfig, EngineInfo, ENGINES};

const fn opt(name: &'static str, kind: OptKind, meta: &'static str) -> EngineOption {
    EngineOption {
        name,
        kind,
        meta,
        help: "a test option",
        ior_keys: &[],
        metadata: true,
        ior: true,
    }
}

/// One of each kind, as `test.<name>`.
#[rustfmt::skip]
const TEST_OPTIONS: &[EngineOption] = &[
    opt("verbose", OptKind::Flag { default: false }, ""),
    opt("retries", OptKind::Number { default: 3 }, "N"),
    opt("part-size", OptKind::Size { default: 8 << 20 }, "BYTES"),
    opt("bucket", OptKind::Text { default: "iogauge" }, "NAME"),
    opt("ca-file", OptKind::Path { default: "" }, "PATH"),
    opt("secret-key", OptKind::Secret { env: Some("IOGAUGE_TEST_NEVER_SET_7f3a") }, ""),
    opt("path-key", OptKind::Secret { env: Some("PATH") }, ""),
];

/// `check`'s lookup over the test table (the row is any engine's: only the option counts).
fn lookup(name: &str) -> Option<(&'static EngineInfo, &'static EngineOption)> {
    let rest = name.strip_prefix("test.")?;
    let o = TEST_OPTIONS.iter().find(|o| o.name == rest)?;
    Some((&ENGINES[0], o))
}

fn option(name: &str) -> &'static EngineOption {
    lookup(&format!("test.{name}")).expect("a test option").1
}

fn secret_file(value: &str) -> tempfile::NamedTempFile {
    let f = tempfile::NamedTempFile::new().unwrap();
    std::fs::write(f.path(), format!("{value}\n")).unwrap();
    f
}

#[test]
fn each_kind_reads_its_text() {
    let parse = |name: &str, text: &str| option(name).parse(&format!("--test.{name}"), text);
    assert_eq!(parse("verbose", "1"), Ok(OptValue::Flag(true)));
    assert_eq!(parse("verbose", "0"), Ok(OptValue::Flag(false)));
    assert_eq!(parse("retries", "4k"), Ok(OptValue::Number(4096)));
    assert_eq!(parse("part-size", "16m"), Ok(OptValue::Number(16 << 20)));
    assert_eq!(parse("part-size", "1GiB"), Ok(OptValue::Number(1 << 30)));
    let e = parse("part-size", "lots").unwrap_err();
    assert!(e.starts_with("--test.part-size: \"lots\""), "{e}");
    assert_eq!(parse("bucket", "b1"), Ok(OptValue::Text("b1".into())));
    assert_eq!(
        parse("bucket", ""),
        Err("--test.bucket needs a value".into())
    );
    assert_eq!(
        parse("ca-file", "/etc/ca.pem"),
        Ok(OptValue::Text("/etc/ca.pem".into()))
    );

    let f = secret_file("s3cr3t");
    let v = parse("secret-key", f.path().to_str().unwrap()).unwrap();
    match &v {
        OptValue::Secret(s) => assert_eq!(s.expose(), Some("s3cr3t")),
        other => panic!("{other:?}"),
    }
    // What was typed where the file belongs (the secret itself) is never echoed.
    let e = parse("secret-key", "typed-the-key-itself").unwrap_err();
    assert!(!e.contains("typed-the-key-itself"), "{e}");
    assert!(
        e.starts_with("--test.secret-key: ") && e.contains("(ENOENT)"),
        "{e}"
    );
    let empty = secret_file("");
    let e = parse("secret-key", empty.path().to_str().unwrap()).unwrap_err();
    assert_eq!(e, "--test.secret-key: the secret's file is empty");
}

#[test]
fn check_refuses_values_of_another_kind() {
    let check = |name: &str, v: OptValue| {
        let mut cfg = EngineConfig::new("POSIX");
        cfg.set(&format!("test.{name}"), v);
        check_kinds(&cfg, lookup)
    };
    let f = secret_file("k");
    let secret = || option("secret-key").parse("--test.secret-key", f.path().to_str().unwrap());
    assert_eq!(check("retries", OptValue::Number(1)), Ok(()));
    assert_eq!(check("part-size", OptValue::Number(1)), Ok(()));
    assert_eq!(check("bucket", OptValue::Text("b".into())), Ok(()));
    assert_eq!(check("ca-file", OptValue::Text("/x".into())), Ok(()));
    assert_eq!(check("secret-key", secret().unwrap()), Ok(()));
    assert_eq!(
        check("part-size", OptValue::Text("1m".into())),
        Err("--test.part-size: expected a size, got 1m".into())
    );
    assert_eq!(
        check("bucket", OptValue::Number(7)),
        Err("--test.bucket: expected text, got 7".into())
    );
    assert_eq!(
        check("ca-file", OptValue::Flag(true)),
        Err("--test.ca-file: expected a path, got true".into())
    );
    assert_eq!(
        check("verbose", OptValue::Number(1)),
        Err("--test.verbose: expected a flag, got 1".into())
    );
    // Text where a secret belongs (a hand-made plan) is refused without being shown.
    let e = check("secret-key", OptValue::Text("plain".into())).unwrap_err();
    assert_eq!(
        e,
        "--test.secret-key: expected a secret (read from a file), got plain"
    );
    // A secret where text belongs is refused and stays hidden.
    let e = check("bucket", secret().unwrap()).unwrap_err();
    assert_eq!(e, "--test.bucket: expected text, got <secret>");
    assert_eq!(
        check("nosuch", OptValue::Flag(true)),
        Err("--test.nosuch: no engine has this option".into())
    );
}

#[test]
fn a_secret_never_shows() {
    let f = secret_file("hunter2");
    let name = "test.secret-key";
    let value = option("secret-key")
        .parse(name, f.path().to_str().unwrap())
        .unwrap();
    let mut cfg = EngineConfig::new("POSIX");
    cfg.set(name, value.clone());
    assert_eq!(value.to_string(), "<secret>");
    let shown = [
        format!("{value}"),
        format!("{value:?}"),
        format!("{cfg:?}"),
        format!("{:?}", cfg.secret_of(name, option("secret-key"))),
        serde_json::to_string(&cfg).unwrap(),
        serde_json::to_string_pretty(&value).unwrap(),
    ];
    for s in &shown {
        assert!(!s.contains("hunter2") && s.contains("<secret>"), "{s}");
    }
    assert_eq!(
        serde_json::to_string(&cfg).unwrap(),
        r#"{"api":"POSIX","options":{"test.secret-key":"<secret>"}}"#
    );
    // Read back from a document: a secret without its value, and text stays text.
    let back: EngineConfig = serde_json::from_str(&serde_json::to_string(&cfg).unwrap()).unwrap();
    assert_eq!(back.options[name], OptValue::Secret(Secret::redacted()));
    assert_eq!(
        back.secret_of(name, option("secret-key")).unwrap().expose(),
        None
    );
    let text: OptValue = serde_json::from_str(r#""a bucket""#).unwrap();
    assert_eq!(text, OptValue::Text("a bucket".into()));
    // The value reaches the engine that asks for it.
    let got = cfg.secret_of(name, option("secret-key")).unwrap();
    assert_eq!(got.expose(), Some("hunter2"));
}

#[test]
fn a_secret_not_given_comes_from_its_environment_variable() {
    let cfg = EngineConfig::new("POSIX");
    assert!(cfg
        .secret_of("test.secret-key", option("secret-key"))
        .is_none());
    // PATH is set wherever cargo runs tests.
    let path = std::env::var("PATH").unwrap();
    let from_env = cfg.secret_of("test.path-key", option("path-key")).unwrap();
    assert_eq!(from_env.expose(), Some(path.as_str()));
    assert_eq!(format!("{from_env:?}"), "<secret>");
}

#[test]
fn help_texts_show_kinds_and_defaults() {
    let shown = |name: &str| {
        let o = option(name);
        (o.takes_value(), o.placeholder(), o.default_text())
    };
    assert_eq!(shown("verbose"), (false, "", None));
    assert_eq!(shown("retries"), (true, "N", Some("3".into())));
    assert_eq!(shown("part-size"), (true, "SIZE", Some("8 MiB".into())));
    assert_eq!(shown("bucket"), (true, "NAME", Some("iogauge".into())));
    assert_eq!(shown("ca-file"), (true, "PATH", None));
    assert_eq!(shown("secret-key"), (true, "FILE", None));
    assert!(option("retries").is_default(&OptValue::Number(3)));
    assert!(!option("bucket").is_default(&OptValue::Text("other".into())));
    assert_eq!(option("secret-key").kind.default_value(), None);
}
