//! `manifest.json`: what an index directory was built from and by what, so a later run can decide
//! whether to reuse it. The only file allowed to hold wall-clock figures (`timings_ms`).

use std::collections::BTreeMap;
use std::path::Path;

use anyhow::{Context, Result, bail};
use serde::{Deserialize, Serialize};

use super::answer_settings::AnswerSettings;

/// Bump on any change that makes an older reader misread the artifact.
pub const MANIFEST_SCHEMA_VERSION: u32 = 1;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Manifest {
    pub schema_version: u32,
    pub bundle_schema_version: String,
    pub tool: ToolInfo,
    pub commit: Option<String>,
    /// `git` or `worktree`.
    pub source: String,
    /// Git blob id of every indexed file, by path.
    pub files: BTreeMap<String, String>,
    /// The embedder whose vectors are in `lancedb/`.
    pub embedder: EmbedderInfo,
    /// Text hash (git blob id of the text) of every chunk, by chunk id.
    pub chunks: BTreeMap<String, String>,
    /// Milliseconds per stage of the run that wrote this manifest.
    pub timings_ms: BTreeMap<String, u64>,
    /// How `ask` answers from this index. Missing in indexes written before it existed: `ask` then
    /// uses its built-in settings.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub answer: Option<AnswerSettings>,
    /// Where the files were selected from and with which settings, so that a pull request's head can
    /// be assembled from the changed files alone (the bot). Only for git sources; missing in indexes
    /// written before it existed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub selection: Option<SelectionRecord>,
}

/// The indexed folder and the file selection settings in force (the command line and `strata.toml`
/// resolved together).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SelectionRecord {
    /// The indexed folder inside the git repository, as `src/` (empty for its root).
    pub folder: String,
    /// The folders down to the indexed one, outermost first: they decide module names.
    pub enclosing: Vec<crate::source::EnclosingFolder>,
    pub exclude: Vec<String>,
    pub source_roots: Vec<String>,
    pub max_file_bytes: u64,
    /// File name patterns of test modules.
    pub test_files: Vec<String>,
    /// Files over `max_file_bytes`, path → blob id: modules whose bytes were not read, which the bot
    /// lays over the index with a pull request's files so its head has them too.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub skipped: BTreeMap<String, String>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct EmbedderInfo {
    pub id: String,
    pub dimension: usize,
}

impl Manifest {
    /// Reads and validates `dir/manifest.json`; an index from an incompatible strata is refused with a
    /// message that says what to do.
    pub fn read(dir: &Path) -> Result<Manifest> {
        let path = dir.join("manifest.json");
        let bytes = std::fs::read(&path).with_context(|| {
            format!("{} is not a strata index (no manifest.json); run `strata index` first", dir.display())
        })?;
        Manifest::parse(&bytes, &dir.display().to_string(), &path.display().to_string())
    }

    /// Validates the bytes of the manifest `path` of the index at `location` (directories or URLs, for
    /// the messages), as [`Manifest::read`] does.
    pub fn parse(bytes: &[u8], location: &str, path: &str) -> Result<Manifest> {
        // The version first, from a struct that skips everything else (no tree of the whole file).
        #[derive(Deserialize)]
        struct VersionOnly {
            schema_version: Option<serde_json::Value>,
        }
        let probe: VersionOnly = serde_json::from_slice(bytes)
            .with_context(|| format!("{path} is not valid JSON; re-run `strata index`"))?;
        let version = probe.schema_version.as_ref().and_then(serde_json::Value::as_u64);
        if version != Some(u64::from(MANIFEST_SCHEMA_VERSION)) {
            bail!(
                "{location} has manifest schema {}, this strata reads schema {MANIFEST_SCHEMA_VERSION}; re-run `strata index` with this version",
                version.map_or("unknown".to_string(), |v| v.to_string())
            );
        }
        serde_json::from_slice(bytes).with_context(|| format!("{path} is damaged; re-run `strata index`"))
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ToolInfo {
    pub name: String,
    pub version: String,
}

impl ToolInfo {
    pub fn current() -> ToolInfo {
        ToolInfo { name: "strata".to_string(), version: env!("CARGO_PKG_VERSION").to_string() }
    }
}
