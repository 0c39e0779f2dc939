//! `/proc/self/mountstats`: the NFS client's counters per mount (`fs/nfs/super.c`
//! `nfs_show_stats`, `net/sunrpc/stats.c`, `include/linux/nfs_iostat.h`). Every mount has a
//! line `device SRC mounted on MNT with fstype T`; an NFS one (`nfs`, `nfs4`) adds
//! ` statvers=1.1` and tab-indented lines, of which these keep `bytes:` (what applications read
//! and wrote, and what crossed the wire) and, after `per-op statistics`, one line per RPC
//! (`OP: ops trans timeouts bytes_sent bytes_recv queue_ms rtt_ms execute_ms [errors]`, the
//! milliseconds cumulative). The counters belong to the superblock (every process on the
//! node), are never zeroed and can hold garbage (a queue time near 2⁶⁴), so deltas saturate.
//! Source and mount point escape space, tab, newline and backslash as `\ooo`, as in mountinfo.

use std::collections::BTreeMap;

/// The `bytes:` line.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct NfsBytes {
    /// Read with read(2) and friends, page-cache hits included.
    pub normal_read: u64,
    pub normal_write: u64,
    /// Read with `O_DIRECT`.
    pub direct_read: u64,
    pub direct_write: u64,
    /// Payload of the server's READ replies: what crossed the wire.
    pub server_read: u64,
    /// Payload of the WRITE calls sent to the server.
    pub server_write: u64,
    /// Pages read by readpage(s), written by writepage(s).
    pub read_pages: u64,
    pub write_pages: u64,
}

impl NfsBytes {
    /// What happened from `earlier` to `self` (a counter that went back counts 0).
    pub fn since(&self, earlier: &NfsBytes) -> NfsBytes {
        let d = |a: u64, b: u64| a.saturating_sub(b);
        NfsBytes {
            normal_read: d(self.normal_read, earlier.normal_read),
            normal_write: d(self.normal_write, earlier.normal_write),
            direct_read: d(self.direct_read, earlier.direct_read),
            direct_write: d(self.direct_write, earlier.direct_write),
            server_read: d(self.server_read, earlier.server_read),
            server_write: d(self.server_write, earlier.server_write),
            read_pages: d(self.read_pages, earlier.read_pages),
            write_pages: d(self.write_pages, earlier.write_pages),
        }
    }
}

/// One RPC's line of the per-op statistics.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct NfsOp {
    /// Requests completed.
    pub ops: u64,
    /// Transmissions: `ops` plus retransmissions.
    pub trans: u64,
    pub timeouts: u64,
    /// Bytes sent and received, RPC headers included.
    pub bytes_sent: u64,
    pub bytes_recv: u64,
    /// Σ milliseconds queued before transmission.
    pub queue_ms: u64,
    /// Σ milliseconds from transmission to reply.
    pub rtt_ms: u64,
    /// Σ milliseconds from submission to completion.
    pub execute_ms: u64,
    /// Requests that ended in an error: the ninth field of kernels since 2019, else 0.
    pub errors: u64,
}

impl NfsOp {
    /// What happened from `earlier` to `self` (a counter that went back counts 0).
    pub fn since(&self, earlier: &NfsOp) -> NfsOp {
        let d = |a: u64, b: u64| a.saturating_sub(b);
        NfsOp {
            ops: d(self.ops, earlier.ops),
            trans: d(self.trans, earlier.trans),
            timeouts: d(self.timeouts, earlier.timeouts),
            bytes_sent: d(self.bytes_sent, earlier.bytes_sent),
            bytes_recv: d(self.bytes_recv, earlier.bytes_recv),
            queue_ms: d(self.queue_ms, earlier.queue_ms),
            rtt_ms: d(self.rtt_ms, earlier.rtt_ms),
            execute_ms: d(self.execute_ms, earlier.execute_ms),
            errors: d(self.errors, earlier.errors),
        }
    }

