//! Generated files judged by standard readers: NumPy, PIL, and a TFRecord walk with its own
//! CRC-32C, all in Debian's `/usr/bin/python3` (python3-numpy, python3-pil).

use std::path::PathBuf;
use std::process::Command;

use serde_json::Value;

use super::*;

/// Write `num_files` of each split (train with `train_subfolders`) into a new temporary folder
/// and return it with each file's path and what the encoder said about it.
fn generate(
    spec: GenSpec,
    num_files: [u64; 2],
    train_subfolders: u64,
) -> (tempfile::TempDir, Vec<(PathBuf, Encoded)>) {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    let mut encoder = FileEncoder::new(spec).unwrap();
    let mut out = Vec::new();
    let mut written = Vec::new();
    for (split, num_files, num_subfolders) in [
        (Split::Train, num_files[0], train_subfolders),
        (Split::Valid, num_files[1], 0),
    ] {
        let layout = Layout {
            data_folder: root.to_path_buf(),
            split,
            num_files,
            num_subfolders,
            file_prefix: "img".into(),
            format: spec.format,
        };
        std::fs::create_dir_all(layout.split_dir()).unwrap();
        for sub in layout.subfolders() {
            std::fs::create_dir_all(sub).unwrap();
        }
        for i in 0..num_files {
            let encoded = encoder.encode(split, i, &mut out).unwrap();
            assert_eq!(encoded.len, out.len() as u64);
            std::fs::write(layout.file_path(i), &out).unwrap();
            written.push((layout.file_path(i), encoded));
        }
        assert_eq!(layout.list_on_disk().unwrap().len() as u64, num_files);
    }
    (dir, written)
}

