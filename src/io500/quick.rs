//! `iogauge io500 --quick`: the IO500 with every phase run for real, a 5 s stonewall, and
//! write phases sized so that the stonewall, not the data, ends them within the room the data
//! directory and the memory allow (`sizes.rs`). It is not a valid IO500 submission and says
//! so once; its terminal view (`console.rs`) leaves that rule out of the phase table.

pub mod console;
mod room;
pub mod sizes;

use std::path::{Path, PathBuf};

use workload::io500::config::Config;

use sizes::{Room, Sizes, FREE_WORDS, IOR_EASY_TRANSFER, MEMORY_WORDS};

/// Seconds of the stonewall (the rules require 300).
pub const STONEWALL_S: u64 = 5;

/// The data directory when `--dir` is not given: under the system's temp directory.
pub fn default_data_dir() -> PathBuf {
    std::env::temp_dir().join("iogauge-io500")
}

/// A quick run: the room it measured and the sizes it chose.
pub struct Quick {
    pub ranks: usize,
    pub room: Room,
    pub sizes: Sizes,
    dir: PathBuf,
}

impl Quick {
    /// Measures the room of `dir` (the data directory) and this machine, and sizes the run.
    pub fn measure(ranks: usize, dir: &Path) -> Quick {
        let room = room::measure(dir);
        Quick {
            ranks,
            room,
            sizes: sizes::sizes(&room, ranks),
            dir: dir.to_path_buf(),
        }
    }

    /// The IO500 defaults with the short stonewall and the chosen per-rank sizes.
    pub fn config(&self) -> Config {
        let s = &self.sizes;
        let mut c = Config::defaults();
        let mut set = |sec: &str, k: &str, v: String| {
            c.set(sec, k, &v)
                .expect("the --quick settings are valid IO500 values");
        };
        set("global", "datadir", self.dir.display().to_string());
        set("debug", "stonewall-time", STONEWALL_S.to_string());
        set("ior-easy", "transferSize", "1m".into());
        let mib = s.ior_easy_block / IOR_EASY_TRANSFER;
        set("ior-easy", "blockSize", format!("{mib}m"));
        set("ior-hard", "segmentCount", s.ior_hard_segments.to_string());
        set("mdtest-easy", "n", s.mdtest_easy_files.to_string());
        set("mdtest-hard", "n", s.mdtest_hard_files.to_string());
        c
    }

    /// Refuses a data directory without room even for the smallest sizes.
    pub fn check_space(&self) -> Result<(), String> {
        sizes::fits(&self.room, &self.sizes, self.ranks).map_err(|(need, free)| {
            format!(
                "io500: --quick needs about {} in {}, which has {} free; choose another \
                 directory with --dir DIR",
                text::human_size(need),
                self.dir.display(),
                text::human_size(free)
            )
        })
    }

    /// Where the cap comes from, in words.
    fn cap_source(&self) -> String {
        let free = |f| format!("{FREE_WORDS} of its {} free", text::human_size(f));
        let memory = |m| format!("{MEMORY_WORDS} of {} of memory", text::human_size(m));
        match (self.room.free_bytes, self.room.memory_bytes) {
            (Some(f), Some(m)) => format!("the smaller of {} and {}", free(f), memory(m)),
            (Some(f), None) => free(f),
            (None, Some(m)) => memory(m),
            (None, None) => "free space and memory unknown".into(),
        }
    }

    /// The result document's warning.
    pub fn warning(&self) -> String {
        format!(
            "--quick: not a valid IO500 submission (stonewall-time {STONEWALL_S}s != 300s); \
             the data in {} capped at {} ({})",
            self.dir.display(),
            text::human_size(self.sizes.budget),
            self.cap_source()
        )
    }

    /// The terminal view of the run.
    pub fn console(&self) -> console::QuickConsole {
        console::QuickConsole::new(STONEWALL_S)
    }

    /// What the user is told before the run starts: that it is quick and not valid, and
    /// where its data goes and how much of it there may be.
    pub fn header(&self, data: &str) -> String {
        format!(
            "iogauge io500 --quick: a short run on {} rank(s), not a valid IO500 submission \
             (a {STONEWALL_S} s stonewall; the rules require 300 s).\n\
             Data: at most {} in {data} ({}), so that the stonewall, not the data, ends each \
             write phase; removed at the end.\n\n",
            self.ranks,
            text::human_size(self.sizes.budget),
            self.cap_source()
        )
    }
}
