//! The store as a user meets it: every benchmark command stores its run (the closing line says
//! where), global options anywhere on the line, and `runs`, `show`, `compare`, `report`,
//! `scaling` and `import` on a store of its own.

use std::path::{Path, PathBuf};

use crate::common::{iogauge_args, stored_id, tmp, with_db};

/// A short DUMMY-engine IOR run whose transfers each sleep `delay_us`.
fn dummy_ior(db: &Path, dir: &Path, delay_us: u32, extra: &str) -> i64 {
    let line = format!(
        "ior -a DUMMY --dummy.delay-xfer={delay_us} -N 2 -t 1m -b 8m -w -r -o {}/f {extra}",
        dir.display()
    );
    stored_id(&with_db(db, &line).ok())
}

#[test]
fn runs_are_stored_labelled_listed_shown_and_compared() {
    let d = tmp();
    let db = d.path().join("store.sqlite");
    let fast = dummy_ior(&db, d.path(), 0, "--label case=fast --label series=s");
    let slow = dummy_ior(&db, d.path(), 2000, "--label case=slow --label series=s");
    assert_ne!(fast, slow);

    // The list, as a table and as JSON, with the labels; a label filters it.
    let table = with_db(&db, "runs").ok();
    for needle in ["case=fast", "case=slow", "ior"] {
        assert!(table.stdout.contains(needle), "{needle}:\n{}", table.stdout);
    }
    let json: serde_json::Value =
        serde_json::from_str(&with_db(&db, "runs --format json").ok().stdout).unwrap();
    assert_eq!(json.as_array().unwrap().len(), 2, "{json}");
    let only = with_db(&db, "runs --label case=slow --format csv").ok();
    assert_eq!(
        only.stdout.lines().count(),
        2,
        "header and one run:\n{}",
        only.stdout
    );
    assert!(only.stdout.contains("case=slow") && !only.stdout.contains("case=fast"));

    // One run in full.
    let show = with_db(&db, &format!("show {slow}")).ok();
    assert!(
        show.stdout.contains("write") && show.stdout.contains("read"),
        "{}",
        show.stdout
    );

    // The slow run is far slower: a regression for CI, exit 1; the same run against itself
    // passes.
    let cmp = with_db(&db, &format!("compare {fast} {slow} --fail-if-slower 5%")).code(1);
    assert!(cmp.stdout.contains("write"), "{}", cmp.stdout);
    with_db(&db, &format!("compare {fast} {fast} --fail-if-slower 5%")).ok();
    with_db(&db, &format!("compare {fast} {slow} --format csv")).ok();

    // HTML of one run and of the comparison, self-contained.
    for (ids, name) in [
        (format!("{fast}"), "one.html"),
        (format!("{fast} {slow}"), "cmp.html"),
    ] {
        let out = d.path().join(name);
        with_db(&db, &format!("report {ids} -o {}", out.display())).ok();
        let html = std::fs::read_to_string(&out).unwrap();
        assert!(
            html.contains("<html") && !html.contains("src=\"http"),
            "{name}"
        );
    }
}

#[test]
fn bad_ids_paths_and_options_exit_2() {
    let d = tmp();
    let db = d.path().join("s.sqlite");
    let r = with_db(&db, "show 4242").code(2);
    assert!(r.stderr.contains("no run 4242"), "{}", r.stderr);
    with_db(&db, "compare 1").code(2);
    with_db(&db, "compare 1 2 --fail-if-slower lots").code(2);
    // A --db that is a directory: refused before the benchmark touches anything.
    let line = format!("ior -t 4k -b 4k -w -o {}/f", d.path().display());
    let r = with_db(d.path(), &line).code(2);
    assert!(r.stderr.contains("result store"), "{}", r.stderr);
    assert!(!d.path().join("f").exists());
    let r = iogauge_args(&["ior", "-a", "DUMMY", "--label", "no-equals-sign"]).code(2);
    assert!(r.stderr.contains("--label"), "{}", r.stderr);
}

#[test]
fn no_store_and_quiet() {
    let d = tmp();
    let db = d.path().join("s.sqlite");
    let line = format!(
        "ior -a DUMMY -t 1m -b 2m -o {}/f --no-store",
        d.path().display()
    );
    let r = with_db(&db, &line).ok();
    assert!(!r.stderr.contains("stored as run"), "{}", r.stderr);
    assert!(with_db(&db, "runs --format json").ok().stdout.trim() == "[]");
    let line = format!(
        "--quiet ior -a DUMMY -t 1m -b 2m -o {}/f",
        d.path().display()
    );
    let r = with_db(&db, &line).ok();
    assert!(r.stdout.is_empty(), "{}", r.stdout);
    assert_eq!(stored_id(&r), 1);
}

