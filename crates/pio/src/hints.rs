//! IOR's MPI-IO hints: `IOR_HINT__MPI__<key>=<value>` (and `IOR_HINT__GPFS__<key>`) from the
//! environment, then from the lines of `--mpiio.hintsFileName` that start with `IOR_HINT`,
//! as IOR's `SetHints` reads them (`docs/pio.md`). Pure: the engine passes the environment
//! and the file's text in and gets the pairs for `MPI_Info_set` and the warnings back.

/// The hints for one open, in the order they are set (a later key replaces an earlier one,
/// so the file's beat the environment's), and what could not be used.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Hints {
    pub pairs: Vec<(String, String)>,
    pub warnings: Vec<String>,
}

/// What IOR's hint name stands for: `IOR_HINT__MPI__cb_nodes` is MPI's `cb_nodes`.
fn key_of(name: &str) -> Option<&str> {
    ["IOR_HINT__MPI__", "IOR_HINT__GPFS__"]
        .iter()
        .find_map(|p| name.strip_prefix(p))
        .filter(|k| !k.is_empty())
}

impl Hints {
    /// Adds `name`'s `value`, or a warning where IOR would set nothing usable.
    fn add(&mut self, name: &str, value: &str, from: &str) {
        let Some(key) = key_of(name) else {
            self.warnings.push(format!(
                "unable to set unknown hint type {name} ({from}): only IOR_HINT__MPI__<key> and \
                 IOR_HINT__GPFS__<key> are hints"
            ));
            return;
        };
        if value.is_empty() {
            // IOR crashes on an empty value; skipping it says so instead.
            self.warnings
                .push(format!("hint {name} ({from}) has no value: not set"));
            return;
        }
        self.pairs.push((key.to_string(), value.to_string()));
    }

    /// The environment's hints: every `IOR_HINT*` entry, in the environment's order; the
    /// value ends at a second `=`, as IOR cuts it.
    pub fn from_env<I, K, V>(vars: I) -> Hints
    where
        I: IntoIterator<Item = (K, V)>,
        K: AsRef<str>,
        V: AsRef<str>,
    {
        let mut h = Hints::default();
        for (name, value) in vars {
            let name = name.as_ref();
            if name.starts_with("IOR_HINT") {
                let value = value.as_ref().split('=').next().unwrap_or("");
                h.add(name, value, "environment");
            }
        }
        h
    }

    /// Adds the hints of a hints file's `text` (after the environment's): lines starting in
    /// column 0 with `IOR_HINT`; the name ends at the first space or `=`, the value is the
    /// next word (ended by a space, tab, CR, LF or `=`), so `IOR_HINT__MPI__cb_nodes = 4`
    /// and `IOR_HINT__MPI__cb_nodes=4` both set `cb_nodes` to `4`. Other lines are ignored.
    pub fn add_file(&mut self, text: &str, file: &str) {
        let separator = |c: char| matches!(c, ' ' | '\t' | '\r' | '\n' | '=');
        for line in text.lines() {
            if !line.starts_with("IOR_HINT") {
                continue;
            }
            let end = line.find([' ', '=']).unwrap_or(line.len());
            let name = &line[..end];
            let value = line[end..]
                .split(separator)
                .find(|w| !w.is_empty())
                .unwrap_or("");
            self.add(name, value, file);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn pairs(h: &Hints) -> Vec<(&str, &str)> {
        h.pairs
            .iter()
            .map(|(k, v)| (k.as_str(), v.as_str()))
            .collect()
    }

    #[test]
    fn environment_entries_in_order() {
        let env = [
            ("PATH", "/bin"),
            ("IOR_HINT__MPI__romio_cb_write", "enable"),
            ("IOR_HINT__GPFS__IBM_largeblock_io", "true"),
            ("IOR_HINT__MPI__cb_nodes", "4=junk"),
            ("IOR_HINTX", "1"),
            ("IOR_HINT__MPI__striping_unit", ""),
        ];
        let h = Hints::from_env(env);
        assert_eq!(
            pairs(&h),
            [
                ("romio_cb_write", "enable"),
                ("IBM_largeblock_io", "true"),
                ("cb_nodes", "4")
            ]
        );
        assert_eq!(h.warnings.len(), 2, "{:?}", h.warnings);
        assert!(h.warnings[0].contains("unknown hint type IOR_HINTX"));
        assert!(h.warnings[1].contains("no value"));
    }

    #[test]
    fn file_lines_as_ior_reads_them() {
        let mut h = Hints::from_env([("IOR_HINT__MPI__cb_nodes", "2")]);
        let text = "# comment\n IOR_HINT__MPI__indented=1\nIOR_HINT__MPI__cb_nodes = 4\n\
                    IOR_HINT__MPI__romio_ds_write=disable trailing words\r\n\
                    IOR_HINT__MPI__cb_buffer_size =\t8388608\nIOR_HINT__POSIX__x=1\nother=2\n";
        h.add_file(text, "hints.txt");
        assert_eq!(
            pairs(&h),
            [
                ("cb_nodes", "2"),
                ("cb_nodes", "4"),
                ("romio_ds_write", "disable"),
                ("cb_buffer_size", "8388608")
            ]
        );
        assert_eq!(h.warnings.len(), 1);
        assert!(h.warnings[0].contains("IOR_HINT__POSIX__x (hints.txt)"));
    }

    proptest! {
        /// Any key and value without separators survive a round trip through either form.
        #[test]
        fn round_trip(key in "[a-zA-Z_][a-zA-Z0-9_]{0,20}", value in "[a-zA-Z0-9_./:-]{1,20}") {
            let name = format!("IOR_HINT__MPI__{key}");
            let env = Hints::from_env([(name.as_str(), value.as_str())]);
            prop_assert_eq!(pairs(&env), vec![(key.as_str(), value.as_str())]);
            let mut file = Hints::default();
            file.add_file(&format!("{name}={value}\n{name} = {value}\n"), "f");
            prop_assert_eq!(pairs(&file), vec![(key.as_str(), value.as_str()); 2]);
        }
    }
}
