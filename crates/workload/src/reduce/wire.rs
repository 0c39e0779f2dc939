//! The bytes of a [`RankFigures`] between ranks. Little-endian and length-prefixed:
//!
//! ```text
//! "igrr" version(u8)
//! seconds:   n, n x f64 (8 bytes, its bits)
//! stamps_ns: n, n x u64
//! counts:    n, n x u64
//! verify:    errors, checked, 0 | 1 offset file
//! latency:   n, n x (len, LatencyHistogram::to_bytes)
//! series:    0 | 1 len IntervalSeries::to_bytes
//! notes:     n, n x (len, UTF-8)
//! ```
//!
//! Every `n`, `len` and u64 above (f64s aside) is an LEB128 varint: counts and lengths take a
//! byte or two. Its size does not grow with the operations done (a histogram and a series,
//! never a record per operation). Anything else, or anything left over, is an error.

use measure::{IntervalSeries, LatencyHistogram};

use super::error::WireError;
use super::report::{FirstError, RankFigures, Verify};

const MAGIC: &[u8; 4] = b"igrr";
/// Bumped whenever the layout changes: ranks of different builds then refuse each other.
pub const VERSION: u8 = 1;

/// The bytes of `r`.
pub fn encode(r: &RankFigures) -> Vec<u8> {
    let mut w = Vec::with_capacity(128);
    w.extend_from_slice(MAGIC);
    w.push(VERSION);
    varint(&mut w, r.seconds.len() as u64);
    for s in &r.seconds {
        w.extend_from_slice(&s.to_bits().to_le_bytes());
    }
    for list in [&r.stamps_ns, &r.counts] {
        varint(&mut w, list.len() as u64);
        list.iter().for_each(|&v| varint(&mut w, v));
    }
    let v = &r.verify;
    varint(&mut w, v.errors);
    varint(&mut w, v.checked);
    match &v.first_error {
        Some(e) => {
            w.push(1);
            varint(&mut w, e.offset);
            blob(&mut w, e.file.as_bytes());
        }
        None => w.push(0),
    }
    varint(&mut w, r.latency.len() as u64);
    for h in &r.latency {
        blob(&mut w, &h.to_bytes());
    }
    match &r.series {
        Some(s) => {
            w.push(1);
            blob(&mut w, &s.to_bytes());
        }
        None => w.push(0),
    }
    varint(&mut w, r.notes.len() as u64);
    for n in &r.notes {
        blob(&mut w, n.as_bytes());
    }
    w
}

/// The report in `bytes`, or what is wrong with them.
pub fn decode(bytes: &[u8]) -> Result<RankFigures, WireError> {
    let mut r = Reader(bytes);
    if r.take(MAGIC.len(), "magic").ok() != Some(&MAGIC[..]) {
        return Err(WireError::Foreign);
    }
    let version = r.byte("version")?;
    if version != VERSION {
        return Err(WireError::Version {
            got: version,
            reads: VERSION,
        });
    }
    let n = r.len("seconds", 8)?;
    let seconds = (0..n)
        .map(|_| {
            let b = r.take(8, "seconds")?;
            Ok(f64::from_bits(u64::from_le_bytes(
                b.try_into().map_err(|_| WireError::Truncated("seconds"))?,
            )))
        })
        .collect::<Result<_, WireError>>()?;
    let stamps_ns = r.list("clock readings")?;
    let counts = r.list("counts")?;
    let errors = r.varint("verification")?;
    let checked = r.varint("verification")?;
    let first_error = match r.byte("verification")? {
        0 => None,
        1 => Some(FirstError {
            offset: r.varint("first error")?,
            file: r.text("first error")?,
        }),
        f => return Err(invalid("verification", format!("flag {f}"))),
    };
    let n = r.len("latency histograms", 1)?;
    let latency = (0..n)
        .map(|_| {
            let b = r.blob("latency histograms")?;
            LatencyHistogram::from_bytes(b).map_err(|e| invalid("latency histogram", e))
        })
        .collect::<Result<_, _>>()?;
    let series = match r.byte("series")? {
        0 => None,
        1 => {
            let b = r.blob("series")?;
            Some(IntervalSeries::from_bytes(b).map_err(|e| invalid("series", e))?)
        }
        f => return Err(invalid("series", format!("flag {f}"))),
    };
    let n = r.len("notes", 1)?;
    let notes = (0..n).map(|_| r.text("notes")).collect::<Result<_, _>>()?;
    if !r.0.is_empty() {
        return Err(WireError::Trailing(r.0.len()));
    }
    Ok(RankFigures {
        stamps_ns,
        seconds,
        counts,
        verify: Verify {
            errors,
            checked,
            first_error,
        },
        latency,
        series,
        notes,
    })
}

fn invalid(what: &'static str, why: String) -> WireError {
    WireError::Invalid { what, why }
}

fn varint(w: &mut Vec<u8>, mut v: u64) {
    while v >= 0x80 {
        w.push(v as u8 | 0x80);
        v >>= 7;
    }
    w.push(v as u8);
}

fn blob(w: &mut Vec<u8>, b: &[u8]) {
    varint(w, b.len() as u64);
    w.extend_from_slice(b);
}

/// What is left to read; `what` names the part being read, for the error.
struct Reader<'a>(&'a [u8]);

impl<'a> Reader<'a> {
    fn take(&mut self, n: usize, what: &'static str) -> Result<&'a [u8], WireError> {
        if self.0.len() < n {
            return Err(WireError::Truncated(what));
        }
        let (b, rest) = self.0.split_at(n);
        self.0 = rest;
        Ok(b)
    }

    fn byte(&mut self, what: &'static str) -> Result<u8, WireError> {
        Ok(self.take(1, what)?[0])
    }

    fn varint(&mut self, what: &'static str) -> Result<u64, WireError> {
        let mut v = 0u64;
        for shift in (0..64).step_by(7) {
            let b = self.byte(what)?;
            let bits = u64::from(b & 0x7f);
            if shift == 63 && bits > 1 {
                break;
            }
            v |= bits << shift;
            if b & 0x80 == 0 {
                return Ok(v);
            }
        }
        Err(invalid(what, "a number longer than 64 bits".into()))
    }

    /// A count of items of at least `min_bytes` each: never more than the bytes left hold,
    /// so a damaged count cannot make the reader allocate without bound.
    fn len(&mut self, what: &'static str, min_bytes: usize) -> Result<usize, WireError> {
        let n = self.varint(what)?;
        match usize::try_from(n) {
            Ok(n) if n.saturating_mul(min_bytes) <= self.0.len() => Ok(n),
            _ => Err(WireError::Truncated(what)),
        }
    }

    fn list(&mut self, what: &'static str) -> Result<Vec<u64>, WireError> {
        let n = self.len(what, 1)?;
        (0..n).map(|_| self.varint(what)).collect()
    }

    fn blob(&mut self, what: &'static str) -> Result<&'a [u8], WireError> {
        let n = self.len(what, 1)?;
        self.take(n, what)
    }

    fn text(&mut self, what: &'static str) -> Result<String, WireError> {
        let b = self.blob(what)?;
        String::from_utf8(b.to_vec()).map_err(|e| invalid(what, e.to_string()))
    }
}
