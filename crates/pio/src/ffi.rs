//! MPI-IO's calls made safe: rsmpi wraps none of `MPI_File_*`, `MPI_Info_*` or the derived
//! datatypes IOR's views use, so this file calls mpi-sys directly. Files are opened with
//! MPI's default error handler for files, `MPI_ERRORS_RETURN`: every return code is checked
//! and turned into an [`io::Error`] naming the call and MPI's own text. Constants come from
//! the bindings (their values differ between Open MPI and MPICH); `MPI_BYTE` is the shim's
//! `RSMPI_UINT8_T` and `MPI_LONG_LONG_INT` its `RSMPI_INT64_T` (same sizes, and under the
//! "native" representation the same bytes).

use std::ffi::{c_char, c_int, CStr, CString};
use std::io;
use std::mem::MaybeUninit;
use std::os::unix::ffi::OsStrExt;
use std::path::Path;

use exec::mpi::ffi;

pub use ffi::{MPI_Comm, MPI_Offset};

/// `rc` of `call` as a result.
pub fn check(call: &str, rc: c_int) -> io::Result<()> {
    if rc == ffi::MPI_SUCCESS as c_int {
        Ok(())
    } else {
        Err(error(call, rc))
    }
}

/// MPI's error `rc` as an I/O error of the kind its class says, with MPI's text.
fn error(call: &str, rc: c_int) -> io::Error {
    let mut class: c_int = 0;
    // SAFETY: a plain query with an out-parameter.
    unsafe { ffi::MPI_Error_class(rc, &mut class) };
    let kind = match class as u32 {
        ffi::MPI_ERR_NO_SUCH_FILE => io::ErrorKind::NotFound,
        ffi::MPI_ERR_ACCESS | ffi::MPI_ERR_READ_ONLY => io::ErrorKind::PermissionDenied,
        ffi::MPI_ERR_FILE_EXISTS => io::ErrorKind::AlreadyExists,
        ffi::MPI_ERR_NO_SPACE | ffi::MPI_ERR_QUOTA => io::ErrorKind::StorageFull,
        _ => io::ErrorKind::Other,
    };
    io::Error::new(kind, format!("{call}: {}", error_string(rc)))
}

fn error_string(rc: c_int) -> String {
    let mut buf = vec![0 as c_char; ffi::MPI_MAX_ERROR_STRING as usize + 1];
    let mut len: c_int = 0;
    // SAFETY: the buffer holds MPI_MAX_ERROR_STRING characters, as the standard asks.
    let ok = unsafe { ffi::MPI_Error_string(rc, buf.as_mut_ptr(), &mut len) };
    if ok != ffi::MPI_SUCCESS as c_int {
        return format!("MPI error {rc}");
    }
    let bytes: Vec<u8> = buf[..len.max(0) as usize]
        .iter()
        .map(|&c| c as u8)
        .collect();
    String::from_utf8_lossy(&bytes).into_owned()
}

pub fn c_path(path: &Path) -> io::Result<CString> {
    CString::new(path.as_os_str().as_bytes())
        .map_err(|_| io::Error::new(io::ErrorKind::InvalidInput, "a NUL byte in the path"))
}

fn c_text(text: &str) -> io::Result<CString> {
    CString::new(text).map_err(|_| io::Error::new(io::ErrorKind::InvalidInput, "a NUL byte"))
}

/// `MPI_COMM_SELF`: a file of one process's own (IOR's `-F`).
pub fn comm_self() -> MPI_Comm {
    // SAFETY: a constant of the shim, valid while MPI is initialised.
    unsafe { ffi::RSMPI_COMM_SELF }
}

/// The MPI standard's version, `(3, 1)`.
pub fn version() -> (i32, i32) {
    let (mut v, mut s) = (0, 0);
    // SAFETY: out-parameters only; callable before and after initialisation.
    unsafe { ffi::MPI_Get_version(&mut v, &mut s) };
    (v, s)
}

/// An `MPI_Info` object: hints for an open.
pub struct Info(ffi::MPI_Info);

