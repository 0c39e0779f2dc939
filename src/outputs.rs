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
