//! Generated data sets read back by numpy, PIL and a TFRecord framing check (masked CRC-32C),
//! with the configured counts.

use std::process::Command;

use super::dlio;
use crate::common::{listing, shm};

/// Runs `script` under Debian's python3 with `dir` as its argument; its stdout.
fn python(script: &str, dir: &std::path::Path) -> String {
    let out = Command::new("/usr/bin/python3")
        .args(["-c", script, dir.to_str().unwrap()])
        .output()
        .expect("python3 (scripts/test.sh installs python3-numpy and python3-pil)");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).trim().to_string()
}

#[test]
fn npz_files_load_in_numpy_with_the_configured_samples() {
    let d = shm();
    let data = d.path().join("data");
    dlio(
        &data,
        &d.path().join("out"),
        &[
            "++workload.workflow.generate_data=True",
            "++workload.workflow.train=False",
            "++workload.dataset.num_files_train=6",
            "++workload.dataset.num_files_eval=2",
            "++workload.dataset.num_samples_per_file=3",
            "--tasks",
            "2",
        ],
    )
    .ok();
    assert_eq!(listing(&data), ["train", "valid"]);
    assert_eq!(listing(&data.join("train")).len(), 6);
    assert_eq!(listing(&data.join("valid")).len(), 2);
    let got = python(
        "import sys, glob, numpy as np\n\
         fs = sorted(glob.glob(sys.argv[1] + '/*/*.npz'))\n\
         print(len(fs), set(np.load(f)['x'].shape[-1] for f in fs), set(len(np.load(f)['y']) for f in fs))",
        &data,
    );
    assert_eq!(
        got, "8 {3} {3}",
        "files, samples per file (x's last axis), labels"
    );
}

#[test]
fn jpeg_files_open_in_pil_and_tfrecords_pass_the_crc_check() {
    let d = shm();
    let jpeg = d.path().join("jpeg");
    dlio(
        &jpeg,
        &d.path().join("o1"),
        &[
            "++workload.workflow.generate_data=True",
            "++workload.workflow.train=False",
            "++workload.dataset.format=jpeg",
            "++workload.dataset.num_files_train=4",
        ],
    )
    .ok();
    let got = python(
        "import sys, glob\nfrom PIL import Image\n\
         fs = sorted(glob.glob(sys.argv[1] + '/train/*.jpeg'))\n\
         [Image.open(f).load() for f in fs]\nprint(len(fs))",
        &jpeg,
    );
    assert_eq!(got, "4");
    let tf = d.path().join("tf");
    dlio(
        &tf,
        &d.path().join("o2"),
        &[
            "++workload.workflow.generate_data=True",
            "++workload.workflow.train=False",
            "++workload.dataset.format=tfrecord",
            "++workload.framework=tensorflow",
            "++workload.reader.data_loader=tensorflow",
            "++workload.dataset.num_files_train=3",
            "++workload.dataset.num_samples_per_file=5",
            "--tasks",
            "2",
        ],
    )
    .ok();
    // Masked CRC-32C of each record's length and data, written independently of iogauge.
    let got = python(
        "import sys, glob, struct\n\
         T = []\n\
         for i in range(256):\n\
         \x20   c = i\n\
         \x20   for _ in range(8): c = (c >> 1) ^ 0x82F63B78 if c & 1 else c >> 1\n\
         \x20   T.append(c)\n\
         def crc(b):\n\
         \x20   c = 0xFFFFFFFF\n\
         \x20   for x in b: c = T[(c ^ x) & 0xFF] ^ (c >> 8)\n\
         \x20   c ^= 0xFFFFFFFF\n\
         \x20   return (((c >> 15) | (c << 17)) + 0xa282ead8) & 0xFFFFFFFF\n\
         counts = []\n\
         for f in sorted(glob.glob(sys.argv[1] + '/train/*.tfrecord')):\n\
         \x20   b = open(f, 'rb').read(); i = 0; n = 0\n\
         \x20   while i < len(b):\n\
         \x20       h = b[i:i+8]; (ln,) = struct.unpack('<Q', h)\n\
         \x20       assert struct.unpack('<I', b[i+8:i+12])[0] == crc(h)\n\
         \x20       d = b[i+12:i+12+ln]\n\
         \x20       assert struct.unpack('<I', b[i+12+ln:i+16+ln])[0] == crc(d)\n\
         \x20       i += 16 + ln; n += 1\n\
         \x20   counts.append(n)\n\
         print(counts)",
        &tf,
    );
    assert_eq!(got, "[5, 5, 5]");
}
