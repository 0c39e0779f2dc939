//! The bucket of a run: asked about by the checks before any timed operation (the
//! credentials accepted, the bucket there), made when missing, and removed at the end only if
//! this process made it and it is empty. Shared by `-a S3` and `-a S3-libs3`.

use std::sync::Mutex;

use crate::client::{Client, Created};
use crate::credentials::Credentials;
use crate::endpoint::Endpoint;

/// What the checks of this process found for an endpoint and bucket: asked once.
struct Asked {
    endpoint: String,
    bucket: String,
    made: bool,
}

/// The buckets this process's checks asked about, and whether they made them.
static ASKED: Mutex<Vec<Asked>> = Mutex::new(Vec::new());

/// The credentials are accepted and `bucket` exists, made here when missing; once per
/// endpoint and bucket in a process. `api` (`-a S3`) and `option` (`--s3.bucket`) name them
/// in the messages.
pub fn ensure(
    api: &str,
    option: &str,
    endpoint: &Endpoint,
    creds: &Credentials,
    bucket: &str,
) -> Result<(), String> {
    let mut asked = ASKED.lock().unwrap_or_else(|e| e.into_inner());
    if asked
        .iter()
        .any(|a| a.endpoint == endpoint.url && a.bucket == bucket)
    {
        return Ok(());
    }
    let client = Client::new(endpoint.clone(), creds, 1);
    let b = client.bucket(bucket)?;
    // A listing, not a HEAD: its error has a body that names the reason
    // (SignatureDoesNotMatch, InvalidAccessKeyId, AccessDenied).
    let made = match b.list_page("", None, Some(1)) {
        Ok(_) => false,
        Err(e) if e.code() == Some("NoSuchBucket") => match b.create() {
            Ok(created) => created == Created::Made,
            Err(e) => {
                return Err(format!(
                    "{option} {bucket}: does not exist, and creating it failed: {e}"
                ))
            }
        },
        Err(e) => return Err(refused(api, creds, &e)),
    };
    asked.push(Asked {
        endpoint: endpoint.url.clone(),
        bucket: bucket.to_string(),
        made,
    });
    Ok(())
}

/// The server takes the credentials (a listing of `bucket`, which need not exist: the
/// signature is checked first).
pub fn check_credentials(
    api: &str,
    endpoint: &Endpoint,
    creds: &Credentials,
    bucket: &str,
) -> Result<(), String> {
    let client = Client::new(endpoint.clone(), creds, 1);
    match client.bucket(bucket)?.list_page("", None, Some(1)) {
        Ok(_) => Ok(()),
        Err(e) if e.code() == Some("NoSuchBucket") => Ok(()),
        Err(e) => Err(refused(api, creds, &e)),
    }
}

fn refused(api: &str, creds: &Credentials, e: &crate::S3Error) -> String {
    if e.status() == Some(403) {
        format!(
            "{api}: the server refused the credentials (access key {}, secret from {}): {e}",
            creds.access_key, creds.secret_from
        )
    } else {
        format!("{api}: {e}")
    }
}

/// Removes the buckets this process made on `endpoint`, if they are empty; a warning names
/// one that still holds objects.
pub fn remove_made(endpoint: &Endpoint, creds: &Credentials) -> Option<String> {
    let made: Vec<Asked> = {
        let mut asked = ASKED.lock().unwrap_or_else(|e| e.into_inner());
        let (made, kept) = asked.drain(..).partition(|a| a.made);
        *asked = kept;
        made
    };
    let mut warnings = Vec::new();
    for a in made.iter().filter(|a| a.endpoint == endpoint.url) {
        let client = Client::new(endpoint.clone(), creds, 1);
        let Ok(b) = client.bucket(&a.bucket) else {
            continue;
        };
        match b.delete() {
            Ok(()) => {}
            Err(e) if e.code() == Some("NoSuchBucket") => {}
            Err(e) if e.code() == Some("BucketNotEmpty") => warnings.push(format!(
                "kept bucket {}, which this run made: it still holds objects",
                a.bucket
            )),
            Err(e) => warnings.push(format!("could not remove bucket {}: {e}", a.bucket)),
        }
    }
    (!warnings.is_empty()).then(|| warnings.join("; "))
}
