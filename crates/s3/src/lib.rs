//! iogauge's S3 client, in a crate of its own so that its HTTP stack never reaches the
//! parsers or the fuzz targets. `credentials` and `endpoint` resolve where requests go and
//! what signs them (options, the AWS variables, the shared credentials file; a secret never
//! from an option's value); `client` sends the requests an S3 engine needs (bucket create,
//! HEAD and delete; object PUT, ranged GET, HEAD, DELETE; ListObjectsV2; multipart upload);
//! `error` says what failed in one line; `engine` is `engine::Engine` over it for object
//! targets, and `register` its row of the engine table (`-a S3`); `libs3` is IOR's own object
//! layout (`-a S3-libs3`, row in `libs3_register`); `bucket` the run's bucket, made and removed. Blocking, no async runtime.

pub mod bucket;
pub mod client;
pub mod credentials;
pub mod endpoint;
pub mod engine;
pub mod error;
pub mod libs3;
pub mod libs3_register;
pub mod queued;
pub mod register;
mod transport;
pub mod upload;

pub use client::{Bucket, Client, Created, Listed};
pub use credentials::Credentials;
pub use endpoint::{Addressing, Endpoint};
pub use engine::S3Engine;
pub use error::S3Error;

/// Adds `-a S3` and `-a S3-libs3` to the engine table (once, from the binary, before any
/// lookup).
pub fn register() {
    ::engine::register(&register::S3_ENGINE);
    ::engine::register(&libs3_register::LIBS3_ENGINE);
}
