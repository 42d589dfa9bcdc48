//! What clap parses: the command line exactly as the user typed it, validated but not yet resolved.
//! Every flag the GitHub Action can set has a `STRATA_*` environment twin; the LLM endpoint uses the
//! conventional `OPENAI_BASE_URL` and `OPENAI_API_KEY`.

use std::path::PathBuf;
use strata_core::secret::Secret;

use clap::{Args, Parser, Subcommand, ValueEnum};

use strata_core::config::EmbedderChoice;
use strata_search::location::IndexLocation;

/// An index flag: a local directory or an `s3://bucket/prefix` URL, parsed once here.
fn index_location(text: &str) -> Result<IndexLocation, String> {
    IndexLocation::parse(text).map_err(|error| error.to_string())
}

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
    /// What a commit changes and affects against the base index: modules, imports, cycles, the
    /// modules that depend on the change, the tests to run, and removed modules still imported.
    Impact(ImpactArgs),
    /// Check the architecture contracts of `strata.toml` (layers, forbidden imports, independence, no
    /// new cycles); with a base index, fail only on violations the change introduces.
    Check(CheckArgs),
    /// Draw the import graph from an index: package or module level, a module's neighbourhood, only
    /// the cycles; as Mermaid, DOT or JSON.
    Graph(GraphArgs),
    /// Answer an `/ask` comment in GitHub Actions (reads the event and GitHub's environment).
    Bot(BotArgs),
    /// Download this repository's latest index artifact (for `index --previous` in GitHub Actions).
    Fetch(FetchArgs),
    /// Score answers on a question set with RAGAS-style metrics; compare with a baseline report.
    Eval(EvalArgs),
    /// Choose the ranking and decline settings on question sets from several repositories, reporting
    /// each repository's figures under settings fitted on the others (leave one repository out).
    Fit(FitArgs),
}

#[derive(Debug, Args)]
pub struct FitArgs {
    /// A question set of a repository, as REPO=INDEX_DIR=QUESTIONS.jsonl (repeatable; several sets may
    /// share a repository). Lines with `gold_files` are answerable; lines with `"answerable": false`
    /// ask about things the code does not contain.
    #[arg(long = "set", required = true, value_name = "REPO=INDEX=FILE")]
    pub sets: Vec<String>,
    /// A question set never fitted on, scored with the settings fitted on every `--set` (repeatable).
    #[arg(long = "report-set", value_name = "REPO=INDEX=FILE")]
    pub report_sets: Vec<String>,
    /// Most answerable questions the decline may refuse on the repositories it is fitted on.
    #[arg(long, default_value_t = 0.02, value_name = "SHARE")]
    pub false_decline_budget: f64,
    /// Passes of coordinate ascent over the ranking settings.
    #[arg(long, default_value_t = 3, value_name = "N")]
    pub rounds: usize,
    /// Write the report (held-out figures per repository and set, the fitted settings) as JSON here.
    #[arg(long, value_name = "FILE")]
    pub out: Option<PathBuf>,
}

