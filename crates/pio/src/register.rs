//! `-a MPIIO`'s row of the engine table: IOR's `--mpiio.*` options under IOR's names, the
//! checks IOR's module makes before any I/O (and the ones iogauge adds where IOR would hang),
//! and the constructor. Registered by the binary in the MPI build ([`crate::register`]).

use engine::{EngineConfig, EngineInfo, EngineOption, IoShape, OptKind, Workload};

use crate::engine::{Base, PioEngine};
use crate::hints::Hints;
use crate::mpiio::{MpiIo, Options, API, CAPS, FILE_VIEW, HINTS_FILE, STRIDED};

/// IOR's `--mpiio.*` options, under IOR's names.
#[rustfmt::skip]
pub static OPTIONS: &[EngineOption] = &[
    EngineOption::ior_named("hintsFileName", OptKind::Path { default: "" }, "FILE", "MPI-IO hints: lines IOR_HINT__MPI__<key>=<value> (after the IOR_HINT__MPI__* environment variables)"),
    EngineOption::ior_named("showHints", OptKind::Flag { default: false }, "", "print the hints passed to MPI_File_open and those the opened file has (rank 0, every open)"),
    EngineOption::ior_named("preallocate", OptKind::Flag { default: false }, "", "MPI_File_preallocate the whole file (-s x -b x tasks, also each file of -F) before writing"),
    EngineOption::ior_named("useFileView", OptKind::Flag { default: false }, "", "a file view per rank (a subarray of its blocks); transfers seek in it"),
    EngineOption::ior_named("useStridedDatatype", OptKind::Flag { default: false }, "", "with useFileView: IOR's strided datatype, each of a rank's first transfers written -s times, one per segment (IOR: not working)"),
];

/// The row of `-a MPIIO`.
pub static MPIIO: EngineInfo = EngineInfo::new(
    API,
    "mpiio",
    "MPI-IO (MPI build, under mpirun or srun): MPI_File_write_at/read_at, with -c the _all calls; a shared file on the job's ranks, -F on MPI_COMM_SELF",
    CAPS,
    OPTIONS,
    &[],
    Some(check),
    None,
    make,
);

fn make(cfg: &EngineConfig, _rank: usize) -> Box<dyn engine::Engine> {
    let opts = Options::of(cfg);
    let base = Base::new(API, opts.hints_file.clone(), opts.show_hints);
    Box::new(PioEngine::new(MpiIo { opts }, base))
}

/// Before any I/O: MPI ranks, IOR's refusals of `-a MPIIO`, the combinations that would
/// leave a collective call unmatched, and a readable hints file.
fn check(cfg: &EngineConfig, workload: &Workload) -> Result<(), String> {
    check_mpi(API)?;
    check_hints_file(cfg, HINTS_FILE)?;
    let Workload::Io(shape) = workload else {
        return Ok(());
    };
    check_shape(&Options::of(cfg), shape)
}

/// `api` needs MPI ranks.
pub fn check_mpi(api: &str) -> Result<(), String> {
    if exec::mpi::started() {
        return Ok(());
    }
    Err(format!(
        "-a {api} runs on MPI ranks: start iogauge under mpirun or srun (thread ranks have \
         no MPI communicator to share a file on)"
    ))
}

/// The hints: the environment's `IOR_HINT*` variables and the file of option `option`, if
/// given, can be read and hold only what IOR uses (where IOR warns and sets a garbage or
/// empty hint, the run is refused, naming the variable or line).
pub fn check_hints_file(cfg: &EngineConfig, option: &str) -> Result<(), String> {
    let env = Hints::from_env(std::env::vars());
    if let Some(w) = env.warnings.first() {
        return Err(w.clone());
    }
    let Some(path) = cfg.text(option).filter(|t| !t.is_empty()) else {
        return Ok(());
    };
    let text = std::fs::read_to_string(&path)
        .map_err(|e| format!("--{option} {path}: cannot read it: {e}"))?;
    let mut h = Hints::default();
    h.add_file(&text, &path);
    match h.warnings.first() {
        Some(w) => Err(format!("--{option}: {w}")),
        None => Ok(()),
    }
}

/// Why `-c -D` needs wear-out.
pub const COLLECTIVE_STONEWALL: &str = "-c with -D needs -O stoneWallingWearOut=1: every rank \
     must make the same collective calls, so the ranks stop together and catch up together";

/// IOR's own refusals, in its words where it has them, and iogauge's against hangs. (IOR's
/// "block/transfer size may not be smaller than IOR_size_t" is every engine's rule here:
/// `-t` and `-b` are multiples of 8 for all of them.)
fn check_shape(opts: &Options, s: &IoShape) -> Result<(), String> {
    if s.transfer_size > i32::MAX as u64 {
        return Err(format!(
            "-t {}: a transfer above 2 GiB - 1 byte is too large a count for MPI-IO's int \
             (IOR: count too large for this MPI implementation)",
            s.transfer_size
        ));
    }
    if s.random_offset && s.collective {
        return Err("random offset not available with collective MPIIO (-z with -c)".into());
    }
    if s.random_offset && opts.file_view {
        return Err(format!(
            "random offset not available with MPIIO fileviews (-z with --{FILE_VIEW})"
        ));
    }
    if opts.strided && !opts.file_view {
        return Err(format!(
            "--{STRIDED} works only with --{FILE_VIEW} (IOR ignores it alone)"
        ));
    }
    if s.collective && s.stonewall && !s.wear_out {
        return Err(COLLECTIVE_STONEWALL.into());
    }
    if s.fsync_per_write && s.stonewall && !s.file_per_proc && !s.collective {
        return Err(
            "-Y with -D on a shared file needs -c: MPI_File_sync is collective, and ranks \
             that stop at different transfers would call it unequally often"
                .into(),
        );
    }
    if opts.file_view {
        let per_block = s.block_size / s.transfer_size.max(1);
        if i32::try_from(s.transfer_size / 8).is_err() || i32::try_from(per_block).is_err() {
            return Err(format!(
                "--{FILE_VIEW}: -t / 8 and -b / -t must fit MPI's int"
            ));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shape(t: u64, b: u64) -> IoShape {
        IoShape {
            transfer_size: t,
            block_size: b,
            ..IoShape::default()
        }
    }

    #[test]
    fn refusals_name_the_options() {
        let plain = Options::default();
        let view = Options {
            file_view: true,
            ..Options::default()
        };
        assert!(check_shape(&plain, &shape(1024, 4096)).is_ok());
        let z = |c| IoShape {
            random_offset: true,
            collective: c,
            ..shape(1024, 4096)
        };
        assert!(check_shape(&plain, &z(false)).is_ok());
        assert!(check_shape(&plain, &z(true))
            .unwrap_err()
            .contains("collective MPIIO"));
        assert!(check_shape(&view, &z(false))
            .unwrap_err()
            .contains("fileviews"));
        let d = |wear_out| IoShape {
            collective: true,
            stonewall: true,
            wear_out,
            ..shape(1024, 4096)
        };
        assert!(check_shape(&plain, &d(false))
            .unwrap_err()
            .contains("stoneWallingWearOut"));
        assert!(check_shape(&plain, &d(true)).is_ok());
        let y = IoShape {
            fsync_per_write: true,
            stonewall: true,
            wear_out: true,
            ..shape(1024, 4096)
        };
        assert!(check_shape(&plain, &y).unwrap_err().contains("-Y with -D"));
        let strided = Options {
            strided: true,
            ..Options::default()
        };
        assert!(check_shape(&strided, &shape(1024, 4096))
            .unwrap_err()
            .contains("useFileView"));
    }
}
