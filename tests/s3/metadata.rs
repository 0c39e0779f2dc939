//! mdtest and md-workbench on S3: files are objects (create = PUT of `-w` bytes, stat = HEAD,
//! read = GET, remove = DELETE), directories marker objects; run with verification, in a
//! bucket the run makes (gone afterwards) and in one that existed (holding afterwards only
//! what it held before), as the server's own tool lists them.

use super::{objects, run};
use crate::common::s3_server::Server;
use crate::common::{json, tmp};

pub fn mdtest_and_md_workbench(server: &Server) {
    let out = tmp();
    let doc = out.path().join("md.json");
    run(
        server,
        &format!(
            "--no-store --tasks 2 --drop-caches mdtest -a S3 --s3.bucket iog-md -F -u -n 40 \
             -w 3000 -e 3000 -X -d md --json {}",
            doc.display()
        ),
        &[],
    )
    .ok();
    let v = json(&doc);
    let phases = v["phases"].as_array().unwrap();
    for op in ["file-create", "file-stat", "file-read", "file-remove"] {
        let p = phases.iter().find(|p| p["operation"] == op).unwrap();
        assert_eq!(p["ops"], 80, "{op}: {p}");
        // Nothing of this node's caches holds an object: nothing dropped or measured.
        assert_eq!(p["page_cache"]["status"], "not-applicable", "{op}");
    }
    let read = phases
        .iter()
        .find(|p| p["operation"] == "file-read")
        .unwrap();
    assert_eq!(read["verification"]["errors"], 0, "{read}");
    assert_eq!(
        objects(server, "iog-md"),
        None,
        "the bucket this run made is gone"
    );

    // A bucket that existed (made by an earlier run that kept its object): it stays, with
    // only that object.
    run(
        server,
        "--no-store ior -a S3 --s3.bucket iog-kept -t 1m -b 1m -w -k -o before",
        &[],
    )
    .ok();
    let r = run(
        server,
        "--no-store --tasks 2 md-workbench -a S3 --s3.bucket iog-kept -o wb -P 20 -I 10 -D 2 -R 2 \
         --object-size 9000",
        &[],
    )
    .ok();
    let errors = r
        .stdout
        .lines()
        .filter(|l| l.contains(" errs)") && !l.contains("(0 errs)"));
    assert_eq!(errors.count(), 0, "{}", r.stdout);
    assert_eq!(
        objects(server, "iog-kept").unwrap(),
        [("before".to_string(), 1 << 20)]
    );
    // Objects of one call larger than --s3.multipart-size go up in parts (an ETag of an
    // upload of 3 parts ends in -3); the remove phase of a later run takes them away.
    let big = "--no-store mdtest -a S3 --s3.bucket iog-kept --s3.multipart-size 5m -F -n 2 \
               -w 11m -e 11m -d big";
    run(server, &format!("{big} -C -E -X"), &[]).ok();
    let listing = server.admin(&["bucket", "list", "--bucket=iog-kept"]);
    let entries: Vec<serde_json::Value> = serde_json::from_str(&listing).unwrap();
    let parts: Vec<&serde_json::Value> = entries
        .iter()
        .filter(|e| e["meta"]["size"] == 11 << 20)
        .collect();
    assert_eq!(parts.len(), 2, "{listing}");
    for e in parts {
        let etag = e["meta"]["etag"].as_str().unwrap();
        assert!(etag.ends_with("-3"), "{etag}");
    }
    run(server, &format!("{big} -r"), &[]).ok();
    // -d's own directory stays, as on a file system: the run that made it did not remove,
    // and the one that removed did not make it.
    let left: Vec<String> = objects(server, "iog-kept")
        .unwrap()
        .into_iter()
        .map(|(k, _)| k)
        .collect();
    assert_eq!(left, ["before", "big/"]);
}
