//! The IO500's text formats, byte for byte (reference §7): result_summary.txt lines (also
//! echoed to stdout as phases finish) and result.txt's `%-15s = value` pairs.

use super::phases::Phase;
use super::score::Scores;
use super::validity::Validity;

/// C's `%f`: six decimals. Non-finite values never reach the files (the scores guard them), but
/// print as C would rather than as Rust's `NaN`.
pub fn cf(x: f64) -> String {
    if x.is_nan() {
        "nan".to_string()
    } else {
        format!("{x:.6}")
    }
}

/// `IO500 version <version> (<mode>)`: the first line of result_summary.txt.
pub fn summary_header(version: &str, mode: &str) -> String {
    format!("IO500 version {version} ({mode})\n")
}

/// One phase's line: `[RESULT]` for scored phases, `[      ]` for the others, then
/// `" %20s %15s %s : time %.3f seconds%s"`.
pub fn result_line(phase: &Phase, score: f64, runtime_s: f64, valid: bool) -> String {
    let tag = if phase.scored() {
        "[RESULT]"
    } else {
        "[      ]"
    };
    format!(
        "{tag} {:>20} {:>15} {} : time {:.3} seconds{}\n",
        phase.name,
        cf(score),
        phase.unit(),
        runtime_s,
        Validity::suffix(valid)
    )
}

/// `[SCORE ]` (standard) or `[SCOREX]` (extended) line.
pub fn score_line(extended: bool, s: &Scores, valid: bool) -> String {
    format!(
        "[{}] Bandwidth {} GiB/s : IOPS {} kiops : TOTAL {}{}\n",
        if extended { "SCOREX" } else { "SCORE " },
        cf(s.bw),
        cf(s.md),
        cf(s.total),
        Validity::suffix(valid)
    )
}

/// result.txt's `PRINT_PAIR`: the key left-aligned in 15 columns (longer keys unpadded).
pub fn pair(key: &str, value: impl std::fmt::Display) -> String {
    format!("{key:<15} = {value}\n")
}

/// The console's `ERROR INVALID (<context>) <reason>` (the IO500 names a source line where
/// iogauge names the phase, or `run`).
pub fn invalid_console(context: &str, reason: &str) -> String {
    format!("ERROR INVALID ({context}) {reason}\n")
}

/// The console's `WARNING <text>`.
pub fn warning_console(text: &str) -> String {
    format!("WARNING {text}\n")
}

/// `; ERROR INVALID <reason>`; a reason of several lines keeps every line a comment.
pub fn invalid_comment(reason: &str) -> String {
    comment("ERROR INVALID", reason)
}

/// `; WARNING <text>`.
pub fn warning_comment(text: &str) -> String {
    comment("WARNING", text)
}

fn comment(tag: &str, text: &str) -> String {
    let mut out = String::new();
    for (i, line) in text.lines().enumerate() {
        if i == 0 {
            out.push_str(&format!("; {tag} {line}\n"));
        } else {
            out.push_str(&format!("; {line}\n"));
        }
    }
    if out.is_empty() {
        out = format!("; {tag} \n");
    }
    out
}

/// The `[SCORE]` / `[SCOREX]` section of result.txt (MD before BW, as the IO500's enum).
pub fn score_section(extended: bool, s: &Scores, valid: bool, hash: u32) -> String {
    let mut out = format!("\n[{}]\n", if extended { "SCOREX" } else { "SCORE" });
    out.push_str(&pair("MD", cf(s.md)));
    out.push_str(&pair("BW", cf(s.bw)));
    out.push_str(&pair(
        "SCORE",
        format!("{}{}", cf(s.total), Validity::suffix(valid)),
    ));
    out.push_str(&pair("hash", format!("{hash:X}")));
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::io500::phases::by_name;

    fn p(n: &str) -> &'static Phase {
        by_name(n).unwrap()
    }

    #[test]
    fn summary_lines_match_submission_731() {
        assert_eq!(
            result_line(p("ior-easy-write"), 148.001603, 307.690, true),
            "[RESULT]       ior-easy-write      148.001603 GiB/s : time 307.690 seconds\n"
        );
        assert_eq!(
            result_line(p("mdtest-easy-write"), 322.913191, 345.189, true),
            "[RESULT]    mdtest-easy-write      322.913191 kIOPS : time 345.189 seconds\n"
        );
        assert_eq!(
            result_line(p("timestamp"), 0.0, 0.034, true),
            "[      ]            timestamp        0.000000 kIOPS : time 0.034 seconds\n"
        );
        assert_eq!(
            result_line(p("find"), 12203.137716, 10.035, true),
            "[RESULT]                 find    12203.137716 kIOPS : time 10.035 seconds\n"
        );
        assert_eq!(
            result_line(p("mdtest-hard-delete"), 36.108839, 318.045, true),
            "[RESULT]   mdtest-hard-delete       36.108839 kIOPS : time 318.045 seconds\n"
        );
        let s = Scores {
            bw: 127.506288,
            md: 290.299474,
            total: 192.392849,
        };
        assert_eq!(
            score_line(false, &s, true),
            "[SCORE ] Bandwidth 127.506288 GiB/s : IOPS 290.299474 kiops : TOTAL 192.392849\n"
        );
        assert_eq!(
            score_line(true, &s, false),
            "[SCOREX] Bandwidth 127.506288 GiB/s : IOPS 290.299474 kiops : TOTAL 192.392849 [INVALID]\n"
        );
        assert_eq!(
            summary_header("io500-sc24_v1", "standard"),
            "IO500 version io500-sc24_v1 (standard)\n"
        );
    }

    #[test]
    fn invalid_and_unscored_lines() {
        assert_eq!(
            result_line(p("ior-rnd4K-easy-read"), 0.0, 0.0, false),
            "[      ]  ior-rnd4K-easy-read        0.000000 GiB/s : time 0.000 seconds [INVALID]\n"
        );
    }

    #[test]
    fn result_txt_pairs() {
        assert_eq!(pair("procs", 200), "procs           = 200\n");
        assert_eq!(
            pair("config-hash", "451AE3DE"),
            "config-hash     = 451AE3DE\n"
        );
        assert_eq!(
            pair("throughput-stonewall", "148.25"),
            "throughput-stonewall = 148.25\n"
        );
        assert_eq!(
            pair("t_delta", format!("{:.4}", 307.68951)),
            "t_delta         = 307.6895\n"
        );
        let s = Scores {
            bw: 127.506288,
            md: 290.299474,
            total: 192.392849,
        };
        assert_eq!(
            score_section(false, &s, true, 0xF69F17DE),
            "\n[SCORE]\nMD              = 290.299474\nBW              = 127.506288\n\
             SCORE           = 192.392849\nhash            = F69F17DE\n"
        );
        assert_eq!(
            invalid_comment("stonewall-time 5s != 300s"),
            "; ERROR INVALID stonewall-time 5s != 300s\n"
        );
        assert_eq!(invalid_comment("a\nb"), "; ERROR INVALID a\n; b\n");
        assert_eq!(cf(-0.0), "-0.000000");
    }
}
