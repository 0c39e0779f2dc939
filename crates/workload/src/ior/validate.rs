//! Cross-option checks of an IOR plan: IOR's `ValidateTests` (`ior.c`) plus the cases where
//! IOR misbehaves (`-z -z -w` divides by zero) or would silently ignore an option.
//! Every message names the options involved and says what would be right.

use engine::{IoShape, Workload};
use plan::ior::IorParams;

use crate::ior::object_rules;

/// What the engine's checks see of `p` (`engine::IoShape`).
pub fn io_shape(p: &IorParams) -> IoShape {
    IoShape {
        transfer_size: p.transfer_size,
        block_size: p.block_size,
        fsync_per_write: p.fsync_per_write,
        file_per_proc: p.file_per_proc,
        collective: p.collective,
        random_offset: p.random_offset > 0,
        stonewall: p.deadline_for_stonewalling_s > 0.0,
        wear_out: p.stonewall_wear_out,
    }
}

/// IOR moves data in 8-byte words (`IOR_size_t`).
const WORD: u64 = 8;

/// Checks `p` for a run with `tasks` ranks. Ok carries warnings (options that will have no
/// effect); Err the first hard error, one line, naming the options.
pub fn validate(p: &IorParams, tasks: usize) -> Result<Vec<String>, String> {
    let (t, b, s) = (p.transfer_size, p.block_size, p.segment_count);
    let writes = p.write_file || p.check_write;

    if tasks == 0 {
        return Err("-N 0: at least one task is needed".into());
    }
    if t == 0 {
        return Err("-t 0: the transfer size must be at least 8 bytes".into());
    }
    if b == 0 {
        return Err("-b 0: the block size must be at least 8 bytes".into());
    }
    if s == 0 {
        return Err("-s 0: at least one segment is needed".into());
    }
    if t % WORD != 0 {
        return Err(format!(
            "-t {t} is not a multiple of 8 (data moves in 8-byte words)"
        ));
    }
    if b % WORD != 0 {
        return Err(format!(
            "-b {b} is not a multiple of 8 (data moves in 8-byte words)"
        ));
    }
    if b < t {
        return Err(format!(
            "-b {b} is smaller than -t {t}; a block holds whole transfers"
        ));
    }
    if b % t != 0 {
        return Err(format!("-b {b} is not a multiple of -t {t}"));
    }
    // Offsets and the aggregate size are 64-bit (off_t is signed): a product that does not
    // fit would wrap and the run would write somewhere else than the pattern says.
    let fits = b
        .checked_mul(s)
        .and_then(|x| x.checked_mul(tasks as u64))
        .is_some_and(|x| x <= i64::MAX as u64);
    if !fits {
        return Err(format!(
            "-b {b} x -s {s} x {tasks} task(s) is more bytes than a 64-bit file offset holds \
             (at most 2^63 - 1); choose a smaller -b or -s"
        ));
    }
    if p.repetitions == 0 {
        return Err("-i 0: at least one repetition is needed".into());
    }
    if !(p.write_file || p.read_file || p.check_write || p.check_read) {
        return Err("no phase: give at least one of -w, -r, -W, -R".into());
    }
    if p.random_offset == 1 && b == t {
        return Err(format!(
            "-z with -b {b} equal to -t {t}: -z shuffles transfers within a block, and a block of \
             one transfer has nothing to shuffle; choose -b larger than -t"
        ));
    }
    if p.random_offset >= 2 && writes {
        return Err(
            "-z -z (random blocks with replacement) is for reads; it cannot be combined \
                    with -w or -W (use a single -z to write in shuffled order)"
                .into(),
        );
    }
    if p.random_offset >= 2 && p.check_read && !p.file_per_proc && tasks > 1 {
        return Err(
            "-z -z -R on a shared file cannot be checked: the random blocks were written by other \
             tasks (use -F, or drop -R)"
                .into(),
        );
    }
    if p.reorder_tasks && p.reorder_tasks_random == 1 {
        return Err(
            "-C and -Z both given: choose constant (-C) or random (-Z) task reordering".into(),
        );
    }
    if p.random_offset > 0 && !p.file_per_proc && p.reorder_tasks_random > 0 {
        return Err(
            "-z with -Z on a shared file: choose random offsets or random task \
                    reordering, or use -F"
                .into(),
        );
    }
    if p.random_offset > 0 && !p.file_per_proc && p.reorder_tasks {
        return Err(
            "-z with -C on a shared file: choose random offsets or task reordering, or use -F"
                .into(),
        );
    }
    if p.check_read && !p.write_file && p.time_stamp_signature.is_none() {
        return Err("-R without -w needs -G: the data signature the earlier write run used".into());
    }
    if p.stonewall_status_file.is_some() && !p.keep_file {
        return Err(
            "-O stoneWallingStatusFile needs -k: the status file is for splitting the write \
                    and the read into separate runs"
                .into(),
        );
    }
    if p.stonewall_status_file.is_some() && p.write_file && !p.stonewall_wear_out {
        return Err(
            "-O stoneWallingStatusFile with -w needs -O stoneWallingWearOut=1 (so that every \
                    task writes the stored count)"
                .into(),
        );
    }
    if p.stonewall_wear_out && p.deadline_for_stonewalling_s == 0.0 {
        return Err("-O stoneWallingWearOut=1 needs a stonewall deadline: add -D SECONDS".into());
    }
    // The engine's options and their demands on the sizes (O_DIRECT, msync).
    let info = engine::check(&p.engine, &Workload::Io(io_shape(p)))?;
    if p.collective && !info.caps.collective {
        return Err(format!(
            "-c (collective transfers) is not supported by -a {}: it needs an engine that \
             makes them (-a MPIIO or -a HDF5 in the MPI build, under mpirun or srun); IOR's \
             other back ends ignore -c",
            info.name
        ));
    }
    object_rules::check(p, tasks as u64, &info.caps)?;
    if p.unique_dir && !p.file_per_proc {
        return Err("-u (a directory per task) needs -F (a file per task)".into());
    }
    Ok(warnings(p))
}