impl Info {
    /// An info holding `pairs`, set in order (a later key replaces an earlier one).
    pub fn new(pairs: &[(String, String)]) -> io::Result<Info> {
        let mut raw = MaybeUninit::uninit();
        // SAFETY: MPI writes the handle on success.
        check("MPI_Info_create", unsafe {
            ffi::MPI_Info_create(raw.as_mut_ptr())
        })?;
        // SAFETY: initialised by the successful call above.
        let info = Info(unsafe { raw.assume_init() });
        for (key, value) in pairs {
            let (k, v) = (c_text(key)?, c_text(value)?);
            // SAFETY: both strings are NUL-terminated and live across the call.
            check("MPI_Info_set", unsafe {
                ffi::MPI_Info_set(info.0, k.as_ptr(), v.as_ptr())
            })?;
        }
        Ok(info)
    }

    pub fn raw(&self) -> ffi::MPI_Info {
        self.0
    }

    /// Every key and value, in `MPI_Info_get_nthkey` order (values cut at
    /// `MPI_MAX_INFO_VAL - 1` bytes, as IOR reads them).
    pub fn pairs(&self) -> io::Result<Vec<(String, String)>> {
        let mut n: c_int = 0;
        // SAFETY: an out-parameter.
        check("MPI_Info_get_nkeys", unsafe {
            ffi::MPI_Info_get_nkeys(self.0, &mut n)
        })?;
        let mut out = Vec::with_capacity(n.max(0) as usize);
        for i in 0..n {
            let mut key = vec![0 as c_char; ffi::MPI_MAX_INFO_KEY as usize + 1];
            // SAFETY: the buffer has MPI_MAX_INFO_KEY + 1 characters, as the standard asks.
            check("MPI_Info_get_nthkey", unsafe {
                ffi::MPI_Info_get_nthkey(self.0, i, key.as_mut_ptr())
            })?;
            let mut value = vec![0 as c_char; ffi::MPI_MAX_INFO_VAL as usize + 1];
            let mut flag: c_int = 0;
            // SAFETY: valuelen is one below the buffer's length, which leaves room for NUL.
            check("MPI_Info_get", unsafe {
                ffi::MPI_Info_get(
                    self.0,
                    key.as_ptr(),
                    ffi::MPI_MAX_INFO_VAL as c_int - 1,
                    value.as_mut_ptr(),
                    &mut flag,
                )
            })?;
            // SAFETY: both buffers were zeroed and are NUL-terminated within their length.
            let text = |b: &[c_char]| unsafe { CStr::from_ptr(b.as_ptr()) }.to_string_lossy();
            out.push((text(&key).into_owned(), text(&value).into_owned()));
        }
        Ok(out)
    }
}

impl Drop for Info {
    fn drop(&mut self) {
        // SAFETY: the handle is ours and freed once.
        unsafe { ffi::MPI_Info_free(&mut self.0) };
    }
}

/// How a file is opened (IOR's amodes: never RDWR).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Access {
    /// `MPI_MODE_WRONLY | MPI_MODE_CREATE | MPI_MODE_UNIQUE_OPEN`.
    Write,
    /// `MPI_MODE_RDONLY | MPI_MODE_UNIQUE_OPEN`.
    Read,
}

impl Access {
    fn amode(self) -> c_int {
        let bits = match self {
            Access::Write => ffi::MPI_MODE_WRONLY | ffi::MPI_MODE_CREATE,
            Access::Read => ffi::MPI_MODE_RDONLY,
        };
        (bits | ffi::MPI_MODE_UNIQUE_OPEN) as c_int
    }
}

/// A derived datatype, committed, freed when dropped.
pub struct Datatype(ffi::MPI_Datatype);

/// `MPI_BYTE`.
pub fn byte() -> ffi::MPI_Datatype {
    // SAFETY: a constant of the shim.
    unsafe { ffi::RSMPI_UINT8_T }
}

impl Datatype {
    fn committed(
        call: &str,
        make: impl FnOnce(*mut ffi::MPI_Datatype) -> c_int,
    ) -> io::Result<Self> {
        let mut raw = MaybeUninit::uninit();
        check(call, make(raw.as_mut_ptr()))?;
        // SAFETY: initialised by the successful call.
        let mut t = unsafe { raw.assume_init() };
        // SAFETY: a type just made; committed once.
        check("MPI_Type_commit", unsafe { ffi::MPI_Type_commit(&mut t) })?;
        Ok(Datatype(t))
    }

