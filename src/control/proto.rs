//! The control socket's protocol: one request line of JSON, one reply line of JSON, then the
//! server closes. `{"mark":"TEXT"}` stores a mark; `{"who":true}` names the run.

use results::Mark;
use serde::{Deserialize, Serialize};

/// A mark's text at most this many bytes: a note, not a log.
pub const MAX_TEXT: usize = 1000;

/// A request line at most this many bytes (the text JSON-escaped, with room to spare).
pub const MAX_LINE: u64 = 8 * 1024;

#[derive(Serialize, Deserialize, Debug, Default, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Request {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mark: Option<String>,
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub who: bool,
}

/// The answer: `ok` with the run and, for a mark, the mark as stored; or `error`.
#[derive(Serialize, Deserialize, Debug, Default, PartialEq)]
pub struct Reply {
    pub ok: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub run_id: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub workload: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pid: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub text: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub time: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub elapsed_s: Option<f64>,
    /// The index in the document's `phases` (from 0); absent between phases.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub phase: Option<usize>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub phase_t_s: Option<f64>,
}

impl Reply {
    pub fn error(message: impl Into<String>) -> Reply {
        Reply {
            error: Some(message.into()),
            ..Reply::default()
        }
    }

    /// The run's names, for `who` and with every mark.
    pub fn who(run_id: &str, workload: &str) -> Reply {
        Reply {
            ok: true,
            run_id: Some(run_id.to_string()),
            workload: Some(workload.to_string()),
            pid: Some(std::process::id()),
            ..Reply::default()
        }
    }

    pub fn with_mark(self, m: &Mark) -> Reply {
        Reply {
            text: Some(m.text.clone()),
            time: Some(m.time.clone()),
            elapsed_s: Some(m.elapsed_s),
            phase: m.phase,
            phase_t_s: m.phase_t_s,
            ..self
        }
    }
}

/// A mark's text fits on one line of a table and a chart: not empty, at most [`MAX_TEXT`]
/// bytes, no control characters (a newline would split the line protocol and the reports).
pub fn check_text(text: &str) -> Result<(), String> {
    if text.trim().is_empty() {
        return Err("the mark's text is empty".into());
    }
    if text.len() > MAX_TEXT {
        return Err(format!(
            "the mark's text is {} bytes; at most {MAX_TEXT} are taken",
            text.len()
        ));
    }
    if let Some(c) = text.chars().find(|c| c.is_control()) {
        return Err(format!(
            "the mark's text holds the control character {c:?}; a mark is one line of text"
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn texts_one_line_and_short() {
        assert!(check_text("disk 3 pulled — rebuild").is_ok());
        assert!(check_text(&"x".repeat(MAX_TEXT)).is_ok());
        assert!(check_text(&"x".repeat(MAX_TEXT + 1))
            .unwrap_err()
            .contains("1001 bytes"));
        assert!(check_text(" ").unwrap_err().contains("empty"));
        assert!(check_text("a\nb").unwrap_err().contains("'\\n'"));
        assert!(check_text("a\tb").unwrap_err().contains("control"));
    }

    #[test]
    fn requests_and_replies_are_one_line_each() {
        let r: Request = serde_json::from_str(r#"{"mark":"a \"b\"\nc"}"#).unwrap();
        assert_eq!(r.mark.as_deref(), Some("a \"b\"\nc"));
        assert!(serde_json::from_str::<Request>(r#"{"mark":"a","x":1}"#).is_err());
        let line = serde_json::to_string(&Request {
            mark: Some("a\nb".into()),
            ..Request::default()
        })
        .unwrap();
        assert!(!line.contains('\n'), "{line}");
        assert_eq!(
            serde_json::to_string(&Reply::error("no")).unwrap(),
            r#"{"ok":false,"error":"no"}"#
        );
    }
}
