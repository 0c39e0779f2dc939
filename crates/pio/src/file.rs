//! An open `-a MPIIO` file: each transfer as IOR's `MPIIO_Xfer` moves it (`docs/pio.md`).
//! Without a view, explicit offsets (`MPI_File_write_at`, `_at_all` with `-c`); with
//! `--mpiio.useFileView`, a seek to the transfer's place in the rank's view and a write of
//! one transfer; with `--mpiio.useStridedDatatype` as well, IOR's strided copies.

use std::io;

use engine::{EngineFile, IorLayout};

use crate::ffi::{Calls, Datatype, File};
use crate::view;

/// How a file is addressed, from IOR's options.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ViewMode {
    /// Explicit offsets (the default).
    Offsets,
    /// `--mpiio.useFileView`.
    FileView,
    /// `--mpiio.useFileView --mpiio.useStridedDatatype`.
    Strided,
}

/// How transfers address the file.
enum Addressing {
    /// Explicit byte offsets under the default view.
    Offsets,
    /// IOR's file view: the transfer's index in the view, one transfer type per call.
    View {
        layout: IorLayout,
        transfer: Datatype,
    },
    /// IOR's strided datatype: a view set at each moved transfer's offset, `segments`
    /// copies of the transfer written through it.
    Strided {
        layout: IorLayout,
        rank: u64,
        etype: Datatype,
        filetype: Datatype,
        transfer: Datatype,
    },
}

pub struct MpiioFile {
    // Declared first: dropped (closed) before the types of `addressing` are freed.
    file: Option<File>,
    calls: Calls,
    addressing: Addressing,
}

fn too_large(what: &str) -> io::Error {
    io::Error::new(
        io::ErrorKind::InvalidInput,
        format!("{what} does not fit MPI's int"),
    )
}

impl MpiioFile {
    /// The file after its open, with the view of `--mpiio.useFileView` set (collective).
    pub fn new(
        file: File,
        view: ViewMode,
        layout: Option<&IorLayout>,
        rank: u64,
    ) -> io::Result<Self> {
        let calls = match layout {
            Some(l) if l.collective => Calls::Collective,
            _ => Calls::Independent,
        };
        let addressing = match (layout, view) {
            (Some(l), ViewMode::FileView | ViewMode::Strided) => {
                let words = i32::try_from(l.transfer / 8).map_err(|_| too_large("-t / 8"))?;
                let etype = Datatype::contiguous_words(words)?;
                let transfer = Datatype::resized(&etype, 0)?;
                if view == ViewMode::Strided {
                    let extent = view::strided_stride(l) as i64;
                    Addressing::Strided {
                        layout: *l,
                        rank,
                        filetype: Datatype::resized(&etype, extent)?,
                        etype,
                        transfer,
                    }
                } else {
                    let (sizes, subsizes, starts) =
                        view::subarray(l).ok_or_else(|| too_large("(-b / -t) x tasks"))?;
                    let filetype = Datatype::subarray(&etype, sizes, subsizes, starts)?;
                    file.set_view(0, &etype, &filetype)?;
                    // The view holds its own references: the types may go once it is set.
                    Addressing::View {
                        layout: *l,
                        transfer,
                    }
                }
            }
            _ => Addressing::Offsets,
        };
        Ok(MpiioFile {
            file: Some(file),
            calls,
            addressing,
        })
    }

    fn file(&self) -> &File {
        self.file.as_ref().expect("open until closed")
    }
}

/// A collective transfer that moved less than asked: IOR does not retry one (a retry by one
/// rank alone would wait for the others for ever), it stops.
fn whole(calls: Calls, op: &str, moved: usize, want: usize) -> io::Result<usize> {
    if calls == Calls::Collective && moved < want {
        return Err(io::Error::other(format!(
            "not retrying collective {op}: {moved} of {want} bytes moved"
        )));
    }
    Ok(moved)
}

impl EngineFile for MpiioFile {
    fn write_at(&mut self, buf: &[u8], offset: u64) -> io::Result<usize> {
        let file = self.file.as_ref().expect("open until closed");
        match &self.addressing {
            Addressing::Offsets => {
                let n = file.write_at(self.calls, buf, offset)?;
                whole(self.calls, "write", n, buf.len())
            }
            Addressing::View { layout, transfer } => {
                file.seek(view::view_index(layout, offset))?;
                let n = file.write(self.calls, buf, 1, transfer)?;
                whole(self.calls, "write", n, buf.len())
            }
            Addressing::Strided {
                layout,
                rank,
                etype,
                filetype,
                transfer,
            } => {
                if !view::strided_moves(layout, *rank, offset) {
                    // IOR counts the transfer as done without moving it.
                    return Ok(buf.len());
                }
                file.set_view(offset, etype, filetype)?;
                file.write(self.calls, buf, segments(layout)?, transfer)
            }
        }
    }

    fn read_at(&mut self, buf: &mut [u8], offset: u64) -> io::Result<usize> {
        let file = self.file.as_ref().expect("open until closed");
        match &self.addressing {
            Addressing::Offsets => {
                let n = file.read_at(self.calls, buf, offset)?;
                whole(self.calls, "read", n, buf.len())
            }
            Addressing::View { layout, transfer } => {
                file.seek(view::view_index(layout, offset))?;
                let n = file.read(self.calls, buf, 1, transfer)?;
                whole(self.calls, "read", n, buf.len())
            }
            Addressing::Strided {
                layout,
                rank,
                etype,
                filetype,
                transfer,
            } => {
                if !view::strided_moves(layout, *rank, offset) {
                    return Ok(buf.len());
                }
                file.set_view(offset, etype, filetype)?;
                file.read(self.calls, buf, segments(layout)?, transfer)
            }
        }
    }

    fn sync(&mut self) -> io::Result<()> {
        self.file().sync()
    }

    fn close(mut self: Box<Self>) -> io::Result<()> {
        match self.file.take() {
            Some(f) => f.close(),
            None => Ok(()),
        }
    }
}

/// IOR's count of strided copies: `-s`.
fn segments(l: &IorLayout) -> io::Result<i32> {
    i32::try_from(l.segments).map_err(|_| too_large("-s"))
}
