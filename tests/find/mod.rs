//! `iogauge find`: the IO500 find query on an IO500-shaped tree, output modes, bad input.

mod bad_input;
mod output;

use std::path::Path;

/// The IO500 example of `docs/find.md` / reference §8 at a small scale: 2 ior-easy files,
/// 1 ior-hard file, `easy` empty mdtest-easy files per rank in per-rank directories and `hard`
/// 3901-byte mdtest-hard files per rank in one shared directory, for 2 ranks. Returns the
/// mdtest-hard file names that match `-size 3901c -name *01*`.
pub fn io500_tree(data: &Path, easy: usize, hard: usize) -> Vec<String> {
    let mk = |p: &Path| std::fs::create_dir_all(p).unwrap();
    mk(&data.join("ior-easy"));
    for r in 0..2 {
        std::fs::write(data.join(format!("ior-easy/ior_file_easy.{r:08}")), b"x").unwrap();
    }
    mk(&data.join("ior-hard"));
    std::fs::write(data.join("ior-hard/file"), vec![0u8; 47008]).unwrap();
    for r in 0..2 {
        // mdtest -N 1: rank r's files live in the directory of rank r + 1.
        let d = data.join(format!(
            "mdtest-easy/test-dir.0-0/mdtest_tree.{}.0",
            (r + 1) % 2
        ));
        mk(&d);
        for i in 0..easy {
            std::fs::write(d.join(format!("file.mdtest.{r}.{i}")), b"").unwrap();
        }
    }
    let hard_dir = data.join("mdtest-hard/test-dir.0-0/mdtest_tree.0");
    mk(&hard_dir);
    let mut matches = Vec::new();
    for r in 0..2 {
        for i in 0..hard {
            let name = format!("file.mdtest.{r}.{i}");
            std::fs::write(hard_dir.join(&name), vec![7u8; 3901]).unwrap();
            if name.contains("01") {
                matches.push(name);
            }
        }
    }
    matches
}
