mod config;
mod extended;
mod quick;
mod run;
mod verify;

use std::path::Path;

/// An IO500 .ini with tiny sizes and a 1 s stonewall, data and results under `dir`.
pub fn small_ini(dir: &Path, extra: &str) -> std::path::PathBuf {
    let ini = format!(
        "[global]\ndatadir = {0}/data\nresultdir = {0}/res\n\n[debug]\nstonewall-time = 1\n\n\
         [ior-easy]\ntransferSize = 256k\nblockSize = 8m\n\n[ior-hard]\nsegmentCount = 200\n\n\
         [mdtest-easy]\nn = 500\n\n[mdtest-hard]\nn = 300\n{extra}",
        dir.display()
    );
    let path = dir.join("small.ini");
    std::fs::write(&path, ini).unwrap();
    path
}
