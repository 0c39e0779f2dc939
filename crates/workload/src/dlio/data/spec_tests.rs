use super::*;

fn spec(format: DataFormat, samples_per_file: u64) -> GenSpec {
    GenSpec {
        format,
        record_length: 5000,
        record_length_stdev: 500,
        samples_per_file,
        seed: 3,
    }
}

#[test]
fn format_names_are_dlios_and_round_trip() {
    for format in DataFormat::ALL {
        assert_eq!(DataFormat::from_name(format.name()), Some(format));
    }
    assert_eq!(DataFormat::Tfrecord.extension(), "tfrecord");
    for refused in ["parquet", "hdf5", "NPZ", "jpg", ""] {
        assert_eq!(DataFormat::from_name(refused), None, "{refused}");
    }
}

#[test]
fn a_spec_that_cannot_make_files_names_its_key() {
    let mut empty = spec(DataFormat::Npz, 1);
    empty.record_length = 0;
    assert_eq!(
        empty.check().unwrap_err().to_string(),
        "dataset.record_length_bytes: must be at least 1 byte"
    );
    assert_eq!(
        spec(DataFormat::Tfrecord, 0).check().unwrap_err().key,
        "num_samples_per_file"
    );
    let err = FileEncoder::new(spec(DataFormat::Jpeg, 2)).unwrap_err();
    assert_eq!(
        err.to_string(),
        "dataset.num_samples_per_file: is 2, but a jpeg file holds one image: set it to 1"
    );
    for format in DataFormat::ALL {
        assert_eq!(spec(format, 1).check(), Ok(()));
    }
}

#[test]
fn every_format_reports_the_shape_and_length_it_made() {
    let mut out = Vec::new();
    for format in DataFormat::ALL {
        let mut encoder = FileEncoder::new(spec(format, 1)).unwrap();
        let encoded = encoder.encode(Split::Valid, 9, &mut out).unwrap();
        assert_eq!(
            encoded.dims,
            encoder.sizes().dims(Split::Valid, 9),
            "{format:?}"
        );
        assert_eq!(encoded.len, out.len() as u64, "{format:?}");
        assert_eq!(encoded.samples, 1);
        let sample = encoded.dims.sample_bytes();
        // npz adds zip and NPY headers (and 8 label bytes), tfrecord framing and protobuf;
        // jpeg pads to the sample exactly.
        let overhead = encoded.len as i64 - sample as i64;
        match format {
            DataFormat::Npz => assert!((500..1024).contains(&overhead), "npz {overhead}"),
            DataFormat::Tfrecord => assert!((30..64).contains(&overhead), "tfrecord {overhead}"),
            DataFormat::Jpeg => assert_eq!(overhead, 0),
        }
    }
}

#[test]
fn the_same_file_has_the_same_bytes_on_any_rank() {
    let (mut a, mut b) = (Vec::new(), Vec::new());
    let mut first = FileEncoder::new(spec(DataFormat::Tfrecord, 3)).unwrap();
    let mut second = FileEncoder::new(spec(DataFormat::Tfrecord, 3)).unwrap();
    first.encode(Split::Train, 1, &mut a).unwrap();
    // A different history on the second encoder must not matter.
    second.encode(Split::Train, 0, &mut b).unwrap();
    second.encode(Split::Train, 1, &mut b).unwrap();
    assert_eq!(a, b);
    first.encode(Split::Valid, 1, &mut b).unwrap();
    assert_ne!(a, b);
}