    /// `count` 8-byte integers (IOR's `MPI_LONG_LONG_INT` transfer type).
    pub fn contiguous_words(count: i32) -> io::Result<Self> {
        // SAFETY: a constant of the shim; the out-pointer is MPI's to fill.
        Self::committed("MPI_Type_contiguous", |out| unsafe {
            ffi::MPI_Type_contiguous(count, ffi::RSMPI_INT64_T, out)
        })
    }

    /// `old` with its lower bound at 0 and its extent set to `extent` bytes.
    pub fn resized(old: &Datatype, extent: i64) -> io::Result<Self> {
        // SAFETY: `old` is a valid committed type.
        Self::committed("MPI_Type_create_resized", |out| unsafe {
            ffi::MPI_Type_create_resized(old.0, 0, extent as ffi::MPI_Aint, out)
        })
    }

    /// A 2-D C-order subarray of `old` elements (IOR's file view).
    pub fn subarray(
        old: &Datatype,
        sizes: [i32; 2],
        subsizes: [i32; 2],
        starts: [i32; 2],
    ) -> io::Result<Self> {
        // SAFETY: the three arrays have `ndims` = 2 elements and outlive the call.
        Self::committed("MPI_Type_create_subarray", |out| unsafe {
            ffi::MPI_Type_create_subarray(
                2,
                sizes.as_ptr(),
                subsizes.as_ptr(),
                starts.as_ptr(),
                ffi::MPI_ORDER_C as c_int,
                old.0,
                out,
            )
        })
    }

    pub fn raw(&self) -> ffi::MPI_Datatype {
        self.0
    }
}

impl Drop for Datatype {
    fn drop(&mut self) {
        // SAFETY: ours, freed once.
        unsafe { ffi::MPI_Type_free(&mut self.0) };
    }
}

/// Whether a transfer call is independent or collective (`_all`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Calls {
    Independent,
    Collective,
}

/// An open MPI file; [`File::close`] closes it (collective), dropping closes it too.
pub struct File {
    fh: ffi::MPI_File,
}

// SAFETY: MPI is initialised funneled and a rank's engine, its files included, lives on the
// thread that started MPI; `Send` only lets the engine trait object be built there.
unsafe impl Send for File {}
unsafe impl Send for Info {}
unsafe impl Send for Datatype {}

/// The bytes a finished transfer moved (`MPI_Get_elements_x` of `MPI_BYTE`).
fn moved(status: &ffi::MPI_Status) -> io::Result<usize> {
    let mut n: ffi::MPI_Count = 0;
    // SAFETY: `status` was filled by the transfer call.
    check("MPI_Get_elements_x", unsafe {
        ffi::MPI_Get_elements_x(status, byte(), &mut n)
    })?;
    Ok(n.max(0) as usize)
}

/// A count of `len` bytes as MPI's `int` (IOR: "count too large for this MPI implementation").
fn count(len: usize) -> io::Result<c_int> {
    c_int::try_from(len).map_err(|_| {
        io::Error::new(
            io::ErrorKind::InvalidInput,
            "count too large for this MPI implementation (a transfer above 2 GiB - 1 byte)",
        )
    })
}

impl File {
    /// `MPI_File_open` on `comm` (collective over it).
    pub fn open(comm: MPI_Comm, path: &Path, access: Access, info: &Info) -> io::Result<File> {
        let name = c_path(path)?;
        let mut fh = MaybeUninit::uninit();
        // SAFETY: a NUL-terminated name, a valid communicator and info, an out-handle.
        check("MPI_File_open", unsafe {
            ffi::MPI_File_open(
                comm,
                name.as_ptr(),
                access.amode(),
                info.raw(),
                fh.as_mut_ptr(),
            )
        })?;
        // SAFETY: filled on success.
        Ok(File {
            fh: unsafe { fh.assume_init() },
        })
    }

    /// `MPI_File_set_size` (collective).
    pub fn set_size(&self, size: u64) -> io::Result<()> {
        // SAFETY: an open handle.
        check("MPI_File_set_size", unsafe {
            ffi::MPI_File_set_size(self.fh, size as MPI_Offset)
        })
    }

    /// `MPI_File_preallocate` (collective).
    pub fn preallocate(&self, size: u64) -> io::Result<()> {
        // SAFETY: an open handle.
        check("MPI_File_preallocate", unsafe {
            ffi::MPI_File_preallocate(self.fh, size as MPI_Offset)
        })
    }

