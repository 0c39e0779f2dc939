//! A preset's `{name}` values for one run: the full or the small size (`--small`), what
//! `--set name=value` gives, a size from the node's memory, and `{dir}`.

use std::collections::BTreeMap;

use super::catalog::Preset;

/// The values of every `{name}` of `p`. `mem_total` is the node's memory in bytes (None when
/// unknown: a memory-sized value then needs `--set` or `--small`).
pub fn resolve(
    p: &Preset,
    small: bool,
    sets: &[(String, String)],
    tasks: usize,
    mem_total: Option<u64>,
) -> Result<BTreeMap<String, String>, String> {
    for (k, _) in sets {
        if !p.vars.contains_key(k) {
            let names: Vec<&str> = p.vars.keys().map(String::as_str).collect();
            return Err(format!(
                "--set {k}: preset {} has no value {k} (it has: {})",
                p.name,
                names.join(", ")
            ));
        }
    }
    let mut out = BTreeMap::new();
    for (name, var) in &p.vars {
        let value = if let Some((_, v)) = sets.iter().rev().find(|(k, _)| k == name) {
            v.clone()
        } else if small {
            var.small.clone()
        } else if let Some(factor) = var.memory {
            let mem = mem_total.ok_or_else(|| {
                format!("{{{name}}} is sized from the node's memory, which is unknown here; give --set {name}=SIZE")
            })?;
            memory_block(mem, factor, tasks)
        } else {
            var.full.clone().unwrap_or_else(|| var.small.clone())
        };
        out.insert(name.clone(), value);
    }
    Ok(out)
}

/// `factor` times the node's memory shared by `tasks` ranks, rounded up to whole MiB: `12288m`.
pub fn memory_block(mem_total: u64, factor: f64, tasks: usize) -> String {
    const MIB: f64 = 1_048_576.0;
    let per_rank = mem_total as f64 * factor / tasks.max(1) as f64;
    format!("{}m", (per_rank / MIB).ceil().max(1.0) as u64)
}

/// MemTotal from /proc/meminfo, in bytes.
pub fn mem_total() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = text.lines().find(|l| l.starts_with("MemTotal:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib * 1024)
}

/// `word` with every `{name}` replaced; Err names a `{name}` without a value.
pub fn substitute(word: &str, values: &BTreeMap<String, String>) -> Result<String, String> {
    let mut out = String::new();
    let mut rest = word;
    while let Some(start) = rest.find('{') {
        out.push_str(&rest[..start]);
        let Some(len) = rest[start..].find('}') else {
            return Err(format!("'{word}' has a '{{' without its '}}'"));
        };
        let name = &rest[start + 1..start + len];
        let v = values
            .get(name)
            .ok_or_else(|| format!("'{word}' uses {{{name}}}, which the preset does not define"))?;
        out.push_str(v);
        rest = &rest[start + len + 1..];
    }
    out.push_str(rest);
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn placeholders() {
        let v: BTreeMap<String, String> = [("dir", "/t"), ("block", "4m")]
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        assert_eq!(substitute("{dir}/f", &v).unwrap(), "/t/f");
        assert_eq!(substitute("-b{block}", &v).unwrap(), "-b4m");
        assert_eq!(substitute("plain", &v).unwrap(), "plain");
        assert!(substitute("{nope}", &v)
            .unwrap_err()
            .contains("does not define"));
        assert!(substitute("{dir", &v).unwrap_err().contains("without"));
    }

    #[test]
    fn memory_sized_blocks() {
        // 2 x 24 GiB over 4 ranks: 12 GiB each.
        assert_eq!(memory_block(24 << 30, 2.0, 4), "12288m");
        assert_eq!(memory_block(1000, 2.0, 4), "1m", "never below 1 MiB");
        assert!(
            mem_total().is_some_and(|m| m > 0),
            "Linux has /proc/meminfo"
        );
    }
}
