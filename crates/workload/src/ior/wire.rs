//! A tiny fixed-layout encoding for what each rank sends rank 0 after a phase. Its size does
//! not depend on the number of transfers (a histogram and a series, not per-op records).

pub struct Writer(pub Vec<u8>);

impl Writer {
    pub fn new() -> Self {
        Writer(Vec::with_capacity(256))
    }
    pub fn u64(&mut self, v: u64) -> &mut Self {
        self.0.extend_from_slice(&v.to_le_bytes());
        self
    }
    pub fn f64(&mut self, v: f64) -> &mut Self {
        self.u64(v.to_bits())
    }
    pub fn bytes(&mut self, b: &[u8]) -> &mut Self {
        self.u64(b.len() as u64);
        self.0.extend_from_slice(b);
        self
    }
}

impl Default for Writer {
    fn default() -> Self {
        Self::new()
    }
}

pub struct Reader<'a> {
    data: &'a [u8],
    pos: usize,
}

impl<'a> Reader<'a> {
    pub fn new(data: &'a [u8]) -> Self {
        Reader { data, pos: 0 }
    }
    pub fn u64(&mut self) -> Result<u64, String> {
        let end = self.pos + 8;
        let b = self
            .data
            .get(self.pos..end)
            .ok_or("truncated rank report")?;
        self.pos = end;
        Ok(u64::from_le_bytes(b.try_into().expect("8 bytes")))
    }
    pub fn f64(&mut self) -> Result<f64, String> {
        self.u64().map(f64::from_bits)
    }
    pub fn bytes(&mut self) -> Result<&'a [u8], String> {
        let len = self.u64()? as usize;
        let end = self.pos + len;
        let b = self
            .data
            .get(self.pos..end)
            .ok_or("truncated rank report")?;
        self.pos = end;
        Ok(b)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip() {
        let mut w = Writer::new();
        w.u64(7).f64(1.5).bytes(b"abc").u64(u64::MAX);
        let mut r = Reader::new(&w.0);
        assert_eq!(r.u64().unwrap(), 7);
        assert_eq!(r.f64().unwrap(), 1.5);
        assert_eq!(r.bytes().unwrap(), b"abc");
        assert_eq!(r.u64().unwrap(), u64::MAX);
        assert!(r.u64().is_err());
    }
}
