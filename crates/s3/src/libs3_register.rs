//! `-a S3-libs3`: the engine table's row for IOR's own object layout (`libs3.rs`), with IOR's
//! option names (`--S3-libs3.host`, `.bucket-name-prefix`, ...). Where IOR takes the secret key
//! as an option's value, iogauge refuses it by name and reads the secret from
//! `--S3-libs3.secret-key-file`, `AWS_SECRET_ACCESS_KEY` or the credentials file; IOR's
//! location constraint is refused too (the bucket is made in the endpoint's region). The
//! endpoint is `--S3-libs3.host` (`http://`, or `https://` with `--S3-libs3.use-ssl`; a list
//! separated by spaces, commas or semicolons gives rank r the host r modulo their number, as
//! IOR does), else `AWS_ENDPOINT_URL`; path addressing, as libs3's.

use std::path::Path;

use engine::{EngineConfig, EngineInfo, EngineOption, IoShape, OptKind, Workload};

use crate::bucket;
use crate::client::Client;
use crate::credentials::{self, Credentials};
use crate::endpoint::{self, Endpoint};
use crate::libs3::{bucket_name, Layout, Libs3Engine, CAPS};

/// A flag IOR's S3-libs3 module has by this name.
const fn flag(name: &'static str, help: &'static str) -> EngineOption {
    EngineOption::ior_named(name, OptKind::Flag { default: false }, "", help)
}

#[rustfmt::skip]
pub static OPTIONS: &[EngineOption] = &[
    flag("bucket-per-file", "each file a bucket of its own (its transfers the objects 0 and OFFSET-LENGTH)"),
    EngineOption::ior_named("bucket-name-prefix", OptKind::Text { default: "ior" }, "PREFIX", "the bucket's name before IOR's suffix"),
    flag("dont-suffix-bucket", "no suffix: the bucket is the prefix (IOR adds the sum of the access key's characters times 10^position, modulo 1000)"),
    flag("s3-compatible", "a transfer's or mkdir's failure is not reported (IOR's mode for S3-compatible stores)"),
    flag("use-ssl", "https:// to the host"),
    EngineOption::ior_named("host", OptKind::Text { default: "" }, "HOST[:PORT]", "the server; several separated by spaces, commas or semicolons: rank r takes host r modulo their number (default AWS_ENDPOINT_URL)"),
    EngineOption::ior_named("access-key", OptKind::Text { default: "" }, "ID", "the access key ID (default AWS_ACCESS_KEY_ID, else ~/.aws/credentials)"),
    EngineOption::ior_named("region", OptKind::Text { default: "" }, "REGION", "the region requests are signed for (default AWS_REGION, else us-east-1)"),
    EngineOption::own("secret-key-file", OptKind::Secret { env: None }, "FILE", "a file whose first line is the secret key (iogauge's, for IOR's --S3-libs3.secret-key; default AWS_SECRET_ACCESS_KEY, else ~/.aws/credentials)"),
];

#[rustfmt::skip]
const REFUSED: &[(&str, &str)] = &[
    ("secret-key", "a secret is never an option's value (a command line is recorded and shown): put it in a file and give --S3-libs3.secret-key-file FILE, or set AWS_SECRET_ACCESS_KEY"),
    ("location", "the bucket is made in the endpoint's region; IOR's location constraint is not sent"),
];

/// The row of `-a S3-libs3`.
pub static LIBS3_ENGINE: EngineInfo = EngineInfo::new(
    "S3-libs3",
    "S3-libs3",
    "IOR's S3 layout: every transfer an object of its own (NAME, NAME-OFFSET-LENGTH) in IOR's bucket (ior only)",
    CAPS,
    OPTIONS,
    &[],
    Some(check),
    Some(check_target),
    make,
)
.with_finish(finish)
.with_refused(REFUSED);

fn env(k: &str) -> Option<String> {
    std::env::var(k).ok()
}

/// The hosts `--S3-libs3.host` lists.
fn hosts(cfg: &EngineConfig) -> Vec<String> {
    cfg.text("S3-libs3.host")
        .unwrap_or_default()
        .split([' ', ',', ';'])
        .filter(|h| !h.is_empty())
        .map(str::to_string)
        .collect()
}

/// The endpoint of `rank` and the credentials; Err is one line without any secret.
pub fn resolve(cfg: &EngineConfig, rank: usize) -> Result<(Endpoint, Credentials), String> {
    let hosts = hosts(cfg);
    let scheme = if cfg.flag("S3-libs3.use-ssl") {
        "https"
    } else {
        "http"
    };
    let url = (!hosts.is_empty()).then(|| format!("{scheme}://{}", hosts[rank % hosts.len()]));
    let region = cfg.text("S3-libs3.region");
    let endpoint = endpoint::resolve(
        &endpoint::Given {
            endpoint: url.as_deref(),
            region: region.as_deref(),
            addressing: Some("path"),
            no_tls_verify: false,
        },
        &env,
    )
    .map_err(|e| e.replace("--s3.endpoint", "--S3-libs3.host"))?;
    let creds = credentials::from_config(cfg, "S3-libs3")?;
    Ok((endpoint, creds))
}

/// IOR's bucket for `cfg` with the access key `access_key`.
fn layout(cfg: &EngineConfig, access_key: &str) -> Layout {
    let prefix = cfg
        .text("S3-libs3.bucket-name-prefix")
        .unwrap_or_else(|| "ior".to_string());
    Layout {
        bucket: bucket_name(&prefix, access_key, cfg.flag("S3-libs3.dont-suffix-bucket")),
        bucket_per_file: cfg.flag("S3-libs3.bucket-per-file"),
        s3_compatible: cfg.flag("S3-libs3.s3-compatible"),
    }
}

fn check(cfg: &EngineConfig, _workload: &Workload) -> Result<(), String> {
    resolve(cfg, 0).map(drop)
}

/// The credentials accepted and IOR's bucket there (made when missing), as rank 0 of IOR makes
/// it at its start; with a bucket per file, the credentials only (each file's bucket is made at
/// its open).
fn check_target(
    cfg: &EngineConfig,
    _shape: &IoShape,
    file: &Path,
    _dir: &Path,
) -> Result<(), String> {
    if file.to_str().is_none() {
        return Err(format!("-a S3-libs3: {} is not UTF-8", file.display()));
    }
    let (endpoint, creds) = resolve(cfg, 0)?;
    let layout = layout(cfg, &creds.access_key);
    if layout.bucket_per_file {
        return bucket::check_credentials("-a S3-libs3", &endpoint, &creds, &layout.bucket);
    }
    bucket::ensure(
        "-a S3-libs3",
        "--S3-libs3.bucket-name-prefix",
        &endpoint,
        &creds,
        &layout.bucket,
    )
}

fn make(cfg: &EngineConfig, rank: usize) -> Box<dyn engine::Engine> {
    // The checks resolved the same options first (see `register::make`).
    let (endpoint, creds) = resolve(cfg, rank).unwrap_or_else(|_| crate::register::unsigned());
    let layout = layout(cfg, &creds.access_key);
    Box::new(Libs3Engine::new(Client::new(endpoint, &creds, 1), layout))
}

/// Removes IOR's bucket if this run made it and it is empty (IOR removes it whatever).
fn finish(cfg: &EngineConfig) -> Option<String> {
    let (endpoint, creds) = resolve(cfg, 0).ok()?;
    bucket::remove_made(&endpoint, &creds)
}
