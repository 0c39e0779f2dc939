//! File-system names from `statfs` `f_type` magic numbers (Linux `magic.h` plus the parallel
//! file systems the kernel does not ship).

const MAGICS: &[(u64, &str)] = &[
    (0xEF53, "ext4"), // shared by ext2, ext3 and ext4; mountinfo tells them apart
    (0x0102_1994, "tmpfs"),
    (0x5846_5342, "xfs"),
    (0x9123_683E, "btrfs"),
    (0x2FC1_2FC1, "zfs"),
    (0xF2F5_2010, "f2fs"),
    (0x6969, "nfs"),
    (0x0BD0_0BD0, "lustre"),
    (0x4750_4653, "gpfs"),
    (0x1983_0326, "beegfs"),
    (0x00C3_6400, "ceph"),
    (0xAAD7_AAEA, "panfs"),
    (0x2003_0528, "orangefs"),
    (0x0116_1970, "gfs2"),
    (0x7461_636F, "ocfs2"),
    (0xFF53_4D42, "cifs"),
    (0xFE53_4D42, "smb2"),
    (0x0102_1997, "9p"),
    (0x6573_5546, "fuse"),
    (0x794C_7630, "overlay"),
    (0x7371_7368, "squashfs"),
    (0x8584_58F6, "ramfs"),
    (0x9584_58F6, "hugetlbfs"),
    (0x4D44, "vfat"),
    (0x2011_BAB0, "exfat"),
    (0x5346_544E, "ntfs"),
    (0x9FA0, "proc"),
    (0x6265_6572, "sysfs"),
    (0x1CD1, "devpts"),
    (0x6367_7270, "cgroup2"),
    (0x0027_E0EB, "cgroup"),
];

/// The name for a magic number, or `None` if it is not in the table.
pub fn name_of_magic(magic: u64) -> Option<&'static str> {
    MAGICS.iter().find(|(m, _)| *m == magic).map(|(_, n)| *n)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn known_and_unknown() {
        assert_eq!(name_of_magic(0x0102_1994), Some("tmpfs"));
        assert_eq!(name_of_magic(0x0BD0_0BD0), Some("lustre"));
        assert_eq!(name_of_magic(0x1234_5678), None);
    }
}