#[derive(Debug, Args)]
pub struct EvalArgs {
    /// Index directory written by `strata index`.
    #[arg(long, default_value = "strata-index", env = "STRATA_INDEX")]
    pub index: PathBuf,
    /// Question set (JSONL, schemas/eval-questions.schema.json).
    #[arg(long)]
    pub questions: PathBuf,
    /// Where report.json and report.md go.
    #[arg(long, default_value = "strata-eval")]
    pub out: PathBuf,
    /// An earlier report.json: exit 1 when a metric falls below its interval.
    #[arg(long)]
    pub baseline: Option<PathBuf>,
    /// Parquet history to append one row to [default: OUT/history.parquet].
    #[arg(long)]
    pub history: Option<PathBuf>,
    /// Seed of the bootstrap intervals.
    #[arg(long, default_value_t = 2026)]
    pub seed: u64,
    /// Also judge answers with the language model (RAGAS's LLM metrics), replaying cached exchanges.
    #[arg(long)]
    pub judge: bool,
    /// The independent oracle's import graph (`eval/ast_oracle.py --root REPO edge-paths`): claims and
    /// structural citations are checked against it instead of against the index's own graph.
    #[arg(long)]
    pub oracle_edges: Option<PathBuf>,
    /// Cache of judge exchanges [default: OUT/judge-cache].
    #[arg(long)]
    pub judge_cache: Option<PathBuf>,
    /// Chat model for answers and the judge when a server is configured.
    #[arg(long, default_value = "gpt-4o-mini", env = "STRATA_CHAT_MODEL")]
    pub chat_model: String,
    /// Longest one request to the chat model may take, in seconds (connecting to the last byte); it is
    /// sent again only when it never reached the server or was rate-limited.
    #[arg(long, default_value_t = 60, value_name = "SECONDS", env = "STRATA_CHAT_TIMEOUT")]
    pub chat_timeout: u64,
    /// Never call a language model to answer (the judge still may, with --judge).
    #[arg(long, env = "STRATA_OFFLINE")]
    pub offline: bool,
    /// Find-the-code sets: another tool's summary line (`bm25_files.py`'s output), shown as the
    /// report's reference row.
    #[arg(long)]
    pub reference: Option<PathBuf>,
    /// Find-the-code sets: a condition on the overall figures, e.g. `recall@5>=0.40` or
    /// `declined<=0.05` (repeatable); exit 1 when one is not met.
    #[arg(long)]
    pub require: Vec<String>,
    #[command(flatten)]
    pub llm: LlmArgs,
}

/// Where the index artifacts live on GitHub; shared by `bot` and `fetch`. The token is read from
/// `GITHUB_TOKEN` only, never from the command line.
#[derive(Debug, Args)]
pub struct GitHubArgs {
    /// `owner/name` of the repository.
    #[arg(long, env = "GITHUB_REPOSITORY")]
    pub repository: String,
    #[arg(long, default_value = "https://api.github.com", env = "GITHUB_API_URL")]
    pub api_url: String,
    /// File name of the workflow whose push runs build the index.
    #[arg(long, default_value = "strata-index.yml", env = "STRATA_INDEX_WORKFLOW")]
    pub index_workflow: String,
    #[arg(long, default_value = "strata-index", env = "STRATA_ARTIFACT_NAME")]
    pub artifact_name: String,
    /// Largest artifact accepted, downloaded (streamed to disk) and unpacked, in bytes.
    #[arg(long, default_value_t = 1 << 30, env = "STRATA_MAX_ARTIFACT_BYTES")]
    pub max_artifact_bytes: u64,
    /// Most entries an artifact may have.
    #[arg(long, default_value_t = 10_000, env = "STRATA_MAX_ARTIFACT_ENTRIES")]
    pub max_artifact_entries: usize,
    /// Largest ratio of an entry's unpacked to compressed size (entries under 1 MiB are not checked).
    #[arg(long, default_value_t = 100, env = "STRATA_MAX_ARTIFACT_RATIO")]
    pub max_artifact_ratio: u64,
    /// Longest wait for a rate limit to reset, in seconds; longer fails instead.
    #[arg(long, default_value_t = 300, env = "STRATA_MAX_RATE_LIMIT_WAIT")]
    pub max_rate_limit_wait: u64,
    /// Wait after a secondary rate limit that names no time, in seconds (GitHub asks for at least 60).
    #[arg(long, default_value_t = 60, env = "STRATA_SECONDARY_RATE_LIMIT_WAIT")]
    pub secondary_rate_limit_wait: u64,
}

