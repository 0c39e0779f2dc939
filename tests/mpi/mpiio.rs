//! `-a MPIIO` under mpirun: the bytes it leaves against the POSIX engine's for the same line
//! (thread ranks, shown equal to MPI ranks in `ior.rs`) in every mode where IOR's MPIIO keeps
//! them equal, IOR's two exceptions computed from the POSIX file, the hints, stonewalls that
//! stop collective transfers together, and the refusals. `docs/performance.md` holds the
//! comparison with IOR's own `-a MPIIO` (benches/pio_vs_ior.sh), which needs an IOR build.

use std::path::Path;

use super::{mpirun_env, mpirun_line, mpirun_with, LIMIT_S};
use crate::common::{iogauge, json, listing, shm, Run};

/// IOR's line of the comparisons: data that names its offset, a fixed signature, verified.
const LINE: &str = "ior -t 64k -b 256k -s 3 -w -r -W -R -k -G 7 -l offset";

fn run_in(dir: &Path, np: usize, api: &str, extra: &str) -> serde_json::Value {
    std::fs::create_dir_all(dir).unwrap();
    let args = format!(
        "{LINE} -a {api} {extra} -o {0}/f --json {0}/r.json --no-store",
        dir.display()
    );
    if api == "MPIIO" {
        mpirun_line(np, &args).ok();
    } else {
        iogauge(&format!("--tasks {np} {args}")).ok();
    }
    let doc = json(&dir.join("r.json"));
    assert_eq!(doc["verification_errors"], 0, "{api} {extra}");
    doc
}

fn data_files(dir: &Path) -> Vec<String> {
    listing(dir)
        .into_iter()
        .filter(|f| f.starts_with('f'))
        .collect()
}

/// `-a MPIIO` with `extra` and `-a POSIX` with `posix` leave the same files, byte for byte.
fn same_as_posix(np: usize, extra: &str, posix: &str) {
    let d = shm();
    let (m, p) = (d.path().join("mpiio"), d.path().join("posix"));
    let doc = run_in(&m, np, "MPIIO", extra);
    run_in(&p, np, "POSIX", posix);
    assert_eq!(doc["ranks"]["launcher"], "mpi");
    assert_eq!(doc["parameters"]["collective"], extra.contains("-c"));
    let files = data_files(&p);
    assert_eq!(data_files(&m), files, "np {np} {extra}");
    for f in &files {
        let (a, b) = (
            std::fs::read(m.join(f)).unwrap(),
            std::fs::read(p.join(f)).unwrap(),
        );
        assert!(
            a == b,
            "np {np} {extra}: {f} differs ({} vs {} bytes)",
            a.len(),
            b.len()
        );
    }
}

#[test]
fn independent_collective_and_file_views_write_posix_bytes() {
    for extra in ["", "-c", "--mpiio.useFileView", "-c --mpiio.useFileView"] {
        same_as_posix(2, extra, "");
    }
    for extra in ["-F", "-F -c --mpiio.useFileView"] {
        same_as_posix(2, extra, "-F");
    }
    same_as_posix(4, "-c", "");
    same_as_posix(4, "-F -c", "-F");
    // The reads of another rank's data (-C) open the pretend rank's view.
    same_as_posix(
        4,
        "-c --mpiio.useFileView -C --fake-nodes 2",
        "-C --fake-nodes 2",
    );
}

/// IOR's exceptions: preallocation makes each file of `-F` N times its data (a zero tail),
/// and the strided datatype writes each rank's first block into every segment.
#[test]
fn preallocation_and_strided_datatype_as_ior_leaves_them() {
    let np = 2;
    let d = shm();
    let posix = d.path().join("posix");
    run_in(&posix, np, "POSIX", "-F");
    let pre = d.path().join("pre");
    run_in(&pre, np, "MPIIO", "-F --mpiio.preallocate");
    for f in data_files(&posix) {
        let (a, b) = (
            std::fs::read(posix.join(&f)).unwrap(),
            std::fs::read(pre.join(&f)).unwrap(),
        );
        assert_eq!(b.len(), np * a.len(), "{f}: s x b x N bytes");
        assert_eq!(&b[..a.len()], &a[..], "{f}: the data");
        assert!(b[a.len()..].iter().all(|&x| x == 0), "{f}: a zero tail");
    }

    // Shared file: segment 0 of the POSIX file (every rank's first block) in each segment.
    let shared = d.path().join("shared");
    run_in(&shared, np, "POSIX", "");
    let strided = d.path().join("strided");
    std::fs::create_dir_all(&strided).unwrap();
    let args = format!(
        "{LINE} -a MPIIO --mpiio.useFileView --mpiio.useStridedDatatype -o {0}/f --json {0}/r.json --no-store",
        strided.display()
    );
    // IOR's -W and -R compare the skipped transfers' buffers: errors, exit status 1.
    let r = mpirun_line(np, &args).code(1);
    assert!(r.stdout.contains("Incorrect data on write"), "{}", r.stdout);
    let a = std::fs::read(shared.join("f")).unwrap();
    let b = std::fs::read(strided.join("f")).unwrap();
    let segment = a.len() / 3;
    assert_eq!(b.len(), a.len());
    for k in 0..3 {
        assert!(
            b[k * segment..(k + 1) * segment] == a[..segment],
            "segment {k}"
        );
    }
}

