//! DLIO's data generation (`workflow.generate_data`): which files, how large, and their bytes.
//!
//! * `layout`: file names, subfolders and the order DLIO's loaders list a split in;
//! * `sizes`: DLIO's per-file sample shape, drawn from its distribution, keyed per file;
//! * `npz`, `tfrecord` (with `example`), `jpeg`: the bytes of one file, into a caller's buffer
//!   (no file I/O here: the workload writes and times them through the engine);
//! * `share`: which rank makes which file (DLIO's round robin);
//! * `FileEncoder`: the one entry point, from a `GenSpec` and a file's split and index.
//!
//! Every rank can make any file alone: the shape and the content are functions of (seed, split,
//! index), so ranks split the files among them with no coordination.

pub mod example;
pub mod fill;
pub mod jpeg;
pub mod layout;
pub mod npy;
pub mod npz;
pub mod share;
pub mod sizes;
pub mod tfrecord;

pub use layout::{sort_as_dlio, Layout, Split};
pub use share::rank_files;
pub use sizes::{Dims, SizeModel};

use crate::rng::mix2;

/// The file formats generated (DLIO's `dataset.format` names).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum DataFormat {
    Npz,
    Tfrecord,
    Jpeg,
}

impl DataFormat {
    pub const ALL: [DataFormat; 3] = [DataFormat::Npz, DataFormat::Tfrecord, DataFormat::Jpeg];

    /// DLIO's name, also the files' extension.
    pub fn name(self) -> &'static str {
        match self {
            DataFormat::Npz => "npz",
            DataFormat::Tfrecord => "tfrecord",
            DataFormat::Jpeg => "jpeg",
        }
    }

    pub fn extension(self) -> &'static str {
        self.name()
    }

    /// The format DLIO calls `name` (None for formats not generated here).
    pub fn from_name(name: &str) -> Option<DataFormat> {
        DataFormat::ALL.into_iter().find(|f| f.name() == name)
    }
}

/// What shapes every file of a data set (the lead maps DLIO's `dataset.*` keys onto it).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct GenSpec {
    pub format: DataFormat,
    /// `record_length_bytes` (`record_length` in DLIO 2.0.0).
    pub record_length: u64,
    /// `record_length_bytes_stdev`.
    pub record_length_stdev: u64,
    /// `num_samples_per_file`.
    pub samples_per_file: u64,
    /// Keys every file's shape and content; a fixed value gives the same data set every time.
    pub seed: u64,
}

/// A `GenSpec` that cannot make files, with the DLIO key to blame.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("dataset.{key}: {reason}")]
pub struct SpecError {
    pub key: &'static str,
    pub reason: String,
}

/// Making one file's bytes failed (the buffer would not fit in memory, or a library refused).
#[derive(Debug, thiserror::Error)]
pub enum EncodeError {
    #[error("a file of {0} bytes of samples does not fit in this process's memory (check dataset.record_length_bytes_stdev against the mean)")]
    TooLarge(u64),
    #[error("npz: {0}")]
    Zip(#[from] zip::result::ZipError),
    #[error("npz: {0}")]
    Io(#[from] std::io::Error),
    #[error("jpeg: {0}")]
    Jpeg(#[from] jpeg_encoder::EncodingError),
}

impl GenSpec {
    /// The checks to run before any I/O.
    pub fn check(&self) -> Result<(), SpecError> {
        if self.record_length == 0 {
            return Err(SpecError {
                key: "record_length_bytes",
                reason: "must be at least 1 byte".into(),
            });
        }
        if self.samples_per_file == 0 {
            return Err(SpecError {
                key: "num_samples_per_file",
                reason: "must be at least 1".into(),
            });
        }
        if self.format == DataFormat::Jpeg && self.samples_per_file != 1 {
            // DLIO writes one image per file whatever this says, then reads it as n samples.
            return Err(SpecError {
                key: "num_samples_per_file",
                reason: format!(
                    "is {}, but a jpeg file holds one image: set it to 1",
                    self.samples_per_file
                ),
            });
        }
        Ok(())
    }
}

/// One file's shape and what its bytes came to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Encoded {
    pub dims: Dims,
    /// Samples in the file (DLIO counts them whatever the format).
    pub samples: u64,
    /// Bytes of the file (`out.len()`).
    pub len: u64,
}

/// Makes the files of one data set, one at a time, reusing its buffers.
#[derive(Debug)]
pub struct FileEncoder {
    spec: GenSpec,
    sizes: SizeModel,
    jpeg: jpeg::JpegScratch,
}

impl FileEncoder {
    pub fn new(spec: GenSpec) -> Result<FileEncoder, SpecError> {
        spec.check()?;
        Ok(FileEncoder {
            spec,
            sizes: SizeModel::new(spec.record_length, spec.record_length_stdev, spec.seed),
            jpeg: jpeg::JpegScratch::default(),
        })
    }

    pub fn spec(&self) -> &GenSpec {
        &self.spec
    }

    pub fn sizes(&self) -> &SizeModel {
        &self.sizes
    }

    /// Replace `out` with the bytes of file `index` of `split`.
    pub fn encode(
        &mut self,
        split: Split,
        index: u64,
        out: &mut Vec<u8>,
    ) -> Result<Encoded, EncodeError> {
        let dims = self.sizes.dims(split, index);
        // Content keyed apart from the shape draw (which uses the seed directly).
        let key = mix2(mix2(self.spec.seed ^ 0xc027_e275, split.tag()), index);
        let samples = self.spec.samples_per_file;
        match self.spec.format {
            DataFormat::Npz => npz::encode(dims, samples, key, out)?,
            DataFormat::Tfrecord => {
                let size = self.sizes.mean_side() as i64;
                tfrecord::encode(dims, samples, size, key, out)?
            }
            DataFormat::Jpeg => jpeg::encode(dims, key, &mut self.jpeg, out)?,
        }
        Ok(Encoded {
            dims,
            samples,
            len: out.len() as u64,
        })
    }
}

#[cfg(test)]
#[path = "spec_tests.rs"]
mod spec_tests;

#[cfg(test)]
#[path = "readers_tests.rs"]
mod readers_tests;

#[cfg(test)]
#[path = "speed_tests.rs"]
mod speed_tests;
