//! Test helper: run a numpy snippet under Debian's `/usr/bin/python3` and return its output
//! lines. numpy is the judge of DLIO's random orders, so a missing numpy fails the test with
//! the package to install rather than skipping it.

use std::process::Command;

pub fn numpy_lines(script: &str) -> Vec<String> {
    let program = format!("import numpy as np\n{script}\n");
    let out = Command::new("/usr/bin/python3")
        .arg("-c")
        .arg(&program)
        .output()
        .expect("/usr/bin/python3 runs (apt-get install -y python3-numpy)");
    assert!(
        out.status.success(),
        "python3 with numpy failed (apt-get install -y python3-numpy): {}\n{program}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout)
        .expect("utf-8")
        .lines()
        .map(str::to_string)
        .collect()
}
