//! `-a HDF5`'s row of the engine table: IOR's `--hdf5.*` options under IOR's names, the
//! checks before any I/O (IOR's, and iogauge's where parallel HDF5's collective dataset
//! calls would hang), and the constructor. Registered by the binary in the build with the
//! `hdf5` feature ([`crate::register`]).

use engine::{EngineConfig, EngineInfo, EngineOption, IoShape, OptKind, Workload};

use crate::engine::{Base, PioEngine};
use crate::hdf5::{H5Options, Hdf5, API, CAPS};
use crate::register::{check_hints_file, check_mpi, COLLECTIVE_STONEWALL};

const HINTS_FILE: &str = "hdf5.hintsFileName";

/// IOR's `--hdf5.*` options, under IOR's names.
#[rustfmt::skip]
pub static OPTIONS: &[EngineOption] = &[
    EngineOption::ior_named("hintsFileName", OptKind::Path { default: "" }, "FILE", "MPI-IO hints for the MPI-IO driver: lines IOR_HINT__MPI__<key>=<value> (after the IOR_HINT__MPI__* environment variables)"),
    EngineOption::ior_named("showHints", OptKind::Flag { default: false }, "", "print the hints passed to the access property list and those the opened file has (rank 0, every open)"),
    EngineOption::ior_named("collectiveMetadata", OptKind::Flag { default: false }, "", "collective metadata reads and writes (H5Pset_all_coll_metadata_ops, H5Pset_coll_metadata_write)"),
    EngineOption::ior_named("setAlignment", OptKind::Size { default: 1 }, "SIZE", "objects of this size or more start at multiples of it (H5Pset_alignment)"),
    EngineOption::ior_named("noFill", OptKind::Flag { default: false }, "", "no fill values for the datasets (H5Pset_fill_time NEVER)"),
    EngineOption::ior_named("chunkSize", OptKind::Number { default: 0 }, "N", "chunked datasets of N elements (8 bytes each) per chunk; 0: contiguous"),
];

/// IOR's options of the module that iogauge refuses by name.
const REFUSED: &[(&str, &str)] = &[(
    "individualDataSets",
    "individual data sets are not implemented (IOR refuses them too)",
)];

/// The row of `-a HDF5`.
pub static HDF5: EngineInfo = EngineInfo::new(
    API,
    "hdf5",
    "parallel HDF5 (MPI build with HDF5, under mpirun or srun): IOR's datasets of 8-byte integers, one per segment, through the MPI-IO driver; -c collective transfers",
    CAPS,
    OPTIONS,
    &[],
    Some(check),
    None,
    make,
)
.with_refused(REFUSED);

fn make(cfg: &EngineConfig, _rank: usize) -> Box<dyn engine::Engine> {
    let hints_file = cfg
        .text(HINTS_FILE)
        .filter(|t| !t.is_empty())
        .map(Into::into);
    let base = Base::new(API, hints_file, cfg.flag("hdf5.showHints"));
    let lib = Hdf5 {
        opts: H5Options::of(cfg),
    };
    Box::new(PioEngine::new(lib, base))
}

fn check(cfg: &EngineConfig, workload: &Workload) -> Result<(), String> {
    check_mpi(API)?;
    check_hints_file(cfg, HINTS_FILE)?;
    let Workload::Io(shape) = workload else {
        return Ok(());
    };
    check_shape(&H5Options::of(cfg), shape)
}

fn check_shape(opts: &H5Options, s: &IoShape) -> Result<(), String> {
    if s.random_offset {
        return Err("random offset not available with HDF5 (-z with -a HDF5)".into());
    }
    // A file per process is HDF5's on MPI_COMM_SELF: nobody else takes part in its calls.
    if s.stonewall && !s.collective && !s.file_per_proc {
        return Err(
            "-D with -a HDF5 on a shared file needs -c: HDF5 creates and closes datasets \
             collectively, and ranks that stop in different segments would wait for each \
             other for ever"
                .into(),
        );
    }
    if s.collective && s.stonewall && !s.wear_out {
        return Err(COLLECTIVE_STONEWALL.into());
    }
    if opts.chunk > 0 && opts.chunk * 8 > s.block_size {
        return Err(format!(
            "--hdf5.chunkSize {}: a chunk of {} bytes is larger than -b {} (a dataset holds \
             at least one block)",
            opts.chunk,
            opts.chunk * 8,
            s.block_size
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shape() -> IoShape {
        IoShape {
            transfer_size: 1024,
            block_size: 4096,
            ..IoShape::default()
        }
    }

    #[test]
    fn refusals_name_the_options() {
        let o = H5Options::default();
        assert!(check_shape(&o, &shape()).is_ok());
        let z = IoShape {
            random_offset: true,
            ..shape()
        };
        assert!(check_shape(&o, &z)
            .unwrap_err()
            .contains("random offset not available with HDF5"));
        let d = |c, w| IoShape {
            stonewall: true,
            collective: c,
            wear_out: w,
            ..shape()
        };
        assert!(check_shape(&o, &d(false, true))
            .unwrap_err()
            .contains("-D with -a HDF5 on a shared file needs -c"));
        assert!(check_shape(&o, &d(true, false))
            .unwrap_err()
            .contains("stoneWallingWearOut"));
        assert!(check_shape(&o, &d(true, true)).is_ok());
        let own_files = IoShape {
            file_per_proc: true,
            ..d(false, false)
        };
        assert!(
            check_shape(&o, &own_files).is_ok(),
            "-F -D: nothing collective"
        );
        let big = H5Options {
            chunk: 1024,
            ..H5Options::default()
        };
        assert!(check_shape(&big, &shape())
            .unwrap_err()
            .contains("--hdf5.chunkSize 1024"));
    }
}
