//! Per-phase seeds (`-G`) and the run's timestamp string (reference §3).

use super::config::fold;

/// The names the IO500 seeds its phases with (`u_phase_unique_random_number`).
pub const IOR_EASY: &str = "ior-easy";
pub const IOR_HARD: &str = "ior-hard";
pub const MDTEST_EASY: &str = "mdtest-easy";
pub const MDTEST_HARD: &str = "mdtest-hard";
pub const MD_WORKBENCH: &str = "md-workbench";

/// The `-G` seed of `name` in the run stamped `timestamp`: the rotate-and-add hash of the name
/// followed by the timestamp, as a C `int` (so it may be negative); 0 and -1 become 4711.
pub fn phase_seed(name: &str, timestamp: &str) -> i32 {
    let h = fold(timestamp, fold(name, 0));
    if h == 0 || h == u32::MAX {
        4711
    } else {
        h as i32
    }
}

/// A `--timestamp` value becomes a directory name: refuse what would escape or nest.
pub fn check_timestamp(ts: &str) -> Result<(), String> {
    if ts.is_empty() {
        return Err("--timestamp needs a value".into());
    }
    if ts.contains('/') || ts == "." || ts == ".." || ts.contains('\0') {
        return Err(format!(
            "--timestamp {ts:?}: it names a directory, so it cannot contain '/' or be . or .."
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reference_vectors() {
        let t = "2024.11.11-00.01.32";
        assert_eq!(phase_seed(IOR_EASY, t), -312303232);
        assert_eq!(phase_seed(IOR_HARD, t), -312292544);
        assert_eq!(phase_seed(MDTEST_EASY, t), 573874563);
        assert_eq!(phase_seed(MDTEST_HARD, t), 573885251);
        let t = "2024.10.17-15.15.56";
        assert_eq!(phase_seed(IOR_EASY, t), -327470196);
        assert_eq!(phase_seed(IOR_HARD, t), -327459508);
        assert_eq!(phase_seed(MDTEST_EASY, t), 558707599);
        assert_eq!(phase_seed(MDTEST_HARD, t), 558718287);
    }

    #[test]
    fn timestamps_name_one_directory() {
        assert!(check_timestamp("2024.11.11-00.01.32").is_ok());
        assert!(check_timestamp("a/b").is_err());
        assert!(check_timestamp("..").is_err());
        assert!(check_timestamp("").is_err());
    }
}
