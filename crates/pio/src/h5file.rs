//! An open `-a HDF5` file: IOR's datasets, one per segment (`Dataset-0000.0000`, ...), each
//! `N·b/8` native 8-byte integers (`-F`: `b/8`). A dataset starts at each block's first
//! transfer, created in a write phase and opened otherwise (both collective, so every rank
//! of a shared file starts the same datasets in the same order), and each transfer is a
//! hyperslab of `t/8` elements at the transfer's place in it (`docs/pio.md`).

use std::ffi::CString;
use std::io;

use engine::{EngineFile, IorLayout};
use hdf5_metno_sys::h5d::{H5Dclose, H5Dcreate2, H5Dget_space, H5Dopen2, H5Dread, H5Dwrite};
use hdf5_metno_sys::h5f::{H5F_scope_t, H5Fflush};
use hdf5_metno_sys::h5p::H5P_DEFAULT;
use hdf5_metno_sys::h5s::H5Sclose;
use hdf5_metno_sys::h5t::H5T_NATIVE_LLONG;

use crate::h5::{self, ok, Handle};

/// The lists and spaces an open file keeps for its transfers.
pub struct Lists {
    pub dxpl: Handle,
    pub dcpl: Handle,
    pub memspace: Handle,
    /// The space every dataset is created with.
    pub template: Handle,
}

/// The dataset transfers go to, and its space (the selection of each transfer).
struct Dataset {
    space: Handle,
    set: Handle,
}

pub struct Hdf5File {
    // Closed in this order: the dataset, the lists, then the file.
    dataset: Option<Dataset>,
    lists: Lists,
    file: Option<Handle>,
    layout: IorLayout,
    write: bool,
    /// The next dataset's number (IOR's per-file counter).
    next: u64,
}

/// IOR's name of dataset `n` (`Dataset-%04d.%04d`; the first number is 0 for every rank).
pub fn dataset_name(n: u64) -> String {
    format!("Dataset-0000.{n:04}")
}

impl Hdf5File {
    pub fn new(file: Handle, lists: Lists, layout: IorLayout, write: bool) -> Self {
        Hdf5File {
            dataset: None,
            lists,
            file: Some(file),
            layout,
            write,
            next: 0,
        }
    }

    /// Bytes of one segment in the file, and where this rank's block starts in it.
    fn segment(&self) -> (u64, u64) {
        let l = &self.layout;
        if l.file_per_proc {
            (l.block, 0)
        } else {
            (l.tasks * l.block, l.pretend * l.block)
        }
    }

    /// The dataset of the transfer at `offset` with its selection made: a new one at a
    /// block's first transfer.
    fn dataset_for(&mut self, offset: u64) -> io::Result<&Dataset> {
        let (segment, mine) = self.segment();
        let within = offset % segment;
        if within == mine || self.dataset.is_none() {
            self.start_dataset()?;
        }
        let t = self.layout.transfer;
        let d = self.dataset.as_ref().expect("started above");
        h5::select(&d.space, within / 8, t / 8)?;
        Ok(d)
    }

    fn start_dataset(&mut self) -> io::Result<()> {
        // IOR closes the last one first (collective, as the create or open that follows).
        self.dataset = None;
        let name = CString::new(dataset_name(self.next)).expect("no NUL");
        self.next += 1;
        let file = self.file.as_ref().expect("open until closed").id();
        // SAFETY: valid ids; a NUL-terminated name; native long long after H5open.
        let id = unsafe {
            if self.write {
                H5Dcreate2(
                    file,
                    name.as_ptr(),
                    *H5T_NATIVE_LLONG,
                    self.lists.template.id(),
                    H5P_DEFAULT,
                    self.lists.dcpl.id(),
                    H5P_DEFAULT,
                )
            } else {
                H5Dopen2(file, name.as_ptr(), H5P_DEFAULT)
            }
        };
        let call = if self.write { "H5Dcreate2" } else { "H5Dopen2" };
        let set = Handle::new(call, id, H5Dclose, "H5Dclose")?;
        // SAFETY: an open dataset.
        let space = Handle::new(
            "H5Dget_space",
            unsafe { H5Dget_space(set.id()) },
            H5Sclose,
            "H5Sclose",
        )?;
        self.dataset = Some(Dataset { space, set });
        Ok(())
    }
}

impl EngineFile for Hdf5File {
    fn write_at(&mut self, buf: &[u8], offset: u64) -> io::Result<usize> {
        let (dxpl, memspace) = (self.lists.dxpl.id(), self.lists.memspace.id());
        let d = self.dataset_for(offset)?;
        // SAFETY: the memory space selects t/8 elements, the `buf.len()` bytes of `buf`.
        ok("H5Dwrite", unsafe {
            H5Dwrite(
                d.set.id(),
                *H5T_NATIVE_LLONG,
                memspace,
                d.space.id(),
                dxpl,
                buf.as_ptr().cast(),
            )
        })?;
        Ok(buf.len())
    }

    fn read_at(&mut self, buf: &mut [u8], offset: u64) -> io::Result<usize> {
        let (dxpl, memspace) = (self.lists.dxpl.id(), self.lists.memspace.id());
        let d = self.dataset_for(offset)?;
        // SAFETY: as in write_at; HDF5 writes t/8 elements into `buf`.
        ok("H5Dread", unsafe {
            H5Dread(
                d.set.id(),
                *H5T_NATIVE_LLONG,
                memspace,
                d.space.id(),
                dxpl,
                buf.as_mut_ptr().cast(),
            )
        })?;
        Ok(buf.len())
    }

    /// IOR's `-e` and `-Y`: `H5Fflush(H5F_SCOPE_LOCAL)` (collective).
    fn sync(&mut self) -> io::Result<()> {
        let file = self.file.as_ref().expect("open until closed").id();
        // SAFETY: an open file.
        ok("H5Fflush", unsafe {
            H5Fflush(file, H5F_scope_t::H5F_SCOPE_LOCAL)
        })
    }

    fn close(mut self: Box<Self>) -> io::Result<()> {
        self.dataset = None;
        match self.file.take() {
            Some(f) => f.close(),
            None => Ok(()),
        }
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn dataset_names_as_ior_prints_them() {
        assert_eq!(super::dataset_name(0), "Dataset-0000.0000");
        assert_eq!(super::dataset_name(17), "Dataset-0000.0017");
        assert_eq!(super::dataset_name(10000), "Dataset-0000.10000");
    }
}
