//! Where the requests go: the endpoint URL (`--s3.endpoint`, else `AWS_ENDPOINT_URL`, else
//! AWS's regional endpoint), the region (`--s3.region`, `AWS_REGION`, `AWS_DEFAULT_REGION`,
//! else `us-east-1`), path or virtual-host addressing (`--s3.addressing`; path for a custom
//! endpoint, as IOR's and most S3 tools' default for on-premises gateways, virtual for AWS),
//! and whether the server's TLS certificate is checked (`--s3.no-tls-verify`). Pure.

/// Bucket in the path (`http://host/bucket/key`) or in the host name (`http://bucket.host/key`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Addressing {
    Path,
    Virtual,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Endpoint {
    /// `scheme://host[:port]`, no trailing slash.
    pub url: String,
    pub region: String,
    pub addressing: Addressing,
    pub tls_verify: bool,
}

/// What the command line gave.
#[derive(Debug, Clone, Default)]
pub struct Given<'a> {
    pub endpoint: Option<&'a str>,
    pub region: Option<&'a str>,
    /// `path` or `virtual`.
    pub addressing: Option<&'a str>,
    pub no_tls_verify: bool,
}

/// The endpoint from `given` and the environment `env`; Err is one line naming the option.
pub fn resolve(given: &Given, env: &dyn Fn(&str) -> Option<String>) -> Result<Endpoint, String> {
    let var = |k: &str| env(k).filter(|v| !v.is_empty());
    let region = given
        .region
        .map(str::to_string)
        .or_else(|| var("AWS_REGION"))
        .or_else(|| var("AWS_DEFAULT_REGION"))
        .unwrap_or_else(|| "us-east-1".into());
    let custom = given
        .endpoint
        .map(str::to_string)
        .or_else(|| var("AWS_ENDPOINT_URL"));
    let url = match &custom {
        Some(u) => u.trim_end_matches('/').to_string(),
        None => format!("https://s3.{region}.amazonaws.com"),
    };
    let rest = url
        .strip_prefix("http://")
        .or_else(|| url.strip_prefix("https://"))
        .ok_or_else(|| {
            format!("--s3.endpoint {url}: an http:// or https:// URL (AWS_ENDPOINT_URL the same)")
        })?;
    if rest.is_empty() || rest.contains('/') || rest.contains('?') {
        return Err(format!(
            "--s3.endpoint {url}: scheme, host and port only (http://127.0.0.1:7480)"
        ));
    }
    let addressing = match given.addressing {
        None if custom.is_some() => Addressing::Path,
        None => Addressing::Virtual,
        Some("path") => Addressing::Path,
        Some("virtual") => Addressing::Virtual,
        Some(other) => {
            return Err(format!("--s3.addressing {other}: path or virtual"));
        }
    };
    let host = rest.rsplit_once(':').map_or(rest, |(h, _)| h);
    let ip = host.parse::<std::net::Ipv4Addr>().is_ok() || host.starts_with('[');
    if addressing == Addressing::Virtual && ip {
        return Err(format!(
            "--s3.addressing virtual: the endpoint {url} is an IP address, which has no host \
             name to put the bucket in: use --s3.addressing path"
        ));
    }
    Ok(Endpoint {
        url,
        region,
        addressing,
        tls_verify: !given.no_tls_verify,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_custom_endpoint_takes_path_addressing_and_aws_virtual() {
        let none = |_: &str| None;
        let e = resolve(
            &Given {
                endpoint: Some("http://127.0.0.1:7480/"),
                ..Given::default()
            },
            &none,
        )
        .unwrap();
        assert_eq!(
            (e.url.as_str(), e.addressing, e.region.as_str()),
            ("http://127.0.0.1:7480", Addressing::Path, "us-east-1")
        );
        let env = |k: &str| (k == "AWS_REGION").then(|| "eu-central-1".to_string());
        let e = resolve(&Given::default(), &env).unwrap();
        assert_eq!(e.url, "https://s3.eu-central-1.amazonaws.com");
        assert_eq!(e.addressing, Addressing::Virtual);
        for bad in ["ftp://x", "http://h/path", "http://"] {
            let g = Given {
                endpoint: Some(bad),
                ..Given::default()
            };
            assert!(
                resolve(&g, &none).unwrap_err().contains("--s3.endpoint"),
                "{bad}"
            );
        }
        let g = Given {
            addressing: Some("host"),
            ..Given::default()
        };
        assert!(resolve(&g, &none).unwrap_err().contains("path or virtual"));
        // A bucket cannot be a sub-domain of an IP address.
        let g = Given {
            endpoint: Some("http://10.0.0.1:7480"),
            addressing: Some("virtual"),
            ..Given::default()
        };
        assert!(resolve(&g, &none).unwrap_err().contains("is an IP address"));
    }
}
