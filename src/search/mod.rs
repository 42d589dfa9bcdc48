//! Search: chunks built from the bundle, embedded, stored in LanceDB with a full-text index, and
//! retrieved by hybrid search. Network access here is only the optional OpenAI-compatible embedder.

pub mod chunks;
pub mod embed;
pub mod retrieve;
pub mod store;
pub mod tokens;

use std::collections::HashMap;
use std::path::Path;

use anyhow::Result;

use chunks::Chunk;
use embed::Embedder;
use store::StoredChunk;

/// The git blob id of a chunk's text: a stable content hash without another hashing crate.
pub fn text_hash(text: &str) -> String {
    gix::objs::compute_hash(gix::hash::Kind::Sha1, gix::objs::Kind::Blob, text.as_bytes())
        .map(|id| id.to_string())
        .unwrap_or_default()
}

/// A vector that can be reused for a chunk whose text hash is unchanged.
pub type ReusableVectors = HashMap<String, (String, Vec<f32>)>;

/// What writing the search index did.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SearchIndexStats {
    pub n_chunks: usize,
    pub n_embedded: usize,
    pub n_reused: usize,
}

/// Embeds the chunks whose text changed (reusing the vector of every chunk whose id and text hash match
/// `reusable`) and writes the LanceDB table into `index_dir` in one batch. `text_hashes[i]` is the hash
/// of `chunks[i]`'s text.
pub async fn write_search_index(
    index_dir: &Path,
    chunks: &[Chunk],
    text_hashes: &[String],
    reusable: &ReusableVectors,
    embedder: &dyn Embedder,
) -> Result<SearchIndexStats> {
    let mut vectors: Vec<Option<Vec<f32>>> = chunks
        .iter()
        .zip(text_hashes)
        .map(|(chunk, hash)| match reusable.get(&chunk.id) {
            Some((old_hash, vector)) if old_hash == hash && vector.len() == embedder.dimension() => {
                Some(vector.clone())
            }
            _ => None,
        })
        .collect();
    let n_reused = vectors.iter().filter(|vector| vector.is_some()).count();
    let missing: Vec<usize> = (0..chunks.len()).filter(|&i| vectors[i].is_none()).collect();
    let texts: Vec<String> = missing.iter().map(|&i| chunks[i].text.clone()).collect();
    let embedded = embedder.embed(&texts).await?;
    anyhow::ensure!(
        embedded.len() == texts.len(),
        "the embedder returned {} vectors for {} chunks",
        embedded.len(),
        texts.len()
    );
    for (&i, vector) in missing.iter().zip(embedded) {
        vectors[i] = Some(vector);
    }
    let rows: Vec<StoredChunk<'_>> = chunks
        .iter()
        .zip(text_hashes)
        .zip(vectors)
        .map(|((chunk, hash), vector)| StoredChunk {
            chunk,
            text_hash: hash.clone(),
            vector: vector.unwrap_or_default(),
        })
        .collect();
    store::write_chunk_table(index_dir, &rows, embedder.dimension()).await?;
    Ok(SearchIndexStats { n_chunks: chunks.len(), n_embedded: missing.len(), n_reused })
}
