//! Compiles the presets in: every `presets/*.toml`, in the order of their names, as a
//! list of `include_str!`s (`src/preset/catalog.rs`), so a new preset is a new file only.

use std::path::Path;

fn main() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("presets");
    println!("cargo:rerun-if-changed={}", dir.display());
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .expect("the presets directory")
        .map(|e| e.expect("a presets entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "toml"))
        .collect();
    // By name: `ior-hard` before `ior-hard-read`.
    files.sort_by(|a, b| a.file_stem().cmp(&b.file_stem()));
    let mut list = String::from("&[\n");
    for f in &files {
        println!("cargo:rerun-if-changed={}", f.display());
        list += &format!("    include_str!({:?}),\n", f.display().to_string());
    }
    list += "]\n";
    let out = Path::new(&std::env::var("OUT_DIR").expect("OUT_DIR")).join("presets.rs");
    std::fs::write(out, list).expect("write presets.rs");
}
