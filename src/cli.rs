//! What clap parses: the command line exactly as the user typed it, validated but not yet resolved.
//! Every flag the GitHub Action can set has a `STRATA_*` environment twin; the LLM endpoint uses the
//! conventional `OPENAI_BASE_URL` and `OPENAI_API_KEY`.

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand, ValueEnum};

use crate::config::EmbedderChoice;

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
    /// Index a repository at a commit: PViz bundle, Parquet tables, HTML graph, summary, search index.
    Index(IndexArgs),
    /// Answer a question from an index: exact graph answers, or retrieval (+ an LLM when configured).
    Ask(AskArgs),
    /// Show what changed structurally between two indexes (modules, edges, cycles, dependents).
    Diff(DiffArgs),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum DiffFormat {
    Markdown,
    Json,
}

#[derive(Debug, Args)]
pub struct DiffArgs {
    /// The older index directory.
    pub old: PathBuf,
    /// The newer index directory.
    pub new: PathBuf,
    #[arg(long, value_enum, default_value = "markdown", env = "STRATA_FORMAT")]
    pub format: DiffFormat,
}

/// The OpenAI-compatible server, shared by `index --embedder openai` and `ask`.
#[derive(Debug, Args)]
pub struct LlmArgs {
    /// Base URL of an OpenAI-compatible API (OpenAI, Azure, Ollama, vLLM, llama.cpp).
    #[arg(long, env = "OPENAI_BASE_URL", hide_env_values = true)]
    pub openai_base_url: Option<String>,
    /// API key for that server (not needed by most local servers).
    #[arg(long, env = "OPENAI_API_KEY", hide_env_values = true)]
    pub openai_api_key: Option<String>,
    /// Embedding model for `--embedder openai`.
    #[arg(long, default_value = "text-embedding-3-small", env = "STRATA_EMBEDDING_MODEL")]
    pub embedding_model: String,
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
    #[arg(long = "exclude", value_name = "GLOB", env = "STRATA_EXCLUDE", value_delimiter = ',')]
    pub exclude: Vec<String>,
    /// Folder to compute module names from, repeatable (default: the root, plus `src/` when present).
    #[arg(long = "source-root", value_name = "DIR", env = "STRATA_SOURCE_ROOTS", value_delimiter = ',')]
    pub source_roots: Vec<String>,
    /// Skip Python files larger than this many bytes [default: 2000000].
    #[arg(long, value_name = "BYTES", env = "STRATA_MAX_FILE_BYTES")]
    pub max_file_bytes: Option<u64>,
    /// Previous index directory to reuse: unchanged files are not re-parsed and unchanged chunks not
    /// re-embedded. A missing or incompatible one gives a warning and a full rebuild.
    #[arg(long, value_name = "DIR", env = "STRATA_PREVIOUS")]
    pub previous: Option<PathBuf>,
    /// Embedder for the search index.
    #[arg(long, value_enum, default_value = "builtin", env = "STRATA_EMBEDDER")]
    pub embedder: EmbedderChoice,
    #[command(flatten)]
    pub llm: LlmArgs,
    /// Print a machine-readable report on stdout instead of a human summary.
    #[arg(long, env = "STRATA_JSON")]
    pub json: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum AnswerFormat {
    Text,
    Markdown,
    Json,
}

#[derive(Debug, Args)]
pub struct AskArgs {
    /// Index directory written by `strata index`.
    #[arg(long, default_value = "strata-index", env = "STRATA_INDEX")]
    pub index: PathBuf,
    /// Output format: `markdown` is what the bot posts, `json` the contract other tools read.
    #[arg(long, value_enum, default_value = "text", env = "STRATA_FORMAT")]
    pub format: AnswerFormat,
    /// Chat model used when an OpenAI-compatible server is configured.
    #[arg(long, default_value = "gpt-4o-mini", env = "STRATA_CHAT_MODEL")]
    pub chat_model: String,
    /// Never call a language model, even when one is configured.
    #[arg(long, env = "STRATA_OFFLINE")]
    pub offline: bool,
    #[command(flatten)]
    pub llm: LlmArgs,
    /// The question, in plain words (quote it).
    #[arg(required = true, num_args = 1.., value_name = "QUESTION")]
    pub question: Vec<String>,
}
