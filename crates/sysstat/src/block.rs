//! The block devices behind a path, for `/proc/diskstats`: the file system's device number
//! (`stat`'s `st_dev`), its directory `/sys/dev/block/MAJ:MIN`, and below it the devices a
//! device-mapper or md device is made of (`slaves/`) and the file system holding a loop
//! device's backing file (`loop/backing_file`). A device number of major 0 is anonymous:
//! tmpfs, overlay, NFS, a btrfs subvolume; such a path has no device to count, which the
//! caller records as absent. The sysfs root is a parameter, so that fixture trees test the
//! kinds this machine does not have (`docs/system-groundwork.md`).

use std::path::{Path, PathBuf};

/// A block device behind a path, and how it was reached.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BlockDev {
    pub major: u32,
    pub minor: u32,
    /// The kernel's name (`vda`, `sda1`, `dm-0`, `loop3`), as `/proc/diskstats` names it.
    pub name: String,
    /// `None` for the file system's own device; else the device it lies under
    /// (`dm-0`: one of its slaves; `loop0`: the device of its backing file).
    pub under: Option<String>,
}

/// glibc's `major(3)` and `minor(3)` of a `dev_t`.
pub fn split_dev(dev: u64) -> (u32, u32) {
    let major = ((dev >> 8) & 0xfff) | ((dev >> 32) & !0xfff);
    let minor = (dev & 0xff) | ((dev >> 12) & !0xff);
    (major as u32, minor as u32)
}

/// The device number of the file system holding `path`; `None` for an anonymous one.
pub fn dev_of(path: &Path) -> std::io::Result<Option<(u32, u32)>> {
    use std::os::unix::fs::MetadataExt;
    let (major, minor) = split_dev(std::fs::metadata(path)?.dev());
    Ok((major != 0).then_some((major, minor)))
}

/// The devices of `major:minor` under the sysfs root `sys`: the device itself first, then
/// what it is made of, depth first. A number sysfs does not know gives nothing.
pub fn resolve(sys: &Path, major: u32, minor: u32) -> Vec<BlockDev> {
    let mut out = Vec::new();
    walk(sys, major, minor, None, &mut out, 0);
    out
}

/// The devices behind `path` on this machine (empty for an anonymous file system).
pub fn behind(path: &Path) -> std::io::Result<Vec<BlockDev>> {
    Ok(match dev_of(path)? {
        Some((major, minor)) => resolve(Path::new("/sys"), major, minor),
        None => Vec::new(),
    })
}

/// Stacks deeper than this are taken for a loop in the tree.
const MAX_DEPTH: usize = 8;

fn walk(
    sys: &Path,
    major: u32,
    minor: u32,
    under: Option<&str>,
    out: &mut Vec<BlockDev>,
    depth: usize,
) {
    let link = sys.join(format!("dev/block/{major}:{minor}"));
    let Ok(dir) = std::fs::canonicalize(&link) else {
        return;
    };
    let Some(name) = dir.file_name().map(|n| n.to_string_lossy().into_owned()) else {
        return;
    };
    if depth > MAX_DEPTH || out.iter().any(|d| d.major == major && d.minor == minor) {
        return;
    }
    out.push(BlockDev {
        major,
        minor,
        name: name.clone(),
        under: under.map(str::to_string),
    });
    let mut slaves: Vec<String> = std::fs::read_dir(dir.join("slaves"))
        .map(|rd| {
            rd.filter_map(|e| e.ok())
                .map(|e| e.file_name().to_string_lossy().into_owned())
                .collect()
        })
        .unwrap_or_default();
    slaves.sort();
    for slave in slaves {
        if let Some((ma, mi)) = number_of(sys, &slave) {
            walk(sys, ma, mi, Some(&name), out, depth + 1);
        }
    }
    let backing = std::fs::read_to_string(dir.join("loop/backing_file"));
    if let Ok(file) = backing {
        if let Ok(Some((ma, mi))) = dev_of(&PathBuf::from(file.trim())) {
            walk(sys, ma, mi, Some(&name), out, depth + 1);
        }
    }
}

