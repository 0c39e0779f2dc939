//! The measure crate's integration tests, one binary: the histogram against hdrhistogram,
//! the live board under concurrent writers, properties of the clock and statistics.

mod hdr_equivalence;
mod live;
mod props;
