//! One TFRecord file as DLIO's `TFRecordGenerator` writes it: `samples_per_file` records, each
//! a `tf.train.Example` (see `example`) holding one rows × cols sample of random bytes.
//!
//! TFRecord framing (TensorFlow's `record_writer`): per record
//! `u64 LE length | u32 LE masked CRC-32C of those 8 bytes | data | u32 LE masked CRC-32C of data`,
//! with mask(c) = rotate_right(c, 15) + 0xa282ead8.
//!
//! DLIO also runs DALI's `tfrecord2idx` beside each file (`<data_folder>/index/<split>/<file>.idx`)
//! for its DALI loader; the pytorch and tensorflow loaders do not read it, so it is not made here.

use super::example;
use super::fill::RandomBytes;
use super::sizes::Dims;
use super::EncodeError;

const MASK_DELTA: u32 = 0xa282_ead8;
/// Framing around each record's data.
pub const FRAME_BYTES: u64 = 8 + 4 + 4;

/// TensorFlow's masked CRC-32C (Castagnoli).
pub fn masked_crc32c(data: &[u8]) -> u32 {
    crc32c::crc32c(data)
        .rotate_right(15)
        .wrapping_add(MASK_DELTA)
}

/// Replace `out` with the bytes of one TFRecord file; `size_feature` is DLIO's `size` value.
pub fn encode(
    dims: Dims,
    samples: u64,
    size_feature: i64,
    key: u64,
    out: &mut Vec<u8>,
) -> Result<(), EncodeError> {
    let image_len = dims.sample_bytes();
    // A record's data is the image plus well under 64 bytes of protobuf.
    let per_record = image_len + 64 + FRAME_BYTES;
    let total = per_record
        .checked_mul(samples)
        .and_then(|t| usize::try_from(t).ok())
        .ok_or(EncodeError::TooLarge(image_len.saturating_mul(samples)))?;
    out.clear();
    out.try_reserve(total)
        .map_err(|_| EncodeError::TooLarge(total as u64))?;
    let mut random = RandomBytes::new(key);
    for _ in 0..samples {
        let frame = out.len();
        out.extend_from_slice(&[0; 12]);
        let data_start = out.len();
        let image = example::append(out, image_len, size_feature);
        random.fill(&mut out[image]);
        let data_len = (out.len() - data_start) as u64;
        let len_bytes = data_len.to_le_bytes();
        out[frame..frame + 8].copy_from_slice(&len_bytes);
        out[frame + 8..frame + 12].copy_from_slice(&masked_crc32c(&len_bytes).to_le_bytes());
        let data_crc = masked_crc32c(&out[data_start..]);
        out.extend_from_slice(&data_crc.to_le_bytes());
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn crc32c_and_its_mask_match_published_values() {
        // CRC-32C check value (RFC 3720 B.4 / the Castagnoli catalogue): "123456789" -> e3069283.
        assert_eq!(crc32c::crc32c(b"123456789"), 0xe306_9283);
        // (c >> 15 | c << 17) + 0xa282ead8 of that, computed apart from this code.
        assert_eq!(masked_crc32c(b"123456789"), 0xc78a_b0e5);
    }

    #[test]
    fn records_are_framed_back_to_back() {
        let mut out = Vec::new();
        let dims = Dims { rows: 7, cols: 9 };
        encode(dims, 4, 8, 1, &mut out).unwrap();
        let mut at = 0;
        let mut records = 0;
        while at < out.len() {
            let len = u64::from_le_bytes(out[at..at + 8].try_into().unwrap()) as usize;
            let crc = u32::from_le_bytes(out[at + 8..at + 12].try_into().unwrap());
            assert_eq!(crc, masked_crc32c(&out[at..at + 8]));
            let data = &out[at + 12..at + 12 + len];
            let crc = u32::from_le_bytes(out[at + 12 + len..at + 16 + len].try_into().unwrap());
            assert_eq!(crc, masked_crc32c(data));
            assert!(len > 63 && len < 63 + 40, "{len}");
            at += 16 + len;
            records += 1;
        }
        assert_eq!((at, records), (out.len(), 4));
    }
}
