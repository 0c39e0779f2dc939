//! Lists in prose: `POSIX, MMAP or DUMMY`.

/// `words` joined by commas, the last two by `conjunction` (`"or"`, `"and"`).
pub fn join_words<S: AsRef<str>>(words: &[S], conjunction: &str) -> String {
    match words {
        [] => String::new(),
        [one] => one.as_ref().to_string(),
        [head @ .., last] => {
            let head: Vec<&str> = head.iter().map(AsRef::as_ref).collect();
            format!("{} {conjunction} {}", head.join(", "), last.as_ref())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prose_lists() {
        assert_eq!(join_words::<&str>(&[], "or"), "");
        assert_eq!(join_words(&["POSIX"], "or"), "POSIX");
        assert_eq!(join_words(&["POSIX", "DUMMY"], "or"), "POSIX or DUMMY");
        assert_eq!(join_words(&["a", "b", "c"], "and"), "a, b and c");
        assert_eq!(join_words(&[String::from("x"), "y".into()], "or"), "x or y");
    }
}
