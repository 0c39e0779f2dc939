//! One JPEG file of exactly the drawn size.
//!
//! DLIO's `JPEGGenerator` saves a rows × cols grayscale image of random bytes with PIL's
//! defaults (quality 75); noise compresses to about 0.56 bytes per pixel there, so DLIO's files
//! are smaller than the record length it reports. We write files of exactly rows × cols bytes:
//! a decodable grayscale JPEG of random pixels (the jpeg-encoder crate, quality 75), then COM
//! (comment) segments of random bytes after the JFIF header up to the target size.
//!
//! The image is rows/4 × cols/4 pixels, not rows × cols: encoding runs at about 90 Mpixel/s on
//! one core, which at full size would make the generator, not the storage, the bottleneck. At a
//! sixteenth of the pixels the image is about 4 % of the file and the encoder stays above
//! 1 GiB/s. A reader that decodes (PIL in DLIO's loader) decodes the smaller image; iogauge's
//! loader only reads bytes.
//!
//! Edges: a COM segment is 4 to 65537 bytes, so a gap of 1 to 3 bytes, or an image larger than
//! the target, makes us encode a smaller image; a target below the smallest JPEG (about 330
//! bytes, a 1 × 1 image) gives that smallest JPEG, larger than the target.

use jpeg_encoder::{ColorType, Encoder};

use super::fill::RandomBytes;
use super::sizes::Dims;
use super::EncodeError;

/// Side of the drawn image per side of the encoded one.
const SIDE_DIVISOR: u64 = 4;
/// PIL's default quality, which DLIO's `img.save(..., format='JPEG')` uses.
const QUALITY: u8 = 75;
/// The largest side a baseline JPEG can declare.
const MAX_SIDE: u64 = u16::MAX as u64;
const COM_MARKER: [u8; 2] = [0xff, 0xfe];
/// Marker and length bytes of a COM segment.
const COM_HEADER: u64 = 4;
/// A COM segment's length field counts itself: at most 65535, so 65533 bytes of payload.
const COM_MAX_PAYLOAD: u64 = u16::MAX as u64 - 2;

/// Buffers reused from file to file.
#[derive(Debug, Default)]
pub struct JpegScratch {
    pixels: Vec<u8>,
    image: Vec<u8>,
}

/// Replace `out` with one JPEG of `dims.sample_bytes()` bytes (or the smallest JPEG if larger).
pub fn encode(
    dims: Dims,
    key: u64,
    scratch: &mut JpegScratch,
    out: &mut Vec<u8>,
) -> Result<(), EncodeError> {
    let target = dims.sample_bytes();
    let mut random = RandomBytes::new(key);
    let mut rows = stand_in_side(dims.rows);
    let mut cols = stand_in_side(dims.cols);
    loop {
        encode_image(rows, cols, &mut random, scratch)?;
        let len = scratch.image.len() as u64;
        let fits = len <= target && !(1..COM_HEADER).contains(&(target - len));
        if fits || (rows == 1 && cols == 1) {
            break;
        }
        if len > target {
            // Noise costs about the same per pixel at any size: halve the longer side.
            if cols >= rows {
                cols = cols.div_ceil(2);
            } else {
                rows = rows.div_ceil(2);
            }
        } else if cols > 1 {
            // 1 to 3 bytes short of a COM segment: one column less leaves room for one.
            cols -= 1;
        } else {
            rows -= 1;
        }
    }
    assemble(&scratch.image, target, &mut random, out);
    Ok(())
}

fn stand_in_side(side: u64) -> u64 {
    (side / SIDE_DIVISOR).clamp(1, MAX_SIDE)
}

fn encode_image(
    rows: u64,
    cols: u64,
    random: &mut RandomBytes,
    scratch: &mut JpegScratch,
) -> Result<(), EncodeError> {
    scratch.pixels.resize((rows * cols) as usize, 0);
    random.fill(&mut scratch.pixels);
    scratch.image.clear();
    let encoder = Encoder::new(&mut scratch.image, QUALITY);
    // Both sides are at most MAX_SIDE (stand_in_side), so the casts keep them.
    encoder.encode(&scratch.pixels, cols as u16, rows as u16, ColorType::Luma)?;
    Ok(())
}

/// `image` with COM segments after its JFIF header, `target` bytes in all when it is shorter.
fn assemble(image: &[u8], target: u64, random: &mut RandomBytes, out: &mut Vec<u8>) {
    let split = after_jfif_header(image);
    out.clear();
    out.reserve(target.max(image.len() as u64) as usize);
    out.extend_from_slice(&image[..split]);
    for segment in com_segments(target.saturating_sub(image.len() as u64)) {
        let payload = segment - COM_HEADER;
        out.extend_from_slice(&COM_MARKER);
        out.extend_from_slice(&((payload + 2) as u16).to_be_bytes());
        let start = out.len();
        out.resize(start + payload as usize, 0);
        random.fill(&mut out[start..]);
    }
    out.extend_from_slice(&image[split..]);
}

/// The sizes (header included) of COM segments that add up to `gap` bytes: as few as can hold
/// it, as equal as can be. `gap` must be 0 or at least 4.
fn com_segments(gap: u64) -> Vec<u64> {
    if gap == 0 {
        return Vec::new();
    }
    debug_assert!(gap >= COM_HEADER);
    let largest = COM_HEADER + COM_MAX_PAYLOAD;
    let count = gap.div_ceil(largest);
    let (base, extra) = (gap / count, gap % count);
    (0..count).map(|i| base + u64::from(i < extra)).collect()
}

/// Where a segment may go: after SOI and the APP0 (JFIF) segment that must follow it.
fn after_jfif_header(image: &[u8]) -> usize {
    const SOI: usize = 2;
    if image.len() >= SOI + 4 && image[SOI..SOI + 2] == [0xff, 0xe0] {
        SOI + 2 + usize::from(u16::from_be_bytes([image[SOI + 2], image[SOI + 3]]))
    } else {
        SOI
    }
}

#[cfg(test)]
#[path = "jpeg_tests.rs"]
mod tests;
