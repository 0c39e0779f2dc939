//! The seam between the tokenizer and a tool: the tool maps each table entry to a field of
//! its plan ([`Fields`]); the tokenizer finds the entry and its value. Errors are messages
//! without the tool's name, which the tokenizer puts in front.

use std::path::PathBuf;

use engine::EngineConfig;
use text::{parse_decimal, parse_signed, parse_size};
use workload::ior::DataPacket;

/// A flag's storage: flags are counters, most of them read as booleans.
pub enum Slot<'a> {
    Bool(&'a mut bool),
    Count(&'a mut u32),
}

impl Slot<'_> {
    /// Counted (`-z -z` = 2) or set to an explicit value (`-F=0`; negative = 0, as in IOR).
    pub fn set(self, given: Option<u32>) {
        match self {
            Slot::Bool(b) => *b = given.is_none_or(|n| n > 0),
            Slot::Count(c) => *c = given.unwrap_or_else(|| c.saturating_add(1)),
        }
    }
}

/// What a tool's parser state does with the options the tokenizer finds.
pub trait Fields<T> {
    /// Where flag `target` is counted.
    fn slot(&mut self, target: T) -> Slot<'_>;
    /// Stores the value of option `target`.
    fn set(&mut self, target: T, value: Given) -> Result<(), String>;
    /// Where engine options (`--posix.odirect`) go.
    fn engine(&mut self) -> &mut EngineConfig;
}

/// An option's value as given: `shown` names the option as typed (`-t`, `-O blockSize`).
#[derive(Debug, Clone, Copy)]
pub struct Given<'a> {
    pub shown: &'a str,
    pub text: &'a str,
    /// Given as an `-O` key, which IOR reads with `atoi` (except the sizes, [`Given::size`]).
    pub key: bool,
}

/// Refuses a k..p suffix where IOR reads the value with `atoi`, which would drop it: `-O` keys
/// other than the sizes and a flag's explicit value (`-O repetitions=1k` and `-v=1k` are 1
/// there, `-i 1k` is 1024), so the meaning would differ. `atoi`: the value is read so.
pub(super) fn atoi_suffix(shown: &str, text: &str, atoi: bool) -> Result<(), String> {
    let suffixed = text.trim().ends_with(|c: char| c.is_ascii_alphabetic());
    if atoi && suffixed && parse_signed(text).is_ok() {
        return Err(format!(
            "{shown}={text}: IOR reads this value as a plain integer and would drop the \
             suffix; write the number without it"
        ));
    }
    Ok(())
}

impl Given<'_> {
    /// `"{shown} {text}: {what}"`, the form of most value errors.
    pub fn error(&self, what: &str) -> String {
        format!("{} {}: {what}", self.shown, self.text)
    }

    /// A size or count: plain bytes or k, m, g, t, p (powers of 1024), also as an `-O` key
    /// (IOR's `string_to_bytes`: `-b`, `-t`, `-s`; mdtest's and pfind's counts).
    pub fn size(&self) -> Result<u64, String> {
        parse_size(self.text).map_err(|e| format!("{}: {e}", self.shown))
    }

    /// An integer of IOR's `d` type: suffixes on the command line, none as an `-O` key.
    pub fn signed(&self) -> Result<i64, String> {
        atoi_suffix(self.shown, self.text, self.key)?;
        parse_signed(self.text).map_err(|e| format!("{}: {e}", self.shown))
    }

    /// As [`Given::signed`], at least 0.
    pub fn unsigned(&self) -> Result<u64, String> {
        atoi_suffix(self.shown, self.text, self.key)?;
        self.size()
    }

    /// A time that may carry a fraction (`-d 0.5`); negative values are the caller's.
    pub fn decimal(&self) -> Result<f64, String> {
        atoi_suffix(self.shown, self.text, self.key)?;
        parse_decimal(self.text).map_err(|e| format!("{}: {e}", self.shown))
    }

    /// A time of at least 0 (`-D`, `-T`, mdtest `-W`).
    pub fn time(&self) -> Result<f64, String> {
        let t = self.decimal()?;
        if t < 0.0 {
            return Err(self.error("must not be negative"));
        }
        Ok(t)
    }

    /// A count of at least 1 (`--tasks`, `--fake-nodes`).
    pub fn count(&self) -> Result<usize, String> {
        let n = self.size()?;
        if n == 0 {
            return Err(format!("{} 0: at least 1 is needed", self.shown));
        }
        usize::try_from(n).map_err(|_| self.error("too large"))
    }

    /// A size that fits 32 bits (tree depth, iterations).
    pub fn small(&self) -> Result<u32, String> {
        u32::try_from(self.size()?).map_err(|_| self.error("too large"))
    }

    pub fn path(&self) -> PathBuf {
        PathBuf::from(self.text)
    }

    /// `--fake-placement`: whether tasks go round-robin over the fake nodes.
    pub fn round_robin(&self) -> Result<bool, String> {
        match self.text.trim().to_ascii_lowercase().as_str() {
            "block" => Ok(false),
            "round-robin" | "roundrobin" => Ok(true),
            _ => Err(self.error("expected block or round-robin")),
        }
    }

    /// `-l` / `--dataPacketType`: the first letter counts, as in IOR.
    pub fn data_packet(&self) -> Result<DataPacket, String> {
        match self
            .text
            .trim()
            .chars()
            .next()
            .map(|c| c.to_ascii_lowercase())
        {
            Some('t') => Ok(DataPacket::Timestamp),
            Some('o') => Ok(DataPacket::Offset),
            Some('i') | Some('r') => Ok(DataPacket::Incompressible),
            _ => Err(self.error(
                "unknown data packet type (expected timestamp, offset, incompressible or random)",
            )),
        }
    }
}
