//! IOR's `FS` header line: the size and use of the file system holding the test file's
//! directory, as the run's engine tells it (`Engine::target_info`; IOR calls statvfs(3)).

use std::path::Path;

use engine::{Engine, Space};

/// The line for `dir` through `engine`; "unknown" where the engine knows no space.
pub fn fs_line(engine: &dyn Engine, dir: &Path) -> String {
    match engine.target_info(engine.target(dir)) {
        Ok(facts) => facts
            .space
            .map_or("unknown".to_string(), |s| format_space(&s)),
        Err(_) => "unknown".to_string(),
    }
}

/// `23.5 GiB   Used FS: 17.0%   Inodes: 2.9 Mi   Used Inodes: 0.9%`, as IOR prints it.
pub fn format_space(s: &Space) -> String {
    let total = s.total_bytes as f64;
    let free = s.free_bytes as f64;
    let used = if total > 0.0 {
        (1.0 - free / total) * 100.0
    } else {
        0.0
    };
    let (size, unit) = if total / (1u64 << 30) as f64 > 1024.0 {
        (total / (1u64 << 40) as f64, "TiB")
    } else {
        (total / (1u64 << 30) as f64, "GiB")
    };
    let inodes = s.total_inodes as f64;
    let used_inodes = if inodes > 0.0 {
        (1.0 - s.free_inodes as f64 / inodes) * 100.0
    } else {
        0.0
    };
    format!(
        "{size:.1} {unit}   Used FS: {used:.1}%   Inodes: {:.1} Mi   Used Inodes: {used_inodes:.1}%",
        inodes / (1u64 << 20) as f64
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn as_ior_prints_it() {
        let s = Space {
            total_bytes: 2 << 40,
            free_bytes: 1 << 40,
            avail_bytes: 0,
            total_inodes: 4 << 20,
            free_inodes: 3 << 20,
        };
        assert_eq!(
            format_space(&s),
            "2.0 TiB   Used FS: 50.0%   Inodes: 4.0 Mi   Used Inodes: 25.0%"
        );
        let dummy = engine::DummyEngine::new(Default::default(), 0);
        assert_eq!(fs_line(&dummy, Path::new("/tmp")), "unknown");
        let posix = engine::PosixEngine::new(false);
        assert!(fs_line(&posix, Path::new("/tmp")).contains("Used FS:"));
    }
}