#[test]
fn an_official_io500_result_directory_imports_with_its_score() {
    let d = tmp();
    let db = d.path().join("s.sqlite");
    let dir = d.path().join("2024.11.11-00.01.32");
    std::fs::create_dir(&dir).unwrap();
    let testdata =
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("crates/workload/src/io500/testdata");
    std::fs::copy(testdata.join("sc24-731-result.txt"), dir.join("result.txt")).unwrap();
    std::fs::copy(testdata.join("sc24-731-config.ini"), dir.join("config.ini")).unwrap();
    let r = with_db(
        &db,
        &format!("import {} --label system=sc24-731", dir.display()),
    )
    .ok();
    assert!(r.stdout.contains("as run 1"), "{}", r.stdout);
    assert!(
        !r.stderr.contains("note"),
        "the scores recompute as printed:\n{}",
        r.stderr
    );
    // Importing it again stores nothing new.
    let again = with_db(&db, &format!("import {}", dir.display())).ok();
    assert!(again.stdout.contains("stored already"), "{}", again.stdout);
    let runs = with_db(&db, "runs --workload io500 --format json").ok();
    let list: serde_json::Value = serde_json::from_str(&runs.stdout).unwrap();
    assert_eq!(list.as_array().unwrap().len(), 1);
    assert!(runs.stdout.contains("sc24-731"), "{}", runs.stdout);
    // A missing path stores nothing.
    with_db(&db, "import /nonexistent/result").code(2);
}

#[test]
fn runs_on_more_ranks_get_the_scaling_table() {
    let d = tmp();
    let db = d.path().join("s.sqlite");
    let run = |n: u32| {
        let line = format!(
            "ior -a DUMMY --dummy.delay-xfer=1000 -N {n} -t 1m -b 4m -w -o {}/f --label series=n",
            d.path().display()
        );
        stored_id(&with_db(&db, &line).ok())
    };
    let (one, two) = (run(1), run(2));
    let cmp = with_db(&db, &format!("compare {one} {two}")).ok();
    assert!(cmp.stdout.contains("efficiency"), "{}", cmp.stdout);
    let by_label = with_db(&db, "scaling --label series=n --format csv").ok();
    assert_eq!(
        by_label.stdout.lines().count(),
        3,
        "header and two points:\n{}",
        by_label.stdout
    );
    // Without a label or ids there is nothing to scale.
    with_db(&db, "scaling").code(2);
}

/// How many GFM tables `md` holds: a `|---|` line under a header row of as many cells.
fn gfm_tables(md: &str) -> usize {
    let lines: Vec<&str> = md.lines().collect();
    let cells = |row: &str| {
        row.replace("\\|", "")
            .matches('|')
            .count()
            .saturating_sub(1)
    };
    (1..lines.len())
        .filter(|&i| lines[i].starts_with("|---"))
        .inspect(|&i| {
            let columns = lines[i].matches("---|").count();
            assert_eq!(cells(lines[i - 1]), columns, "{}\n{md}", lines[i - 1]);
        })
        .count()
}

#[test]
fn markdown_tables_for_runs_show_compare_and_scaling() {
    let d = tmp();
    let db = d.path().join("md.sqlite");
    let run = |n: u32| {
        let line = format!(
            "ior -a DUMMY -N {n} -t 1m -b 4m -w -o {}/f --label series=n",
            d.path().display()
        );
        stored_id(&with_db(&db, &line).ok())
    };
    let (one, two) = (run(1), run(2));
    // Tables at least: the list; run, environment, parameters, phases; the runs, the
    // figures and (ranks differ) the scaling table; scaling's one phase.
    for (line, tables) in [
        ("runs --format markdown".to_string(), 1),
        (format!("show {one} --format md"), 4),
        (format!("compare {one} {two} --format markdown"), 3),
        (format!("scaling {one} {two} --format markdown"), 1),
    ] {
        let out = with_db(&db, &line).ok().stdout;
        assert!(gfm_tables(&out) >= tables, "{line}:\n{out}");
        assert!(!out.contains(['│', '┆', '╞']), "{line}:\n{out}");
    }
    let bad = with_db(&db, "runs --format xml").code(2);
    assert!(bad.stderr.contains("markdown"), "{}", bad.stderr);
}

/// A view whose reader goes (`iogauge schema | head -c 10`) ends as `cat` does, by SIGPIPE,
/// with no panic or backtrace on its standard error.
#[test]
fn a_closed_pipe_ends_a_view_quietly() {
    use std::io::Read;
    use std::os::unix::process::ExitStatusExt;
    use std::process::{Command, Stdio};
    let mut child = Command::new(crate::common::bin())
        .arg("schema")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start iogauge schema");
    let mut first = [0u8; 10];
    child.stdout.take().unwrap().read_exact(&mut first).unwrap();
    // The read end is closed now; the schema is larger than a pipe holds.
    let out = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!stderr.contains("panicked"), "{stderr}");
    assert_eq!(out.status.signal(), Some(libc::SIGPIPE), "{:?}", out.status);
}

/// A command that runs nothing refuses a run's options by name instead of ignoring them.
#[test]
fn views_refuse_the_options_of_a_run() {
    let d = tmp();
    let db = d.path().join("s.db");
    let db = db.to_str().unwrap();
    for (args, named) in [
        (vec!["show", "1", "--db", db, "--no-system"], "--no-system"),
        (
            vec!["compare", "1", "2", "--db", db, "--warn", "straggler=2"],
            "--warn",
        ),
        (
            vec!["runs", "--db", db, "--metrics", "127.0.0.1:9464"],
            "--metrics",
        ),
        (vec!["schema", "--drop-caches"], "--drop-caches"),
        (
            vec!["mark", "x", "--opentsdb", "http://h:4242"],
            "--opentsdb",
        ),
    ] {
        let r = iogauge_args(&args).code(2);
        assert!(
            r.stderr.contains(&format!("{named} applies to runs only")),
            "{args:?}: {}",
            r.stderr
        );
    }
}
