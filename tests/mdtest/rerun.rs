//! A create run over the tree an earlier run left (`-C` twice without `-r`): mdtest goes on,
//! warns about the directories it could not make, reopens the files, and a later `-r` removes
//! the tree. Whatever else is in it stays, with a warning; what no run leaves is refused.

use std::path::Path;

use crate::common::{iogauge, listing, shm, tree};

/// `mdtest <args> -d <dir>/md`.
fn md(dir: &Path, args: &str) -> String {
    format!("mdtest {args} -d {}/md", dir.display())
}

/// A temporary directory where `mdtest <args> -C` ran once; the command line of that run.
fn earlier_run(args: &str) -> (tempfile::TempDir, String) {
    let d = shm();
    let create = md(d.path(), &format!("{args} -C"));
    iogauge(&create).ok();
    (d, create)
}

/// The `WARNING:` lines of an output.
fn warnings(stdout: &str) -> Vec<&str> {
    stdout
        .lines()
        .filter(|l| l.starts_with("WARNING: "))
        .collect()
}

/// The SUMMARY rate of a row (the Max column).
fn rate(stdout: &str, row: &str) -> f64 {
    let line = stdout
        .lines()
        .find(|l| l.trim_start().starts_with(row))
        .unwrap_or_else(|| panic!("no {row} row in\n{stdout}"));
    line[3 + row.len()..]
        .split_whitespace()
        .next()
        .unwrap()
        .parse()
        .unwrap()
}

#[test]
fn files_twice_then_stat_read_remove() {
    let (d, create) = earlier_run("--tasks 2 -n 20 -F -u");
    let first = tree(&d.path().join("md"));
    assert_eq!(first.len(), 1 + 2 + 40, "{first:?}");

    let r = iogauge(&create).ok();
    let test_dir = d.path().join("md/test-dir.0-0");
    let w = warnings(&r.stdout);
    assert_eq!(w.len(), 2, "one line per kind, not per item: {w:?}");
    assert!(
        w[0].starts_with(&format!(
            "WARNING: test directory {} already exists (left by an earlier run?); 1 test \
             directory in all: ",
            test_dir.display()
        )),
        "{}",
        w[0]
    );
    assert!(
        w[1].starts_with(&format!(
            "WARNING: unable to create tree directory {}/mdtest_tree.0.0: it exists (left by an \
             earlier run?); 2 tree directories in all",
            test_dir.display()
        )),
        "{}",
        w[1]
    );
    // The phases ran and the rates are over the items.
    assert!(rate(&r.stdout, "File creation") > 0.0, "{}", r.stdout);
    assert!(rate(&r.stdout, "Tree creation") > 0.0, "{}", r.stdout);
    // mdtest's warnings are on standard output; standard error holds iogauge's summary and
    // the store's line, last.
    let stored = |l: &str| l.starts_with("stored as run ");
    assert!(!r.stderr.contains("WARNING"), "{}", r.stderr);
    assert!(r.stderr.lines().last().is_some_and(stored), "{}", r.stderr);
    assert_eq!(tree(&d.path().join("md")), first);

    let r = iogauge(&md(d.path(), "--tasks 2 -n 20 -F -u -T -E -r")).ok();
    assert!(warnings(&r.stdout)
        .iter()
        .all(|l| l.contains("Read bytes is 0")));
    assert!(rate(&r.stdout, "File removal") > 0.0);
    assert!(rate(&r.stdout, "Tree removal") > 0.0);
    // The tree is gone; -d stays, as in mdtest, since this run did not make it.
    assert_eq!(listing(&d.path().join("md")), Vec::<String>::new());
}

#[test]
fn directories_twice_then_stat_remove() {
    let (d, create) = earlier_run("--tasks 2 -n 20 -u");
    let first = tree(&d.path().join("md"));
    assert_eq!(first.len(), 1 + 2 + 40 + 40, "{first:?}");

    let r = iogauge(&create).ok();
    let w = warnings(&r.stdout);
    assert_eq!(w.len(), 3, "{w:?}");
    let item = d
        .path()
        .join("md/test-dir.0-0/mdtest_tree.0.0/dir.mdtest.0.0");
    assert!(
        w[2].starts_with(&format!(
            "WARNING: unable to create directory {}: it exists (left by an earlier run?); 40 \
             directories in all, counted in the Directory creation rate",
            item.display()
        )),
        "{}",
        w[2]
    );
    assert!(rate(&r.stdout, "Directory creation") > 0.0);
    assert!(rate(&r.stdout, "File creation") > 0.0);
    assert_eq!(tree(&d.path().join("md")), first);

    iogauge(&md(d.path(), "--tasks 2 -n 20 -u -T -E -r")).ok();
    assert_eq!(listing(&d.path().join("md")), Vec::<String>::new());
}

