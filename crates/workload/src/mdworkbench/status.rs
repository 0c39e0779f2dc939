//! The run-info file (`--run-info-file`, md-workbench's `md-workbench.status`): a run without
//! the cleanup stores the next object index as `pos: N`, and a run without the precreate
//! starts there. iogauge adds a line when its precreate made the `-o` directory, so that a
//! later cleanup removes it only then (md-workbench removes `-o` whether or not it made it);
//! md-workbench reads only the first line.

use std::path::Path;

/// What the file says.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Position {
    /// The index of the oldest object of every data set.
    pub pos: u64,
    /// iogauge's precreate made the `-o` directory.
    pub made_dir: bool,
}

const MADE_DIR: &str = "iogauge: the precreate made -o";

pub fn render(p: Position) -> String {
    let mut s = format!("pos: {}\n", p.pos);
    if p.made_dir {
        s.push_str(MADE_DIR);
        s.push('\n');
    }
    s
}

/// `pos: N` first (md-workbench's `fscanf("pos: %d")`), then any lines.
pub fn parse(text: &str) -> Result<Position, String> {
    let first = text.lines().next().unwrap_or("").trim_start();
    let rest = first
        .strip_prefix("pos:")
        .ok_or("it does not start with \"pos: N\"")?
        .trim_start();
    let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
    let pos = digits
        .parse::<u64>()
        .map_err(|_| format!("\"{first}\" holds no object index"))?;
    let made_dir = text.lines().any(|l| l.trim() == MADE_DIR);
    Ok(Position { pos, made_dir })
}

/// Reads the file; errors say what is wrong with it.
pub fn read(path: &Path) -> Result<Position, String> {
    let text = std::fs::read_to_string(path).map_err(|e| {
        format!(
            "--run-info-file {}: {e} (a run without the precreate (-1) starts at the position a \
             run without the cleanup stored there)",
            path.display()
        )
    })?;
    parse(&text).map_err(|e| format!("--run-info-file {}: {e}", path.display()))
}

pub fn write(path: &Path, p: Position) -> std::io::Result<()> {
    std::fs::write(path, render(p))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip_and_md_workbench_files() {
        let p = Position {
            pos: 4000,
            made_dir: true,
        };
        assert_eq!(parse(&render(p)), Ok(p));
        assert_eq!(
            render(Position {
                pos: 4,
                made_dir: false
            }),
            "pos: 4\n"
        );
        // What md-workbench writes, and what its fscanf accepts.
        assert_eq!(parse("pos: 4\n").unwrap().pos, 4);
        assert_eq!(parse("  pos:12trailing").unwrap().pos, 12);
        assert!(parse("position: 4").is_err());
        assert!(parse("pos: -3").is_err());
        assert!(parse("").is_err());
    }
}
