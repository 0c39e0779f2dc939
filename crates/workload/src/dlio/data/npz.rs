//! One npz file as DLIO's `NPZGenerator` writes it with `numpy.savez`: a zip archive, entries
//! STORED (no compression) with ZIP64 extra fields (NumPy forces them), holding
//!
//! * `x.npy`: uint8, shape (rows, cols, samples_per_file), random bytes;
//! * `y.npy`: int64, shape (samples_per_file,), zeros (DLIO's labels).
//!
//! So a file is rows × cols × samples bytes of data plus about 400 bytes of headers.

use std::io::{Cursor, Write};

use zip::write::SimpleFileOptions;
use zip::{CompressionMethod, ZipWriter};

use super::fill::RandomBytes;
use super::npy::{self, Dtype};
use super::sizes::Dims;
use super::EncodeError;

/// Random data goes through the zip writer in pieces of this size (it computes the CRC-32).
const CHUNK: usize = 1 << 20;
/// Zip headers, the central directory and the two NPY headers stay under this.
const OVERHEAD: usize = 1024;

/// Replace `out` with the bytes of one npz file.
pub fn encode(dims: Dims, samples: u64, key: u64, out: &mut Vec<u8>) -> Result<(), EncodeError> {
    let x_len = dims.sample_bytes() * samples;
    let y_len = samples * 8;
    out.clear();
    let total = usize::try_from(x_len + y_len).map_err(|_| EncodeError::TooLarge(x_len))?;
    // A failed allocation is an error for the user, not an abort of the process.
    out.try_reserve(total + OVERHEAD)
        .map_err(|_| EncodeError::TooLarge(x_len))?;

    let options = SimpleFileOptions::default()
        .compression_method(CompressionMethod::Stored)
        .large_file(true);
    let mut zip = ZipWriter::new(Cursor::new(out));

    zip.start_file("x.npy", options)?;
    zip.write_all(&npy::header(Dtype::U8, &[dims.rows, dims.cols, samples]))?;
    let mut random = RandomBytes::new(key);
    let mut chunk = vec![0u8; CHUNK.min(x_len as usize)];
    let mut left = x_len;
    while left > 0 {
        let n = left.min(chunk.len() as u64) as usize;
        random.fill(&mut chunk[..n]);
        zip.write_all(&chunk[..n])?;
        left -= n as u64;
    }

    zip.start_file("y.npy", options)?;
    zip.write_all(&npy::header(Dtype::I64, &[samples]))?;
    chunk.clear();
    chunk.resize(CHUNK.min(y_len as usize), 0);
    let mut left = y_len;
    while left > 0 {
        let n = left.min(chunk.len() as u64) as usize;
        zip.write_all(&chunk[..n])?;
        left -= n as u64;
    }
    zip.finish()?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_npz_is_a_stored_zip_of_x_and_y() {
        let mut out = Vec::new();
        let dims = Dims { rows: 30, cols: 20 };
        encode(dims, 3, 5, &mut out).unwrap();
        let mut archive = zip::ZipArchive::new(Cursor::new(&out[..])).unwrap();
        let names: Vec<_> = archive.file_names().map(str::to_string).collect();
        assert_eq!(names, ["x.npy", "y.npy"]);
        let x = archive.by_name("x.npy").unwrap();
        assert_eq!(x.compression(), CompressionMethod::Stored);
        assert_eq!(x.size(), 128 + 30 * 20 * 3);
        drop(x);
        assert_eq!(archive.by_name("y.npy").unwrap().size(), 128 + 3 * 8);
        let data = 30 * 20 * 3 + 3 * 8;
        assert!(
            out.len() > data + 256 && out.len() < data + OVERHEAD,
            "{}",
            out.len()
        );
    }

    #[test]
    fn files_differ_by_key_and_repeat_for_one() {
        let dims = Dims { rows: 64, cols: 64 };
        let (mut a, mut b, mut c) = (Vec::new(), Vec::new(), Vec::new());
        encode(dims, 1, 1, &mut a).unwrap();
        encode(dims, 1, 1, &mut b).unwrap();
        encode(dims, 1, 2, &mut c).unwrap();
        assert_eq!(a, b);
        assert_ne!(a, c);
    }
}