#[test]
fn a_users_files_survive_and_their_directories_stay() {
    let (d, create) = earlier_run("--tasks 2 -n 20 -u");
    let test_dir = d.path().join("md/test-dir.0-0");
    let mine = [
        test_dir.join("notes.txt"),
        test_dir.join("mdtest_tree.1.0/keep"),
        test_dir.join("mdtest_tree.0.0/dir.mdtest.0.3/keep"),
    ];
    for (i, f) in mine.iter().enumerate() {
        std::fs::write(f, format!("mine {i}")).unwrap();
    }
    iogauge(&create).ok();
    let r = iogauge(&md(d.path(), "--tasks 2 -n 20 -u -T -E -r")).ok();
    for (i, f) in mine.iter().enumerate() {
        assert_eq!(std::fs::read_to_string(f).unwrap(), format!("mine {i}"));
    }
    // Everything else of the tree is gone: only the directories holding the user's files stay.
    assert_eq!(
        tree(&d.path().join("md")),
        [
            "test-dir.0-0",
            "test-dir.0-0/mdtest_tree.0.0",
            "test-dir.0-0/mdtest_tree.0.0/dir.mdtest.0.3",
            "test-dir.0-0/mdtest_tree.0.0/dir.mdtest.0.3/keep",
            "test-dir.0-0/mdtest_tree.1.0",
            "test-dir.0-0/mdtest_tree.1.0/keep",
            "test-dir.0-0/notes.txt",
        ]
    );
    let w = warnings(&r.stdout);
    let kept = |what: &str, path: &Path, n: &str| {
        let want = format!(
            "WARNING: unable to remove {what} {}: not empty: it holds what this run did not \
             create; {n} in all, left in place",
            path.display()
        );
        assert!(w.contains(&want.as_str()), "{want}\n{w:#?}");
    };
    kept(
        "directory",
        &test_dir.join("mdtest_tree.0.0/dir.mdtest.0.3"),
        "1 directory",
    );
    kept(
        "tree directory",
        &test_dir.join("mdtest_tree.0.0"),
        "2 tree directories",
    );
    kept("test directory", &test_dir, "1 test directory");
}

#[test]
fn rewritten_files_keep_their_length_as_in_mdtest() {
    // mdtest's create has neither O_TRUNC nor O_EXCL: the second run writes over the start.
    let d = shm();
    iogauge(&md(d.path(), "-n 2 -F -C -w 16 -G 1")).ok();
    let f = d
        .path()
        .join("md/test-dir.0-0/mdtest_tree.0/file.mdtest.0.1");
    let before = std::fs::read(&f).unwrap();
    iogauge(&md(d.path(), "-n 2 -F -C -w 8 -G 2")).ok();
    let after = std::fs::read(&f).unwrap();
    assert_eq!(after.len(), 16);
    assert_ne!(after[..8], before[..8]);
    assert_eq!(after[8..], before[8..]);
}

#[test]
fn the_stonewall_status_file_is_rewritten_and_used() {
    let d = shm();
    let sw = d.path().join("sw");
    let create = md(
        d.path(),
        &format!("--tasks 2 -n 20 -F -u -C -W 30 -x {}", sw.display()),
    );
    iogauge(&create).ok();
    std::fs::write(&sw, "5").unwrap();
    // mdtest writes the count of this create, whether or not the wall was hit.
    iogauge(&create).ok();
    assert_eq!(std::fs::read_to_string(&sw).unwrap(), "20");
    iogauge(&md(
        d.path(),
        &format!("--tasks 2 -n 20 -F -u -r -x {}", sw.display()),
    ))
    .ok();
    assert_eq!(listing(&d.path().join("md")), Vec::<String>::new());
}

#[test]
fn a_test_directory_name_that_is_not_a_directory_is_refused() {
    let d = shm();
    let elsewhere = shm();
    let md_dir = d.path().join("md");
    std::fs::create_dir(&md_dir).unwrap();
    let t = md_dir.join("test-dir.0-0");
    type Make<'a> = &'a dyn Fn();
    let cases: [(&str, Make); 2] = [
        ("a regular file", &|| std::fs::write(&t, b"mine").unwrap()),
        ("a symbolic link", &|| {
            std::os::unix::fs::symlink(elsewhere.path(), &t).unwrap()
        }),
    ];
    for (kind, make) in cases {
        make();
        for phase in ["-C", "-T", "-r"] {
            let r = iogauge(&md(d.path(), &format!("--tasks 2 -n 20 -F -u {phase}"))).code(2);
            let want = format!(
                "iogauge mdtest: {} exists and is {kind}, not a directory",
                t.display()
            );
            assert!(r.stderr.starts_with(&want), "{phase}: {}", r.stderr);
            assert!(r.stdout.is_empty(), "{}", r.stdout);
            assert_eq!(listing(&md_dir), ["test-dir.0-0"]);
        }
        std::fs::remove_file(&t).unwrap();
    }
    assert_eq!(listing(elsewhere.path()), Vec::<String>::new());
}

#[test]
fn nothing_is_made_or_written_through_a_symlink_in_the_tree() {
    let (d, create) = earlier_run("--tasks 1 -n 4 -F -w 8");
    let elsewhere = shm();
    let root = d.path().join("md/test-dir.0-0/mdtest_tree.0");
    // A symlink at a file item's name: the create stops there, the target is untouched.
    let target = elsewhere.path().join("target");
    std::fs::write(&target, b"mine").unwrap();
    let item = root.join("file.mdtest.0.2");
    std::fs::remove_file(&item).unwrap();
    std::os::unix::fs::symlink(&target, &item).unwrap();
    let r = iogauge(&create).code(1);
    assert!(
        r.stderr.contains("does not write through it"),
        "{}",
        r.stderr
    );
    assert_eq!(std::fs::read(&target).unwrap(), b"mine");
    // A symlink at a tree directory's name: nothing is created through it.
    std::fs::remove_file(&item).unwrap();
    for f in listing(&root) {
        std::fs::remove_file(root.join(f)).unwrap();
    }
    std::fs::remove_dir(&root).unwrap();
    std::os::unix::fs::symlink(elsewhere.path(), &root).unwrap();
    let r = iogauge(&create).code(1);
    assert!(
        r.stderr.contains("exists and is not a directory"),
        "{}",
        r.stderr
    );
    assert_eq!(listing(elsewhere.path()), ["target"]);
}