    /// `MPI_File_get_size`.
    pub fn size(&self) -> io::Result<u64> {
        let mut n: MPI_Offset = 0;
        // SAFETY: an open handle, an out-parameter.
        check("MPI_File_get_size", unsafe {
            ffi::MPI_File_get_size(self.fh, &mut n)
        })?;
        Ok(n.max(0) as u64)
    }

    /// The hints the library put in effect (`MPI_File_get_info`).
    pub fn info(&self) -> io::Result<Vec<(String, String)>> {
        // SAFETY: the handle is open while `self` lives.
        unsafe { file_info(self.fh) }
    }

    /// `MPI_File_set_view(disp, etype, filetype, "native", MPI_INFO_NULL)` (collective).
    pub fn set_view(&self, disp: u64, etype: &Datatype, filetype: &Datatype) -> io::Result<()> {
        // SAFETY: valid committed types, a NUL-terminated representation name.
        check("MPI_File_set_view", unsafe {
            ffi::MPI_File_set_view(
                self.fh,
                disp as MPI_Offset,
                etype.raw(),
                filetype.raw(),
                c"native".as_ptr(),
                ffi::RSMPI_INFO_NULL,
            )
        })
    }

    /// `MPI_File_seek(offset, MPI_SEEK_SET)`, `offset` in etypes of the view.
    pub fn seek(&self, offset: u64) -> io::Result<()> {
        // SAFETY: an open handle.
        check("MPI_File_seek", unsafe {
            ffi::MPI_File_seek(self.fh, offset as MPI_Offset, ffi::MPI_SEEK_SET as c_int)
        })
    }

    /// `MPI_File_write_at` (or `_at_all`) of `buf` as bytes at `offset`; the bytes moved.
    pub fn write_at(&self, calls: Calls, buf: &[u8], offset: u64) -> io::Result<usize> {
        let n = count(buf.len())?;
        let mut status = MaybeUninit::<ffi::MPI_Status>::zeroed();
        let (call, f): (&str, WriteAt) = match calls {
            Calls::Independent => ("MPI_File_write_at", ffi::MPI_File_write_at),
            Calls::Collective => ("MPI_File_write_at_all", ffi::MPI_File_write_at_all),
        };
        // SAFETY: `buf` holds `n` bytes for the call's length; status is written by MPI.
        check(call, unsafe {
            f(
                self.fh,
                offset as MPI_Offset,
                buf.as_ptr().cast(),
                n,
                byte(),
                status.as_mut_ptr(),
            )
        })?;
        // SAFETY: filled by the successful call (zeroed before in any case).
        moved(unsafe { status.assume_init_ref() })
    }

    /// `MPI_File_read_at` (or `_at_all`) into `buf` from `offset`; the bytes moved.
    pub fn read_at(&self, calls: Calls, buf: &mut [u8], offset: u64) -> io::Result<usize> {
        let n = count(buf.len())?;
        let mut status = MaybeUninit::<ffi::MPI_Status>::zeroed();
        let (call, f): (&str, ReadAt) = match calls {
            Calls::Independent => ("MPI_File_read_at", ffi::MPI_File_read_at),
            Calls::Collective => ("MPI_File_read_at_all", ffi::MPI_File_read_at_all),
        };
        // SAFETY: `buf` has room for `n` bytes; status is written by MPI.
        check(call, unsafe {
            f(
                self.fh,
                offset as MPI_Offset,
                buf.as_mut_ptr().cast(),
                n,
                byte(),
                status.as_mut_ptr(),
            )
        })?;
        // SAFETY: as in write_at.
        moved(unsafe { status.assume_init_ref() })
    }

    /// `MPI_File_write` (or `_all`) of `count` elements of `datatype` from `buf`, at the
    /// individual file pointer; the bytes moved. `buf` must hold what the type reaches.
    pub fn write(
        &self,
        calls: Calls,
        buf: &[u8],
        n: i32,
        datatype: &Datatype,
    ) -> io::Result<usize> {
        let mut status = MaybeUninit::<ffi::MPI_Status>::zeroed();
        let (call, f): (&str, Write) = match calls {
            Calls::Independent => ("MPI_File_write", ffi::MPI_File_write),
            Calls::Collective => ("MPI_File_write_all", ffi::MPI_File_write_all),
        };
        // SAFETY: the caller's type reads only the bytes of `buf` (extent-0 transfer types).
        check(call, unsafe {
            f(
                self.fh,
                buf.as_ptr().cast(),
                n,
                datatype.raw(),
                status.as_mut_ptr(),
            )
        })?;
        // SAFETY: as in write_at.
        moved(unsafe { status.assume_init_ref() })
    }

