//! An index opened for answering: manifest and bundle read and checked, the chunk table opened, and the
//! embedder that built the index recreated. `ask`, the bot and the eval all answer through this.

use std::path::Path;

use anyhow::Result;

use super::{Answerer, ChatSettings};
use crate::bundle::{Bundle, Manifest, read_bundle};
use crate::config::LlmServer;
use crate::search::embed::{Embedder, embedder_for_index};
use crate::search::store::ChunkStore;

pub struct LoadedIndex {
    pub manifest: Manifest,
    pub bundle: Bundle,
    pub store: ChunkStore,
    pub embedder: Box<dyn Embedder>,
}

impl LoadedIndex {
    /// Opens the index in `dir`; `server` is needed only when it was built with an OpenAI embedder.
    pub async fn open(dir: &Path, server: Option<&LlmServer>) -> Result<LoadedIndex> {
        let manifest = Manifest::read(dir)?;
        let bundle = read_bundle(dir)?;
        let store = ChunkStore::open(dir).await?;
        let embedder = embedder_for_index(&manifest.embedder, server).await?;
        Ok(LoadedIndex { manifest, bundle, store, embedder })
    }

    pub fn answerer<'a>(&'a self, chat: Option<&'a ChatSettings>) -> Answerer<'a> {
        Answerer {
            bundle: &self.bundle,
            manifest: &self.manifest,
            store: &self.store,
            embedder: self.embedder.as_ref(),
            chat,
        }
    }
}
