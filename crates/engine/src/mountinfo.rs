//! `/proc/self/mountinfo` parsing: which mount holds a path, and with which options.
//!
//! Line format (proc(5)): `id parent major:minor root mount_point mount_options [optional...] -
//! fstype source super_options`, with space, tab, newline and backslash octal-escaped (`\040`).

use std::path::{Path, PathBuf};

/// One mount, with escapes decoded.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MountEntry {
    pub mount_point: String,
    pub fs_type: String,
    pub source: String,
    /// Per-mount (VFS) options, e.g. `rw,noatime`.
    pub mount_options: String,
    /// Super-block (file-system specific) options, e.g. `rw,size=4k`.
    pub super_options: String,
}

impl MountEntry {
    /// Per-mount options followed by the super options not already present, as `findmnt` shows
    /// them. The super block's `rw`/`ro` is dropped: the per-mount flag decides access.
    pub fn combined_options(&self) -> String {
        let mut out: Vec<&str> = self
            .mount_options
            .split(',')
            .filter(|o| !o.is_empty())
            .collect();
        for o in self.super_options.split(',') {
            if !o.is_empty() && o != "rw" && o != "ro" && !out.contains(&o) {
                out.push(o);
            }
        }
        out.join(",")
    }
}

/// Decodes the kernel's `\ooo` octal escapes; anything malformed is kept literally.
pub fn unescape(field: &str) -> String {
    let b = field.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        let octal = |c: u8| (b'0'..=b'7').contains(&c);
        if b[i] == b'\\' && i + 3 < b.len() && b[i + 1..i + 4].iter().all(|&c| octal(c)) {
            let v = b[i + 1..i + 4]
                .iter()
                .fold(0u32, |acc, &c| acc * 8 + u32::from(c - b'0'));
            out.push(v as u8);
            i += 4;
        } else {
            out.push(b[i]);
            i += 1;
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// Parses one line; `None` if it does not have the documented shape.
pub fn parse_line(line: &str) -> Option<MountEntry> {
    let fields: Vec<&str> = line.split_whitespace().collect();
    let sep = fields.iter().position(|&f| f == "-")?;
    if sep < 6 || fields.len() < sep + 3 {
        return None;
    }
    Some(MountEntry {
        mount_point: unescape(fields[4]),
        mount_options: fields[5].to_string(),
        fs_type: unescape(fields[sep + 1]),
        source: unescape(fields[sep + 2]),
        super_options: fields.get(sep + 3).map_or(String::new(), |s| unescape(s)),
    })
}

/// Every well-formed line of a mountinfo text, in order.
pub fn parse(text: &str) -> Vec<MountEntry> {
    text.lines().filter_map(parse_line).collect()
}

/// The mount holding `path` (absolute, canonical): the longest mount point that is a
/// component-wise prefix. Among equal mount points the last line wins, as a later mount hides
/// an earlier one on the same directory.
pub fn find_mount<'a>(entries: &'a [MountEntry], path: &Path) -> Option<&'a MountEntry> {
    let mut best: Option<(&MountEntry, usize)> = None;
    for e in entries {
        let mp = PathBuf::from(&e.mount_point);
        if path.starts_with(&mp) {
            let depth = mp.components().count();
            if best.is_none_or(|(_, d)| depth >= d) {
                best = Some((e, depth));
            }
        }
    }
    best.map(|(e, _)| e)
}

/// The current process's mounts; empty where `/proc` is unavailable.
pub fn read_self() -> Vec<MountEntry> {
    std::fs::read_to_string("/proc/self/mountinfo")
        .map(|t| parse(&t))
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    const SAMPLE: &str = "\
27 1 254:0 / / rw,relatime - ext4 /dev/vda rw,discard
36 35 98:0 /mnt1 /mnt/parent rw,noatime master:1 shared:7 - ext3 /dev/root rw,errors=continue
40 27 0:50 / /mnt/my\\040data ro,nosuid - lustre 10.0.0.1@tcp:/fs\\040one rw,flock,lazystatfs
41 27 0:51 / /mnt/my ro - tmpfs tmpfs rw,size=4k
42 27 0:52 / /mnt/my\\040data rw - nfs4 srv:/x rw,vers=4.2
garbage line
";

    #[test]
    fn parses_optional_fields_and_escapes() {
        let e = parse(SAMPLE);
        assert_eq!(e.len(), 5);
        assert_eq!(e[1].mount_point, "/mnt/parent");
        assert_eq!(e[1].fs_type, "ext3");
        assert_eq!(e[1].source, "/dev/root");
        assert_eq!(e[1].combined_options(), "rw,noatime,errors=continue");
        assert_eq!(e[2].mount_point, "/mnt/my data");
        assert_eq!(e[2].source, "10.0.0.1@tcp:/fs one");
        assert_eq!(e[2].combined_options(), "ro,nosuid,flock,lazystatfs");
    }

    #[test]
    fn longest_prefix_by_component_and_last_wins() {
        let e = parse(SAMPLE);
        let at = |p: &str| find_mount(&e, Path::new(p)).unwrap().fs_type.clone();
        assert_eq!(at("/mnt/my data/run1/file"), "nfs4"); // stacked: later line wins
        assert_eq!(at("/mnt/my/x"), "tmpfs");
        assert_eq!(at("/mnt/myother"), "ext4"); // "/mnt/my" is not a component prefix
        assert_eq!(at("/mnt/parent"), "ext3");
        assert!(find_mount(&[], Path::new("/x")).is_none());
    }

    #[test]
    fn unescape_edge_cases() {
        assert_eq!(unescape(r"a\040b\011c\134d"), "a b\tc\\d");
        assert_eq!(unescape(r"trailing\04"), r"trailing\04");
        assert_eq!(unescape(r"\9xx"), r"\9xx");
    }
}
