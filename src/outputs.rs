//! Checks on the files a run will write, made before any I/O.

use std::path::Path;

/// Every named output file's directory must exist (iogauge creates no directories for its
/// output). `outputs` pairs the option that named the file with the file, if given.
pub fn check_dirs_exist(outputs: &[(&str, Option<&Path>)]) -> Result<(), String> {
    for (option, path) in outputs {
        let Some(path) = path else { continue };
        let dir = path
            .parent()
            .filter(|d| !d.as_os_str().is_empty())
            .unwrap_or(Path::new("."));
        if !dir.is_dir() {
            return Err(format!(
                "{option} {}: directory {} does not exist",
                path.display(),
                dir.display()
            ));
        }
    }
    Ok(())
}

/// The directory whose file system a run's header and environment describe: `dir` itself, or
/// its parent while `dir` is still to be created.
pub fn existing_dir_or_parent(dir: &Path) -> std::path::PathBuf {
    if dir.is_dir() {
        return dir.to_path_buf();
    }
    dir.parent()
        .filter(|d| !d.as_os_str().is_empty())
        .map_or_else(|| std::path::PathBuf::from("."), Path::to_path_buf)
}

/// After a run whose reads did not verify: how many `things` failed and the first one of
/// the phases' `checks`.
pub fn verification_failed<'a>(
    errors: u64,
    checks: impl IntoIterator<Item = Option<&'a results::ior::VerifyOutcome>>,
    things: &str,
) {
    let first = checks
        .into_iter()
        .find_map(|v| v.and_then(|v| v.first_error.as_ref()));
    let at = first.map_or(String::new(), |e| {
        format!(
            "; first: {} at byte {} (read by rank {})",
            e.file, e.offset, e.rank
        )
    });
    eprintln!(
        "iogauge: data verification failed: {errors} {things} did not read back as written{at}"
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn missing_directories_are_named() {
        let ok = [("--json", Some(Path::new("r.json"))), ("-x", None)];
        assert_eq!(check_dirs_exist(&ok), Ok(()));
        let bad = [("--json", Some(Path::new("/nonexistent-iogauge/r.json")))];
        assert_eq!(
            check_dirs_exist(&bad),
            Err(
                "--json /nonexistent-iogauge/r.json: directory /nonexistent-iogauge does not exist"
                    .to_string()
            )
        );
    }
}
