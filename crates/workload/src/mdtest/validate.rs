//! Cross-option checks of an mdtest plan: mdtest's `md_validate_tests` plus the cases where
//! mdtest misbehaves (`-W` with several test directories creates only the first) or silently
//! ignores an option. Every message names the options and says what would be right.

use super::tree::{Shape, Tree};
use engine::Workload;
use plan::mdtest::MdtestParams;

/// Checks `p` for `tasks` ranks. Ok carries the item layout and warnings (options that have no
/// effect in this run); Err the first hard error, one line.
pub fn validate(p: &MdtestParams, tasks: usize) -> Result<(Shape, Vec<String>), String> {
    let ph = &p.phases;
    if tasks == 0 {
        return Err("--tasks 0: at least one task is needed".into());
    }
    if p.iterations == 0 {
        return Err("-i 0: at least one iteration is needed".into());
    }
    if p.depth > 0 && p.branch == 0 {
        return Err(format!(
            "-b 0 with -z {}: a tree deeper than its root needs a branching factor of at least 1",
            p.depth
        ));
    }
    let shape = Shape::resolve(
        p.items,
        p.items_per_dir,
        Tree::of(p),
        p.leaf_only,
        p.unique_dir,
    )?;
    if p.dirs.is_empty() || p.dirs.iter().any(|d| d.as_os_str().is_empty()) {
        return Err("-d: empty directory name".into());
    }
    if p.dirs.len() > 1 {
        let n = p.dirs.len();
        if !p.unique_dir {
            return Err(format!(
                "-d with {n} directories (a@b) needs -u: a shared tree lives in one directory"
            ));
        }
        if p.nstride > 0 {
            return Err(format!(
                "-d with {n} directories cannot be combined with -N (the shifted task would look \
                 in another directory)"
            ));
        }
        if n > tasks {
            return Err(format!(
                "-d names {n} directories but there are only {tasks} task(s)"
            ));
        }
    }
    if p.stonewall_s > 0.0 && p.branch > 1 {
        return Err(format!(
            "-W with -b {}: the stonewall works with a branching factor of at most 1 (as in \
             mdtest: the create order and the stat order of the items differ otherwise)",
            p.branch
        ));
    }
    if p.stonewall_s > 0.0 && shape.loops > 1 {
        return Err(format!(
            "-W with -n {} and -I {}: the stonewall works in one test directory (mdtest would \
             create only the first of the {}); give -n or -I, not both",
            p.items, p.items_per_dir, shape.loops
        ));
    }
    let reads_files = ph.read && p.files;
    if p.verify_read && !reads_files {
        return Err("-X (--verify-read) needs the file read phase (-E, or no phase flag)".into());
    }
    if p.verify_read && p.read_bytes == 0 {
        return Err("-X (--verify-read) needs -e > 0: bytes to read and check per file".into());
    }
    if ph.create && reads_files && p.read_bytes > p.write_bytes {
        return Err(format!(
            "-e {} is more than -w {}: a run that writes and reads cannot read more bytes than \
             it wrote",
            p.read_bytes, p.write_bytes
        ));
    }
    if p.verify_read && !(ph.create && p.write_bytes > 0) && p.seed.is_none() {
        return Err(
            "-X without writing in the same run needs -G: the data seed the writing run used"
                .into(),
        );
    }
    let info = engine::check(&p.engine, &Workload::Metadata)?;
    if info.caps.object.is_some() && p.dirs_too && ph.rename {
        return Err(format!(
            "-a {}: objects are not renamed, so the directory rename phase (-U, one of the \
             default phases when directories are tested) cannot run: give -F (files only), or \
             the phases without -U (-C -T -E -r)",
            info.name
        ));
    }
    Ok((shape, warnings(p)))
}

/// Options that are valid but have no effect in this run.
fn warnings(p: &MdtestParams) -> Vec<String> {
    let ph = &p.phases;
    let mut w = Vec::new();
    let creates_files = ph.create && p.files;
    if p.stonewall_s > 0.0 && !creates_files {
        w.push(
            "-W: the stonewall applies to the file create phase, which this run does not have"
                .into(),
        );
    }
    if p.status_file.is_some() && ph.create && p.stonewall_s == 0.0 {
        w.push("-x: a create run writes the status file only with -W (as mdtest)".into());
    }
    if p.sync_file && (p.write_bytes == 0 || !creates_files) {
        w.push("-y: files are fsynced after their write; without -w and a file create phase it has no effect".into());
    }
    if p.time_unique_dir_overhead && !p.unique_dir {
        w.push("-t times the per-task directory set-up of -u; without -u it has no effect".into());
    }
    // The default phase set includes rename; only an explicit -U (a narrower set) is news.
    let all = ph.create && ph.stat && ph.read && ph.remove;
    if ph.rename && !p.dirs_too && !all {
        w.push("-U renames directories; with -F there are none, so it has no effect".into());
    }
    if p.random && !(ph.stat || (ph.read && p.files)) {
        w.push("-R shuffles the stat and read phases, which this run does not have".into());
    }
    if p.write_bytes > 0 && !creates_files {
        w.push(
            "-w: bytes are written by the file create phase, which this run does not have".into(),
        );
    }
    w
}

#[cfg(test)]
mod tests {
    use super::*;
    use engine::{EngineConfig, OptValue};
    use std::path::PathBuf;

