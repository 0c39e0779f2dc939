//! Writing and reading one shard file: the file as one stream of transfers of up to
//! [`TRANSFER`] bytes from one buffer per rank (torch.save writes each tensor with one call;
//! iogauge holds no tensors, only the buffer), each recorded with one clock read: its latency
//! runs from the previous record, so a shard's first transfer includes its open. Under O_DIRECT the aligned part goes through the
//! direct descriptor and a last partial block through a buffered one (both fsynced when asked);
//! reads round the last transfer up to the alignment and take the short read at the end.

use std::io;
use std::path::Path;

use engine::{AlignedBuf, Engine, EngineFile, OpenHints, OpenMode, PosixEngine, Target};
use measure::Recorder;
use plan::dlio::Datatype;
use results::dlio::CHECKPOINT_KINDS;

use super::super::data::fill::RandomBytes;
use super::super::error::DlioError;

/// Bytes per write or read call.
pub const TRANSFER: usize = 16 << 20;

/// The recorder's kinds (`CHECKPOINT_KINDS`).
pub const SHARD: usize = 0;
pub const CALL: usize = 1;
const _: () = assert!(CHECKPOINT_KINDS.len() == 2);

/// One rank's means of moving shards.
pub struct ShardIo {
    engine: PosixEngine,
    /// For the tail below the direct alignment.
    buffered: PosixEngine,
    odirect: bool,
    fsync: bool,
    buf: AlignedBuf,
    rank: usize,
}

/// How far a shard got: its bytes, and whether a signal cut it short.
pub struct Moved {
    pub bytes: u64,
    pub cut: bool,
}

impl ShardIo {
    /// The buffer holds random bytes (`randomize_tensor`, keyed on the rank) or the
    /// datatype's 1.0 (`torch.ones`), made here, before any timed window.
    pub fn new(
        odirect: bool,
        fsync: bool,
        randomize: Option<u64>,
        ones: Datatype,
        rank: usize,
    ) -> Self {
        let engine = PosixEngine::new(odirect);
        let mut buf = engine.alloc_buffer(TRANSFER);
        match randomize {
            Some(key) => RandomBytes::new(key).fill(buf.as_mut_slice()),
            None => fill_ones(buf.as_mut_slice(), ones),
        }
        ShardIo {
            engine,
            buffered: PosixEngine::new(false),
            odirect,
            fsync,
            buf,
            rank,
        }
    }

    pub fn engine(&self) -> &PosixEngine {
        &self.engine
    }

    fn align(&self) -> u64 {
        if self.odirect {
            self.buf.align() as u64
        } else {
            1
        }
    }

    fn open(
        &self,
        engine: &PosixEngine,
        path: &Path,
        mode: OpenMode,
        size: u64,
    ) -> Result<Box<dyn EngineFile>, DlioError> {
        let hints = OpenHints {
            file_size: size,
            rank: self.rank,
            layout: None,
        };
        let op = if mode == OpenMode::ReadOnly {
            "open"
        } else {
            "create"
        };
        engine
            .open(Target::from(path), mode, &hints)
            .map_err(|e| DlioError::io(op, path, e))
    }

    /// Writes `size` bytes to `path` (created or truncated), fsynced when asked, closed.
    pub fn write(
        &mut self,
        path: &Path,
        size: u64,
        rec: &mut Recorder,
    ) -> Result<Moved, DlioError> {
        let mut f = self.open(&self.engine, path, OpenMode::CreateTruncate, size)?;
        let direct_end = size / self.align() * self.align();
        let mut at = 0u64;
        let mut cut = false;
        while at < direct_end {
            if exec::interrupt::requested() {
                cut = true;
                break;
            }
            let n = (direct_end - at).min(TRANSFER as u64) as usize;
            let w = f
                .write_at(&self.buf.as_slice()[..n], at)
                .map_err(|e| DlioError::io("write", path, e))?;
            if w == 0 {
                return Err(DlioError::io(
                    "write",
                    path,
                    io::ErrorKind::WriteZero.into(),
                ));
            }
            rec.record(CALL, w as u64);
            at += w as u64;
        }
        if !cut && at < size {
            // The last partial block, which O_DIRECT refuses.
            let mut tail = self.open(&self.buffered, path, OpenMode::CreateKeep, size)?;
            let n = (size - at) as usize;
            let w = tail
                .write_at(&self.buf.as_slice()[..n], at)
                .map_err(|e| DlioError::io("write", path, e))?;
            if w != n {
                return Err(DlioError::io(
                    "write",
                    path,
                    io::ErrorKind::WriteZero.into(),
                ));
            }
            rec.record(CALL, w as u64);
            at += w as u64;
            if self.fsync {
                tail.sync().map_err(|e| DlioError::io("fsync", path, e))?;
            }
            tail.close().map_err(|e| DlioError::io("close", path, e))?;
        }
        if self.fsync && !cut {
            f.sync().map_err(|e| DlioError::io("fsync", path, e))?;
        }
        f.close().map_err(|e| DlioError::io("close", path, e))?;
        Ok(Moved { bytes: at, cut })
    }

    /// Reads the `size` bytes of `path`; a file that ends sooner is an error naming both.
    pub fn read(&mut self, path: &Path, size: u64, rec: &mut Recorder) -> Result<Moved, DlioError> {
        let mut f = self.open(&self.engine, path, OpenMode::ReadOnly, size)?;
        let align = self.align();
        let mut at = 0u64;
        let mut cut = false;
        while at < size {
            if exec::interrupt::requested() {
                cut = true;
                break;
            }
            let want = (size - at).div_ceil(align) * align;
            let n = want.min(TRANSFER as u64) as usize;
            let r = f
                .read_at(&mut self.buf.as_mut_slice()[..n], at)
                .map_err(|e| DlioError::io("read", path, e))?;
            if r == 0 {
                return Err(DlioError::Prepare(format!(
                    "{}: {at} bytes, the shard has {size}: a checkpoint of another shape, or cut short",
                    path.display()
                )));
            }
            let r = (r as u64).min(size - at);
            rec.record(CALL, r);
            at += r;
        }
        f.close().map_err(|e| DlioError::io("close", path, e))?;
        Ok(Moved { bytes: at, cut })
    }
}

/// `torch.ones` of `t`, little-endian, repeated.
fn fill_ones(buf: &mut [u8], t: Datatype) {
    let one: &[u8] = match t {
        Datatype::Int8 | Datatype::Uint8 => &[1],
        Datatype::Fp16 => &[0x00, 0x3c],
        Datatype::Bf16 => &[0x80, 0x3f],
        Datatype::Fp32 => &[0x00, 0x00, 0x80, 0x3f],
        Datatype::Fp64 => &[0, 0, 0, 0, 0, 0, 0xf0, 0x3f],
    };
    for (b, v) in buf.iter_mut().zip(one.iter().cycle()) {
        *b = *v;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ones_are_the_datatypes_one() {
        let mut b = [0u8; 8];
        fill_ones(&mut b, Datatype::Fp32);
        assert_eq!(f32::from_le_bytes(b[4..].try_into().unwrap()), 1.0);
        fill_ones(&mut b, Datatype::Fp64);
        assert_eq!(f64::from_le_bytes(b), 1.0);
        fill_ones(&mut b, Datatype::Fp16);
        assert_eq!(u16::from_le_bytes([b[0], b[1]]), 0x3c00);
    }
}
