//! Search: chunks built from the bundle, embedded, stored in LanceDB with a full-text index; a lexical
//! index of every module's fields (`lexicon`); modules ranked for a question from both (`rank`,
//! `retrieve`), with the question's code names linked to modules (`entities`), and an organisation's
//! repositories ranked for it (`route`). Network access here is only the optional OpenAI-compatible
//! embedder.

pub mod chunks;
pub mod embed;
pub mod entities;
pub mod lexicon;
pub mod location;
pub mod rank;
pub mod retrieve;
pub mod route;
pub mod store;
pub mod vectors;

#[cfg(test)]
mod search_tests;

use std::collections::{BTreeMap, HashMap};
use std::path::Path;
use std::time::Instant;

use anyhow::{Context, Result};

use chunks::Chunk;
use embed::Embedder;
use store::{ChunkRow, StoredChunk};

/// The search side of an index, opened together: the chunk table and the lexical index.
pub struct SearchIndex {
    pub store: store::ChunkStore,
    pub lexicon: lexicon::Lexicon,
    /// `vectors.parquet`, the chunk vectors by dimension; `None` in an index written before it existed
    /// (the search then scans LanceDB's vector column).
    pub vectors: Option<vectors::VectorColumns>,
}

impl SearchIndex {
    /// Opens the chunk table and the lexicon of `index_dir`, written for `bundle`'s modules.
    pub async fn open(index_dir: &Path, bundle: &strata_core::bundle::Bundle) -> Result<SearchIndex> {
        let ids: Vec<&str> = bundle.nodes.keys().map(String::as_str).collect();
        let lexicon = lexicon::read_lexicon(index_dir, &ids)?;
        let store = store::ChunkStore::open(index_dir).await?;
        let vectors = vectors::VectorColumns::open(index_dir).await?;
        Ok(SearchIndex { store, lexicon, vectors })
    }

    /// Fetches the search side of an index on object storage, the three parts side by side: the
    /// lexicon whole (a question ranks every module with it), the chunk table opened at its URI (read
    /// as queries need it) and `vectors.parquet`'s footer. [`RemoteSearchParts::finish`] completes it.
    pub async fn fetch_remote(remote: &location::RemoteIndex) -> Result<RemoteSearchParts> {
        let uri = remote.location().uri_of(lexicon::LEXICON_FILE);
        let lexicon = async { remote.read(lexicon::LEXICON_FILE).await?.with_context(|| format!("{uri} is missing")) };
        let (lexicon, store, vectors) = futures::try_join!(
            lexicon,
            store::ChunkStore::open_remote(remote),
            vectors::VectorColumns::open_remote(remote)
        )?;
        Ok(RemoteSearchParts { lexicon, store, vectors })
    }
}

/// An index on object storage's search parts, fetched side by side and while the bundle is read (on a
/// real bucket every request is a round trip): the lexicon's bytes, the opened table and vectors.
pub struct RemoteSearchParts {
    lexicon: bytes::Bytes,
    store: store::ChunkStore,
    vectors: Option<vectors::VectorColumns>,
}

impl RemoteSearchParts {
    /// The search index, once the bundle its lexicon was written for is read.
    pub fn finish(self, bundle: &strata_core::bundle::Bundle) -> Result<SearchIndex> {
        let ids: Vec<&str> = bundle.nodes.keys().map(String::as_str).collect();
        let lexicon = lexicon::parse_lexicon(self.lexicon, &ids)?;
        Ok(SearchIndex { store: self.store, lexicon, vectors: self.vectors })
    }
}

/// The git blob id of a chunk's text: a stable content hash without another hashing crate.
pub fn text_hash(text: &str) -> String {
    gix::objs::compute_hash(gix::hash::Kind::Sha1, gix::objs::Kind::Blob, text.as_bytes())
        .map(|id| id.to_string())
        .unwrap_or_default()
}

/// The previous table an incremental run updates: its index directory and each row's text hash, by
/// chunk id (from its `chunks.json`, so the rows themselves are never read).
pub struct PreviousTable<'a> {
    pub index_dir: &'a Path,
    pub hashes: &'a BTreeMap<String, String>,
}

/// What writing the search index did.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SearchIndexStats {
    pub n_chunks: usize,
    pub n_embedded: usize,
    pub n_reused: usize,
    pub n_removed: usize,
    /// Text hash of every row of the table written, by chunk id (for the manifest).
    pub hashes: BTreeMap<String, String>,
    /// Milliseconds per step (`embed`, then `table` or the steps of the update), for the report.
    pub timings_ms: BTreeMap<&'static str, u64>,
}

