//! Posting a body over HTTP(S) with ureq: the InfluxDB writes and the ranks' pushes.

use std::time::Duration;

/// A client whose every request gives up after `timeout`, and that takes any status but 2xx
/// as an error.
pub fn agent(timeout: Duration) -> ureq::Agent {
    ureq::Agent::config_builder()
        .timeout_global(Some(timeout))
        .http_status_as_error(true)
        .build()
        .into()
}

/// Posts `body`; with `token`, as `Authorization: Token <token>` (InfluxDB 2.x, and 1.x with
/// authentication).
pub fn post(
    agent: &ureq::Agent,
    url: &str,
    content_type: &str,
    token: Option<&str>,
    body: &[u8],
) -> Result<(), String> {
    let mut req = agent.post(url).header("Content-Type", content_type);
    if let Some(t) = token {
        req = req.header("Authorization", &format!("Token {t}"));
    }
    match req.send(body) {
        Ok(_) => Ok(()),
        Err(ureq::Error::StatusCode(code)) => Err(format!("the server answered HTTP {code}")),
        Err(e) => Err(e.to_string()),
    }
}

/// A URL iogauge can post to: `http://` or `https://` and a host. Err says what is wrong.
pub fn check_url(url: &str) -> Result<(), String> {
    let rest = url
        .strip_prefix("http://")
        .or_else(|| url.strip_prefix("https://"))
        .ok_or_else(|| format!("'{url}' is not an http:// or https:// URL"))?;
    if rest.is_empty() || rest.starts_with('/') || rest.starts_with(':') {
        return Err(format!("'{url}' names no host"));
    }
    ureq::http::Uri::try_from(url)
        .map(drop)
        .map_err(|e| format!("'{url}' is not a URL: {e}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn urls() {
        assert!(check_url("http://localhost:8086/write?db=x").is_ok());
        assert!(check_url("https://influx.example:8086/api/v2/write?org=o&bucket=b").is_ok());
        assert!(check_url("ftp://x/").unwrap_err().contains("not an http"));
        assert!(check_url("localhost:8086")
            .unwrap_err()
            .contains("not an http"));
        assert!(check_url("http:///write").unwrap_err().contains("no host"));
        assert!(check_url("http://a b/").is_err());
    }
}