/// Options that are valid but will have no effect in this run.
fn warnings(p: &IorParams) -> Vec<String> {
    let mut w = Vec::new();
    let checks = p.check_write || p.check_read;
    if p.fsync && !p.write_file {
        w.push("-e: fsync applies to write phases, and this run has no -w".to_string());
    }
    if p.fsync_per_write && !p.write_file {
        w.push("-Y: fsync applies to write phases, and this run has no -w".to_string());
    }
    if p.keep_file_with_error && !checks {
        w.push(
            "-K keeps files when verification finds errors; without -W or -R it has no effect"
                .to_string(),
        );
    }
    if p.quit_on_error && !checks {
        w.push("-q stops at a verification error; without -W or -R it has no effect".to_string());
    }
    if p.reorder_tasks_random_seed != 0 && p.reorder_tasks_random == 0 {
        w.push("-X seeds -Z; without -Z it has no effect".to_string());
    }
    if p.random_offset_seed.is_some() && p.random_offset == 0 {
        w.push("--random-offset-seed seeds -z; without -z it has no effect".to_string());
    }
    let per_rank = p.transfers_per_rank();
    if p.stonewall_wear_out_iterations > per_rank {
        w.push(format!(
            "-O stoneWallingWearOutIterations={} exceeds the {per_rank} transfers each task has; \
             it has no effect",
            p.stonewall_wear_out_iterations
        ));
    }
    if p.stonewall_wear_out_iterations > 0 && p.stonewall_status_file.is_some() && !p.write_file {
        w.push(
            "-O stoneWallingWearOutIterations is replaced by the count in -O stoneWallingStatusFile"
                .to_string(),
        );
    }
    w
}

#[cfg(test)]
mod tests {
    use super::*;
    use engine::{EngineConfig, OptValue};
    use std::path::PathBuf;

    /// Changes to a plan.
    type Edit = fn(&mut IorParams);

    /// Write and read with IOR's default sizes, plus `f`'s changes.
    fn with(f: Edit) -> IorParams {
        let mut p = IorParams {
            write_file: true,
            read_file: true,
            ..IorParams::default()
        };
        f(&mut p);
        p
    }

    fn status_file(p: &mut IorParams) {
        p.stonewall_status_file = Some(PathBuf::from("/tmp/sw"));
    }

    fn odirect(p: &mut IorParams) {
        direct(p);
        p.transfer_size = 1 << 20;
        p.block_size = 1 << 24;
    }

    fn direct(p: &mut IorParams) {
        p.engine.set("posix.odirect", OptValue::Flag(true));
    }

    fn api(p: &mut IorParams, name: &str) {
        p.engine = EngineConfig {
            api: name.into(),
            ..p.engine.clone()
        };
    }

    fn hard(p: &mut IorParams) {
        p.transfer_size = 47008;
        p.block_size = 47008;
        p.segment_count = 20000;
    }

