//! The options of the originals, as their sources declare them, so that docs/compat.md cannot
//! leave one out: IOR's `createGlobalOptions` and `DecodeDirective` (parse_options.c) and its
//! back-end modules (`aiori-*.c`), mdtest's and md-workbench's option tables (mdtest.c,
//! md-workbench.c), pfind's
//! (pfind-options.c), the IO500's command line (main.c) at the versions the document names.
//! The IO500's `.ini` keys are `workload::io500::config::SECTIONS`, which mirrors its tables.

/// IOR's letters (`-h` is its help).
pub const IOR_LETTERS: &str = "aAbcCdDeEfFgGhijkKlmMNoOQrRstTuvwWxXyYzZ";

/// IOR's long options.
pub const IOR_LONGS: &[&str] = &[
    "collective",
    "dataPacketType",
    "gpuDirect",
    "randomPrefill",
    "random-offset-seed",
    "warningAsErrors",
    "dryRun",
    "help",
];

/// IOR's `-O` keys (`DecodeDirective`; compared without case, as IOR does).
#[rustfmt::skip]
pub const IOR_KEYS: &[&str] = &[
    "api", "summaryFile", "saveRankPerformanceDetailsCSV", "savePerOpDataCSV", "summaryFormat",
    "refnum", "debug", "platform", "testFile", "dualMount", "allocateBufferOnGPU", "GPUid",
    "GPUDirect", "deadlineForStonewalling", "stoneWallingWearOut",
    "stoneWallingWearOutIterations", "stoneWallingStatusFile", "maxTimeDuration",
    "minTimeDuration", "outlierThreshold", "numNodes", "numTasks", "numTasksOnNode0",
    "repetitions", "interTestDelay", "interIODelay", "readFile", "writeFile", "filePerProc",
    "taskPerNodeOffset", "reorderTasksConstant", "reorderTasksRandom", "reorderTasksRandomSeed",
    "reorderTasks", "checkWrite", "checkRead", "keepFile", "keepFileWithError", "multiFile",
    "warningAsErrors", "segmentCount", "blockSize", "transferSize", "singleXferAttempt",
    "intraTestBarriers", "verbose", "collective", "setTimeStampSignature", "dataPacketType",
    "uniqueDir", "useExistingTestFile", "fsyncPerWrite", "fsync", "randomOffset",
    "memoryPerTask", "memoryPerNode", "summaryAlways", "useO_DIRECT",
];

/// IOR's `-a` names.
#[rustfmt::skip]
pub const IOR_APIS: &[&str] = &[
    "POSIX", "DUMMY", "MMAP", "MPIIO", "HDF5", "NCMPI", "AIO", "PMDK", "DFS", "HDFS", "IME",
    "RADOS", "CEPHFS", "Gfarm", "CHFS", "FINCHFS", "LIBNFS", "S3-libs3", "S3-4c", "S3_plus",
    "S3_EMC", "S3-curl",
];

