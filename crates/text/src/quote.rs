//! POSIX shell quoting, for command lines printed so that they can be pasted back.

/// `a` as one shell word: unchanged when it has only characters no shell treats specially,
/// otherwise in single quotes (an inner `'` becomes `'\''`).
pub fn shell_quote(a: &str) -> String {
    let plain = |c: char| c.is_ascii_alphanumeric() || "_./=:,+-@%".contains(c);
    if !a.is_empty() && a.chars().all(plain) {
        a.to_string()
    } else {
        format!("'{}'", a.replace('\'', "'\\''"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_words_stay_bare() {
        assert_eq!(shell_quote("-t"), "-t");
        assert_eq!(shell_quote("/x/y.ini"), "/x/y.ini");
        assert_eq!(
            shell_quote("--dataPacketType=timestamp"),
            "--dataPacketType=timestamp"
        );
        assert_eq!(shell_quote("a@b,c:d+e%f"), "a@b,c:d+e%f");
    }

    #[test]
    fn others_are_single_quoted() {
        assert_eq!(shell_quote(""), "''");
        assert_eq!(shell_quote("*01*"), "'*01*'");
        assert_eq!(shell_quote("a b"), "'a b'");
        assert_eq!(shell_quote("it's"), "'it'\\''s'");
        assert_eq!(shell_quote("$HOME"), "'$HOME'");
    }
}
