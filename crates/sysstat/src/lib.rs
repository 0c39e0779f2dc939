//! What the system did while a phase ran, read from the kernel's counters (groundwork for
//! the system-metrics issue, `docs/system-groundwork.md`): each file here parses one source
//! into plain counters, and a snapshot minus an earlier one is what happened in between.
//! Pure functions over text, so that fixture files test them; reading the live file is the
//! caller's (`read_*` helpers do just that). Nothing here samples or decides.
//!
//! `cpu.rs`: `/proc/stat`'s cpu line (the node's busy fraction). `disk.rs`:
//! `/proc/diskstats` (a device's requests, bytes, merges and queue time). `mem.rs`:
//! `/proc/meminfo`'s dirty and write-back bytes. `procio.rs`: `/proc/self/io`. `net.rs`:
//! `/proc/net/dev`. `block.rs`: the block devices behind a path (sysfs), whose lines of
//! `/proc/diskstats` a phase's device figures come from. `nfs.rs`: `/proc/self/mountstats`
//! (an NFS mount's bytes and per-RPC counts and times). `lustre.rs`: Lustre's
//! `llite.*.stats` (a client mount's calls, bytes and latencies) and where to find them.

pub mod block;
pub mod cpu;
pub mod disk;
pub mod lustre;
pub mod mem;
pub mod net;
pub mod nfs;
pub mod procio;

/// The `n`th whitespace-separated field of `line` as a number; `None` when missing or not one.
fn field(fields: &[&str], n: usize) -> Option<u64> {
    fields.get(n)?.parse().ok()
}