/// `MAJ:MIN` of the device named `name` (`/sys/class/block/NAME/dev`).
fn number_of(sys: &Path, name: &str) -> Option<(u32, u32)> {
    let text = std::fs::read_to_string(sys.join(format!("class/block/{name}/dev"))).ok()?;
    let (ma, mi) = text.trim().split_once(':')?;
    Some((ma.parse().ok()?, mi.parse().ok()?))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::fs::symlink;

    /// glibc's `makedev(3)`, to hold `split_dev` against.
    fn makedev(major: u32, minor: u32) -> u64 {
        let (ma, mi) = (u64::from(major), u64::from(minor));
        ((ma & 0xfff) << 8) | ((ma & !0xfff) << 32) | (mi & 0xff) | ((mi & !0xff) << 12)
    }

    #[test]
    fn device_numbers_as_glibc_splits_them() {
        assert_eq!(split_dev(0xfe00), (254, 0));
        assert_eq!(split_dev(0x0801), (8, 1));
    }

    proptest::proptest! {
        #[test]
        fn split_undoes_makedev(major: u32, minor: u32) {
            proptest::prop_assert_eq!(split_dev(makedev(major, minor)), (major, minor));
        }
    }

    /// A sysfs tree with a partition, a device-mapper device over it and a second disk.
    fn tree() -> tempfile::TempDir {
        let t = tempfile::tempdir().unwrap();
        let sys = t.path();
        let dev = |name: &str, path: &str, num: &str| {
            let dir = sys.join("devices").join(path);
            std::fs::create_dir_all(dir.join("slaves")).unwrap();
            std::fs::write(dir.join("dev"), format!("{num}\n")).unwrap();
            std::fs::create_dir_all(sys.join("dev/block")).unwrap();
            symlink(&dir, sys.join(format!("dev/block/{num}"))).unwrap();
            std::fs::create_dir_all(sys.join("class/block")).unwrap();
            symlink(&dir, sys.join(format!("class/block/{name}"))).unwrap();
            dir
        };
        dev("sda", "pci/block/sda", "8:0");
        let part = dev("sda1", "pci/block/sda/sda1", "8:1");
        std::fs::write(part.join("partition"), "1\n").unwrap();
        dev("sdb", "pci/block/sdb", "8:16");
        let dm = dev("dm-0", "virtual/block/dm-0", "253:0");
        std::fs::create_dir(dm.join("slaves/sdb")).unwrap();
        std::fs::create_dir(dm.join("slaves/sda1")).unwrap();
        t
    }

    #[test]
    fn device_mapper_down_to_its_slaves() {
        let t = tree();
        let got = resolve(t.path(), 253, 0);
        let names: Vec<(&str, Option<&str>)> = got
            .iter()
            .map(|d| (d.name.as_str(), d.under.as_deref()))
            .collect();
        assert_eq!(
            names,
            [
                ("dm-0", None),
                ("sda1", Some("dm-0")),
                ("sdb", Some("dm-0"))
            ]
        );
        assert_eq!((got[1].major, got[1].minor), (8, 1));
        // A partition is its own device (its counters are its share of the disk's).
        assert_eq!(resolve(t.path(), 8, 1).len(), 1);
        assert!(resolve(t.path(), 9, 9).is_empty(), "unknown to sysfs");
    }

    #[test]
    fn this_machine() {
        // tmpfs has no device.
        if Path::new("/dev/shm").is_dir() {
            assert_eq!(dev_of(Path::new("/dev/shm")).unwrap(), None);
        }
        // Whatever holds the current directory resolves to itself first, when it has one.
        if let Some((ma, mi)) = dev_of(Path::new(".")).unwrap() {
            if let Some(first) = behind(Path::new(".")).unwrap().first() {
                assert_eq!((first.major, first.minor), (ma, mi));
                assert!(first.under.is_none());
            }
        }
    }
}