    /// Transmissions beyond the first of each request.
    pub fn retrans(&self) -> u64 {
        self.trans.saturating_sub(self.ops)
    }

    /// `x / ops`, 0 without a request.
    fn per_op(&self, x: u64) -> f64 {
        match self.ops {
            0 => 0.0,
            n => x as f64 / n as f64,
        }
    }

    /// Mean round trip, ms (0 without a request).
    pub fn avg_rtt_ms(&self) -> f64 {
        self.per_op(self.rtt_ms)
    }

    /// Mean time from submission to completion, ms (0 without a request).
    pub fn avg_execute_ms(&self) -> f64 {
        self.per_op(self.execute_ms)
    }

    /// Mean time queued, ms (0 without a request).
    pub fn avg_queue_ms(&self) -> f64 {
        self.per_op(self.queue_ms)
    }

    /// Mean bytes sent plus received per request, headers included (nfsiostat's kB/op).
    pub fn avg_wire_bytes(&self) -> f64 {
        self.per_op(self.bytes_sent.saturating_add(self.bytes_recv))
    }
}

/// One NFS mount's counters.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct NfsMountStats {
    /// `server:/export`, unescaped.
    pub device: String,
    /// Unescaped.
    pub mount_point: String,
    /// `nfs` (versions 2 and 3) or `nfs4`.
    pub fstype: String,
    /// Zeros when the mount has no `bytes:` line.
    pub bytes: NfsBytes,
    /// By RPC name as the kernel spells it (`READ`, `WRITE`, `COMMIT`, `GETATTR`…).
    pub ops: BTreeMap<String, NfsOp>,
}

impl NfsMountStats {
    /// What happened on this mount from `earlier` to `self`. An op missing from `earlier`
    /// counts from 0; one missing from `self` is left out.
    pub fn since(&self, earlier: &NfsMountStats) -> NfsDelta {
        let zero = NfsOp::default();
        let ops = self
            .ops
            .iter()
            .map(|(name, op)| {
                let before = earlier.ops.get(name).unwrap_or(&zero);
                (name.clone(), op.since(before))
            })
            .collect();
        NfsDelta {
            mount_point: self.mount_point.clone(),
            bytes: self.bytes.since(&earlier.bytes),
            ops,
        }
    }
}

/// What one mount did between two snapshots.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct NfsDelta {
    pub mount_point: String,
    pub bytes: NfsBytes,
    pub ops: BTreeMap<String, NfsOp>,
}

impl NfsDelta {
    /// The op `name`'s figures (zeros when it did not appear).
    pub fn op(&self, name: &str) -> NfsOp {
        self.ops.get(name).copied().unwrap_or_default()
    }

    pub fn read(&self) -> NfsOp {
        self.op("READ")
    }

    pub fn write(&self) -> NfsOp {
        self.op("WRITE")
    }

    pub fn commit_ops(&self) -> u64 {
        self.op("COMMIT").ops
    }

    /// Requests of every kind.
    pub fn total_ops(&self) -> u64 {
        self.ops.values().fold(0, |n, op| n.saturating_add(op.ops))
    }

    /// Mean payload per READ: Δserverread / ΔREAD (0 without one).
    pub fn avg_read_bytes(&self) -> f64 {
        self.read().per_op(self.bytes.server_read)
    }

    /// Mean payload per WRITE: Δserverwrite / ΔWRITE (0 without one).
    pub fn avg_write_bytes(&self) -> f64 {
        self.write().per_op(self.bytes.server_write)
    }
}

