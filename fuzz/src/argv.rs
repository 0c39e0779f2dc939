//! Fuzz bytes to a command line. Words are separated by spaces. A word starting with the byte
//! 0xFF takes the next byte as an index into a vocabulary (the tool's option names, its `-O`
//! keys, its refused options, the engines' module options and a few typical values), so the
//! fuzzer reaches real options without guessing their spelling; the rest of the word follows
//! the name (`--transferSize` + `=1m`). Other bytes are text (invalid UTF-8 replaced, as an
//! argv holds only strings).

use cmdline::optparse::Table;

const MARK: u8 = 0xFF;

/// Values and fragments that options take, so that a chosen option often gets a plausible one.
const VALUES: &[&str] = &[
    "0",
    "1",
    "-1",
    "2",
    "3",
    "8",
    "1k",
    "4k",
    "1m",
    "1g",
    "1e3",
    "1.5",
    "99999999999999999999",
    "18446744073709551615",
    "-9223372036854775808",
    "=",
    ",",
    "POSIX",
    "DUMMY",
    "MMAP",
    "/tmp/x",
    "/",
    ".",
    "",
    "block",
    "round-robin",
    "=0",
    "=1",
];

/// The words a table and the engine registry know: `-t`, `--transferSize`, `-O` key
/// assignments, refused names, `--posix.odirect`, plus [`VALUES`].
pub fn vocabulary<T: Copy + PartialEq, G>(table: &Table<T, G>) -> Vec<String> {
    let mut words: Vec<String> = vec!["-O".into(), "--".into(), "-".into()];
    let names = table
        .options
        .iter()
        .map(|s| (s.short, s.long, s.keys))
        .chain(table.refused.iter().map(|r| (r.short, r.long, r.keys)));
    for (short, long, keys) in names {
        words.extend(short.map(|c| format!("-{c}")));
        words.extend(long.map(|l| format!("--{l}")));
        words.extend(keys.iter().map(|k| format!("{k}=")));
    }
    for (info, opt) in engine::all_options() {
        if !table.metadata_only || opt.metadata {
            words.push(format!("--{}", info.full_name(opt)));
        }
        words.extend(opt.ior_keys.iter().map(|k| format!("{k}=")));
    }
    words.extend(VALUES.iter().map(|v| v.to_string()));
    words
}

/// The command line `data` spells with `vocabulary`.
pub fn words(data: &[u8], vocabulary: &[String]) -> Vec<String> {
    data.split(|&b| b == b' ')
        .map(|word| match word {
            [MARK, index, rest @ ..] => {
                let name = &vocabulary[usize::from(*index) % vocabulary.len()];
                format!("{name}{}", String::from_utf8_lossy(rest))
            }
            _ => String::from_utf8_lossy(word).into_owned(),
        })
        .collect()
}
