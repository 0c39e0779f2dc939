//! A mix file (`--mix FILE`, TOML): the operations' percentages and the tree. Unknown keys and
//! operations are refused by name, the percentages must add up to 100, and sizes take k, m, g
//! (powers of 1024). `--mix build-like` names the file shipped in `mixes/`.

use std::collections::BTreeMap;
use std::path::Path;

use plan::mix::{Mix, MixOp, Share, Tree};
use serde::Deserialize;

/// The mix files iogauge ships, by name.
const SHIPPED: &[(&str, &str)] = &[(
    "build-like",
    include_str!("../../../../mixes/build-like.toml"),
)];

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct File {
    name: Option<String>,
    #[serde(default)]
    description: String,
    operations: BTreeMap<String, f64>,
    #[serde(default)]
    tree: TreeFile,
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
struct TreeFile {
    dirs: Option<u64>,
    files_per_dir: Option<u64>,
    file_size: Option<Size>,
    io_size: Option<Size>,
    empty_dirs: Option<u64>,
}

/// A size as a number of bytes or a string with a suffix (`"16k"`).
#[derive(Deserialize)]
#[serde(untagged)]
enum Size {
    Bytes(u64),
    Text(String),
}

impl Size {
    fn bytes(&self, key: &str) -> Result<u64, String> {
        match self {
            Size::Bytes(n) => Ok(*n),
            Size::Text(t) => text::parse_size(t).map_err(|e| format!("tree.{key}: {e}")),
        }
    }
}

/// Reads `arg`: a shipped mix's name or a file's path.
pub fn load(arg: &str) -> Result<Mix, String> {
    if let Some((name, text)) = SHIPPED.iter().find(|(n, _)| *n == arg) {
        return parse(text, &format!("mixes/{name}.toml (shipped)"));
    }
    let path = Path::new(arg);
    let text = std::fs::read_to_string(path).map_err(|e| {
        let names: Vec<&str> = SHIPPED.iter().map(|s| s.0).collect();
        format!(
            "--mix {arg}: {e} (a TOML file, or a shipped mix: {})",
            names.join(", ")
        )
    })?;
    parse(&text, arg).map_err(|e| format!("--mix {arg}: {e}"))
}

/// Parses a mix file's text; `source` names it in the result.
pub fn parse(text: &str, source: &str) -> Result<Mix, String> {
    let f: File = toml::from_str(text).map_err(|e| one_line(&e.to_string()))?;
    let mut shares = Vec::new();
    for (name, &percent) in &f.operations {
        let op = MixOp::from_label(name).ok_or_else(|| {
            let known: Vec<&str> = MixOp::ALL.iter().map(|o| o.label()).collect();
            format!(
                "unknown operation \"{name}\" in [operations] (known: {})",
                known.join(", ")
            )
        })?;
        if !(percent.is_finite() && (0.0..=100.0).contains(&percent)) {
            return Err(format!(
                "operations.{name} = {percent}: a percentage is 0 to 100"
            ));
        }
        shares.push(Share { op, percent });
    }
    shares.sort_by_key(|s| s.op);
    let total: f64 = shares.iter().map(|s| s.percent).sum();
    if (total - 100.0).abs() > 1e-6 {
        return Err(format!(
            "the percentages in [operations] add up to {total}, not 100"
        ));
    }
    let d = Tree::default();
    let t = &f.tree;
    let tree = Tree {
        dirs: t.dirs.unwrap_or(d.dirs),
        files_per_dir: t.files_per_dir.unwrap_or(d.files_per_dir),
        file_size: t
            .file_size
            .as_ref()
            .map_or(Ok(d.file_size), |s| s.bytes("file-size"))?,
        io_size: t
            .io_size
            .as_ref()
            .map_or(Ok(d.io_size), |s| s.bytes("io-size"))?,
        empty_dirs: t.empty_dirs.unwrap_or(d.empty_dirs),
    };
    Ok(Mix {
        name: f.name.unwrap_or_else(|| source.to_string()),
        source: source.to_string(),
        description: f.description,
        shares,
        tree,
    })
}

/// toml's messages span lines (a caret under the text); iogauge's errors are one line.
fn one_line(e: &str) -> String {
    let lines: Vec<&str> = e.lines().map(str::trim).filter(|l| !l.is_empty()).collect();
    let first = lines.first().copied().unwrap_or("not valid TOML");
    match lines.last() {
        Some(last) if lines.len() > 1 => format!("{first}: {last}"),
        _ => first.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_shipped_mix_reads() {
        let m = load("build-like").unwrap();
        assert_eq!(m.name, "build-like");
        assert_eq!(m.percent(MixOp::Stat), 45.0);
        assert_eq!(m.tree.file_size, 16 * 1024);
        assert_eq!(m.shares.len(), 10);
    }

    #[test]
    fn refusals() {
        let ok = "[operations]\nstat = 60\ncreate = 40\n";
        assert_eq!(parse(ok, "t").unwrap().tree, Tree::default());
        for (bad, why) in [
            ("[operations]\nstat = 60\ncreate = 30\n", "add up to 90"),
            ("[operations]\nstats = 100\n", "unknown operation \"stats\""),
            (
                "[operations]\nstat = 100\n[tree]\ndepth = 3\n",
                "unknown field `depth`",
            ),
            (
                "colour = 1\n[operations]\nstat = 100\n",
                "unknown field `colour`",
            ),
            (
                "[operations]\nstat = 100\n[tree]\nfile-size = \"4q\"\n",
                "file-size",
            ),
            ("[operations]\nstat = 150\ncreate = -50\n", "0 to 100"),
            ("[operations\n", ""),
        ] {
            let e = parse(bad, "t").unwrap_err();
            assert!(e.contains(why), "{bad}: {e}");
            assert!(!e.contains('\n'), "{e}");
        }
    }
}