/// Writes the LanceDB table of `chunks` into `index_dir` from scratch (`text_hashes[i]` is the hash of
/// `chunks[i]`'s text). Vectors are reused for any text the table in `vectors_from` (an earlier index
/// by the same embedder, when given and readable) already embedded; only new texts are embedded.
pub async fn write_search_index(
    index_dir: &Path,
    chunks: &[Chunk],
    text_hashes: &[String],
    vectors_from: Option<&Path>,
    embedder: &dyn Embedder,
) -> Result<SearchIndexStats> {
    let clock = Instant::now();
    // A damaged earlier table only costs the reuse of its vectors.
    let previous_store = match vectors_from {
        Some(dir) => store::ChunkStore::open(dir).await.ok(),
        None => None,
    };
    let all: Vec<usize> = (0..chunks.len()).collect();
    let known = known_vectors(text_hashes, &all, previous_store.as_ref()).await.unwrap_or_default();
    let mut timings_ms = BTreeMap::from([("reuse", elapsed_ms(clock))]);
    let clock = Instant::now();
    let rows: Vec<ChunkRow<'_>> =
        chunks.iter().zip(text_hashes).map(|(chunk, hash)| ChunkRow { chunk, text_hash: hash }).collect();
    let mut n_embedded = 0;
    let mut embed_ms = 0;
    // Computed while the table's full-text index is built.
    let vectors = async {
        let clock = Instant::now();
        let (vectors, embedded) = vectors_for(chunks, text_hashes, &all, &known, embedder).await?;
        (n_embedded, embed_ms) = (embedded, elapsed_ms(clock));
        Ok(vectors)
    };
    let steps = store::write_chunk_table(index_dir, &rows, embedder.dimension(), vectors).await?;
    timings_ms.insert("table", elapsed_ms(clock));
    timings_ms.insert("embed", embed_ms);
    timings_ms.extend(steps);
    timings_ms.insert("vectors", write_vectors_file(index_dir, embedder.dimension()).await?);
    Ok(SearchIndexStats {
        n_chunks: chunks.len(),
        n_embedded,
        n_reused: chunks.len() - n_embedded,
        n_removed: 0,
        hashes: chunks.iter().zip(text_hashes).map(|(chunk, hash)| (chunk.id.clone(), hash.clone())).collect(),
        timings_ms,
    })
}

/// Updates a copy of the previous table (same embedder) into `index_dir` in one batch, so the cost
/// follows the size of the change. The new table holds `fresh` chunks (`fresh_hashes[i]` is the hash
/// of `fresh[i]`'s text) plus the previous rows named in `kept`, which are left untouched: their text
/// is never read. Fresh rows whose id and text hash are unchanged stay too; every other previous row is
/// deleted and the changed fresh rows are added, with vectors reused for texts the table already has.
/// On error the caller rebuilds the table with [`write_search_index`].
pub async fn update_search_index(
    index_dir: &Path,
    fresh: &[Chunk],
    fresh_hashes: &[String],
    kept: &[&str],
    previous: &PreviousTable<'_>,
    embedder: &dyn Embedder,
) -> Result<SearchIndexStats> {
    let clock = Instant::now();
    let previous_store = store::ChunkStore::open(previous.index_dir).await?;
    previous_store.verify().await?;
    let mut hashes: BTreeMap<String, String> = BTreeMap::new();
    for id in kept {
        let hash = previous.hashes.get(*id).with_context(|| format!("the previous manifest has no chunk {id}"))?;
        hashes.insert(id.to_string(), hash.clone());
    }
    let mut new_rows = Vec::new();
    for (i, (chunk, hash)) in fresh.iter().zip(fresh_hashes).enumerate() {
        if previous.hashes.get(&chunk.id) != Some(hash) {
            new_rows.push(i);
        }
        anyhow::ensure!(
            hashes.insert(chunk.id.clone(), hash.clone()).is_none(),
            "chunk {} is both kept and new",
            chunk.id
        );
    }
    let stale: Vec<&str> =
        previous.hashes.iter().filter(|(id, hash)| hashes.get(*id) != Some(*hash)).map(|(id, _)| id.as_str()).collect();
    let n_removed = previous.hashes.keys().filter(|id| !hashes.contains_key(*id)).count();
    let known = known_vectors(fresh_hashes, &new_rows, Some(&previous_store)).await?;
    let (vectors, n_embedded) = vectors_for(fresh, fresh_hashes, &new_rows, &known, embedder).await?;
    let mut timings_ms = BTreeMap::from([("embed", elapsed_ms(clock))]);
    let clock = Instant::now();
    copy_table_dir(previous.index_dir, index_dir)?;
    let rows: Vec<StoredChunk<'_>> = new_rows
        .iter()
        .zip(vectors)
        .map(|(&i, vector)| StoredChunk { chunk: &fresh[i], text_hash: fresh_hashes[i].clone(), vector })
        .collect();
    timings_ms.insert("copy", elapsed_ms(clock));
    timings_ms.extend(store::update_chunk_table(index_dir, &stale, &rows, embedder.dimension()).await?);
    timings_ms.insert("vectors", write_vectors_file(index_dir, embedder.dimension()).await?);
    Ok(SearchIndexStats {
        n_chunks: hashes.len(),
        n_embedded,
        n_reused: hashes.len() - n_embedded,
        n_removed,
        hashes,
        timings_ms,
    })
}