/// The NFS mounts (`nfs`, `nfs4`) of mountstats' text, in its order. Other mounts, lines of
/// another shape and per-op lines with fewer than 8 numbers are skipped.
pub fn parse_mountstats(text: &str) -> Vec<NfsMountStats> {
    let mut out = Vec::new();
    let mut cur: Option<NfsMountStats> = None;
    let mut in_ops = false;
    for line in text.lines() {
        if line.trim().is_empty() {
            continue;
        }
        if !line.starts_with([' ', '\t']) {
            // A mount's line, or something else: either way the block above ends.
            out.extend(cur.take());
            in_ops = false;
            cur = parse_device_line(line).filter(|m| m.fstype == "nfs" || m.fstype == "nfs4");
            continue;
        }
        let Some(m) = cur.as_mut() else { continue };
        let body = line.trim();
        if body == "per-op statistics" {
            in_ops = true;
        } else if let Some(rest) = body.strip_prefix("bytes:") {
            if let Some(b) = parse_bytes(rest) {
                m.bytes = b;
            }
        } else if in_ops {
            if let Some((name, op)) = parse_op(body) {
                m.ops.insert(name.to_string(), op);
            }
        }
    }
    out.extend(cur);
    out
}

/// The mount at `mount_point` (unescaped). Of several at the same point the last, which
/// mountstats lists after the ones it hides.
pub fn for_mount<'a>(all: &'a [NfsMountStats], mount_point: &str) -> Option<&'a NfsMountStats> {
    all.iter().rev().find(|m| m.mount_point == mount_point)
}

/// This process's `/proc/self/mountstats`.
pub fn read_mountstats() -> std::io::Result<String> {
    std::fs::read_to_string("/proc/self/mountstats")
}

/// `device SRC mounted on MNT with fstype T [statvers=…]`.
fn parse_device_line(line: &str) -> Option<NfsMountStats> {
    let f: Vec<&str> = line.split_whitespace().collect();
    let shape = [
        (0, "device"),
        (2, "mounted"),
        (3, "on"),
        (5, "with"),
        (6, "fstype"),
    ];
    if f.len() < 8 || shape.iter().any(|&(i, word)| f[i] != word) {
        return None;
    }
    Some(NfsMountStats {
        device: unescape(f[1]),
        mount_point: unescape(f[4]),
        fstype: f[7].to_string(),
        ..NfsMountStats::default()
    })
}

fn parse_bytes(rest: &str) -> Option<NfsBytes> {
    let f: Vec<&str> = rest.split_whitespace().collect();
    let n = |i| crate::field(&f, i);
    Some(NfsBytes {
        normal_read: n(0)?,
        normal_write: n(1)?,
        direct_read: n(2)?,
        direct_write: n(3)?,
        server_read: n(4)?,
        server_write: n(5)?,
        read_pages: n(6)?,
        write_pages: n(7)?,
    })
}

/// `NAME: ops trans timeouts bytes_sent bytes_recv queue_ms rtt_ms execute_ms [errors]`.
/// Fields past the ninth, were a kernel to add some, are ignored.
fn parse_op(body: &str) -> Option<(&str, NfsOp)> {
    let (name, rest) = body.split_once(':')?;
    let name = name.trim();
    if name.is_empty() || name.contains(char::is_whitespace) {
        return None;
    }
    let n: Vec<u64> = rest
        .split_whitespace()
        .map(str::parse)
        .collect::<Result<_, _>>()
        .ok()?;
    if n.len() < 8 {
        return None;
    }
    let op = NfsOp {
        ops: n[0],
        trans: n[1],
        timeouts: n[2],
        bytes_sent: n[3],
        bytes_recv: n[4],
        queue_ms: n[5],
        rtt_ms: n[6],
        execute_ms: n[7],
        errors: n.get(8).copied().unwrap_or(0),
    };
    Some((name, op))
}

/// Decodes the kernel's `\ooo` octal escapes; anything malformed is kept literally.
fn unescape(field: &str) -> String {
    let b = field.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        let digits = b
            .get(i + 1..i + 4)
            .filter(|d| d.iter().all(|c| (b'0'..=b'7').contains(c)));
        match digits {
            Some(d) if b[i] == b'\\' => {
                let v = d.iter().fold(0u32, |acc, &c| acc * 8 + u32::from(c - b'0'));
                out.push(v as u8);
                i += 4;
            }
            _ => {
                out.push(b[i]);
                i += 1;
            }
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

#[cfg(test)]
mod tests;
