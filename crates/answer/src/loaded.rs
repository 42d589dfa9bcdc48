//! An index opened for answering: manifest and bundle read and checked, the chunk table and the lexicon
//! opened, and the embedder that built the index recreated. `ask`, the bot and the eval all answer through this.

use std::path::Path;

use anyhow::Result;

use super::{Answerer, ChatSettings};
use strata_core::bundle::{Bundle, Manifest, read_bundle};
use strata_core::config::LlmServer;
use strata_search::SearchIndex;
use strata_search::embed::{Embedder, embedder_for_index};

pub struct LoadedIndex {
    pub manifest: Manifest,
    pub bundle: Bundle,
    /// The chunk table and the lexicon, or why they could not be opened: a missing or damaged
    /// `lancedb/` or `lexicon.parquet` still leaves the graph, so structural questions are answered and
    /// the others get a note saying what is wrong.
    pub search: Result<SearchIndex, String>,
    pub embedder: Box<dyn Embedder>,
}

impl LoadedIndex {
    /// Opens the index in `dir`; `server` is needed only when it was built with an OpenAI embedder.
    pub async fn open(dir: &Path, server: Option<&LlmServer>) -> Result<LoadedIndex> {
        let manifest = Manifest::read(dir)?;
        let bundle = read_bundle(dir)?;
        let search = SearchIndex::open(dir, &bundle).await.map_err(|error| {
            format!(
                "the search index in {} cannot be used ({})",
                dir.display(),
                // The outermost context only: LanceDB's own text shows its internal paths.
                strata_core::error_text::clean_error_text(&error.to_string())
            )
        });
        let embedder = embedder_for_index(&manifest.embedder, server).await?;
        Ok(LoadedIndex { manifest, bundle, search, embedder })
    }

    pub fn answerer<'a>(&'a self, chat: Option<&'a ChatSettings>) -> Answerer<'a> {
        Answerer {
            bundle: &self.bundle,
            manifest: &self.manifest,
            search: self.search.as_ref().map_err(String::as_str),
            embedder: self.embedder.as_ref(),
            chat,
        }
    }
}
