//! `-a S3-libs3`: IOR's own object layout on the gateway, object for object as hpc/ior's
//! `aiori-S3-libs3.c` names them, in IOR's bucket (prefix and the access key's checksum); a
//! shared file's removal keeps another file's objects that IOR's prefix listing would take;
//! a bucket per file made and removed.

use super::{objects, run};
use crate::common::s3_server::Server;

/// IOR's bucket suffix, worked out as its `S3_init` does (64-bit, wrapping).
fn ior_bucket(access_key: &str) -> String {
    let (mut sum, mut pos) = (0u64, 1u64);
    for b in access_key.bytes() {
        sum = sum.wrapping_add(u64::from(b).wrapping_mul(pos));
        pos = pos.wrapping_mul(10);
    }
    format!("ior{}", sum % 1000)
}

fn keys(server: &Server, bucket: &str) -> Vec<String> {
    let mut k: Vec<String> = objects(server, bucket)
        .unwrap_or_default()
        .into_iter()
        .map(|(k, _)| k)
        .collect();
    k.sort();
    k
}

pub fn iors_layout(server: &Server) {
    let bucket = ior_bucket(server.var("AWS_ACCESS_KEY_ID"));
    let fpp = "--no-store ior -a S3-libs3 -N 2 -t 1m -b 3m -F -G 11 -o testFile";
    run(server, &format!("{fpp} -w -r -W -R -k"), &[]).ok();
    let mut want = Vec::new();
    for rank in 0..2 {
        let name = format!("testfilebu0000000{rank}b");
        want.push(name.clone());
        want.push(format!("{name}-1048576-1048576"));
        want.push(format!("{name}-2097152-1048576"));
    }
    want.sort();
    assert_eq!(keys(server, &bucket), want);
    // A shared file whose name is a prefix of those: its removal takes only its own objects.
    run(
        server,
        "--no-store ior -a S3-libs3 -N 1 -t 1m -b 2m -w -r -o testFile",
        &[],
    )
    .ok();
    assert_eq!(keys(server, &bucket), want, "another file's objects stay");
    // A read without -k removes the files it read, as IOR does.
    run(server, &format!("{fpp} -r -R"), &[]).ok();
    assert_eq!(keys(server, &bucket), Vec::<String>::new());
    server.admin(&["bucket", "rm", &format!("--bucket={bucket}")]);

    // A bucket per file: made at the open, emptied and removed with the file.
    let before = server.admin(&["bucket", "list"]);
    run(
        server,
        "--no-store ior -a S3-libs3 --S3-libs3.bucket-per-file --S3-libs3.bucket-name-prefix bpf \
         --S3-libs3.dont-suffix-bucket -N 1 -t 1m -b 2m -w -r -W -o one",
        &[],
    )
    .ok();
    assert_eq!(server.admin(&["bucket", "list"]), before);
}