#[derive(Debug, Args)]
pub struct BotArgs {
    /// The `issue_comment` event JSON.
    #[arg(long, env = "GITHUB_EVENT_PATH")]
    pub event: PathBuf,
    /// Author associations whose `/ask` is answered (comma-separated).
    #[arg(
        long,
        value_delimiter = ',',
        default_value = "OWNER,MEMBER,COLLABORATOR",
        env = "STRATA_TRUSTED_ASSOCIATIONS"
    )]
    pub trusted_associations: Vec<String>,
    /// Also answer authors with write access according to the collaborator-permission API (members whose
    /// organisation membership is private appear as CONTRIBUTOR or NONE).
    #[arg(long, env = "STRATA_CHECK_PERMISSION")]
    pub check_permission: bool,
    /// Links in answers point to this server.
    #[arg(long, default_value = "https://github.com", env = "GITHUB_SERVER_URL")]
    pub server_url: String,
    /// Chat model used when an OpenAI-compatible server is configured.
    #[arg(long, default_value = "gpt-4o-mini", env = "STRATA_CHAT_MODEL")]
    pub chat_model: String,
    /// Longest one request to the chat model may take, in seconds (connecting to the last byte); it is
    /// sent again only when it never reached the server or was rate-limited.
    #[arg(long, default_value_t = 60, value_name = "SECONDS", env = "STRATA_CHAT_TIMEOUT")]
    pub chat_timeout: u64,
    /// The account the bot's comments are posted as (a GitHub App token posts as `APP[bot]`). Only its
    /// comments are read back as earlier answers.
    #[arg(long, default_value = "github-actions[bot]", env = "STRATA_BOT_LOGIN")]
    pub bot_login: String,
    /// Most answers from the language model in one issue or pull request, counted from the bot's own
    /// earlier answers there; past it, answers come from the index alone, with a note. 0: no limit.
    #[arg(long, default_value_t = 10, env = "STRATA_MAX_MODEL_ANSWERS_PER_THREAD")]
    pub max_model_answers_per_thread: u32,
    /// Most answers from the language model for one asker in 24 hours, across the repository, counted
    /// from the bot's own answers; past it, the same fallback. 0: no limit.
    #[arg(long, default_value_t = 20, env = "STRATA_MAX_MODEL_ANSWERS_PER_USER")]
    pub max_model_answers_per_user: u32,
    /// An organisation's store (`s3://bucket/prefix`, written by `index --org`): questions about the
    /// organisation's repositories ("which repositories import X?", "what in other repositories depends
    /// on Y?") are answered from its joined graph, or from the repositories' code when not about
    /// imports; every other question from this repository's artifact.
    #[arg(long, value_name = "URL", env = "STRATA_ORG", value_parser = index_location)]
    pub org: Option<IndexLocation>,
    #[command(flatten)]
    pub github: GitHubArgs,
    #[command(flatten)]
    pub llm: LlmArgs,
}

