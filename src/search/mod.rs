//! Search: chunks built from the bundle, embedded, stored in LanceDB with a full-text index, and
//! retrieved by hybrid search. Network access here is only the optional OpenAI-compatible embedder.

pub mod chunks;
pub mod embed;
pub mod retrieve;
pub mod store;
pub mod tokens;

use std::collections::{HashMap, HashSet};
use std::path::Path;

use anyhow::{Context, Result};

use chunks::Chunk;
use embed::Embedder;
use store::StoredChunk;

/// The git blob id of a chunk's text: a stable content hash without another hashing crate.
pub fn text_hash(text: &str) -> String {
    gix::objs::compute_hash(gix::hash::Kind::Sha1, gix::objs::Kind::Blob, text.as_bytes())
        .map(|id| id.to_string())
        .unwrap_or_default()
}

/// The previous table an incremental run starts from: its index directory and each row's text hash.
pub struct PreviousTable<'a> {
    pub index_dir: &'a Path,
    pub hashes: HashMap<&'a str, &'a str>,
}

/// What writing the search index did.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SearchIndexStats {
    pub n_chunks: usize,
    pub n_embedded: usize,
    pub n_reused: usize,
    pub n_removed: usize,
    /// Why the previous table could not be updated in place, when the table was rewritten instead.
    pub rewritten_because: Option<String>,
}

/// Writes the LanceDB table of `chunks` into `index_dir` (`text_hashes[i]` is the hash of `chunks[i]`'s
/// text). With a previous table (built by the same embedder), it is copied and updated in one batch:
/// rows whose id and text hash are unchanged stay, the others are deleted, and the new rows are added.
/// Vectors are reused for any text the previous table already embedded; only new texts are embedded.
/// When the update fails, the table is written from scratch instead (the reason is reported).
pub async fn write_search_index(
    index_dir: &Path,
    chunks: &[Chunk],
    text_hashes: &[String],
    previous: Option<PreviousTable<'_>>,
    embedder: &dyn Embedder,
) -> Result<SearchIndexStats> {
    let previous_store = match &previous {
        Some(previous) => Some(store::ChunkStore::open(previous.index_dir).await?),
        None => None,
    };
    let n_removed = previous.as_ref().map_or(0, |previous| {
        let current: HashSet<&str> = chunks.iter().map(|chunk| chunk.id.as_str()).collect();
        previous.hashes.keys().filter(|id| !current.contains(**id)).count()
    });
    let mut rewritten_because = None;
    if let Some(previous) = &previous {
        let unchanged: Vec<bool> = chunks
            .iter()
            .zip(text_hashes)
            .map(|(chunk, hash)| previous.hashes.get(chunk.id.as_str()) == Some(&hash.as_str()))
            .collect();
        let kept: HashSet<&str> =
            chunks.iter().zip(&unchanged).filter(|(_, same)| **same).map(|(chunk, _)| chunk.id.as_str()).collect();
        let mut stale: Vec<&str> = previous.hashes.keys().copied().filter(|id| !kept.contains(id)).collect();
        stale.sort_unstable();
        let new_rows: Vec<usize> = (0..chunks.len()).filter(|&i| !unchanged[i]).collect();
        let updated = async {
            let (vectors, n_embedded) =
                vectors_for(chunks, text_hashes, &new_rows, previous_store.as_ref(), embedder).await?;
            copy_table_dir(previous.index_dir, index_dir)?;
            let rows: Vec<StoredChunk<'_>> = new_rows
                .iter()
                .zip(vectors)
                .map(|(&i, vector)| StoredChunk { chunk: &chunks[i], text_hash: text_hashes[i].clone(), vector })
                .collect();
            store::update_chunk_table(index_dir, &stale, &rows, embedder.dimension()).await?;
            anyhow::Ok(n_embedded)
        };
        match updated.await {
            Ok(n_embedded) => {
                return Ok(SearchIndexStats {
                    n_chunks: chunks.len(),
                    n_embedded,
                    n_reused: chunks.len() - n_embedded,
                    n_removed,
                    rewritten_because: None,
                });
            }
            Err(error) => rewritten_because = Some(format!("{error:#}")),
        }
    }
    let all: Vec<usize> = (0..chunks.len()).collect();
    let (vectors, n_embedded) = vectors_for(chunks, text_hashes, &all, previous_store.as_ref(), embedder).await?;
    let rows: Vec<StoredChunk<'_>> = chunks
        .iter()
        .zip(text_hashes)
        .zip(vectors)
        .map(|((chunk, hash), vector)| StoredChunk { chunk, text_hash: hash.clone(), vector })
        .collect();
    store::write_chunk_table(index_dir, &rows, embedder.dimension()).await?;
    Ok(SearchIndexStats {
        n_chunks: chunks.len(),
        n_embedded,
        n_reused: chunks.len() - n_embedded,
        n_removed,
        rewritten_because,
    })
}

/// Vectors for `chunks[i]`, `i` in `wanted`: taken from the previous table when it holds the same text,
/// embedded otherwise. Returns them in `wanted` order, with the number embedded.
async fn vectors_for(
    chunks: &[Chunk],
    text_hashes: &[String],
    wanted: &[usize],
    previous: Option<&store::ChunkStore>,
    embedder: &dyn Embedder,
) -> Result<(Vec<Vec<f32>>, usize)> {
    let known = match previous {
        Some(store) => {
            let hashes: Vec<&str> = wanted.iter().map(|&i| text_hashes[i].as_str()).collect();
            store.vectors_by_text_hash(&hashes).await?
        }
        None => HashMap::new(),
    };
    let mut vectors: Vec<Option<Vec<f32>>> = wanted
        .iter()
        .map(|&i| known.get(&text_hashes[i]).filter(|vector| vector.len() == embedder.dimension()).cloned())
        .collect();
    let missing: Vec<usize> = (0..wanted.len()).filter(|&k| vectors[k].is_none()).collect();
    let texts: Vec<String> = missing.iter().map(|&k| chunks[wanted[k]].text.clone()).collect();
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