/// Run `script` with the files as arguments; it prints one JSON object per file.
fn python(script: &str, files: &[(PathBuf, Encoded)]) -> Vec<Value> {
    let output = Command::new("/usr/bin/python3")
        .arg("-c")
        .arg(script)
        .args(files.iter().map(|(p, _)| p))
        .output()
        .expect("/usr/bin/python3 runs (apt-get install -y python3-numpy python3-pil)");
    assert!(
        output.status.success(),
        "python3 failed: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    let lines: Vec<Value> = String::from_utf8(output.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), files.len());
    lines
}

fn spec(format: DataFormat, record_length: u64, stdev: u64, samples: u64) -> GenSpec {
    GenSpec {
        format,
        record_length,
        record_length_stdev: stdev,
        samples_per_file: samples,
        seed: 11,
    }
}

#[test]
fn numpy_loads_x_and_y_with_dlios_shapes() {
    let (_dir, files) = generate(spec(DataFormat::Npz, 40_000, 8_000, 3), [12, 4], 3);
    let script = r#"
import json, sys, numpy as np
for path in sys.argv[1:]:
    with np.load(path) as f:
        x, y = f['x'], f['y']
        print(json.dumps({"files": sorted(f.files), "x": [str(x.dtype), list(x.shape)],
                          "y": [str(y.dtype), list(y.shape), int(y.sum())], "bytes": int(x.nbytes)}))
"#;
    for ((path, enc), got) in files.iter().zip(python(script, &files)) {
        let shape = [enc.dims.rows, enc.dims.cols, 3];
        assert_eq!(got["files"], serde_json::json!(["x", "y"]), "{path:?}");
        assert_eq!(got["x"], serde_json::json!(["uint8", shape]), "{path:?}");
        assert_eq!(got["y"], serde_json::json!(["int64", [3], 0]), "{path:?}");
        let data = got["bytes"].as_u64().unwrap() + 24;
        assert!(enc.len > data && enc.len < data + 1024, "{path:?}");
    }
}

#[test]
fn pil_decodes_every_jpeg_and_each_file_has_the_drawn_size() {
    let (_dir, files) = generate(spec(DataFormat::Jpeg, 322_957, 60_000, 1), [10, 3], 0);
    let script = r#"
import json, os, sys
from PIL import Image
for path in sys.argv[1:]:
    with Image.open(path) as im:
        im.load()
        print(json.dumps({"format": im.format, "mode": im.mode, "size": list(im.size),
                          "on_disk": os.path.getsize(path)}))
"#;
    for ((path, enc), got) in files.iter().zip(python(script, &files)) {
        assert_eq!(got["format"], "JPEG", "{path:?}");
        assert_eq!(got["mode"], "L", "{path:?}");
        assert_eq!(got["on_disk"], enc.dims.sample_bytes(), "{path:?}");
        // The stand-in image: a quarter of each drawn side.
        let size = [enc.dims.cols / 4, enc.dims.rows / 4];
        assert_eq!(got["size"], serde_json::json!(size), "{path:?}");
    }
}

#[test]
fn tfrecords_pass_an_independent_crc_and_protobuf_walk() {
    let (_dir, files) = generate(spec(DataFormat::Tfrecord, 20_000, 3_000, 5), [6, 2], 2);
    // CRC-32C from its reflected polynomial by a table, TensorFlow's mask, a generic protobuf
    // reader: nothing of the Rust code.
    let script = r#"
import json, struct, sys
TABLE = []
for n in range(256):
    c = n
    for _ in range(8):
        c = (c >> 1) ^ 0x82F63B78 if c & 1 else c >> 1
    TABLE.append(c)
def crc32c(data):
    c = 0xFFFFFFFF
    for b in data:
        c = TABLE[(c ^ b) & 0xFF] ^ (c >> 8)
    return c ^ 0xFFFFFFFF
def masked(data):
    c = crc32c(data)
    return (((c >> 15) | (c << 17)) + 0xA282EAD8) & 0xFFFFFFFF
def varint(buf, at):
    v = shift = 0
    while True:
        b = buf[at]; at += 1
        v |= (b & 0x7F) << shift; shift += 7
        if b < 0x80:
            return v, at
def fields(buf):
    at, out = 0, []
    while at < len(buf):
        key, at = varint(buf, at)
        assert key & 7 == 2, "only length-delimited fields here"
        n, at = varint(buf, at)
        out.append((key >> 3, buf[at:at + n])); at += n
    assert at == len(buf)
    return out
assert crc32c(b"123456789") == 0xE3069283
for path in sys.argv[1:]:
    data = open(path, "rb").read()
    at, images, sizes = 0, [], []
    while at < len(data):
        header = data[at:at + 8]
        (n,) = struct.unpack("<Q", header)
        assert struct.unpack("<I", data[at + 8:at + 12])[0] == masked(header), "length crc"
        record = data[at + 12:at + 12 + n]
        assert struct.unpack("<I", data[at + 12 + n:at + 16 + n])[0] == masked(record), "data crc"
        at += 16 + n
        [(number, features)] = fields(record)
        assert number == 1
        feature = {}
        for number, entry in fields(features):
            assert number == 1
            entry = dict(fields(entry))
            [(kind, values)] = fields(entry[2])
            feature[entry[1].decode()] = (kind, values)
        kind, values = feature["image"]
        assert kind == 1
        [(number, image)] = fields(values)
        assert number == 1
        images.append(len(image))
        kind, values = feature["size"]
        assert kind == 3
        [(number, packed)] = fields(values)
        assert number == 1
        size, end = varint(packed, 0)
        assert end == len(packed)
        sizes.append(size)
    assert at == len(data)
    print(json.dumps({"images": images, "sizes": sizes}))
"#;
    for ((path, enc), got) in files.iter().zip(python(script, &files)) {
        let sample = enc.dims.sample_bytes();
        assert_eq!(
            got["images"],
            serde_json::json!(vec![sample; 5]),
            "{path:?}"
        );
        assert_eq!(got["sizes"], serde_json::json!(vec![141; 5]), "{path:?}");
    }
}

#[test]
fn a_generated_split_has_its_count_and_dlios_size_distribution() {
    let (l, s) = (10_000u64, 2_000u64);
    let (_dir, files) = generate(spec(DataFormat::Npz, l, s, 1), [400, 0], 7);
    let script = r#"
import glob, json, os, sys
import numpy as np
root = os.path.dirname(os.path.dirname(os.path.dirname(sys.argv[1])))
found = sorted(glob.glob(os.path.join(root, "train", "*", "*.npz")))
sizes = [np.load(p)["x"].size for p in sys.argv[1:]]
for p in sys.argv[1:]:
    print(json.dumps({"found": len(found), "mean": float(np.mean(sizes)), "std": float(np.std(sizes, ddof=1))}))
"#;
    let got = &python(script, &files)[0];
    assert_eq!(got["found"], 400);
    let (mean, std) = (got["mean"].as_f64().unwrap(), got["std"].as_f64().unwrap());
    println!(
        "npz split of 400: mean x {mean:.0} bytes (L {l}), stdev {std:.0} (s/√2 {:.0})",
        s as f64 / 2f64.sqrt()
    );
    // (⌊√L⌋ − ½)² = 9900.25; stdev ≈ s/√2 = 1414. 400 draws: the mean's error is about 70.
    assert!((mean - 9900.0).abs() < 300.0, "{mean}");
    assert!((std / 1414.0 - 1.0).abs() < 0.15, "{std}");
}
