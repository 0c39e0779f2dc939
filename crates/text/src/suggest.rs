//! The one "did you mean" rule of every parser: the candidate most similar to what was typed,
//! when it is similar enough to be a plausible typo.

/// Similarity (normalized Damerau-Levenshtein, 1 = equal) a candidate needs to be suggested:
/// about one slip in three letters, or a shortened name (`list-mand` for `list-mandatory`,
/// `showRankStats` for `showRankStatistics`), but not words that merely share letters.
const THRESHOLD: f64 = 0.6;

/// The form compared: lower case, and any run of leading dashes (none included) made one, so
/// `--blocksize`, `-blocksize` and `blocksize` are the same word. Keeping one dash weighs a
/// slip in a one-letter option like one in a two-letter word (`-vv` is near `-v`).
fn key(s: &str) -> String {
    format!("-{}", s.trim_start_matches('-').to_lowercase())
}

/// The candidate closest to `word`, returned as the candidate is spelled; `None` when none
/// reaches the threshold. Of equally close candidates the first wins.
pub fn suggest<'a>(word: &str, candidates: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    let typed = key(word);
    let mut best: Option<(f64, &'a str)> = None;
    for c in candidates {
        let score = strsim::normalized_damerau_levenshtein(&typed, &key(c));
        if score >= THRESHOLD && best.is_none_or(|(b, _)| score > b) {
            best = Some((score, c));
        }
    }
    best.map(|(_, c)| c)
}

#[cfg(test)]
mod tests {
    use super::*;

    const LONGS: &[&str] = &[
        "--blockSize",
        "--transferSize",
        "--posix.odirect",
        "--tasks",
    ];

    #[test]
    fn case_and_dashes_do_not_count() {
        assert_eq!(
            suggest("--blocksize", LONGS.iter().copied()),
            Some("--blockSize")
        );
        assert_eq!(suggest("blocksise", ["blockSize"]), Some("blockSize"));
        assert_eq!(
            suggest("-sise", ["-newer", "-size", "-name"]),
            Some("-size")
        );
        assert_eq!(suggest("POSXI", ["POSIX", "MMAP", "DUMMY"]), Some("POSIX"));
        assert_eq!(suggest("dumy", ["POSIX", "MMAP", "DUMMY"]), Some("DUMMY"));
    }

    #[test]
    fn typos_are_found() {
        assert_eq!(
            suggest("--posix.odirekt", LONGS.iter().copied()),
            Some("--posix.odirect")
        );
        assert_eq!(suggest("--task", LONGS.iter().copied()), Some("--tasks"));
        assert_eq!(
            suggest("--showRankStats", ["--showRankStatistics"]),
            Some("--showRankStatistics")
        );
        assert_eq!(
            suggest("ior-eazy", ["ior-easy", "ior-hard"]),
            Some("ior-easy")
        );
        assert_eq!(suggest("--quik", ["--quick", "--dir"]), Some("--quick"));
        let io500 = ["--list", "--list-mandatory", "-lm"];
        assert_eq!(suggest("--list-mand", io500), Some("--list-mandatory"));
        assert_eq!(suggest("rn", ["run", "API"]), Some("run"));
        assert_eq!(suggest("-vv", ["-l", "-lm", "-v"]), Some("-v"));
        assert_eq!(
            suggest("--transfer", LONGS.iter().copied()),
            Some("--transferSize")
        );
    }

    #[test]
    fn far_words_get_nothing() {
        assert_eq!(suggest("--frobnicate", LONGS.iter().copied()), None);
        assert_eq!(suggest("FOO", ["POSIX", "MMAP", "DUMMY"]), None);
        assert_eq!(suggest("-type", ["-size", "-name"]), None);
        assert_eq!(suggest("-e", ["-h", "-v"]), None);
        assert_eq!(suggest("x", std::iter::empty()), None);
    }

    #[test]
    fn the_first_of_equals_wins() {
        assert_eq!(suggest("abcd", ["abcx", "abcy"]), Some("abcx"));
        assert_eq!(suggest("-x", ["-a", "-b"]), None);
    }
}
