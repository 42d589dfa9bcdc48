//! `manifest.json`: what an index directory was built from and by what, so a later run can decide
//! whether to reuse it. The only file allowed to hold wall-clock figures (`timings_ms`).

use std::collections::BTreeMap;
use std::path::Path;

use anyhow::{Context, Result, bail};
use serde::{Deserialize, Serialize};

use super::answer_settings::AnswerSettings;

/// Bump on any change that makes an older reader misread the artifact. Schema 2 moved the chunk
/// hashes out of `manifest.json` into [`CHUNK_HASHES_FILE`]: every question reads the manifest, and on
/// object storage the hashes were most of its bytes (django: 2.7 of 3.1 MB).
pub const MANIFEST_SCHEMA_VERSION: u32 = 2;
/// The schemas this strata reads: schema 1 holds the chunk hashes inline.
const READABLE_SCHEMAS: [u32; 2] = [1, 2];
/// The text hash of every chunk, by chunk id, for the next incremental run (schema 2 on).
pub const CHUNK_HASHES_FILE: &str = "chunks.json";
/// The version of [`CHUNK_HASHES_FILE`].
const CHUNK_HASHES_VERSION: u32 = 1;

/// [`CHUNK_HASHES_FILE`]'s contents.
#[derive(Debug, Deserialize)]
struct ChunkHashes {
    schema_version: u32,
    chunks: BTreeMap<String, String>,
}

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
    /// Schema 1 only: the chunk hashes inline (schema 2 writes them to [`CHUNK_HASHES_FILE`], and this
    /// is empty). Read them with [`Manifest::chunk_hashes`].
    #[serde(default, rename = "chunks", skip_serializing)]
    pub inline_chunks: BTreeMap<String, String>,
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
        if !version.is_some_and(|v| READABLE_SCHEMAS.iter().any(|&readable| u64::from(readable) == v)) {
            bail!(
                "{location} has manifest schema {}, this strata reads schemas 1 to {MANIFEST_SCHEMA_VERSION}; re-run `strata index` with this version",
                version.map_or("unknown".to_string(), |v| v.to_string())
            );
        }
        serde_json::from_slice(bytes).with_context(|| format!("{path} is damaged; re-run `strata index`"))
    }

    /// The text hash (git blob id of the text) of every chunk, by chunk id, of the index in `dir`
    /// this manifest is of: from its [`CHUNK_HASHES_FILE`] (a schema 1 manifest holds them). Only an
    /// incremental run needs them, to keep the vectors of chunks whose text did not change.
    pub fn chunk_hashes(&self, dir: &Path) -> Result<BTreeMap<String, String>> {
        if self.schema_version < 2 {
            return Ok(self.inline_chunks.clone());
        }
        let path = dir.join(CHUNK_HASHES_FILE);
        let bytes = std::fs::read(&path).with_context(|| format!("cannot read {}", path.display()))?;
        let hashes: ChunkHashes =
            serde_json::from_slice(&bytes).with_context(|| format!("{} is damaged", path.display()))?;
        if hashes.schema_version != CHUNK_HASHES_VERSION {
            bail!("{} is version {}, not {CHUNK_HASHES_VERSION}", path.display(), hashes.schema_version);
        }
        Ok(hashes.chunks)
    }
}

/// The bytes of [`CHUNK_HASHES_FILE`] for `chunks` (chunk id → text hash).
pub fn chunk_hashes_json(chunks: &BTreeMap<String, String>) -> Result<Vec<u8>> {
    #[derive(Serialize)]
    struct Written<'a> {
        schema_version: u32,
        chunks: &'a BTreeMap<String, String>,
    }
    super::to_canonical_json(&Written { schema_version: CHUNK_HASHES_VERSION, chunks }, false)
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

#[cfg(test)]
mod tests {
    use super::*;

    fn manifest_json(schema_version: u32, chunks: Option<serde_json::Value>) -> Vec<u8> {
        let mut value = serde_json::json!({
            "schema_version": schema_version,
            "bundle_schema_version": "strata-bundle@3",
            "tool": {"name": "strata", "version": "0.1.0"},
            "commit": null,
            "source": "worktree",
            "files": {},
            "embedder": {"id": "builtin-hash-v2-512", "dimension": 512},
            "timings_ms": {}
        });
        if let Some(chunks) = chunks {
            value["chunks"] = chunks;
        }
        serde_json::to_vec(&value).unwrap()
    }

    #[test]
    fn schema_1_holds_the_chunk_hashes_and_schema_2_reads_them_from_their_file() {
        let dir = tempfile::tempdir().unwrap();
        let inline = serde_json::json!({"module:a.py": "01"});
        let old = Manifest::parse(&manifest_json(1, Some(inline)), "old", "old/manifest.json").unwrap();
        let hashes = old.chunk_hashes(dir.path()).unwrap();
        assert_eq!(hashes, BTreeMap::from([("module:a.py".to_string(), "01".to_string())]));

        // Written: the hashes beside the manifest, never in it.
        let written = serde_json::to_value(&old).unwrap();
        assert!(written.get("chunks").is_none());
        std::fs::write(dir.path().join(CHUNK_HASHES_FILE), chunk_hashes_json(&hashes).unwrap()).unwrap();
        let new = Manifest::parse(&manifest_json(2, None), "new", "new/manifest.json").unwrap();
        assert_eq!(new.chunk_hashes(dir.path()).unwrap(), hashes);

        // A missing or damaged hash file is an error: no vector is kept on its word.
        assert!(new.chunk_hashes(&dir.path().join("missing")).is_err());
        std::fs::write(dir.path().join(CHUNK_HASHES_FILE), b"{").unwrap();
        assert!(new.chunk_hashes(dir.path()).is_err());
        let error = Manifest::parse(&manifest_json(3, None), "future", "future/manifest.json").unwrap_err();
        assert!(error.to_string().contains("reads schemas 1 to 2"), "{error}");
    }
}
