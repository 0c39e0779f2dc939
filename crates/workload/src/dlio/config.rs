//! From a resolved DLIO config (`plan::dlio::DlioParams`) to what the parts take: the data
//! set's folder and layouts, the generation's `GenSpec`, one rank's `TrainParams`. Pure.

use std::path::PathBuf;

use plan::dlio::{self as cfg, DlioParams};

use super::data::{DataFormat, GenSpec, Layout, Split};
use super::train::{ComputeTime, Format, Loader, Shuffle, TrainParams};

/// Keys every generated file's shape and content: a fixed value, so that a data set is the
/// same every time it is generated (DLIO draws from its own seed; see docs/dlio.md).
pub const DATA_SEED: u64 = 0x0d11_0d47;

/// `storage.storage_root` joined with `dataset.data_folder`, as DLIO's file storage joins
/// them (an absolute data folder wins).
pub fn data_folder(p: &DlioParams) -> PathBuf {
    PathBuf::from(&p.storage.storage_root).join(&p.dataset.data_folder)
}

/// `storage.storage_root` joined with `checkpoint.checkpoint_folder`, as the data folder.
pub fn checkpoint_folder(p: &DlioParams) -> PathBuf {
    PathBuf::from(&p.storage.storage_root).join(&p.checkpoint.checkpoint_folder)
}

/// Checkpoints with O_DIRECT: `storage.storage_type: direct_fs` (DLIO's later O_DIRECT
/// checkpoint back end; mlcommons/storage#371 found it silently buffered).
pub fn checkpoint_odirect(p: &DlioParams) -> bool {
    p.storage.storage_type == cfg::StorageType::DirectFs
}

pub fn data_format(p: &DlioParams) -> DataFormat {
    match p.dataset.format {
        cfg::Format::Npz => DataFormat::Npz,
        cfg::Format::Tfrecord => DataFormat::Tfrecord,
        cfg::Format::Jpeg => DataFormat::Jpeg,
    }
}

/// The layout of `split` (train or valid).
pub fn layout(p: &DlioParams, split: Split) -> Layout {
    let d = &p.dataset;
    let (num_files, num_subfolders) = match split {
        Split::Train => (d.num_files_train, d.num_subfolders_train),
        Split::Valid => (d.num_files_eval, d.num_subfolders_eval),
    };
    Layout {
        data_folder: data_folder(p),
        split,
        num_files,
        num_subfolders,
        file_prefix: d.file_prefix.clone(),
        format: data_format(p),
    }
}

/// What shapes every generated file. Record lengths are rounded to whole bytes.
pub fn gen_spec(p: &DlioParams) -> GenSpec {
    GenSpec {
        format: data_format(p),
        record_length: p.dataset.record_length_bytes.round() as u64,
        record_length_stdev: p.dataset.record_length_bytes_stdev.round() as u64,
        samples_per_file: p.dataset.num_samples_per_file,
        seed: DATA_SEED,
    }
}

fn shuffle(s: cfg::Shuffle) -> Shuffle {
    match s {
        cfg::Shuffle::Off => Shuffle::Off,
        cfg::Shuffle::Seed => Shuffle::Seed,
        cfg::Shuffle::Random => Shuffle::Random,
    }
}

/// Rank `rank` of `ranks`'s training parameters.
pub fn train_params(p: &DlioParams, ranks: u64, rank: u64) -> TrainParams {
    let t = &p.train;
    let r = &p.reader;
    TrainParams {
        loader: match r.data_loader {
            cfg::DataLoader::Pytorch => Loader::Pytorch,
            cfg::DataLoader::Tensorflow => Loader::Tensorflow,
        },
        format: match p.dataset.format {
            cfg::Format::Npz => Format::Npz,
            cfg::Format::Tfrecord => Format::Tfrecord,
            cfg::Format::Jpeg => Format::Jpeg,
        },
        num_files: p.dataset.num_files_train,
        samples_per_file: p.dataset.num_samples_per_file,
        batch_size: r.batch_size,
        comm_size: ranks,
        rank,
        read_threads: r.read_threads,
        prefetch_size: r.prefetch_size,
        file_shuffle: shuffle(r.file_shuffle),
        sample_shuffle: shuffle(r.sample_shuffle),
        shuffle_size: r.shuffle_size,
        transfer_size: r.transfer_size,
        odirect: r.odirect,
        // A negative seed is refused by TrainParams::check through the u32 range.
        seed: t.seed.max(0) as u64,
        seed_change_epoch: t.seed_change_epoch,
        epochs: t.epochs,
        total_training_steps: u64::try_from(t.total_training_steps).ok(),
        computation_time: if t.computation_time_stdev > 0.0 {
            ComputeTime::Normal {
                mean: t.computation_time,
                stdev: t.computation_time_stdev,
            }
        } else {
            ComputeTime::Fixed(t.computation_time)
        },
        metric_exclude_start_steps: p.output.exclude_start_steps,
        metric_exclude_end_steps: p.output.exclude_end_steps,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unet3d_maps_onto_the_parts() {
        let p = plan::dlio::load(&["unet3d_h100".to_string()])
            .unwrap()
            .params;
        let t = train_params(&p, 4, 3);
        assert_eq!(
            (t.loader, t.format, t.rank, t.comm_size),
            (Loader::Pytorch, Format::Npz, 3, 4)
        );
        assert_eq!(t.batch_size, p.reader.batch_size);
        assert_eq!(
            t.computation_time,
            ComputeTime::Fixed(p.train.computation_time)
        );
        let g = gen_spec(&p);
        assert_eq!(g.format, DataFormat::Npz);
        assert_eq!(
            g.record_length,
            p.dataset.record_length_bytes.round() as u64
        );
        assert_eq!(
            layout(&p, Split::Train).num_files,
            p.dataset.num_files_train
        );
    }

    #[test]
    fn the_storage_root_comes_first_unless_the_folder_is_absolute() {
        let mut p = DlioParams::default();
        p.storage.storage_root = "/mnt/fs".into();
        p.dataset.data_folder = "data/unet3d".into();
        assert_eq!(data_folder(&p), PathBuf::from("/mnt/fs/data/unet3d"));
        p.dataset.data_folder = "/scratch/d".into();
        assert_eq!(data_folder(&p), PathBuf::from("/scratch/d"));
    }
}
