//! The protobuf of one `tf.train.Example` as DLIO's `TFRecordGenerator` builds it: a features
//! map with `image` (a BytesList of one sample's raw bytes) and `size` (an Int64List holding
//! DLIO's mean side ⌊√record_length⌋, not the drawn one). Hand-encoded: four message types, two
//! wire types, no protobuf crate needed.
//!
//! ```text
//! Example   { Features features = 1; }
//! Features  { map<string, Feature> feature = 1; }   // entries { string key = 1; Feature value = 2; }
//! Feature   { oneof { BytesList bytes_list = 1; FloatList float_list = 2; Int64List int64_list = 3; } }
//! BytesList { repeated bytes value = 1; }
//! Int64List { repeated int64 value = 1 [packed = true]; }
//! ```

use std::ops::Range;

/// Field 1, wire type 2 (length-delimited).
const FIELD_1_LEN: u8 = 0x0a;
/// Field 2, wire type 2.
const FIELD_2_LEN: u8 = 0x12;
/// Field 3, wire type 2.
const FIELD_3_LEN: u8 = 0x1a;

/// Append an Example with an `image` of `image_len` zero bytes and `size`; returns where the
/// image bytes are in `out`, for the caller to fill in place (no copy of the sample).
pub fn append(out: &mut Vec<u8>, image_len: u64, size: i64) -> Range<usize> {
    // Sizes from the inside out.
    let bytes_list = field_len(image_len);
    let image_feature = field_len(bytes_list);
    let image_entry = field_len(5) + field_len(image_feature);
    let packed = varint_len(size as u64);
    let int64_list = field_len(packed);
    let size_feature = field_len(int64_list);
    let size_entry = field_len(4) + field_len(size_feature);
    let features = field_len(image_entry) + field_len(size_entry);

    out.push(FIELD_1_LEN);
    put_varint(out, features);

    out.push(FIELD_1_LEN);
    put_varint(out, image_entry);
    put_bytes(out, FIELD_1_LEN, b"image");
    out.push(FIELD_2_LEN);
    put_varint(out, image_feature);
    out.push(FIELD_1_LEN);
    put_varint(out, bytes_list);
    out.push(FIELD_1_LEN);
    put_varint(out, image_len);
    let start = out.len();
    out.resize(start + image_len as usize, 0);
    let image = start..out.len();

    out.push(FIELD_1_LEN);
    put_varint(out, size_entry);
    put_bytes(out, FIELD_1_LEN, b"size");
    out.push(FIELD_2_LEN);
    put_varint(out, size_feature);
    out.push(FIELD_3_LEN);
    put_varint(out, int64_list);
    out.push(FIELD_1_LEN);
    put_varint(out, packed);
    put_varint(out, size as u64);
    image
}

/// Bytes of a length-delimited field with a one-byte tag and `len` bytes of content.
fn field_len(len: u64) -> u64 {
    1 + varint_len(len) + len
}

fn varint_len(mut v: u64) -> u64 {
    let mut n = 1;
    while v >= 0x80 {
        v >>= 7;
        n += 1;
    }
    n
}

fn put_varint(out: &mut Vec<u8>, mut v: u64) {
    while v >= 0x80 {
        out.push((v as u8) | 0x80);
        v >>= 7;
    }
    out.push(v as u8);
}

fn put_bytes(out: &mut Vec<u8>, tag: u8, bytes: &[u8]) {
    out.push(tag);
    put_varint(out, bytes.len() as u64);
    out.extend_from_slice(bytes);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_small_example_has_the_protobuf_bytes_by_hand() {
        let mut out = Vec::new();
        let image = append(&mut out, 3, 300);
        out[image.clone()].copy_from_slice(b"abc");
        let want: &[u8] = &[
            0x0a, 0x22, // Example.features: 34 bytes
            0x0a, 0x10, // map entry: 16 bytes
            0x0a, 0x05, b'i', b'm', b'a', b'g', b'e', // key
            0x12, 0x07, 0x0a, 0x05, 0x0a, 0x03, b'a', b'b', b'c', // value.bytes_list.value
            0x0a, 0x0e, // map entry: 14 bytes
            0x0a, 0x04, b's', b'i', b'z', b'e', // key
            0x12, 0x06, 0x1a, 0x04, 0x0a, 0x02, 0xac, 0x02, // value.int64_list, packed 300
        ];
        assert_eq!(image, 17..20);
        assert_eq!(out, want);
    }

    #[test]
    fn varints_of_every_width() {
        for (v, n) in [
            (0u64, 1),
            (127, 1),
            (128, 2),
            (16_383, 2),
            (16_384, 3),
            (u64::MAX, 10),
        ] {
            let mut out = Vec::new();
            put_varint(&mut out, v);
            assert_eq!(out.len() as u64, n);
            assert_eq!(varint_len(v), n);
        }
    }
}
