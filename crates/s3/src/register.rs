//! `-a S3`: the engine table's row for the S3 engine, which the binary registers at start-up
//! ([`register`]): its `--s3.*` options, the checks before a run (the options resolved
//! without I/O; then requests to the server: the credentials and the bucket, made when
//! missing), its constructor, and the end of a run (the bucket the checks made is removed if
//! it is empty). A secret is never an option's value: `--s3.secret-key-file` names a file.

use std::path::Path;

use engine::{
    EngineConfig, EngineInfo, EngineOption, IoShape, MultipartLimits, OptKind, Secret, Workload,
};

use crate::bucket;
use crate::client::Client;
use crate::credentials::{self, Credentials};
use crate::endpoint::{self, Endpoint};
use crate::engine::{S3Engine, CAPS, MULTIPART_SIZE};

/// An option of `-a S3`: every one applies to ior, mdtest and md-workbench alike.
const fn option(
    name: &'static str,
    kind: OptKind,
    meta: &'static str,
    help: &'static str,
) -> EngineOption {
    EngineOption {
        metadata: true,
        ..EngineOption::own(name, kind, meta, help)
    }
}

/// The bucket when `--s3.bucket` is not given.
pub const DEFAULT_BUCKET: &str = "iogauge";

#[rustfmt::skip]
pub static OPTIONS: &[EngineOption] = &[
    option("endpoint", OptKind::Text { default: "" }, "URL", "the server, scheme://host[:port] (default AWS_ENDPOINT_URL, else AWS's endpoint of the region)"),
    option("bucket", OptKind::Text { default: DEFAULT_BUCKET }, "NAME", "the bucket of the test objects; made when missing, removed at the end only if this run made it and it is empty"),
    option("region", OptKind::Text { default: "" }, "REGION", "the region requests are signed for (default AWS_REGION, AWS_DEFAULT_REGION, else us-east-1)"),
    option("access-key", OptKind::Text { default: "" }, "ID", "the access key ID (default AWS_ACCESS_KEY_ID, else ~/.aws/credentials)"),
    option("secret-key-file", OptKind::Secret { env: None }, "FILE", "a file whose first line is the secret key (default AWS_SECRET_ACCESS_KEY, else ~/.aws/credentials; never the secret itself)"),
    option("addressing", OptKind::Text { default: "" }, "path|virtual", "the bucket in the URL's path or host name (default path for a given endpoint, virtual for AWS)"),
    option("no-tls-verify", OptKind::Flag { default: false }, "", "do not check the server's TLS certificate"),
    EngineOption::own("depth", OptKind::Number { default: 1 }, "N", "ior: requests in flight per rank over as many kept-alive connections (warp's concurrency); 1: one transfer at a time"),
    option("multipart-size", OptKind::Size { default: MULTIPART_SIZE }, "SIZE", "an object written in one call (mdtest -w, md-workbench) larger than this goes up in parts of this size (at least 5 MiB; ior's parts are its transfers)"),
];

/// The row of `-a S3`.
pub static S3_ENGINE: EngineInfo = EngineInfo::new(
    "S3",
    "s3",
    "S3 object storage: names are object keys in --s3.bucket; ior: a transfer that is the whole object is a PUT, else each transfer a part of a multipart upload, reads are ranged GETs; mdtest and md-workbench: PUT, HEAD, GET, DELETE, directories as marker objects",
    CAPS,
    OPTIONS,
    &[],
    Some(check),
    Some(check_target),
    make,
)
.with_finish(finish);

fn env(k: &str) -> Option<String> {
    std::env::var(k).ok()
}

/// The endpoint and the credentials `cfg` names, with the environment and the shared
/// credentials file; Err is one line without any secret.
pub fn resolve(cfg: &EngineConfig) -> Result<(Endpoint, Credentials), String> {
    let endpoint_text = cfg.text("s3.endpoint");
    let region = cfg.text("s3.region");
    let addressing = cfg.text("s3.addressing");
    let endpoint = endpoint::resolve(
        &endpoint::Given {
            endpoint: endpoint_text.as_deref(),
            region: region.as_deref(),
            addressing: addressing.as_deref(),
            no_tls_verify: cfg.flag("s3.no-tls-verify"),
        },
        &env,
    )?;
    let creds = credentials::from_config(cfg, "s3")?;
    Ok((endpoint, creds))
}

/// The bucket `cfg` names.
pub fn bucket_name(cfg: &EngineConfig) -> String {
    cfg.text("s3.bucket")
        .unwrap_or_else(|| DEFAULT_BUCKET.to_string())
}

/// The checks without I/O: the options' limits, and the endpoint and the credentials resolve
/// (the registry's checks already refused a secret that is not one read from a file).
fn check(cfg: &EngineConfig, workload: &Workload) -> Result<(), String> {
    let depth = cfg.number("s3.depth");
    if depth == 0 || depth > 1024 {
        return Err(format!(
            "--s3.depth {depth}: requests in flight per rank, 1 to 1024"
        ));
    }
    let part = cfg.number("s3.multipart-size");
    if cfg.options.contains_key("s3.multipart-size") {
        if let Workload::Io(_) = workload {
            return Err(
                "--s3.multipart-size applies to objects written in one call (mdtest -w, \
                 md-workbench); ior's parts are its transfers (-t)"
                    .into(),
            );
        }
        if part < MultipartLimits::S3.min_part {
            return Err(format!(
                "--s3.multipart-size {part}: S3's parts are at least 5 MiB (5242880 bytes)"
            ));
        }
    }
    resolve(cfg).map(drop)
}

/// The checks against the server, before any timed operation: the key is UTF-8, the
/// credentials are accepted and the bucket exists (made here when missing).
fn check_target(
    cfg: &EngineConfig,
    _shape: &IoShape,
    file: &Path,
    _dir: &Path,
) -> Result<(), String> {
    let Some(name) = file.to_str() else {
        return Err(format!(
            "-a S3: the object key {} is not UTF-8",
            file.display()
        ));
    };
    if engine::Target::key_of(file).is_empty() {
        return Err(format!("-a S3: {name:?} names no object key"));
    }
    let (endpoint, creds) = resolve(cfg)?;
    bucket::ensure("-a S3", "--s3.bucket", &endpoint, &creds, &bucket_name(cfg))
}

/// An endpoint and credentials that sign with no key: for an engine built before the checks
/// (for their own questions) from options that do not resolve; the checks' error comes first.
pub(crate) fn unsigned() -> (Endpoint, Credentials) {
    let fallback = endpoint::resolve(&endpoint::Given::default(), &|_| None)
        .expect("AWS's default endpoint resolves");
    let none = Credentials {
        access_key: String::new(),
        secret: Secret::new(String::new()),
        session_token: None,
        secret_from: String::new(),
    };
    (fallback, none)
}

fn make(cfg: &EngineConfig, _rank: usize) -> Box<dyn engine::Engine> {
    let (endpoint, creds) = resolve(cfg).unwrap_or_else(|_| unsigned());
    let depth = cfg.number("s3.depth").max(1) as usize;
    let engine = S3Engine::new(Client::new(endpoint, &creds, depth), &bucket_name(cfg));
    Box::new(
        engine
            .with_multipart_size(cfg.number("s3.multipart-size"))
            .with_depth(depth),
    )
}

/// Removes the bucket this process's checks made for `cfg`, if it is empty.
fn finish(cfg: &EngineConfig) -> Option<String> {
    let (endpoint, creds) = resolve(cfg).ok()?;
    bucket::remove_made(&endpoint, &creds)
}