/// The back-end module options of IOR's `aiori-*.c` (each taken as `--<name>`).
#[rustfmt::skip]
pub const IOR_MODULE_OPTIONS: &[&str] = &[
    "posix.odirect", "posix.rangelocks", "posix.lustre.stripecount", "posix.lustre.stripesize",
    "posix.lustre.startost", "posix.lustre.ignorelocks", "posix.lustre.pool",
    "posix.gpfs.hintaccess", "posix.gpfs.releasetoken", "posix.gpfs.finegrainwritesharing",
    "posix.gpfs.finegrainreadsharing", "posix.gpfs.createsharing", "posix.beegfs.NumTargets",
    "posix.beegfs.ChunkSize", "dummy.delay-create", "dummy.delay-close", "dummy.delay-sync",
    "dummy.delay-xfer", "dummy.delay-only-rank0", "mmap.madv_dont_need", "mmap.madv_pattern",
    "mpiio.hintsFileName", "mpiio.showHints", "mpiio.preallocate", "mpiio.useStridedDatatype",
    "mpiio.useFileView", "hdf5.hintsFileName", "hdf5.showHints", "hdf5.collectiveMetadata",
    "hdf5.individualDataSets", "hdf5.setAlignment", "hdf5.noFill", "hdf5.chunkSize",
    "ncmpi.hintsFileName", "ncmpi.showHints", "ncmpi.preallocate", "ncmpi.useStridedDatatype",
    "ncmpi.useFileView", "aio.max-pending", "aio.granularity", "dfs.pool", "dfs.group",
    "dfs.cont", "dfs.chunk_size", "dfs.oclass", "dfs.dir_oclass", "dfs.prefix", "dfs.destroy",
    "hdfs.odirect", "hdfs.user", "hdfs.name_node", "hdfs.replicas", "hdfs.block_size",
    "ime.odirect", "libnfs.url", "chfs.chunk_size", "finchfs.chunk_size", "rados.user",
    "rados.conf", "rados.pool", "cephfs.user", "cephfs.conf", "cephfs.prefix",
    "cephfs.remote_prefix", "cephfs.olazy", "S3-libs3.bucket-per-file",
    "S3-libs3.bucket-name-prefix", "S3-libs3.dont-suffix-bucket", "S3-libs3.s3-compatible",
    "S3-libs3.use-ssl", "S3-libs3.host", "S3-libs3.secret-key", "S3-libs3.access-key",
    "S3-libs3.region", "S3-libs3.location", "S3-4c.user", "S3-4c.host", "S3-4c.bucket-name",
    "S3-curl.bucket", "S3-curl.access-key", "S3-curl.secret-key", "S3-curl.host",
    "S3-curl.region", "S3-curl.use-ssl", "S3-curl.timeout", "S3-curl.verify-ssl",
];

/// mdtest's letters (`-h` is its help; `-g` exists in Lustre builds).
pub const MDTEST_LETTERS: &str = "abdBCTErUDefFgGhiIklLnNpPRsSctuvVwWxXyYzZ";

/// mdtest's long options.
#[rustfmt::skip]
pub const MDTEST_LONGS: &[&str] = &[
    "print-all-procs", "random-seed", "verify-read", "verify-write", "dataPacketType",
    "run-cmd-before-phase", "run-cmd-after-phase", "allocateBufferOnGPU", "GPUid", "gpuDirect",
    "warningAsErrors", "saveRankPerformanceDetails", "savePerOpDataCSV", "showRankStatistics",
    "help",
];

/// md-workbench's letters (`md-workbench.c`'s `options`; `-h` is its help).
pub const MDWORKBENCH_LETTERS: &str = "OaILPDGoqSRtT123wWXvh";

/// md-workbench's long options (the GPU ones exist in CUDA builds).
#[rustfmt::skip]
pub const MDWORKBENCH_LONGS: &[&str] = &[
    "offset", "api", "obj-per-proc", "latency", "latency-all", "precreate-per-set", "data-sets",
    "quiet", "object-size", "iterations", "waiting-time", "adaptive-waiting", "run-precreate",
    "run-benchmark", "run-cleanup", "stonewall-timer", "stonewall-wear-out", "verify-read",
    "dataPacketType", "allocateBufferOnGPU", "GPUid", "gpuDirect", "start-item",
    "print-detailed-stats", "read-only", "ignore-precreate-errors", "process-reports", "verbose",
    "run-info-file", "help",
];

/// pfind's predicates and options.
#[rustfmt::skip]
pub const PFIND: &[&str] = &[
    "-newer", "-size", "-name", "-regex", "-E", "-e", "-N", "-P", "-C", "-v", "-M", "-s", "-q",
    "-D", "-H", "-r", "-h", "--help",
];

/// The IO500's command line.
#[rustfmt::skip]
pub const IO500: &[&str] = &[
    "--dry-run", "--cleanup", "--config-hash", "--mode", "--timestamp", "-v", "--verbose",
    "--verify", "--list", "-l", "--list-mandatory", "-lm", "--help", "-h",
];
