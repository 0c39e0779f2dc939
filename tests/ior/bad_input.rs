//! Bad input: exit code 2, a message naming the problem, and nothing created.

use std::process::Command;

use crate::common::{bin, iogauge, iogauge_args, listing, tmp};

#[track_caller]
fn refused(args: &str, needle: &str) {
    let d = tmp();
    let line = args.replace("DIR", &d.path().display().to_string());
    let r = iogauge(&line).code(2);
    assert!(
        r.stderr.contains(needle),
        "{line}\nwanted {needle:?} in stderr:\n{}",
        r.stderr
    );
    assert!(
        r.stdout.is_empty(),
        "nothing printed on stdout for usage errors: {}",
        r.stdout
    );
    assert!(
        listing(d.path()).is_empty(),
        "{line}: created {:?}",
        listing(d.path())
    );
}

#[test]
fn block_not_a_multiple_of_transfer() {
    refused(
        "ior -t 4096 -b 10000 -o DIR/f",
        "-b 10000 is not a multiple of -t 4096",
    );
}

#[test]
fn zero_sizes() {
    refused("ior -t 0 -b 1m -o DIR/f", "-t");
    refused("ior -t 1m -b 0 -o DIR/f", "-b");
    refused("ior -t 1m -b 1m -s 0 -o DIR/f", "-s");
}

#[test]
fn missing_directory() {
    refused("ior -t 1m -b 1m -o DIR/not/here/f", "does not exist");
}

#[test]
fn unknown_option_suggests_the_nearest() {
    refused("ior --blocksize=1m -o DIR/f", "did you mean --blockSize");
    refused(
        "ior -O stoneWallingWearOutt=1 -o DIR/f",
        "stoneWallingWearOut",
    );
}

#[test]
fn unsupported_options_and_apis_are_refused_by_name() {
    refused("ior -c -o DIR/f", "-c");
    refused("ior -a MPIIO -o DIR/f", "MPIIO");
    refused("ior -a HDF5 -o DIR/f", "HDF5");
    refused("ior -O savePerOpDataCSV=x -o DIR/f", "savePerOpDataCSV");
}

#[test]
fn stonewall_rules() {
    refused("ior -t 1m -b 1m -w -O stoneWallingWearOut=1 -o DIR/f", "-D");
    refused(
        "ior -t 1m -b 1m -w -D 1 -O stoneWallingStatusFile=DIR/sw -o DIR/f",
        "stoneWallingWearOut",
    );
}

#[test]
fn unwritable_directory() {
    let d = tmp();
    let ro = d.path().join("ro");
    std::fs::create_dir(&ro).unwrap();
    std::fs::set_permissions(&ro, std::os::unix::fs::PermissionsExt::from_mode(0o555)).unwrap();
    let o = ro.join("f");
    let is_root = unsafe { libc_geteuid() } == 0;
    let out = if is_root {
        // root ignores permissions: run as nobody (the directory and binary are world-readable).
        std::fs::set_permissions(
            d.path(),
            std::os::unix::fs::PermissionsExt::from_mode(0o755),
        )
        .unwrap();
        let setpriv = Command::new("setpriv")
            .args(["--reuid=65534", "--regid=65534", "--clear-groups"])
            .arg(bin())
            .args(["ior", "-t", "4k", "-b", "4k", "-w", "-o"])
            .arg(&o)
            .output();
        match setpriv {
            Ok(out) if !String::from_utf8_lossy(&out.stderr).contains("setpriv:") => out,
            _ => {
                eprintln!("setpriv unavailable: unwritable-directory test skipped");
                return;
            }
        }
    } else {
        Command::new(bin())
            .args(["ior", "-t", "4k", "-b", "4k", "-w", "-o"])
            .arg(&o)
            .output()
            .unwrap()
    };
    let stderr = String::from_utf8_lossy(&out.stderr);
    if stderr.contains("Permission denied")
        && stderr.contains("iogauge")
        && out.status.code() == Some(126)
    {
        eprintln!("binary not executable as nobody: skipped");
        return;
    }
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("not writable"), "{stderr}");
    assert!(listing(&ro).is_empty());
}

extern "C" {
    #[link_name = "geteuid"]
    fn libc_geteuid() -> u32;
}

#[test]
fn help_and_version() {
    let r = iogauge("ior --help").ok();
    assert!(
        r.stdout.contains("EXAMPLES") || r.stdout.contains("Examples"),
        "{}",
        r.stdout
    );
    assert!(r.stdout.contains("-t"));
    let r = iogauge_args(&["--version"]).ok();
    assert!(r.stdout.starts_with("iogauge "));
    let r = iogauge_args(&["--help"]).ok();
    assert!(r.stdout.contains("ior"));
}

/// A build without MPI refuses a launcher's environment (the MPI build starts MPI instead).
#[cfg(not(feature = "mpi"))]
#[test]
fn started_by_a_launcher_without_mpi_support() {
    let d = tmp();
    let o = d.path().join("f");
    let r = crate::common::iogauge_env(
        &format!("ior -t 4k -b 4k -w -o {}", o.display()),
        &[("OMPI_COMM_WORLD_SIZE", "4"), ("OMPI_COMM_WORLD_RANK", "1")],
    )
    .code(2);
    assert!(
        r.stderr.contains("built without MPI")
            && r.stderr.contains("--features mpi")
            && r.stderr.contains("--tasks 4"),
        "{}",
        r.stderr
    );
    assert!(listing(d.path()).is_empty());
}

/// The same under a real `mpirun -np 2`: every copy stops before any I/O.
#[cfg(not(feature = "mpi"))]
#[test]
fn a_build_without_mpi_under_real_mpirun_stops_before_any_io() {
    let d = tmp();
    let o = d.path().join("f");
    let out = crate::common::launcher(2, 60)
        .arg(crate::common::bin())
        .args([
            "ior",
            "-t",
            "4k",
            "-b",
            "4k",
            "-w",
            "-o",
            o.to_str().unwrap(),
        ])
        .output()
        .expect("timeout/mpirun (scripts/test.sh installs Open MPI)");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("Open MPI") && stderr.contains("built without MPI"),
        "{stderr}"
    );
    assert!(listing(d.path()).is_empty());
}

#[cfg(not(feature = "mpi"))]
#[test]
fn mpi_flag_in_a_build_without_mpi_is_refused() {
    let r = iogauge_args(&["--mpi", "ior", "-t", "4k", "-b", "4k"]).code(2);
    assert!(r.stderr.contains("--features mpi"), "{}", r.stderr);
}

/// The parallel I/O engines need the build that has them, and MPI ranks; `-c` needs an engine
/// with collective transfers.
#[test]
fn parallel_io_engines_name_the_build_they_need() {
    if cfg!(feature = "mpi") {
        // Started without a launcher, the MPI build runs thread ranks.
        refused("ior -a MPIIO -o DIR/f", "-a MPIIO runs on MPI ranks");
    } else {
        refused(
            "ior -a MPIIO -o DIR/f",
            "MPI-IO needs the MPI build (cargo build --release --features mpi",
        );
        refused("ior --mpiio.showHints -o DIR/f", "--mpiio.showHints");
    }
    if cfg!(feature = "hdf5") {
        refused("ior -a HDF5 -o DIR/f", "-a HDF5 runs on MPI ranks");
    } else {
        refused(
            "ior -a HDF5 -o DIR/f",
            "parallel HDF5 needs the build with it (cargo build --release --features mpi,hdf5",
        );
    }
    refused(
        "ior -c -o DIR/f",
        "-c (collective transfers) is not supported by -a POSIX",
    );
}
