//! The workload configs shipped in the binary (`workloads/dlio/*.yaml`, MLPerf Storage's
//! YAML unchanged), and why the other MLPerf Storage names are not among them.

/// Name and YAML of every shipped config.
pub const SHIPPED: &[(&str, &str)] = &[
    (
        "unet3d_h100",
        include_str!("../../../../workloads/dlio/unet3d_h100.yaml"),
    ),
    (
        "unet3d_a100",
        include_str!("../../../../workloads/dlio/unet3d_a100.yaml"),
    ),
    (
        "resnet50_h100",
        include_str!("../../../../workloads/dlio/resnet50_h100.yaml"),
    ),
    (
        "resnet50_a100",
        include_str!("../../../../workloads/dlio/resnet50_a100.yaml"),
    ),
    (
        "cosmoflow_h100",
        include_str!("../../../../workloads/dlio/cosmoflow_h100.yaml"),
    ),
    (
        "cosmoflow_a100",
        include_str!("../../../../workloads/dlio/cosmoflow_a100.yaml"),
    ),
    // The checkpointing workloads (identical in v2.0 and v3).
    (
        "llama3_8b",
        include_str!("../../../../workloads/dlio/llama3_8b.yaml"),
    ),
    (
        "llama3_70b",
        include_str!("../../../../workloads/dlio/llama3_70b.yaml"),
    ),
    (
        "llama3_405b",
        include_str!("../../../../workloads/dlio/llama3_405b.yaml"),
    ),
    (
        "llama3_1t",
        include_str!("../../../../workloads/dlio/llama3_1t.yaml"),
    ),
    // v3-era files, not checked against the v3.0 tag (each file says so).
    (
        "unet3d_b200",
        include_str!("../../../../workloads/dlio/unet3d_b200.yaml"),
    ),
    (
        "retinanet_b200",
        include_str!("../../../../workloads/dlio/retinanet_b200.yaml"),
    ),
];

/// The YAML of shipped config `name`.
pub fn get(name: &str) -> Option<&'static str> {
    SHIPPED.iter().find(|(n, _)| *n == name).map(|(_, y)| *y)
}

/// Why a YAML file of this stem is refused: the MI355 configs look like the B200 ones, so
/// only their name tells them apart (the others are refused by what they hold).
pub fn refused_file(stem: &str) -> Option<String> {
    stem.contains("mi355").then(|| refused(stem)).flatten()
}

/// The names of the shipped configs.
pub fn names() -> impl Iterator<Item = &'static str> {
    SHIPPED.iter().map(|(n, _)| *n)
}

/// Why an MLPerf Storage config of this name is refused, if it is one of the kinds iogauge
/// does not emulate.
pub fn refused(name: &str) -> Option<String> {
    let why = if name.starts_with("llama") {
        "not one of MLPerf Storage's llama3 checkpoint configs (llama3_8b, llama3_70b, \
         llama3_405b, llama3_1t); give another llama config as a YAML file"
    } else if name.starts_with("dlrm") {
        "the dlrm configs read parquet (or indexed binary) files, which iogauge dlio does not \
         generate or read"
    } else if name.starts_with("flux") {
        "the flux configs read parquet files, which iogauge dlio does not generate or read"
    } else if name.contains("mi355") {
        "the AMD MI355 configs (MLPerf Storage v3) are not shipped or supported: their values \
         are not checked against the v3.0 tag"
    } else if name.ends_with("_datagen") {
        return Some(format!(
            "MLPerf Storage's datagen configs are its training configs with generation on; \
             generate with the training config: iogauge dlio {}_h100 \
             ++workload.workflow.generate_data=True ++workload.workflow.train=False \
             ++workload.workflow.checkpoint=False",
            name.trim_end_matches("_datagen")
        ));
    } else {
        return None;
    };
    Some(format!("{name}: {why}"))
}
