//! `-a HDF5`: a file opened as IOR's `HDF5_Open` does it (`docs/pio.md`): an access list on
//! the MPI-IO driver with the hints, alignment and collective metadata, created (write,
//! truncating) or opened read-only, then the transfer list (independent, or collective with
//! `-c`), IOR's memory space and the template of its datasets. `h5file.rs` moves the data.

use std::io;
use std::path::Path;

use engine::{Caps, EngineConfig, EngineFile, OpenHints, OpenMode};
use hdf5_metno_sys::h5f::{H5Fclose, H5Fcreate, H5Fopen, H5F_ACC_RDONLY, H5F_ACC_TRUNC};
use hdf5_metno_sys::h5p::{
    H5FD_mpio_xfer_t, H5Pclose, H5Pcreate, H5Pset_alignment, H5Pset_all_coll_metadata_ops,
    H5Pset_chunk, H5Pset_coll_metadata_write, H5Pset_dxpl_mpio, H5Pset_fapl_mpio, H5Pset_fill_time,
    H5P_CLS_DATASET_CREATE, H5P_CLS_DATASET_XFER, H5P_CLS_FILE_ACCESS, H5P_DEFAULT,
};

use crate::engine::{comm_for, library_caps, Base, Library};
use crate::ffi;
use crate::h5::{self, ok, Handle};
use crate::h5file::{Hdf5File, Lists};

/// IOR's `-a` name.
pub const API: &str = "HDF5";

/// The options of one engine, read once.
#[derive(Debug, Clone, Default)]
pub struct H5Options {
    pub alignment: u64,
    pub collective_metadata: bool,
    pub no_fill: bool,
    /// Elements per chunk; 0: contiguous.
    pub chunk: u64,
}

impl H5Options {
    pub fn of(cfg: &EngineConfig) -> Self {
        H5Options {
            alignment: cfg.number("hdf5.setAlignment"),
            collective_metadata: cfg.flag("hdf5.collectiveMetadata"),
            no_fill: cfg.flag("hdf5.noFill"),
            chunk: cfg.number("hdf5.chunkSize"),
        }
    }
}

pub const CAPS: Caps = library_caps(API, true);

pub struct Hdf5 {
    pub opts: H5Options,
}

/// A property list of `class` (an id that is valid after H5open, `h5::start`).
fn plist(class: i64) -> io::Result<Handle> {
    // SAFETY: a plain call with a class id.
    Handle::new(
        "H5Pcreate",
        unsafe { H5Pcreate(class) },
        H5Pclose,
        "H5Pclose",
    )
}

impl Library for Hdf5 {
    fn caps(&self) -> Caps {
        CAPS
    }

    /// IOR's: the library's version and "(Parallel)".
    fn api_version(&self) -> String {
        let (a, b, c) = h5::version();
        format!("{a}.{b}.{c} (Parallel)")
    }

    fn open(
        &self,
        base: &Base,
        path: &Path,
        mode: OpenMode,
        hints: &OpenHints,
    ) -> io::Result<Box<dyn EngineFile>> {
        h5::start()?;
        let layout = hints
            .layout
            .ok_or_else(|| io::Error::other("-a HDF5 writes IOR's datasets: ior only"))?;
        let comm = comm_for(API, Some(&layout))?;
        let info = base.hints()?;
        base.show(
            hints,
            "hints passed to access property list",
            &info.pairs()?,
        );
        // SAFETY (all blocks below): ids made here and valid until their handles drop;
        // the name is NUL-terminated; the arrays have the one dimension they are given as.
        let fapl = plist(*H5P_CLS_FILE_ACCESS)?;
        ok("H5Pset_fapl_mpio", unsafe {
            H5Pset_fapl_mpio(fapl.id(), comm, info.raw())
        })?;
        if self.opts.alignment > 1 {
            let a = self.opts.alignment;
            ok("H5Pset_alignment", unsafe {
                H5Pset_alignment(fapl.id(), a, a)
            })?;
        }
        if self.opts.collective_metadata {
            ok("H5Pset_all_coll_metadata_ops", unsafe {
                H5Pset_all_coll_metadata_ops(fapl.id(), 1)
            })?;
            ok("H5Pset_coll_metadata_write", unsafe {
                H5Pset_coll_metadata_write(fapl.id(), 1)
            })?;
        }
        let name = ffi::c_path(path)?;
        let write = mode != OpenMode::ReadOnly;
        let file = if write {
            // IOR truncates in every write phase, `-E` included.
            let id = unsafe { H5Fcreate(name.as_ptr(), H5F_ACC_TRUNC, H5P_DEFAULT, fapl.id()) };
            Handle::new("H5Fcreate", id, H5Fclose, "H5Fclose")?
        } else {
            let id = unsafe { H5Fopen(name.as_ptr(), H5F_ACC_RDONLY, fapl.id()) };
            Handle::new("H5Fopen", id, H5Fclose, "H5Fclose")?
        };
        // SAFETY: the handle stays open as long as `file`.
        base.opened(hints, unsafe {
            ffi::file_info(h5::mpi_file(&file, &fapl)?)?
        });

        let dxpl = plist(*H5P_CLS_DATASET_XFER)?;
        let xfer = if layout.collective {
            H5FD_mpio_xfer_t::H5FD_MPIO_COLLECTIVE
        } else {
            H5FD_mpio_xfer_t::H5FD_MPIO_INDEPENDENT
        };
        ok("H5Pset_dxpl_mpio", unsafe {
            H5Pset_dxpl_mpio(dxpl.id(), xfer)
        })?;
        let dcpl = plist(*H5P_CLS_DATASET_CREATE)?;
        if self.opts.chunk > 0 {
            let dims = [self.opts.chunk];
            ok("H5Pset_chunk", unsafe {
                H5Pset_chunk(dcpl.id(), 1, dims.as_ptr())
            })?;
        }
        if self.opts.no_fill {
            use hdf5_metno_sys::h5d::H5D_fill_time_t::H5D_FILL_TIME_NEVER;
            ok("H5Pset_fill_time", unsafe {
                H5Pset_fill_time(dcpl.id(), H5D_FILL_TIME_NEVER)
            })?;
        }
        // IOR's memory space: `t` elements of which the first `t/8` are selected.
        let words = layout.transfer / 8;
        let memspace = h5::space(layout.transfer)?;
        h5::select(&memspace, 0, words)?;
        let tasks = if layout.file_per_proc {
            1
        } else {
            layout.tasks
        };
        let template = h5::space(tasks * layout.block / 8)?;
        let lists = Lists {
            dxpl,
            dcpl,
            memspace,
            template,
        };
        drop(fapl);
        Ok(Box::new(Hdf5File::new(file, lists, layout, write)))
    }
}
