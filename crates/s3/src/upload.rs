//! A multipart upload's own rules, shared by the one-at-a-time file (`engine.rs`) and the
//! queued one (`queued.rs`): which part a transfer is, the completion from every part's ETag
//! (no gap allowed; aborted when it fails), and the parts a rank hands to the first rank of a
//! shared object.

use std::collections::BTreeMap;
use std::io;

use engine::MultipartLimits;

use crate::client::Bucket;

fn invalid(message: String) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidInput, message)
}

/// Completes upload `id` of `key` from its parts' ETags (by part number), which must run from 1
/// without a gap; aborts it when that fails, so no part stays on the server.
pub fn finish_upload(
    b: &Bucket<'_>,
    key: &str,
    id: &str,
    etags: BTreeMap<u16, String>,
) -> io::Result<()> {
    let numbers: Vec<u16> = etags.keys().copied().collect();
    let contiguous = numbers
        .iter()
        .enumerate()
        .all(|(i, n)| usize::from(*n) == i + 1);
    let result = if contiguous {
        let etags: Vec<String> = etags.into_values().collect();
        b.complete_upload(key, id, &etags)
            .map_err(crate::S3Error::into_io)
    } else {
        Err(invalid(format!(
            "S3 {}/{key}: parts {numbers:?} leave a gap; an object's parts run from 1 without one",
            b.name()
        )))
    };
    if result.is_err() {
        let _ = b.abort_upload(key, id);
    }
    result
}

/// The part number of a transfer of `len` bytes at `offset` in parts of `part` bytes; Err
/// when it is not such a part, or past S3's 10,000.
pub fn part_number(
    (bucket, key): (&str, &str),
    offset: u64,
    len: u64,
    part: u64,
) -> io::Result<u16> {
    if !offset.is_multiple_of(part) || len > part {
        return Err(invalid(format!(
            "S3 {bucket}/{key}: a write of {len} bytes at {offset} is not a part of {part} bytes"
        )));
    }
    let number = offset / part + 1;
    let limits = MultipartLimits::S3;
    if number > u64::from(limits.max_parts) {
        return Err(invalid(format!(
            "S3: part {number}: at most {} parts",
            limits.max_parts
        )));
    }
    Ok(number as u16)
}

/// A rank's parts as one line each: number, a tab, the ETag.
pub fn encode_parts(etags: &BTreeMap<u16, String>) -> Vec<u8> {
    let mut out = String::new();
    for (n, etag) in etags {
        out.push_str(&format!("{n}\t{etag}\n"));
    }
    out.into_bytes()
}

pub fn decode_parts(bytes: &[u8]) -> io::Result<BTreeMap<u16, String>> {
    let text = std::str::from_utf8(bytes).map_err(|_| invalid("S3: parts not text".into()))?;
    text.lines()
        .map(|line| {
            let (n, etag) = line
                .split_once('\t')
                .ok_or_else(|| invalid(format!("S3: a part's line {line:?}")))?;
            let n = n
                .parse::<u16>()
                .map_err(|_| invalid(format!("S3: a part number {n:?}")))?;
            Ok((n, etag.to_string()))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parts_travel_between_ranks() {
        let etags: BTreeMap<u16, String> =
            [(3, "\"c\"".to_string()), (1, "\"a-1\"".to_string())].into();
        let bytes = encode_parts(&etags);
        assert_eq!(decode_parts(&bytes).unwrap(), etags);
        assert!(decode_parts(b"").unwrap().is_empty());
        assert!(decode_parts(b"x\ty\n").is_err());
    }
}