#[derive(Debug, Args)]
pub struct FetchArgs {
    /// Directory to unpack the index into; must not exist. Left absent when there is no index yet.
    #[arg(long)]
    pub out: PathBuf,
    #[command(flatten)]
    pub github: GitHubArgs,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum DiffFormat {
    Markdown,
    Json,
}

#[derive(Debug, Args)]
pub struct DiffArgs {
    /// The older index directory (or `s3://bucket/prefix` URL).
    #[arg(value_parser = index_location)]
    pub old: IndexLocation,
    /// The newer index directory (or `s3://bucket/prefix` URL).
    #[arg(value_parser = index_location)]
    pub new: IndexLocation,
    #[arg(long, value_enum, default_value = "markdown", env = "STRATA_DIFF_FORMAT")]
    pub format: DiffFormat,
}

/// Which files make up the repository, as `index` takes them: `impact` and `check` must select the same
/// files as the base index did.
#[derive(Debug, Args)]
pub struct SelectionArgs {
    /// Glob of paths to leave out, repeatable (adds to strata.toml's `exclude`).
    #[arg(long = "exclude", value_name = "GLOB", env = "STRATA_EXCLUDE", value_delimiter = ',')]
    pub exclude: Vec<String>,
    /// Folder to compute module names from, repeatable (default: the root, plus `src/` when present).
    #[arg(long = "source-root", value_name = "DIR", env = "STRATA_SOURCE_ROOTS", value_delimiter = ',')]
    pub source_roots: Vec<String>,
    /// Skip Python files larger than this many bytes [default: 2000000].
    #[arg(long, value_name = "BYTES", env = "STRATA_MAX_FILE_BYTES")]
    pub max_file_bytes: Option<u64>,
}

impl SelectionArgs {
    pub fn options(&self) -> strata_core::config::IndexOptions {
        strata_core::config::IndexOptions {
            exclude: self.exclude.clone(),
            source_roots: self.source_roots.clone(),
            max_file_bytes: self.max_file_bytes,
        }
    }
}

#[derive(Debug, Args)]
pub struct ImpactArgs {
    /// Repository (or a folder inside one) holding the change, as for `index`.
    #[arg(default_value = ".", env = "STRATA_PATH")]
    pub path: PathBuf,
    /// The head revision (branch, tag or commit id); ignored outside git.
    #[arg(long, default_value = "HEAD", env = "STRATA_REV")]
    pub rev: String,
    /// The base index (the default branch's, from `strata fetch` or `strata index`): only files whose
    /// blob changed since are parsed. A directory or an `s3://bucket/prefix` URL.
    #[arg(long, value_name = "DIR", env = "STRATA_PREVIOUS", value_parser = index_location, required_unless_present = "org")]
    pub previous: Option<IndexLocation>,
    /// An organisation's store (`s3://bucket/prefix`, written by `index --org`): the base index is this
    /// repository's version in its catalog, and the modules of the other repositories that depend on
    /// the change are added, each with its chain.
    #[arg(long, value_name = "URL", env = "STRATA_ORG", value_parser = index_location, conflicts_with = "previous")]
    pub org: Option<IndexLocation>,
    /// The repository's name in the organisation (default as for `index --org`).
    #[arg(long, value_name = "NAME", env = "STRATA_REPOSITORY_NAME", requires = "org")]
    pub name: Option<String>,
    #[arg(long, value_enum, default_value = "markdown", env = "STRATA_IMPACT_FORMAT")]
    pub format: ImpactFormat,
    /// File name pattern of test modules, repeatable (replaces `strata.toml`'s `[impact] test-files`;
    /// default: pytest's `test_*.py`, `*_test.py`).
    #[arg(long = "test-files", value_name = "GLOB", env = "STRATA_TEST_FILES", value_delimiter = ',')]
    pub test_files: Vec<String>,
    /// Print only the test modules to run, one path a line (`pytest $(strata impact --tests …)`).
    #[arg(long)]
    pub tests: bool,
    /// Only modules that depend on the change at runtime (not through `TYPE_CHECKING` imports alone).
    #[arg(long)]
    pub runtime: bool,
    /// Show the chain of imports that links each affected module to the change.
    #[arg(long)]
    pub why: bool,
    #[command(flatten)]
    pub selection: SelectionArgs,
}

#[derive(Debug, Args)]
pub struct GraphArgs {
    /// Index directory written by `strata index` (or an `s3://bucket/prefix` URL).
    #[arg(long, default_value = "strata-index", env = "STRATA_INDEX", value_parser = index_location)]
    pub index: IndexLocation,
    /// `package` aggregates modules by folder, with import counts on the edges.
    #[arg(long, value_enum, default_value = "package")]
    pub level: GraphLevel,
    /// A module (path or dotted name) or package folder to centre on.
    #[arg(long, value_name = "MODULE")]
    pub focus: Option<String>,
    /// With --focus: how many imports away, in both directions.
    #[arg(long, default_value_t = 1)]
    pub depth: usize,
    /// Only the import cycles, each on its own.
    #[arg(long)]
    pub cycles: bool,
    /// Leave out imports under `if TYPE_CHECKING:`.
    #[arg(long)]
    pub runtime: bool,
    /// At the package level, fold folders deeper than this many levels into their ancestor.
    #[arg(long, value_name = "N")]
    pub package_depth: Option<usize>,
    #[arg(long, value_enum, default_value = "mermaid")]
    pub format: GraphFormat,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum GraphLevel {
    Package,
    Module,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum GraphFormat {
    Mermaid,
    Dot,
    Json,
    /// The interactive page (as `graph.html`), opening on the view the other options ask for.
    Html,
}

#[derive(Debug, Args)]
pub struct CheckArgs {
    /// Repository (or a folder inside one), as for `index`; its `strata.toml` holds the contracts.
    #[arg(default_value = ".", env = "STRATA_PATH")]
    pub path: PathBuf,
    /// The revision to check (branch, tag or commit id); ignored outside git.
    #[arg(long, default_value = "HEAD", env = "STRATA_REV")]
    pub rev: String,
    /// The base index: violations it already has are reported as existing and do not fail the check.
    /// A directory or an `s3://bucket/prefix` URL.
    #[arg(long, value_name = "DIR", env = "STRATA_PREVIOUS", value_parser = index_location)]
    pub previous: Option<IndexLocation>,
    #[arg(long, value_enum, default_value = "text", env = "STRATA_CHECK_FORMAT")]
    pub format: CheckFormat,
    #[command(flatten)]
    pub selection: SelectionArgs,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum CheckFormat {
    Text,
    Json,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ImpactFormat {
    Markdown,
    Json,
}

/// The OpenAI-compatible server, shared by `index --embedder openai` and `ask`.
#[derive(Debug, Args)]
pub struct LlmArgs {
    /// Base URL of an OpenAI-compatible API (OpenAI, Azure, Ollama, vLLM, llama.cpp).
    #[arg(long, env = "OPENAI_BASE_URL", hide_env_values = true)]
    pub openai_base_url: Option<String>,
    /// API key for that server (not needed by most local servers).
    #[arg(long, env = "OPENAI_API_KEY", hide_env_values = true)]
    pub openai_api_key: Option<Secret>,
    /// Embedding model for `--embedder openai`.
    #[arg(long, default_value = "text-embedding-3-small", env = "STRATA_EMBEDDING_MODEL")]
    pub embedding_model: String,
}

#[derive(Debug, Args)]
pub struct IndexArgs {
    /// Repository (or a folder inside one) to index; a folder outside git is read from disk.
    #[arg(default_value = ".", env = "STRATA_PATH")]
    pub path: PathBuf,
    /// Directory to write the index into (created if missing), or an `s3://bucket/prefix` URL to
    /// upload it to.
    #[arg(long, default_value = "strata-index", env = "STRATA_OUT", value_parser = index_location)]
    pub out: IndexLocation,
    /// Git revision to index (branch, tag or commit id); ignored outside git.
    #[arg(long, default_value = "HEAD", env = "STRATA_REV")]
    pub rev: String,
    #[command(flatten)]
    pub selection: SelectionArgs,
    /// Previous index directory to reuse: unchanged files are not re-parsed and unchanged chunks not
    /// re-embedded. A missing or incompatible one gives a warning and a full rebuild. A directory or an
    /// `s3://bucket/prefix` URL.
    #[arg(long, value_name = "DIR", env = "STRATA_PREVIOUS", value_parser = index_location)]
    pub previous: Option<IndexLocation>,
    /// Index into an organisation's store instead (`s3://bucket/prefix`): the previous index is the one
    /// its catalog names for this repository, the new one goes under `repos/NAME/`, and the catalog
    /// records it with its imports from and to the other repositories. Replaces --out and --previous.
    #[arg(long, value_name = "URL", env = "STRATA_ORG", value_parser = index_location, conflicts_with_all = ["out", "previous"])]
    pub org: Option<IndexLocation>,
    /// The repository's name in the organisation (letters, digits, `.`, `_`, `-`). Default: the
    /// repository's name in GitHub Actions, else the indexed folder's name.
    #[arg(long, value_name = "NAME", env = "STRATA_REPOSITORY_NAME", requires = "org")]
    pub name: Option<String>,
    /// The repository's web address, for `graph.html`'s links to each module's code at the indexed
    /// commit. In GitHub Actions it defaults to `$GITHUB_SERVER_URL/$GITHUB_REPOSITORY`.
    #[arg(long, value_name = "URL", env = "STRATA_REPOSITORY_URL")]
    pub repository_url: Option<String>,
    /// Embedder for the search index.
    #[arg(long, value_enum, default_value = "builtin", env = "STRATA_EMBEDDER")]
    pub embedder: EmbedderArg,
    #[command(flatten)]
    pub llm: LlmArgs,
    /// Print a machine-readable report on stdout instead of a human summary.
    #[arg(long, env = "STRATA_JSON")]
    pub json: bool,
}

/// `--embedder`: which embedder fills the vector column.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum EmbedderArg {
    /// Deterministic code-aware hashing, no model and no network (the default).
    Builtin,
    /// WordLlama l2_supercat, a small semantic model run in-process (16 MB, downloaded once from PyPI
    /// and cached; `STRATA_MODEL_DIR`).
    Wordllama,
    /// An OpenAI-compatible `/embeddings` endpoint (`OPENAI_BASE_URL`, `OPENAI_API_KEY`, `--embedding-model`).
    Openai,
}

impl From<EmbedderArg> for EmbedderChoice {
    fn from(arg: EmbedderArg) -> EmbedderChoice {
        match arg {
            EmbedderArg::Builtin => EmbedderChoice::Builtin,
            EmbedderArg::Wordllama => EmbedderChoice::Wordllama,
            EmbedderArg::Openai => EmbedderChoice::Openai,
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum AnswerFormat {
    Text,
    Markdown,
    Json,
}

#[derive(Debug, Args)]
pub struct AskArgs {
    /// Index directory written by `strata index`, or an `s3://bucket/prefix` URL (read in place).
    #[arg(long, default_value = "strata-index", env = "STRATA_INDEX", value_parser = index_location)]
    pub index: IndexLocation,
    /// Ask across an organisation's repositories instead (`s3://bucket/prefix` written by
    /// `strata index --org`): structural questions over their joined import graph.
    #[arg(long, value_name = "URL", env = "STRATA_ORG", value_parser = index_location, conflicts_with = "index")]
    pub org: Option<IndexLocation>,
    /// Output format: `markdown` is what the bot posts, `json` the contract other tools read.
    #[arg(long, value_enum, default_value = "text", env = "STRATA_FORMAT")]
    pub format: AnswerFormat,
    /// Chat model used when an OpenAI-compatible server is configured.
    #[arg(long, default_value = "gpt-4o-mini", env = "STRATA_CHAT_MODEL")]
    pub chat_model: String,
    /// Longest one request to the chat model may take, in seconds (connecting to the last byte); it is
    /// sent again only when it never reached the server or was rate-limited.
    #[arg(long, default_value_t = 60, value_name = "SECONDS", env = "STRATA_CHAT_TIMEOUT")]
    pub chat_timeout: u64,
    /// Never call a language model, even when one is configured.
    #[arg(long, env = "STRATA_OFFLINE")]
    pub offline: bool,
    #[command(flatten)]
    pub llm: LlmArgs,
    /// Answer every line of this file (one question a line; `-` reads standard input), in order:
    /// with `--format json`, one JSON answer a line.
    #[arg(long, value_name = "FILE", conflicts_with = "question")]
    pub questions: Option<PathBuf>,
    /// Print on stderr the requests and bytes each answer read from object storage.
    #[arg(long, env = "STRATA_VERBOSE")]
    pub verbose: bool,
    /// The question, in plain words (quote it).
    #[arg(required_unless_present = "questions", num_args = 1.., value_name = "QUESTION")]
    pub question: Vec<String>,
}
