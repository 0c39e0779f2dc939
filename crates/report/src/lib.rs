//! Reports over iogauge result documents: run lists, one run in full, comparisons of runs with
//! a regression verdict for CI, scaling tables, and self-contained HTML pages with charts.
//!
//! Everything here takes `&RunResult` documents plus a [`RunInfo`] (what the store adds: its
//! id, labels, whether the run finished), builds a typed model (pure arithmetic, tested on
//! crafted documents), and renders the model: [`render()`] for terminal tables, JSON and CSV,
//! [`html`] for pages. The rules (which figure is compared, the trend rule, the efficiency
//! formula, what the pages show) are in `docs/reports.md`.

mod compare;
mod differs;
mod figures;
pub mod fmt;
pub mod html;
mod listing;
mod marks;
mod metric;
mod phases;
mod ranks;
mod regression;
mod render;
mod run;
mod scaling;
mod spread;
mod summary;
mod system;

pub use compare::{compare, Cell, Comparison, MetricRow, PhaseComparison, RunHeading};
pub use differs::{differs, size, Difference, Differs};
pub use figures::Figures;
pub use listing::{Figure, ListedRun};
pub use marks::{MarkLine, MarkedPhase};
pub use metric::{Direction, Metric};
pub use phases::{groups, phase_key, PhaseGroup};
pub use ranks::RankSpread;
pub use regression::{check, PhaseCheck, RegressionCheck};
pub use render::csv::Csv;
pub use render::{markdown, render, table, Format, Render};
pub use run::{Run, RunInfo};
pub use scaling::{scaling, PhaseScaling, ScaleBy, ScalePoint, Scaling, ScalingError};
pub use spread::{
    median_index, percent_change, worse_percent, Delta, Spread, Trend, Verdict,
    SAME_WITHIN_PERCENT, TREND_MIN_ITERATIONS, TREND_PERCENT, TREND_STEP_SHARE,
};
pub use summary::{summarize, Field, IterationSpread, PhaseLine, RunSummary};
pub use system::PhaseSystem;
