//! `iogauge startup`: what a run reads, makes and leaves, the result document, thread ranks
//! per node and staggered, the refusals before any I/O.

mod bad_input;
mod run;