    /// `MPI_File_read` (or `_all`) into `buf`, as [`File::write`].
    pub fn read(
        &self,
        calls: Calls,
        buf: &mut [u8],
        n: i32,
        datatype: &Datatype,
    ) -> io::Result<usize> {
        let mut status = MaybeUninit::<ffi::MPI_Status>::zeroed();
        let (call, f): (&str, Read) = match calls {
            Calls::Independent => ("MPI_File_read", ffi::MPI_File_read),
            Calls::Collective => ("MPI_File_read_all", ffi::MPI_File_read_all),
        };
        // SAFETY: as in write; the type's bytes all lie within `buf`.
        check(call, unsafe {
            f(
                self.fh,
                buf.as_mut_ptr().cast(),
                n,
                datatype.raw(),
                status.as_mut_ptr(),
            )
        })?;
        // SAFETY: as in write_at.
        moved(unsafe { status.assume_init_ref() })
    }

    /// `MPI_File_sync` (collective).
    pub fn sync(&self) -> io::Result<()> {
        // SAFETY: an open handle.
        check("MPI_File_sync", unsafe { ffi::MPI_File_sync(self.fh) })
    }

    /// `MPI_File_close` (collective).
    pub fn close(mut self) -> io::Result<()> {
        // SAFETY: an open handle, closed once (Drop sees FILE_NULL after).
        let rc = unsafe { ffi::MPI_File_close(&mut self.fh) };
        // SAFETY: a constant of the shim.
        self.fh = unsafe { ffi::RSMPI_FILE_NULL };
        check("MPI_File_close", rc)
    }
}

type WriteAt = unsafe extern "C" fn(
    ffi::MPI_File,
    MPI_Offset,
    *const std::ffi::c_void,
    c_int,
    ffi::MPI_Datatype,
    *mut ffi::MPI_Status,
) -> c_int;
type ReadAt = unsafe extern "C" fn(
    ffi::MPI_File,
    MPI_Offset,
    *mut std::ffi::c_void,
    c_int,
    ffi::MPI_Datatype,
    *mut ffi::MPI_Status,
) -> c_int;
type Write = unsafe extern "C" fn(
    ffi::MPI_File,
    *const std::ffi::c_void,
    c_int,
    ffi::MPI_Datatype,
    *mut ffi::MPI_Status,
) -> c_int;
type Read = unsafe extern "C" fn(
    ffi::MPI_File,
    *mut std::ffi::c_void,
    c_int,
    ffi::MPI_Datatype,
    *mut ffi::MPI_Status,
) -> c_int;

impl Drop for File {
    fn drop(&mut self) {
        // SAFETY: comparing with the shim's constant; closing an open handle once.
        unsafe {
            if self.fh != ffi::RSMPI_FILE_NULL {
                ffi::MPI_File_close(&mut self.fh);
            }
        }
    }
}

/// The hints in effect on the open file `fh` (`MPI_File_get_info`), also one another library
/// opened (HDF5's, from `H5Fget_vfd_handle`).
///
/// # Safety
/// `fh` must be an open MPI file handle.
pub unsafe fn file_info(fh: ffi::MPI_File) -> io::Result<Vec<(String, String)>> {
    let mut raw = MaybeUninit::uninit();
    // SAFETY: an open handle (the caller's promise); the new info is ours to free.
    check("MPI_File_get_info", unsafe {
        ffi::MPI_File_get_info(fh, raw.as_mut_ptr())
    })?;
    // SAFETY: filled on success.
    Info(unsafe { raw.assume_init() }).pairs()
}

/// `MPI_File_delete(path, MPI_INFO_NULL)`.
pub fn delete(path: &Path) -> io::Result<()> {
    let name = c_path(path)?;
    // SAFETY: a NUL-terminated name.
    check("MPI_File_delete", unsafe {
        ffi::MPI_File_delete(name.as_ptr(), ffi::RSMPI_INFO_NULL)
    })
}