#[test]
fn hints_from_the_environment_and_a_file_are_shown_and_recorded() {
    let d = shm();
    let hints = d.path().join("hints");
    std::fs::write(
        &hints,
        "# a comment\nIOR_HINT__MPI__cb_nodes = 1\nIOR_HINT__MPI__romio_cb_write=enable\n",
    )
    .unwrap();
    let args = format!(
        "ior -t 64k -b 256k -w -c --mpiio.showHints --mpiio.hintsFileName={} -a MPIIO -o {1}/f --json {1}/r.json --no-store",
        hints.display(),
        d.path().display()
    );
    let r = mpirun_env(2, &[("IOR_HINT__MPI__romio_ds_write", "disable")], &args).ok();
    let stdout = &r.stdout;
    // IOR's header: MPI's version, and -c.
    assert!(stdout.contains("\napiVersion          : (3."), "{stdout}");
    assert!(
        stdout.contains("\ntype                : collective\n"),
        "{stdout}"
    );
    let passed = "\nhints passed to MPI_File_open() {\n\tromio_ds_write = disable\n\tcb_nodes = 1\n\tromio_cb_write = enable\n}\n";
    assert_eq!(
        stdout.matches(passed).count(),
        1,
        "rank 0, one open:\n{stdout}"
    );
    assert!(
        stdout.contains("\nhints returned from opened file {\n"),
        "{stdout}"
    );
    // Old IOR's -U names the same file.
    let args = format!(
        "ior -t 64k -b 256k -w -a MPIIO --mpiio.showHints -U {} -o {}/g --no-store",
        hints.display(),
        d.path().display()
    );
    let r = mpirun_line(2, &args).ok();
    assert!(
        r.stdout
            .contains("\tcb_nodes = 1\n\tromio_cb_write = enable\n}"),
        "{}",
        r.stdout
    );
    let doc = json(&d.path().join("r.json"));
    let recorded = doc["phases"][0]["mpi_hints"]
        .as_object()
        .expect("mpi_hints");
    assert_eq!(recorded["cb_nodes"], "1", "{recorded:?}");
}

/// `-c -D` with wear-out: rank 0 stops every rank after the same transfer, so no collective
/// call is left unmatched (the run would hang otherwise) and the counts agree.
#[test]
fn a_stonewall_stops_collective_transfers_together() {
    let d = shm();
    let args = format!(
        "ior -a MPIIO -c -t 64k -b 256m -w -D 1 -O stoneWallingWearOut=1 -o {0}/f --json {0}/r.json --no-store",
        d.path().display()
    );
    mpirun_with(3, &args.split_whitespace().collect::<Vec<_>>(), LIMIT_S).ok();
    let w = &json(&d.path().join("r.json"))["phases"][0];
    let sw = &w["stonewall"];
    assert_eq!(sw["pairs_min"], sw["pairs_max"], "{sw}");
    for rank in w["per_rank"].as_array().unwrap() {
        assert_eq!(rank["ops"], sw["pairs_max"]);
    }
}

fn refused(np: usize, extra: &str, names: &str) {
    let d = shm();
    let r: Run = mpirun_line(
        np,
        &format!("ior -a MPIIO {extra} -o {}/f", d.path().display()),
    );
    assert_eq!(r.code, 2, "{extra}\n{}{}", r.stdout, r.stderr);
    assert!(r.stderr.contains(names), "{extra}: {}", r.stderr);
    assert!(
        listing(d.path()).is_empty(),
        "{extra}: no I/O before the refusal"
    );
}

#[test]
fn refusals_before_any_io() {
    refused(
        2,
        "-c -z",
        "random offset not available with collective MPIIO",
    );
    refused(
        2,
        "-z --mpiio.useFileView",
        "random offset not available with MPIIO fileviews",
    );
    refused(2, "-c -D 5", "-c with -D needs -O stoneWallingWearOut=1");
    refused(
        2,
        "--mpiio.hintsFileName=/nonexistent/hints",
        "--mpiio.hintsFileName /nonexistent/hints",
    );
    // A hint IOR could not use, from the environment (IOR warns and sets a garbage one).
    let d = shm();
    let args = format!("ior -a MPIIO -o {}/f", d.path().display());
    let r = mpirun_env(2, &[("IOR_HINT__POSIX__x", "1")], &args).code(2);
    let stderr = &r.stderr;
    assert!(
        stderr.contains("unknown hint type IOR_HINT__POSIX__x (environment)"),
        "{stderr}"
    );
    assert!(listing(d.path()).is_empty());
    let r = mpirun_line(
        2,
        &format!("mdtest -a MPIIO -n 10 -d {}", d.path().display()),
    );
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(r.stderr.contains("-a MPIIO"), "{}", r.stderr);
    // Without mpirun the MPI build runs thread ranks, which share no MPI file.
    let r = iogauge(&format!("ior -a MPIIO -o {}/f", d.path().display()));
    assert_eq!(r.code, 2);
    assert!(
        r.stderr.contains("-a MPIIO runs on MPI ranks"),
        "{}",
        r.stderr
    );
}