    /// (changes, how the error starts) for 2 tasks.
    #[rustfmt::skip]
    const ERRORS: &[(Edit, &str)] = &[
        (|p| p.transfer_size = 0, "-t 0: "),
        (|p| p.block_size = 0, "-b 0: "),
        (|p| p.segment_count = 0, "-s 0: "),
        (|p| { p.transfer_size = 1001; p.block_size = 8008 }, "-t 1001 is not a multiple of 8"),
        (|p| { p.transfer_size = 8; p.block_size = 1004 }, "-b 1004 is not a multiple of 8"),
        (|p| { p.transfer_size = 4096; p.block_size = 1000 }, "-b 1000 is smaller than -t 4096"),
        (|p| { p.transfer_size = 4096; p.block_size = 10000 }, "-b 10000 is not a multiple of -t 4096"),
        (|p| { p.transfer_size = 1 << 20; p.block_size = 1 << 54; p.segment_count = 1000 }, "-b 18014398509481984 x -s 1000 x 2 task(s) is more bytes than a 64-bit file offset holds"),
        (|p| p.repetitions = 0, "-i 0: "),
        (|p| { p.write_file = false; p.read_file = false }, "no phase: "),
        (|p| { p.random_offset = 1; p.block_size = 1 << 18 }, "-z with -b 262144 equal to -t 262144"),
        (|p| p.random_offset = 2, "-z -z (random blocks with replacement) is for reads"),
        (|p| { p.random_offset = 2; p.write_file = false; p.check_write = true }, "-z -z"),
        (|p| { p.reorder_tasks = true; p.reorder_tasks_random = 1; p.file_per_proc = true }, "-C and -Z"),
        (|p| { p.random_offset = 1; p.reorder_tasks_random = 1 }, "-z with -Z on a shared file"),
        (|p| { p.random_offset = 1; p.reorder_tasks = true }, "-z with -C on a shared file"),
        (|p| { p.write_file = false; p.read_file = false; p.check_read = true }, "-R without -w needs -G"),
        (status_file, "-O stoneWallingStatusFile needs -k"),
        (|p| { status_file(p); p.keep_file = true }, "-O stoneWallingStatusFile with -w needs -O stoneWallingWearOut=1"),
        (|p| p.stonewall_wear_out = true, "-O stoneWallingWearOut=1 needs a stonewall deadline"),
        (|p| { odirect(p); api(p, "MMAP") }, "--posix.odirect applies to -a POSIX, not -a MMAP"),
        (|p| { hard(p); direct(p) }, "--posix.odirect needs -t and -b multiples of 512"),
        (|p| { hard(p); api(p, "MMAP"); p.fsync_per_write = true }, "-Y with -a MMAP needs -t a multiple"),
        (|p| p.unique_dir = true, "-u (a directory per task) needs -F"),
        (|p| p.engine.set("dummy.delay-xfer", OptValue::Number(5)), "--dummy.* options apply to -a DUMMY, not -a POSIX"),
    ];

    /// Changes that are valid, with the warnings they give (how each starts).
    #[rustfmt::skip]
    const VALID: &[(Edit, &[&str])] = &[
        (|_| {}, &[]),
        (hard, &[]),
        (odirect, &[]),
        (|p| p.random_offset = 1, &[]),
        (|p| { p.random_offset = 2; p.write_file = false; p.block_size = 1 << 18 }, &[]),
        (|p| { p.reorder_tasks = true; p.reorder_tasks_random = 2; p.file_per_proc = true }, &[]),
        (|p| { p.random_offset = 1; p.reorder_tasks = true; p.file_per_proc = true }, &[]),
        (|p| { p.write_file = false; p.check_read = true; p.time_stamp_signature = Some(27) }, &[]),
        (|p| p.check_read = true, &[]),
        (|p| { status_file(p); p.keep_file = true; p.write_file = false }, &[]),
        (|p| { p.stonewall_wear_out = true; p.deadline_for_stonewalling_s = 5.0 }, &[]),
        (|p| { hard(p); api(p, "MMAP") }, &[]),
        (|p| { api(p, "MMAP"); p.fsync_per_write = true }, &[]),
        (|p| { p.unique_dir = true; p.file_per_proc = true }, &[]),
        (|p| p.multi_file = true, &[]),
        (|p| { api(p, "DUMMY"); p.engine.set("dummy.delay-only-rank0", OptValue::Flag(true)) }, &[]),
        (|p| { p.write_file = false; p.fsync = true; p.fsync_per_write = true }, &["-e: ", "-Y: "]),
        (|p| { p.keep_file_with_error = true; p.quit_on_error = true }, &["-K ", "-q "]),
        (|p| { p.reorder_tasks_random_seed = 3; p.random_offset_seed = Some(1) }, &["-X ", "--random-offset-seed "]),
        (|p| p.stonewall_wear_out_iterations = 5, &["-O stoneWallingWearOutIterations=5 exceeds the 4 transfers"]),
        (|p| { status_file(p); p.keep_file = true; p.write_file = false; p.stonewall_wear_out_iterations = 2 },
            &["-O stoneWallingWearOutIterations is replaced by the count"]),
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
            let w = validate(&with(*f), 2).unwrap_or_else(|e| panic!("case {i}: {e}"));
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
    fn zero_tasks() {
        assert!(validate(&with(|_| {}), 0).unwrap_err().starts_with("-N 0"));
        assert!(validate(&with(|_| {}), 1).is_ok());
    }

    #[test]
    fn size_messages_are_exact() {
        let e = validate(&with(|p| p.block_size = 1000 * 4096 + 1000), 2).unwrap_err();
        assert_eq!(e, "-b 4097000 is not a multiple of -t 262144");
        let e = validate(&with(|p| p.transfer_size = 4096), 1).map(|_| ());
        assert_eq!(e, Ok(()));
        let e = validate(
            &with(|p| {
                p.transfer_size = 4096;
                p.block_size = 1000
            }),
            1,
        );
        assert_eq!(
            e.unwrap_err(),
            "-b 1000 is smaller than -t 4096; a block holds whole transfers"
        );
    }
}