    fn delay_create(p: &mut MdtestParams, us: u64) {
        p.engine.set("dummy.delay-create", OptValue::Number(us));
    }

    type Edit = fn(&mut MdtestParams);

    fn with(f: Edit) -> MdtestParams {
        let mut p = MdtestParams {
            items: 100,
            ..MdtestParams::default()
        };
        f(&mut p);
        p
    }

    #[rustfmt::skip]
    const ERRORS: &[(Edit, &str)] = &[
        (|p| p.iterations = 0, "-i 0: "),
        (|p| p.items = 0, "-n 0: "),
        (|p| { p.depth = 2; p.branch = 0 }, "-b 0 with -z 2"),
        (|p| { p.depth = 2; p.branch = 3; p.items = 5 }, "-n 5 is fewer items than the 13"),
        (|p| { p.items_per_dir = 10; p.unique_dir = true }, "-n and -I together with -u"),
        (|p| p.items_per_dir = 30, "-n 100 is not a multiple of -I 30"),
        (|p| p.dirs = vec![PathBuf::from("a"), PathBuf::from("b")], "-d with 2 directories (a@b) needs -u"),
        (|p| { p.dirs = vec!["a".into(), "b".into()]; p.unique_dir = true; p.nstride = 1 }, "-d with 2 directories cannot be combined with -N"),
        (|p| { p.dirs = vec!["a".into(), "b".into(), "c".into()]; p.unique_dir = true }, "-d names 3 directories but there are only 2"),
        (|p| p.dirs = vec![PathBuf::new()], "-d: empty"),
        (|p| { p.stonewall_s = 5.0; p.depth = 1; p.branch = 2 }, "-W with -b 2"),
        (|p| { p.stonewall_s = 5.0; p.items_per_dir = 10 }, "-W with -n 100 and -I 10"),
        (|p| { p.verify_read = true; p.phases.read = false }, "-X (--verify-read) needs the file read phase"),
        (|p| { p.verify_read = true; p.files = false }, "-X (--verify-read) needs the file read phase"),
        (|p| p.verify_read = true, "-X (--verify-read) needs -e > 0"),
        (|p| { p.read_bytes = 10; p.write_bytes = 5 }, "-e 10 is more than -w 5"),
        (|p| { p.verify_read = true; p.read_bytes = 8; p.phases.create = false }, "-X without writing in the same run needs -G"),
        (|p| delay_create(p, 5), "--dummy.* options apply to -a DUMMY, not -a POSIX"),
    ];

    #[rustfmt::skip]
    const VALID: &[(Edit, &[&str])] = &[
        (|_| {}, &[]),
        (|p| { p.items = 0; p.items_per_dir = 100; p.depth = 2; p.branch = 3; p.unique_dir = true }, &[]),
        (|p| { p.stonewall_s = 2.0; p.depth = 3; p.branch = 1; p.leaf_only = true }, &[]),
        (|p| { p.verify_read = true; p.read_bytes = 3901; p.write_bytes = 3901 }, &[]),
        (|p| { p.verify_read = true; p.read_bytes = 8; p.phases.create = false; p.seed = Some(7) }, &[]),
        (|p| { p.dirs = vec!["a".into(), "b".into()]; p.unique_dir = true }, &[]),
        (|p| { p.engine = EngineConfig::new("DUMMY"); delay_create(p, 10) }, &[]),
        (|p| { p.stonewall_s = 2.0; p.files = false }, &["-W: "]),
        (|p| { p.status_file = Some("sw".into()) }, &["-x: "]),
        (|p| { p.sync_file = true; p.time_unique_dir_overhead = true }, &["-y: ", "-t "]),
        (|p| { p.files = true; p.dirs_too = false }, &[]),
        (|p| { p.dirs_too = false; p.phases = Default::default(); p.phases.rename = true }, &["-U "]),
        (|p| { p.phases = Default::default(); p.phases.remove = true; p.random = true; p.write_bytes = 5 }, &["-R ", "-w: "]),
    ];

    #[test]
    fn errors_name_the_options() {
        for (i, (f, start)) in ERRORS.iter().enumerate() {
            let e = validate(&with(*f), 2).expect_err(start);
            assert!(
                e.starts_with(start),
                "case {i}: got {e:?}, want {start:?}..."
            );
        }
    }

    #[test]
    fn valid_plans_and_their_warnings() {
        for (i, (f, want)) in VALID.iter().enumerate() {
            let (_, w) = validate(&with(*f), 2).unwrap_or_else(|e| panic!("case {i}: {e}"));
            assert_eq!(w.len(), want.len(), "case {i}: {w:?}");
            for (got, start) in w.iter().zip(want.iter()) {
                assert!(
                    got.starts_with(start),
                    "case {i}: got {got:?}, want {start:?}..."
                );
            }
        }
    }

    #[test]
    fn shape_comes_back() {
        let (s, _) = validate(
            &with(|p| {
                p.depth = 2;
                p.branch = 2;
                p.items = 12
            }),
            2,
        )
        .unwrap();
        assert_eq!((s.num_dirs, s.items_per_dir), (7, 1));
        assert!(validate(&with(|_| {}), 0)
            .unwrap_err()
            .starts_with("--tasks 0"));
    }
}
