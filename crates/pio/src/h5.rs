//! HDF5's C calls (hdf5-metno-sys, built on the binary's MPI) as owned handles: each id is
//! closed by its own `H5?close` when dropped, and a failed call is an [`io::Error`] naming
//! it. HDF5's own printing of its error stack is turned off: the engine reports one line.

use std::ffi::c_void;
use std::io;
use std::ptr;
use std::sync::Once;

use hdf5_metno_sys::h5::{herr_t, hsize_t, H5get_libversion, H5open};
use hdf5_metno_sys::h5e::{H5Eset_auto2, H5E_DEFAULT};
use hdf5_metno_sys::h5i::hid_t;

/// Starts the library once per process (the class ids and native types are valid after it)
/// and turns its automatic error printing off.
pub fn start() -> io::Result<()> {
    static START: Once = Once::new();
    let mut rc = 0;
    START.call_once(|| {
        // SAFETY: library initialisation, then a process-wide setting; no pointers kept.
        unsafe {
            rc = H5open();
            H5Eset_auto2(H5E_DEFAULT, None, ptr::null_mut());
        }
    });
    ok("H5open", rc)
}

/// The library's version, `(1, 10, 8)`.
pub fn version() -> (u32, u32, u32) {
    let (mut a, mut b, mut c) = (0, 0, 0);
    // SAFETY: out-parameters only; callable before H5open.
    unsafe { H5get_libversion(&mut a, &mut b, &mut c) };
    (a, b, c)
}

/// `rc` of `call` (negative: failed).
pub fn ok(call: &str, rc: herr_t) -> io::Result<()> {
    if rc < 0 {
        Err(io::Error::other(format!("{call} failed (HDF5)")))
    } else {
        Ok(())
    }
}

/// An HDF5 id and the call that closes it.
pub struct Handle {
    id: hid_t,
    close: unsafe extern "C" fn(hid_t) -> herr_t,
    what: &'static str,
}

// SAFETY: HDF5's ids are plain integers; a rank's engine and its files stay on the thread
// that started MPI (funneled), `Send` only lets the engine be built there.
unsafe impl Send for Handle {}

impl Handle {
    /// The id `call` returned, closed by `close` (named `what` in its error).
    pub fn new(
        call: &str,
        id: hid_t,
        close: unsafe extern "C" fn(hid_t) -> herr_t,
        what: &'static str,
    ) -> io::Result<Handle> {
        if id < 0 {
            return Err(io::Error::other(format!("{call} failed (HDF5)")));
        }
        Ok(Handle { id, close, what })
    }

    pub fn id(&self) -> hid_t {
        self.id
    }

    /// Closes now, reporting a failure (a file's close is where HDF5 writes its metadata).
    pub fn close(mut self) -> io::Result<()> {
        let id = std::mem::replace(&mut self.id, -1);
        // SAFETY: an id this handle owns, closed once.
        ok(self.what, unsafe { (self.close)(id) })
    }
}

impl Drop for Handle {
    fn drop(&mut self) {
        if self.id >= 0 {
            // SAFETY: as in close.
            unsafe { (self.close)(self.id) };
        }
    }
}

/// A 1-D hyperslab of `block` elements at `start` (IOR's selection: stride `block`, count 1).
pub fn select(space: &Handle, start: u64, block: u64) -> io::Result<()> {
    use hdf5_metno_sys::h5s::{H5S_seloper_t, H5Sselect_hyperslab};
    let (start, stride, count, block): ([hsize_t; 1], [hsize_t; 1], [hsize_t; 1], [hsize_t; 1]) =
        ([start], [block], [1], [block]);
    // SAFETY: four one-element arrays for a one-dimensional space.
    ok("H5Sselect_hyperslab", unsafe {
        H5Sselect_hyperslab(
            space.id(),
            H5S_seloper_t::H5S_SELECT_SET,
            start.as_ptr(),
            stride.as_ptr(),
            count.as_ptr(),
            block.as_ptr(),
        )
    })
}

/// A fixed 1-D data space of `n` elements.
pub fn space(n: u64) -> io::Result<Handle> {
    use hdf5_metno_sys::h5s::{H5Sclose, H5Screate_simple};
    let dims: [hsize_t; 1] = [n];
    // SAFETY: one dimension, no maximum (fixed).
    let id = unsafe { H5Screate_simple(1, dims.as_ptr(), ptr::null()) };
    Handle::new("H5Screate_simple", id, H5Sclose, "H5Sclose")
}

/// The MPI file under an open HDF5 file (`H5Fget_vfd_handle`), for its hints.
pub fn mpi_file(file: &Handle, fapl: &Handle) -> io::Result<exec::mpi::ffi::MPI_File> {
    use hdf5_metno_sys::h5f::H5Fget_vfd_handle;
    let mut handle: *mut c_void = ptr::null_mut();
    // SAFETY: an open file and its access list; HDF5 points `handle` at its MPI_File.
    ok("H5Fget_vfd_handle", unsafe {
        H5Fget_vfd_handle(file.id(), fapl.id(), &mut handle)
    })?;
    if handle.is_null() {
        return Err(io::Error::other("H5Fget_vfd_handle gave no MPI file"));
    }
    // SAFETY: the MPI-IO driver's handle is a pointer to its MPI_File.
    Ok(unsafe { *(handle as *const exec::mpi::ffi::MPI_File) })
}
