//! The files and directories left by `-C` match mdtest's names, and cleanup removes exactly
//! what the run made.

use crate::common::{iogauge, listing, shm, tree};

fn create(args: &str) -> (tempfile::TempDir, Vec<String>) {
    let d = shm();
    iogauge(&format!("mdtest {args} -C -d {}/md", d.path().display())).ok();
    let t = tree(&d.path().join("md"));
    (d, t)
}

#[test]
fn unique_trees_with_the_neighbour_shift() {
    // mdtest -n 2 -C -u -F -N 1 on 3 tasks: task r's files live in task r+1's tree.
    let (_d, t) = create("--tasks 3 -n 2 -u -F -N 1");
    let want = [
        "test-dir.0-0",
        "test-dir.0-0/mdtest_tree.0.0",
        "test-dir.0-0/mdtest_tree.0.0/file.mdtest.2.0",
        "test-dir.0-0/mdtest_tree.0.0/file.mdtest.2.1",
        "test-dir.0-0/mdtest_tree.1.0",
        "test-dir.0-0/mdtest_tree.1.0/file.mdtest.0.0",
        "test-dir.0-0/mdtest_tree.1.0/file.mdtest.0.1",
        "test-dir.0-0/mdtest_tree.2.0",
        "test-dir.0-0/mdtest_tree.2.0/file.mdtest.1.0",
        "test-dir.0-0/mdtest_tree.2.0/file.mdtest.1.1",
    ];
    assert_eq!(t, want);
}

#[test]
fn shared_tree_numbering() {
    // mdtest -n 4 -C -z 1 -b 2 on 2 tasks: 4 items over 3 directories round down to 1 per
    // directory, item k in directory k.
    let (_d, t) = create("--tasks 2 -n 4 -z 1 -b 2 -F");
    let want = [
        "test-dir.0-0",
        "test-dir.0-0/mdtest_tree.0",
        "test-dir.0-0/mdtest_tree.0/file.mdtest.0.0",
        "test-dir.0-0/mdtest_tree.0/file.mdtest.1.0",
        "test-dir.0-0/mdtest_tree.0/mdtest_tree.1",
        "test-dir.0-0/mdtest_tree.0/mdtest_tree.1/file.mdtest.0.1",
        "test-dir.0-0/mdtest_tree.0/mdtest_tree.1/file.mdtest.1.1",
        "test-dir.0-0/mdtest_tree.0/mdtest_tree.2",
        "test-dir.0-0/mdtest_tree.0/mdtest_tree.2/file.mdtest.0.2",
        "test-dir.0-0/mdtest_tree.0/mdtest_tree.2/file.mdtest.1.2",
    ];
    assert_eq!(t, want);
}

#[test]
fn leaves_only_and_directory_loops() {
    // -I 1 -z 2 -b 2 -L: items 3..6 in the leaves 3..6.
    let (_d, t) = create("--tasks 1 -I 1 -z 2 -b 2 -L -D");
    let leaves: Vec<&String> = t.iter().filter(|p| p.contains("dir.mdtest")).collect();
    assert_eq!(
        leaves,
        [
            "test-dir.0-0/mdtest_tree.0/mdtest_tree.1/mdtest_tree.3/dir.mdtest.0.3",
            "test-dir.0-0/mdtest_tree.0/mdtest_tree.1/mdtest_tree.4/dir.mdtest.0.4",
            "test-dir.0-0/mdtest_tree.0/mdtest_tree.2/mdtest_tree.5/dir.mdtest.0.5",
            "test-dir.0-0/mdtest_tree.0/mdtest_tree.2/mdtest_tree.6/dir.mdtest.0.6",
        ]
    );
    // -n 4 -I 2: two test directories with items 0 and 1 each.
    let (_d, t) = create("--tasks 1 -n 4 -I 2 -F");
    assert_eq!(
        t,
        [
            "test-dir.0-0",
            "test-dir.0-0/mdtest_tree.0",
            "test-dir.0-0/mdtest_tree.0/file.mdtest.0.0",
            "test-dir.0-0/mdtest_tree.0/file.mdtest.0.1",
            "test-dir.0-1",
            "test-dir.0-1/mdtest_tree.0",
            "test-dir.0-1/mdtest_tree.0/file.mdtest.0.0",
            "test-dir.0-1/mdtest_tree.0/file.mdtest.0.1",
        ]
    );
}

#[test]
fn shifted_unique_subtrees_use_the_owners_names() {
    // With -u -N 1 -z 1 mdtest looks for mdtest_tree.0.1 inside mdtest_tree.1.0 and fails;
    // iogauge puts task 0's items into task 1's subdirectory mdtest_tree.1.1.
    let (_d, t) = create("--tasks 2 -n 4 -u -F -N 1 -z 1 -b 1");
    assert!(
        t.contains(&"test-dir.0-0/mdtest_tree.1.0/mdtest_tree.1.1/file.mdtest.0.3".to_string()),
        "{t:#?}"
    );
    assert!(t.contains(&"test-dir.0-0/mdtest_tree.1.0/file.mdtest.0.0".to_string()));
}

#[test]
fn rename_rotation_restores_every_name() {
    let (_d, t) = create("--tasks 2 -n 5 -D -U");
    let dirs: Vec<&String> = t.iter().filter(|p| p.contains("dir.mdtest")).collect();
    assert_eq!(dirs.len(), 10, "{t:#?}");
    assert!(!t.iter().any(|p| p.ends_with("-XX")));
}

#[test]
fn split_phases_and_cleanup() {
    let d = shm();
    let md = d.path().join("md");
    let base = format!("mdtest --tasks 2 -n 20 -u -d {}", md.display());
    iogauge(&format!("{base} -C")).ok();
    assert_eq!(listing(&md), ["test-dir.0-0"]);
    iogauge(&format!("{base} -T -E")).ok();
    iogauge(&format!("{base} -r")).ok();
    // The -d directory was made by the -C run, not by this one: it stays, empty.
    assert!(md.is_dir() && listing(&md).is_empty());
    // A run with every phase that made -d removes it again...
    std::fs::remove_dir(&md).unwrap();
    iogauge(&base).ok();
    assert!(!md.exists());
    // ...but leaves a -d that was there before, and what else it holds.
    std::fs::create_dir(&md).unwrap();
    std::fs::write(md.join("keep"), b"x").unwrap();
    iogauge(&base).ok();
    assert_eq!(listing(&md), ["keep"]);
}
