//! `-a HDF5` under mpirun (the build with `--features hdf5`): IOR's datasets, read back with
//! HDF5's own tools (`h5ls`, `h5dump` from Debian's hdf5-tools), hold the POSIX engine's
//! bytes segment by segment; IOR's options show in the file's layout; the refusals.
//! `docs/performance.md` holds the comparison with IOR's own `-a HDF5` files.

use std::path::Path;
use std::process::Command;

use super::{mpirun_env, mpirun_line};
use crate::common::{iogauge, json, listing, shm};

const LINE: &str = "ior -t 64k -b 256k -s 3 -w -r -W -R -k -G 7 -l offset";

fn tool(name: &str, args: &[&str]) -> String {
    let out = Command::new(name)
        .args(args)
        .output()
        .unwrap_or_else(|e| panic!("{name} (scripts/test.sh installs hdf5-tools): {e}"));
    assert!(
        out.status.success(),
        "{name} {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn run(dir: &Path, np: usize, api: &str, extra: &str) {
    std::fs::create_dir_all(dir).unwrap();
    let args = format!(
        "{LINE} -a {api} {extra} -o {0}/f --json {0}/r.json --no-store",
        dir.display()
    );
    if api == "HDF5" {
        mpirun_line(np, &args).ok();
    } else {
        iogauge(&format!("--tasks {np} {args}")).ok();
    }
    assert_eq!(
        json(&dir.join("r.json"))["verification_errors"],
        0,
        "{api} {extra}"
    );
}

fn data_files(dir: &Path) -> Vec<String> {
    listing(dir)
        .into_iter()
        .filter(|f| f.starts_with('f'))
        .collect()
}

/// Every file of `-a HDF5` holds IOR's datasets, `Dataset-0000.000K` holding segment K of the
/// POSIX engine's file for the same line.
fn datasets_hold_posix_bytes(np: usize, extra: &str) {
    let d = shm();
    let (h, p) = (d.path().join("hdf5"), d.path().join("posix"));
    run(&h, np, "HDF5", extra);
    let posix_extra = if extra.contains("-F") { "-F" } else { "" };
    run(&p, np, "POSIX", posix_extra);
    let files = data_files(&p);
    assert_eq!(data_files(&h), files, "np {np} {extra}");
    for f in &files {
        let posix = std::fs::read(p.join(f)).unwrap();
        let segment = posix.len() / 3;
        let file = h.join(f).display().to_string();
        let ls = tool("h5ls", &["-r", &file]);
        let names: Vec<&str> = ls
            .lines()
            .filter_map(|l| l.split_whitespace().next())
            .collect();
        assert_eq!(
            names,
            [
                "/",
                "/Dataset-0000.0000",
                "/Dataset-0000.0001",
                "/Dataset-0000.0002"
            ],
            "{ls}"
        );
        let elements = segment / 8;
        assert_eq!(
            ls.matches(&format!("Dataset {{{elements}}}")).count(),
            3,
            "{ls}"
        );
        for k in 0..3 {
            let out = d.path().join(format!("seg{k}.bin"));
            let set = format!("/Dataset-0000.{k:04}");
            tool(
                "h5dump",
                &[
                    "-d",
                    &set,
                    "-b",
                    "LE",
                    "-o",
                    &out.display().to_string(),
                    &file,
                ],
            );
            let raw = std::fs::read(&out).unwrap();
            assert!(
                raw == posix[k * segment..(k + 1) * segment],
                "np {np} {extra}: {f} {set}"
            );
        }
    }
}

#[test]
fn ior_datasets_hold_the_posix_bytes() {
    datasets_hold_posix_bytes(2, "");
    datasets_hold_posix_bytes(2, "-c --hdf5.collectiveMetadata");
    datasets_hold_posix_bytes(2, "-F");
    datasets_hold_posix_bytes(4, "-c --hdf5.chunkSize=4096");
}

/// IOR's options change the file's layout as HDF5 reports it.
#[test]
fn alignment_chunks_and_fill_show_in_the_layout() {
    let d = shm();
    run(
        d.path(),
        2,
        "HDF5",
        "--hdf5.setAlignment=64k --hdf5.chunkSize=4096 --hdf5.noFill",
    );
    let file = d.path().join("f").display().to_string();
    let header = tool("h5dump", &["-p", "-H", &file]);
    assert!(header.contains("CHUNKED ( 4096 )"), "{header}");
    assert!(header.contains("H5D_FILL_TIME_NEVER"), "{header}");
    run(&d.path().join("a"), 2, "HDF5", "--hdf5.setAlignment=64k");
    let file = d.path().join("a/f").display().to_string();
    let header = tool("h5dump", &["-p", "-H", &file]);
    let offsets: Vec<u64> = header
        .lines()
        .filter_map(|l| l.trim().strip_prefix("OFFSET "))
        .map(|o| o.trim().parse().unwrap())
        .collect();
    assert_eq!(offsets.len(), 3, "{header}");
    assert!(offsets.iter().all(|o| o % 65536 == 0), "{offsets:?}");
}

#[test]
fn hints_are_shown_and_recorded() {
    let d = shm();
    let args = format!(
        "ior -t 64k -b 256k -w -c --hdf5.showHints -a HDF5 -o {0}/f --json {0}/r.json --no-store",
        d.path().display()
    );
    let r = mpirun_env(2, &[("IOR_HINT__MPI__cb_nodes", "1")], &args).ok();
    let stdout = &r.stdout;
    assert!(
        stdout.contains(" (Parallel)\n"),
        "IOR's apiVersion: {stdout}"
    );
    let passed = "\nhints passed to access property list {\n\tcb_nodes = 1\n}\n";
    assert_eq!(stdout.matches(passed).count(), 1, "{stdout}");
    assert!(
        stdout.contains("\nhints returned from opened file {\n"),
        "{stdout}"
    );
    assert!(
        !stdout.contains("Expected aggregate file size"),
        "no size check of HDF5's files"
    );
    let doc = json(&d.path().join("r.json"));
    assert_eq!(doc["phases"][0]["mpi_hints"]["cb_nodes"], "1");
}

#[test]
fn refusals_before_any_io() {
    for (extra, names) in [
        ("-z", "random offset not available with HDF5"),
        (
            "-D 5 -O stoneWallingWearOut=1",
            "-D with -a HDF5 on a shared file needs -c",
        ),
        ("--hdf5.individualDataSets", "--hdf5.individualDataSets"),
        ("--hdf5.chunkSize=1048576", "--hdf5.chunkSize 1048576"),
    ] {
        let d = shm();
        let r = mpirun_line(
            2,
            &format!(
                "ior -a HDF5 -t 64k -b 256k {extra} -o {}/f",
                d.path().display()
            ),
        );
        assert_eq!(r.code, 2, "{extra}: {}", r.stderr);
        assert!(r.stderr.contains(names), "{extra}: {}", r.stderr);
        assert!(
            listing(d.path()).is_empty(),
            "{extra}: no I/O before the refusal"
        );
    }
    let d = shm();
    let r = mpirun_line(
        2,
        &format!("mdtest -a HDF5 -n 10 -d {}", d.path().display()),
    );
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(r.stderr.contains("-a HDF5"), "{}", r.stderr);
}
