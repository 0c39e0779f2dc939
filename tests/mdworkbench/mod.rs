//! `iogauge md-workbench` against md-workbench (hpc/ior 5fcf0ba): the objects left after
//! each phase, the lines and counts it prints, the refusals before any I/O, the result
//! document.

mod bad_input;
mod json;
mod layout;
mod output;
