//! What the option-parser fuzz targets share: fuzz bytes to an argv whose words can be the
//! tables' real option names, and the checks `iogauge ior`/`mdtest`/`md-workbench` make
//! before any I/O.

pub mod argv;
pub mod before_io;
