//! Where a run's I/O lands, resolved once when the session is made: the block devices behind
//! the target directory (`sysstat::block`), or why it has none (tmpfs, NFS, an object store),
//! and the NFS mount or Lustre `llite` instance whose client counters cover it.

use std::path::{Path, PathBuf};

use results::FsInfo;

/// A block device the figures follow.
#[derive(Debug, Clone, PartialEq)]
pub struct Device {
    pub major: u32,
    pub minor: u32,
    pub name: String,
    /// `target`, `slave` or `backing` (`results::system::DeviceFigures::role`).
    pub role: &'static str,
    pub max_request_bytes: Option<u64>,
}

#[derive(Debug, Clone, Default, PartialEq)]
pub struct Target {
    pub devices: Vec<Device>,
    /// Why there are no devices to follow.
    pub no_devices: Option<String>,
    pub nfs_mount: Option<String>,
    /// The `llite` instance and its stats file.
    pub lustre: Option<(String, PathBuf)>,
    pub fs_type: String,
}

/// `path` if it exists, else its nearest existing ancestor (the run directory is often made
/// after the session).
fn existing(path: &Path) -> Option<&Path> {
    path.ancestors().find(|p| p.exists())
}

const NETWORK_FS: &[&str] = &[
    "nfs", "nfs4", "lustre", "ceph", "fuse", "cifs", "smb3", "9p",
];

impl Target {
    /// The target of a run whose document names `fs` (`None`: no local target, an object
    /// store).
    pub fn of(fs: Option<&FsInfo>) -> Target {
        let Some(fs) = fs else {
            return Target {
                no_devices: Some("none: the target is not a local path".into()),
                ..Target::default()
            };
        };
        let mut t = Target {
            fs_type: fs.fs_type.clone(),
            ..Target::default()
        };
        match fs.fs_type.as_str() {
            "nfs" | "nfs4" => t.nfs_mount = Some(fs.mount_point.clone()),
            "lustre" => t.lustre = lustre_instance(Path::new("/"), &fs.mount_source),
            _ => {}
        }
        let path = Path::new(&fs.path);
        let devs = existing(path).map(sysstat::block::behind);
        match devs {
            Some(Ok(devs)) if !devs.is_empty() => t.devices = devices(devs),
            Some(Ok(_)) => {
                let why = match NETWORK_FS.contains(&fs.fs_type.as_str()) {
                    true => "a network file system: the client's own counters say more",
                    false => "no block device behind it",
                };
                t.no_devices = Some(format!("none: {} is {}, {why}", fs.path, fs.fs_type));
            }
            Some(Err(e)) => t.no_devices = Some(format!("{}: {e}", fs.path)),
            None => t.no_devices = Some(format!("{}: no such path", fs.path)),
        }
        t
    }
}

fn devices(devs: Vec<sysstat::block::BlockDev>) -> Vec<Device> {
    devs.into_iter()
        .map(|d| {
            let role = match d.under.as_deref() {
                None => "target",
                Some(u) if u.starts_with("loop") => "backing",
                Some(_) => "slave",
            };
            Device {
                max_request_bytes: max_request_bytes(Path::new("/sys"), &d.name),
                major: d.major,
                minor: d.minor,
                name: d.name,
                role,
            }
        })
        .collect()
}

/// `queue/max_sectors_kb` of a disk, or of a partition's disk.
fn max_request_bytes(sys: &Path, name: &str) -> Option<u64> {
    let dir = std::fs::canonicalize(sys.join("class/block").join(name)).ok()?;
    [dir.join("queue"), dir.parent()?.join("queue")]
        .iter()
        .find_map(|q| std::fs::read_to_string(q.join("max_sectors_kb")).ok())
        .and_then(|t| t.trim().parse::<u64>().ok())
        .map(|kb| kb * 1024)
}

/// The `llite` instance of the Lustre file system mounted from `source` (`mgs@tcp:/fsname`),
/// under the root `root`, when exactly one instance has that name.
fn lustre_instance(root: &Path, source: &str) -> Option<(String, PathBuf)> {
    let fsname = sysstat::lustre::fsname_from_source(source)?;
    let all = sysstat::lustre::llite_instances(root);
    sysstat::lustre::instance_for_fsname(&all, fsname).cloned()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fs(path: &str, fs_type: &str) -> FsInfo {
        FsInfo {
            path: path.into(),
            fs_type: fs_type.into(),
            fs_magic: String::new(),
            mount_point: "/".into(),
            mount_source: String::new(),
            mount_options: String::new(),
            capacity_bytes: 0,
            free_bytes: 0,
            inodes: 0,
            free_inodes: 0,
        }
    }

    #[test]
    fn tmpfs_and_object_stores_have_no_devices() {
        if Path::new("/dev/shm").is_dir() {
            let t = Target::of(Some(&fs("/dev/shm/not-made-yet/x", "tmpfs")));
            assert!(t.devices.is_empty());
            assert!(t.no_devices.unwrap().contains("is tmpfs, no block device"));
        }
        let t = Target::of(None);
        assert!(t.no_devices.unwrap().starts_with("none:"));
    }

    #[test]
    fn a_disk_backed_directory_has_its_device_first() {
        let here = std::env::current_dir().unwrap();
        let t = Target::of(Some(&fs(here.to_str().unwrap(), "ext4")));
        if let Some(first) = t.devices.first() {
            assert_eq!(first.role, "target");
            assert!(first.max_request_bytes.unwrap_or(4096) >= 4096);
        }
    }

    #[test]
    fn lustre_instances_by_fsname() {
        let root = tempfile::tempdir().unwrap();
        let dir = root.path().join("proc/fs/lustre/llite/scratch-ffff8800aa");
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("stats"), "snapshot_time 1.5 secs.usecs\n").unwrap();
        let got = lustre_instance(root.path(), "10.0.0.1@tcp:/scratch").unwrap();
        assert_eq!(got.0, "scratch-ffff8800aa");
        assert_eq!(lustre_instance(root.path(), "10.0.0.1@tcp:/other"), None);
    }
}
