//! The secret key appears in nothing a run writes: its standard output and error, the result
//! document, the IOR summary file, the events log, the result store, `iogauge show`, for a
//! run that succeeds and one that fails, with the secret from the environment and from
//! `--s3.secret-key-file`.

use std::path::Path;

use super::run;
use crate::common::s3_server::Server;
use crate::common::{tmp, tree};

/// Every file under `dir` that holds `secret`.
fn holding(dir: &Path, secret: &str) -> Vec<String> {
    tree(dir)
        .into_iter()
        .filter(|rel| {
            std::fs::read(dir.join(rel))
                .is_ok_and(|bytes| bytes.windows(secret.len()).any(|w| w == secret.as_bytes()))
        })
        .collect()
}

pub fn never_written(server: &Server) {
    let secret = server.var("AWS_SECRET_ACCESS_KEY").to_string();
    let (out, data, keys) = (tmp(), tmp(), tmp());
    let key_file = keys.path().join("secret");
    std::fs::write(&key_file, format!("{secret}\n")).unwrap();
    let data_home = data.path().to_str().unwrap();
    let o = |name: &str| out.path().join(name).display().to_string();
    let lines = [
        format!(
            "--events {} ior -a S3 --s3.bucket iog-secret -t 5m -b 10m -F -N 2 -w -r -W \
             -O summaryFile={} -o s --json {}",
            o("ev1.jsonl"),
            o("summary.txt"),
            o("r1.json")
        ),
        format!(
            "--events {} ior -a S3 --s3.secret-key-file {} --s3.bucket iog-secret -t 1m -b 1m \
             -w -r -o s2 --json {}",
            o("ev2.jsonl"),
            key_file.display(),
            o("r2.json")
        ),
        // A failure during the run: the read finds the object shorter than -b says.
        format!(
            "--events {} ior -a S3 --s3.bucket iog-secret -t 1m -b 1m -w -k -o s3",
            o("ev3.jsonl")
        ),
        format!(
            "--events {} ior -a S3 --s3.bucket iog-secret -t 1m -b 2m -r -o s3 --json {}",
            o("ev4.jsonl"),
            o("r4.json")
        ),
    ];
    let mut printed = String::new();
    for (i, line) in lines.iter().enumerate() {
        let env: &[(&str, &str)] = &[("XDG_DATA_HOME", data_home)];
        let r = run(server, line, env);
        let want = if i < 3 { 0 } else { 1 };
        assert_eq!(r.code, want, "{line}\n{}\n{}", r.stdout, r.stderr);
        printed.push_str(&r.stdout);
        printed.push_str(&r.stderr);
    }
    let show = run(
        server,
        "show 1 --format json",
        &[("XDG_DATA_HOME", data_home)],
    );
    printed.push_str(&show.stdout);
    assert!(show.stdout.contains("iog-secret"), "{}", show.stdout);
    assert!(!printed.contains(&secret), "the secret was printed");
    assert_eq!(holding(out.path(), &secret), Vec::<String>::new());
    assert_eq!(holding(data.path(), &secret), Vec::<String>::new());
    assert!(!tree(data.path()).is_empty(), "the runs were stored");
}
