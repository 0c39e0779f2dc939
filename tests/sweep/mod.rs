//! `iogauge sweep`: real small sweeps (every point a stored run with its labels, resume after
//! an interruption, shuffle, bad input refused before any I/O), and the table and findings of
//! crafted stored results.

mod bad_input;
mod crafted;
mod run;
