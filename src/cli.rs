//! What clap parses: the command line exactly as the user typed it, validated but not yet resolved.
//! Every flag the GitHub Action can set has a `STRATA_*` environment twin.

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand};

#[derive(Debug, Parser)]
#[command(
    name = "strata",
    version,
    about = "A structural index of a Python repository: import graph, PViz bundle, answers"
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Index a repository at a commit: PViz bundle, Parquet tables, HTML graph, summary and manifest.
    Index(IndexArgs),
}

#[derive(Debug, Args)]
pub struct IndexArgs {
    /// Repository (or a folder inside one) to index; a folder outside git is read from disk.
    #[arg(default_value = ".", env = "STRATA_PATH")]
    pub path: PathBuf,
    /// Directory to write the index into (created if missing).
    #[arg(long, default_value = "strata-index", env = "STRATA_OUT")]
    pub out: PathBuf,
    /// Git revision to index (branch, tag or commit id); ignored outside git.
    #[arg(long, default_value = "HEAD", env = "STRATA_REV")]
    pub rev: String,
    /// Glob of paths to leave out, repeatable (adds to strata.toml's `exclude`).
    #[arg(
        long = "exclude",
        value_name = "GLOB",
        env = "STRATA_EXCLUDE",
        value_delimiter = ','
    )]
    pub exclude: Vec<String>,
    /// Folder to compute module names from, repeatable (default: the root, plus `src/` when present).
    #[arg(
        long = "source-root",
        value_name = "DIR",
        env = "STRATA_SOURCE_ROOTS",
        value_delimiter = ','
    )]
    pub source_roots: Vec<String>,
    /// Skip Python files larger than this many bytes [default: 2000000].
    #[arg(long, value_name = "BYTES", env = "STRATA_MAX_FILE_BYTES")]
    pub max_file_bytes: Option<u64>,
    /// Print a machine-readable report on stdout instead of a human summary.
    #[arg(long, env = "STRATA_JSON")]
    pub json: bool,
}
