//! An index opened for answering: manifest and bundle read and checked, the chunk table and the lexicon
//! opened, and the embedder that built the index recreated. `ask`, the bot and the eval all answer through this.
//! An index on object storage is opened without downloading it: the manifest and the bundle are
//! fetched, and the search side (the lexicon, the chunk table at its URI, `vectors.parquet`'s footer)
//! only when a question first needs it, so a question the graph answers reads nothing of it.

use std::path::Path;

use anyhow::{Context, Result};
use tokio::sync::OnceCell;

use super::{Answerer, ChatSettings};
use strata_core::bundle::{Bundle, Manifest, read_bundle};
use strata_core::config::LlmServer;
use strata_search::SearchIndex;
use strata_search::embed::{Embedder, embedder_for_index};
use strata_search::location::{IndexLocation, RemoteIndex};

pub struct LoadedIndex {
    pub manifest: Manifest,
    pub bundle: Bundle,
    /// The chunk table and the lexicon, or why they could not be opened: a missing or damaged
    /// `lancedb/` or `lexicon.parquet` still leaves the graph, so structural questions are answered and
    /// the others get a note saying what is wrong. Set when a local index is opened; an index on object
    /// storage sets it when a question first searches ([`SearchSource::get`]).
    search: OnceCell<Result<SearchIndex, String>>,
    pub embedder: Box<dyn Embedder>,
    /// The object store the index is read from, with its request counter; `None` for a local index.
    pub remote: Option<RemoteIndex>,
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
        Ok(LoadedIndex { manifest, bundle, search: OnceCell::new_with(Some(search)), embedder, remote: None })
    }

    /// Opens the index at `location`, local or on object storage.
    pub async fn open_at(location: &IndexLocation, server: Option<&LlmServer>) -> Result<LoadedIndex> {
        let object = match location {
            IndexLocation::Local(dir) => return LoadedIndex::open(dir, server).await,
            IndexLocation::Object(object) => object,
        };
        let remote = RemoteIndex::open(object)?;
        // Side by side: on a real bucket each read is a round trip. The manifest's verdict comes first.
        let (manifest_bytes, bundle) = futures::join!(remote.read("manifest.json"), remote.read_bundle());
        let manifest_bytes = manifest_bytes?.with_context(|| {
            format!("{object} is not a strata index (no manifest.json); run `strata index --out {object}` first")
        })?;
        let manifest = Manifest::parse(&manifest_bytes, &object.to_string(), &object.uri_of("manifest.json"))?;
        let bundle = bundle?;
        let embedder = embedder_for_index(&manifest.embedder, server).await?;
        Ok(LoadedIndex { manifest, bundle, search: OnceCell::new(), embedder, remote: Some(remote) })
    }

    /// An organisation's graph (every repository of its catalog joined, `strata ask --org`) opened for
    /// answering: structural questions across repositories are answered from it exactly; the others
    /// get a note, since no chunk table spans repositories.
    pub fn organisation(bundle: Bundle, location: &str) -> LoadedIndex {
        let embedder = strata_search::embed::HashingEmbedder;
        let manifest = Manifest {
            schema_version: strata_core::bundle::MANIFEST_SCHEMA_VERSION,
            bundle_schema_version: bundle.schema_version.clone(),
            tool: strata_core::bundle::ToolInfo::current(),
            commit: None,
            source: bundle.meta.source.clone(),
            files: Default::default(),
            embedder: strata_core::bundle::EmbedderInfo { id: embedder.id(), dimension: embedder.dimension() },
            inline_chunks: Default::default(),
            timings_ms: Default::default(),
            answer: None,
            selection: None,
        };
        let search = Err(format!(
            "{location} is an organisation: questions across its repositories are answered from the import graph only; for code search ask one repository's index"
        ));
        LoadedIndex {
            manifest,
            bundle,
            search: OnceCell::new_with(Some(search)),
            embedder: Box::new(embedder),
            remote: None,
        }
    }

    /// The chunk table and the lexicon, or why they cannot be used; opened on first use.
    pub async fn search(&self) -> Result<&SearchIndex, &str> {
        SearchSource { index: self }.get().await
    }

    pub fn answerer<'a>(&'a self, chat: Option<&'a ChatSettings>) -> Answerer<'a> {
        Answerer {
            bundle: &self.bundle,
            manifest: &self.manifest,
            search: SearchSource { index: self },
            embedder: self.embedder.as_ref(),
            chat,
        }
    }
}

/// The search side of a [`LoadedIndex`], opened on first use: an index on object storage fetches its
/// lexicon, chunk table and `vectors.parquet`'s footer (side by side) only for a question that
/// searches, and keeps them for the next.
#[derive(Clone, Copy)]
pub(crate) struct SearchSource<'a> {
    index: &'a LoadedIndex,
}

impl<'a> SearchSource<'a> {
    /// The chunk table and the lexicon, or why they cannot be used.
    pub(crate) async fn get(self) -> Result<&'a SearchIndex, &'a str> {
        let index = self.index;
        let search = index.search.get_or_init(|| fetch_search(index.remote.as_ref(), &index.bundle)).await;
        search.as_ref().map_err(String::as_str)
    }
}

async fn fetch_search(remote: Option<&RemoteIndex>, bundle: &Bundle) -> Result<SearchIndex, String> {
    // A local index's search side is set when it is opened.
    let Some(remote) = remote else { return Err("the search index was not opened".to_string()) };
    let search = SearchIndex::fetch_remote(remote).await.and_then(|parts| parts.finish(bundle));
    search.map_err(|error| {
        format!(
            "the search index in {} cannot be used ({})",
            remote.location(),
            strata_core::error_text::clean_error_text(&error.to_string())
        )
    })
}
