//! Deletion safety: every workload removes only what it created, by name, and a user's file
//! inside its target directory survives the run; `/`, `$HOME` and a mount point's root are
//! refused as the place for a tree unless `--allow-root-target` is given.

use std::path::{Path, PathBuf};

use crate::common::{iogauge, iogauge_args, listing, tmp, tree};

/// `dir` made with a user's file (and a user's subdirectory with a file) in it.
fn with_user_files(dir: &Path) -> PathBuf {
    std::fs::create_dir_all(dir.join("mine")).unwrap();
    std::fs::write(dir.join("user.txt"), "mine").unwrap();
    std::fs::write(dir.join("mine/notes"), "mine too").unwrap();
    dir.to_path_buf()
}

#[track_caller]
fn assert_user_files_only(dir: &Path) {
    assert_eq!(
        tree(dir),
        ["mine", "mine/notes", "user.txt"],
        "in {}",
        dir.display()
    );
    assert_eq!(
        std::fs::read_to_string(dir.join("user.txt")).unwrap(),
        "mine"
    );
}

#[test]
fn ior_in_a_non_empty_directory_removes_only_its_files() {
    let d = tmp();
    let t = with_user_files(&d.path().join("t"));
    for extra in ["-F", "", "-F -u"] {
        iogauge(&format!(
            "--no-store ior -w -r -C --tasks 2 -t 64k -b 1m {extra} -o {}/f",
            t.display()
        ))
        .ok();
        assert_user_files_only(&t);
    }
}

#[test]
fn mdtest_in_a_non_empty_directory_removes_only_its_tree() {
    let d = tmp();
    let t = with_user_files(&d.path().join("t"));
    for extra in ["-F", "-u -L -z 2 -b 2", "-w 100 -e 100"] {
        iogauge(&format!(
            "--no-store mdtest -n 20 {extra} --tasks 2 -d {}",
            t.display()
        ))
        .ok();
        assert_user_files_only(&t);
    }
}

#[test]
fn md_workbench_in_a_non_empty_directory_removes_only_its_sets() {
    let d = tmp();
    let t = with_user_files(&d.path().join("t"));
    iogauge(&format!(
        "--no-store md-workbench --tasks 2 -I 5 -P 5 -D 2 -o {} --run-info-file {}/st",
        t.display(),
        d.path().display()
    ))
    .ok();
    assert_user_files_only(&t);
}

#[test]
fn startup_and_mix_in_a_non_empty_directory_remove_only_what_they_made() {
    let d = tmp();
    let t = with_user_files(&d.path().join("t"));
    iogauge(&format!(
        "--no-store startup --tasks 2 --files 50 --common-size 1m --dir {}",
        t.display()
    ))
    .ok();
    assert_user_files_only(&t);
    iogauge(&format!(
        "--no-store mix --tasks 2 --ramp 200:200:200 --step-seconds 0.5 --dir {}",
        t.display()
    ))
    .ok();
    assert_user_files_only(&t);
}

#[test]
fn io500_in_a_non_empty_data_directory_removes_only_its_data() {
    let d = tmp();
    let data = with_user_files(&d.path().join("data"));
    let ini = crate::io500::small_ini(d.path(), "timestamp-datadir = FALSE\n");
    // The [global] key after the other sections' keys would land in [mdtest-hard]: put it first.
    let text = std::fs::read_to_string(&ini)
        .unwrap()
        .replace("timestamp-datadir = FALSE\n", "")
        .replace("[global]\n", "[global]\ntimestamp-datadir = FALSE\n");
    std::fs::write(&ini, text).unwrap();
    iogauge_args(&["--no-store", "io500", ini.to_str().unwrap(), "--tasks", "2"]).ok();
    assert_user_files_only(&data);
}

#[test]
fn root_home_and_mount_roots_are_refused_before_any_io() {
    let home = std::env::var("HOME").unwrap_or_else(|_| "/".to_string());
    let cases = [
        (
            "mdtest -n 1 -d /".to_string(),
            "-d /: is the root directory",
        ),
        (format!("mdtest -n 1 -d {home}"), ""),
        (
            "mdtest -n 1 -d /proc".to_string(),
            "root of a mounted file system",
        ),
        (format!("md-workbench -o {home}"), ""),
        (
            "md-workbench -o /".to_string(),
            "-o /: is the root directory",
        ),
        (
            "startup --dir /".to_string(),
            "--dir /: is the root directory",
        ),
        (format!("startup --dir {home}"), ""),
        (
            "mix --dir /proc".to_string(),
            "root of a mounted file system",
        ),
        (format!("mix --dir {home}"), ""),
    ];
    for (line, says) in &cases {
        let r = iogauge(&format!("--no-store {line}")).code(2);
        assert!(r.stderr.contains(says), "{line}: {}", r.stderr);
        assert!(
            r.stderr.contains("--allow-root-target"),
            "{line}: {}",
            r.stderr
        );
        assert_eq!(r.stderr.lines().count(), 1, "{}", r.stderr);
    }
    let d = tmp();
    let ini = d.path().join("root.ini");
    std::fs::write(&ini, "[global]\ndatadir = /\ntimestamp-datadir = FALSE\n").unwrap();
    let r = iogauge_args(&["--no-store", "io500", ini.to_str().unwrap()]).code(2);
    assert!(
        r.stderr.contains("datadir /: is the root directory"),
        "{}",
        r.stderr
    );
    // The option lifts the refusal: the run goes on to its next check (here: an unknown API).
    let r = iogauge("--no-store --allow-root-target mdtest -n 1 -d / -a NOSUCH").code(2);
    assert!(!r.stderr.contains("root directory"), "{}", r.stderr);
    assert!(listing(d.path()).contains(&"root.ini".to_string()));
}

#[test]
fn a_failed_read_keeps_the_files_it_read() {
    let d = tmp();
    let t = with_user_files(&d.path().join("t"));
    let f = t.join("f");
    // A 4 KiB file from an earlier run (-k keeps it), read as if it were 8 KiB: a short read.
    iogauge(&format!(
        "--no-store ior -w -k -t 1k -b 4k -o {}",
        f.display()
    ))
    .ok();
    let run = iogauge(&format!("--no-store ior -r -t 1k -b 8k -o {}", f.display())).code(1);
    assert!(run.stderr.contains("short read"), "{}", run.stderr);
    // The run did not write the file: it stays, as IOR (which aborts) leaves it.
    assert_eq!(std::fs::metadata(&f).unwrap().len(), 4096);
    std::fs::remove_file(&f).unwrap();
    assert_user_files_only(&t);
    // (A failure in a repetition that wrote removes what it wrote: tests/safety/full_fs.rs.)
}