/// Writes `vectors.parquet` from the finished chunk table (the same rows, whether written whole or
/// updated). Returns the milliseconds it took.
async fn write_vectors_file(index_dir: &Path, dimension: usize) -> Result<u64> {
    let clock = Instant::now();
    let store = store::ChunkStore::open(index_dir).await?;
    vectors::write_vectors(index_dir, store.all_vectors().await?, dimension, store.version())?;
    Ok(elapsed_ms(clock))
}

fn elapsed_ms(since: Instant) -> u64 {
    u64::try_from(since.elapsed().as_millis()).unwrap_or(u64::MAX)
}

/// The vectors `previous` holds for the texts of `chunks[i]`, `i` in `wanted`, by text hash.
async fn known_vectors(
    text_hashes: &[String],
    wanted: &[usize],
    previous: Option<&store::ChunkStore>,
) -> Result<HashMap<String, Vec<f32>>> {
    match previous {
        Some(store) => {
            let hashes: Vec<&str> = wanted.iter().map(|&i| text_hashes[i].as_str()).collect();
            store.vectors_by_text_hash(&hashes).await
        }
        None => Ok(HashMap::new()),
    }
}

/// Vectors for `chunks[i]`, `i` in `wanted`: taken from `known` when it holds the same text, embedded
/// otherwise. Returns them in `wanted` order, with the number embedded.
async fn vectors_for(
    chunks: &[Chunk],
    text_hashes: &[String],
    wanted: &[usize],
    known: &HashMap<String, Vec<f32>>,
    embedder: &dyn Embedder,
) -> Result<(Vec<Vec<f32>>, usize)> {
    let mut vectors: Vec<Option<Vec<f32>>> = wanted
        .iter()
        .map(|&i| known.get(&text_hashes[i]).filter(|vector| vector.len() == embedder.dimension()).cloned())
        .collect();
    let missing: Vec<usize> = (0..wanted.len()).filter(|&k| vectors[k].is_none()).collect();
    let texts: Vec<&str> = missing.iter().map(|&k| chunks[wanted[k]].text.as_str()).collect();
    let embedded = embedder.embed(&texts).await?;
    anyhow::ensure!(
        embedded.len() == texts.len(),
        "the embedder returned {} vectors for {} chunks",
        embedded.len(),
        texts.len()
    );
    for (&k, vector) in missing.iter().zip(embedded) {
        vectors[k] = Some(vector);
    }
    Ok((vectors.into_iter().map(Option::unwrap_or_default).collect(), missing.len()))
}

/// Copies the previous `lancedb/` folder into `index_dir` (nothing to do when it is the same folder).
/// Lance never rewrites a data or index file once written, so those are hard-linked when possible.
fn copy_table_dir(previous_dir: &Path, index_dir: &Path) -> Result<()> {
    let from = previous_dir.join(store::LANCEDB_DIR);
    let to = index_dir.join(store::LANCEDB_DIR);
    if from.canonicalize().ok() == to.canonicalize().ok() {
        return Ok(());
    }
    if to.exists() {
        std::fs::remove_dir_all(&to).with_context(|| format!("cannot replace {}", to.display()))?;
    }
    copy_tree(&from, &to, false)
}

fn copy_tree(from: &Path, to: &Path, immutable: bool) -> Result<()> {
    std::fs::create_dir_all(to).with_context(|| format!("cannot create {}", to.display()))?;
    for entry in std::fs::read_dir(from).with_context(|| format!("cannot read {}", from.display()))? {
        let entry = entry?;
        let (source, target) = (entry.path(), to.join(entry.file_name()));
        let file_type = entry.file_type()?;
        if file_type.is_dir() {
            let name = entry.file_name();
            copy_tree(&source, &target, immutable || name == "data" || name == "_indices")?;
        } else if file_type.is_file() {
            if !(immutable && std::fs::hard_link(&source, &target).is_ok()) {
                std::fs::copy(&source, &target).with_context(|| format!("cannot copy {}", source.display()))?;
            }
        } else {
            anyhow::bail!("unexpected entry {} in the previous table", source.display());
        }
    }
    Ok(())
}
