//! Reading docs/compat.md's tables: the rows of a table, found by its header's first cell, and
//! the code spans of a cell (option names, examples).

/// The document, compiled in so that a change to it rebuilds the tests.
const TEXT: &str = include_str!("../../docs/compat.md");

/// What iogauge does with an option (the table's status column).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Status {
    Supported,
    Differs,
    Added,
    Refused,
}

/// One table row: its cells, trimmed, without the outer bars.
#[derive(Debug)]
pub struct Row {
    pub cells: Vec<String>,
}

impl Row {
    /// The code spans of cell `col`: `` `-a`, `--api` `` gives `-a`, `--api`.
    pub fn spans(&self, col: usize) -> Vec<&str> {
        self.cells[col]
            .split('`')
            .skip(1)
            .step_by(2)
            .filter(|s| !s.is_empty())
            .collect()
    }

    /// The status in cell `col`.
    pub fn status(&self, col: usize) -> Status {
        match self.cells[col].as_str() {
            "supported" => Status::Supported,
            "differs" => Status::Differs,
            "added" => Status::Added,
            "refused" => Status::Refused,
            // Provided by the MPI build (`--features mpi`), refused by name in the default one.
            "MPI build" if cfg!(feature = "mpi") => Status::Supported,
            "MPI build" => Status::Refused,
            // Provided by the build with parallel HDF5 (`--features mpi,hdf5`).
            "HDF5 build" if cfg!(feature = "hdf5") => Status::Supported,
            "HDF5 build" => Status::Refused,
            other => panic!(
                "docs/compat.md: unknown status {other:?} in {:?}",
                self.cells
            ),
        }
    }
}

fn cells(line: &str) -> Vec<String> {
    let inner = line.trim().trim_start_matches('|').trim_end_matches('|');
    inner.split('|').map(|c| c.trim().to_string()).collect()
}

/// The rows of the table whose header's first cell is `first` (`IOR option`); each row has
/// as many cells as the header.
pub fn table(first: &str) -> Vec<Row> {
    let mut lines = TEXT.lines().skip_while(|l| {
        !(l.starts_with('|') && cells(l).first().map(String::as_str) == Some(first))
    });
    let header = cells(
        lines
            .next()
            .unwrap_or_else(|| panic!("no table \"{first}\"")),
    );
    let rows: Vec<Row> = lines
        .skip(1) // the |---| line
        .take_while(|l| l.starts_with('|'))
        .map(|l| Row { cells: cells(l) })
        .collect();
    for r in &rows {
        assert_eq!(r.cells.len(), header.len(), "a cell holds a '|': {r:?}");
    }
    assert!(!rows.is_empty(), "table \"{first}\" is empty");
    rows
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spans_and_cells() {
        let row = Row {
            cells: cells("| `-a`, `--api` | supported | `-a POSIX` `-O api=x` | notes `x` |"),
        };
        assert_eq!(row.spans(0), ["-a", "--api"]);
        assert_eq!(row.spans(2), ["-a POSIX", "-O api=x"]);
        assert_eq!(row.status(1), Status::Supported);
        assert_eq!(table("IOR option")[0].spans(0)[0], "-a");
    }
}
