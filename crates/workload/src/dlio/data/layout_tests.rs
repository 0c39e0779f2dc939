use super::*;
use proptest::prelude::*;

fn layout(num_files: u64, num_subfolders: u64, format: DataFormat) -> Layout {
    Layout {
        data_folder: PathBuf::from("/data/unet3d"),
        split: Split::Train,
        num_files,
        num_subfolders,
        file_prefix: "img".into(),
        format,
    }
}

#[test]
fn names_pad_the_index_to_the_digits_of_the_count() {
    let l = layout(168, 0, DataFormat::Npz);
    assert_eq!(l.file_name(7), "img_007_of_168.npz");
    assert_eq!(l.file_name(167), "img_167_of_168.npz");
    assert_eq!(
        l.file_path(0),
        PathBuf::from("/data/unet3d/train/img_000_of_168.npz")
    );
    assert_eq!(
        layout(9, 0, DataFormat::Jpeg).file_name(3),
        "img_3_of_9.jpeg"
    );
    assert_eq!(
        layout(1000, 0, DataFormat::Tfrecord).file_name(42),
        "img_0042_of_1000.tfrecord"
    );
}

#[test]
fn files_go_round_robin_into_padded_subfolders() {
    let l = layout(25, 10, DataFormat::Npz);
    assert_eq!(
        l.file_path(13),
        PathBuf::from("/data/unet3d/train/03/img_13_of_25.npz")
    );
    assert_eq!(
        l.file_path(20),
        PathBuf::from("/data/unet3d/train/00/img_20_of_25.npz")
    );
    let subs = l.subfolders();
    assert_eq!(subs.len(), 10);
    assert_eq!(subs[0], PathBuf::from("/data/unet3d/train/00"));
    assert_eq!(subs[9], PathBuf::from("/data/unet3d/train/09"));
}

#[test]
fn zero_or_one_subfolder_is_flat() {
    for k in [0, 1] {
        let l = layout(4, k, DataFormat::Npz);
        assert!(l.subfolders().is_empty());
        assert_eq!(
            l.file_path(2),
            PathBuf::from("/data/unet3d/train/img_2_of_4.npz")
        );
    }
}

#[test]
fn the_valid_split_has_its_own_folder_and_count() {
    let mut l = layout(12, 3, DataFormat::Tfrecord);
    l.split = Split::Valid;
    assert_eq!(
        l.file_path(4),
        PathBuf::from("/data/unet3d/valid/1/img_04_of_12.tfrecord")
    );
}

#[test]
fn a_folder_with_another_count_mixes_into_dlios_order() {
    // Byte order: '1' < '_' (0x31 < 0x5f), '1' < '5'.
    let mut files: Vec<PathBuf> = ["img_1_of_5.npz", "img_0_of_10.npz", "img_0_of_5.npz"]
        .iter()
        .map(|n| PathBuf::from("/d/train").join(n))
        .collect();
    sort_as_dlio(&mut files, false);
    let names: Vec<_> = files.iter().map(|p| p.file_name().unwrap()).collect();
    assert_eq!(
        names,
        ["img_0_of_10.npz", "img_0_of_5.npz", "img_1_of_5.npz"]
    );
}

#[test]
fn listing_a_generated_split_finds_dlios_files_in_dlios_order() {
    let dir = tempfile::tempdir().unwrap();
    for k in [0, 4] {
        let mut l = layout(11, k, DataFormat::Npz);
        l.data_folder = dir.path().join(format!("k{k}"));
        for sub in l.subfolders() {
            std::fs::create_dir_all(sub).unwrap();
        }
        std::fs::create_dir_all(l.split_dir()).unwrap();
        // Written in reverse so that the listing's order is the sort's doing.
        for i in (0..l.num_files).rev() {
            std::fs::write(l.file_path(i), b"x").unwrap();
        }
        let first_dir = l.file_path(0).parent().unwrap().to_path_buf();
        std::fs::write(first_dir.join(".hidden.npz"), b"x").unwrap();
        std::fs::write(first_dir.join("notes.txt"), b"x").unwrap();
        let listed = l.list_on_disk().unwrap();
        let want: Vec<PathBuf> = (0..l.num_files).map(|i| l.file_path(i)).collect();
        if k == 0 {
            // Flat: DLIO's `endswith('npz')` takes the dot-file too; it sorts first.
            assert_eq!(listed[0], first_dir.join(".hidden.npz"));
            assert_eq!(listed[1..], want[..]);
        } else {
            assert_eq!(listed, want);
        }
    }
}

#[test]
fn listing_a_missing_split_is_not_found() {
    let dir = tempfile::tempdir().unwrap();
    let mut l = layout(3, 0, DataFormat::Jpeg);
    l.data_folder = dir.path().join("absent");
    assert_eq!(
        l.list_on_disk().unwrap_err().kind(),
        io::ErrorKind::NotFound
    );
}

#[test]
fn subfolder_listing_takes_upper_case_extensions_as_dlios_glob_does() {
    let dir = tempfile::tempdir().unwrap();
    let mut l = layout(2, 2, DataFormat::Jpeg);
    l.data_folder = dir.path().to_path_buf();
    for sub in l.subfolders() {
        std::fs::create_dir_all(sub).unwrap();
    }
    let upper = l.split_dir().join("1").join("extra.JPEG");
    std::fs::write(&upper, b"x").unwrap();
    std::fs::write(l.file_path(0), b"x").unwrap();
    std::fs::write(l.split_dir().join("stray.jpeg"), b"x").unwrap();
    let listed = l.list_on_disk().unwrap();
    assert_eq!(listed, vec![upper, l.file_path(0)]);
}

proptest! {
    #[test]
    fn dlios_order_of_one_data_set_is_index_order(n in 0u64..3000, k in 0u64..40) {
        let l = layout(n, k, DataFormat::Npz);
        let want: Vec<PathBuf> = (0..n).map(|i| l.file_path(i)).collect();
        prop_assert_eq!(l.files_in_dlio_order(), want);
    }
}
