//! Search: chunks built from the bundle, embedded, stored in LanceDB with a full-text index, and
//! retrieved by hybrid search. Network access here is only the optional OpenAI-compatible embedder.

pub mod chunks;
pub mod embed;
pub mod retrieve;
pub mod store;
pub mod tokens;

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

/// What writing the search index did.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SearchIndexStats {
    pub n_chunks: usize,
    pub n_embedded: usize,
}

/// Embeds every chunk and writes the LanceDB table into `index_dir`. `text_hashes[i]` is the hash of
/// `chunks[i]`'s text.
pub async fn write_search_index(
    index_dir: &Path,
    chunks: &[Chunk],
    text_hashes: &[String],
    embedder: &dyn Embedder,
) -> Result<SearchIndexStats> {
    let texts: Vec<String> = chunks.iter().map(|chunk| chunk.text.clone()).collect();
    let vectors = embedder.embed(&texts).await?;
    anyhow::ensure!(
        vectors.len() == chunks.len(),
        "the embedder returned {} vectors for {} chunks",
        vectors.len(),
        chunks.len()
    );
    let rows: Vec<StoredChunk<'_>> = chunks
        .iter()
        .zip(text_hashes)
        .zip(vectors)
        .map(|((chunk, hash), vector)| StoredChunk { chunk, text_hash: hash.clone(), vector })
        .collect();
    store::write_chunk_table(index_dir, &rows, embedder.dimension()).await?;
    Ok(SearchIndexStats { n_chunks: chunks.len(), n_embedded: chunks.len() })
}
