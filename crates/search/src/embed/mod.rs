//! Embedders behind one trait: the built-in hashing embedder (no model, no network, deterministic), a
//! small semantic model run in-process (WordLlama, fetched once and cached), and any OpenAI-compatible
//! endpoint. The id and dimension of the embedder that built an index are stored in
//! its manifest; a question is only ever embedded by the same embedder.

mod builtin;
mod openai;
mod static_model;
pub mod wordllama;

use std::future::Future;
use std::pin::Pin;

use anyhow::Result;

pub use builtin::HashingEmbedder;
pub use openai::{OpenAiEmbedder, OpenAiSettings};
pub use static_model::StaticEmbedder;

/// A future that yields one vector per input text, in order.
pub type EmbedFuture<'a> = Pin<Box<dyn Future<Output = Result<Vec<Vec<f32>>>> + Send + 'a>>;

pub trait Embedder: Send + Sync {
    /// Stable identity: an index built by one embedder is never queried with another.
    fn id(&self) -> String;
    fn dimension(&self) -> usize;
    fn embed<'a>(&'a self, texts: &'a [&'a str]) -> EmbedFuture<'a>;
}

use strata_core::bundle::EmbedderInfo;
use strata_core::config::{EmbedderChoice, LlmServer};

/// The embedder a new index is built with.
pub async fn embedder_for_choice(
    choice: EmbedderChoice,
    server: Option<&LlmServer>,
    model: &str,
) -> Result<Box<dyn Embedder>> {
    match choice {
        EmbedderChoice::Builtin => Ok(Box::new(HashingEmbedder)),
        EmbedderChoice::Wordllama => Ok(Box::new(wordllama::load_wordllama().await?)),
        EmbedderChoice::Openai => {
            let Some(server) = server else {
                anyhow::bail!(
                    "--embedder openai needs a server: set OPENAI_BASE_URL (and OPENAI_API_KEY if it needs one)"
                );
            };
            let settings = OpenAiSettings {
                base_url: server.base_url.clone(),
                api_key: server.api_key.clone(),
                model: model.to_string(),
            };
            Ok(Box::new(OpenAiEmbedder::connect(&settings).await?))
        }
    }
}

/// The embedder that built an existing index, so questions are embedded the same way.
pub async fn embedder_for_index(info: &EmbedderInfo, server: Option<&LlmServer>) -> Result<Box<dyn Embedder>> {
    let embedder: Box<dyn Embedder> = if info.id == HashingEmbedder.id() {
        Box::new(HashingEmbedder)
    } else if info.id == wordllama::WORDLLAMA_ID {
        Box::new(wordllama::load_wordllama().await?)
    } else if let Some(model) = info.id.strip_prefix("openai:") {
        let Some(server) = server else {
            anyhow::bail!(
                "this index was built with {} embeddings; set OPENAI_BASE_URL / OPENAI_API_KEY to query it",
                info.id
            );
        };
        let settings = OpenAiSettings {
            base_url: server.base_url.clone(),
            api_key: server.api_key.clone(),
            model: model.to_string(),
        };
        Box::new(OpenAiEmbedder::connect(&settings).await?)
    } else {
        anyhow::bail!(
            "this index was built with an embedder this strata does not know ({}); re-run `strata index`",
            info.id
        );
    };
    if embedder.dimension() != info.dimension {
        anyhow::bail!(
            "the index has {}-dimensional vectors but {} now returns {}; re-run `strata index`",
            info.dimension,
            info.id,
            embedder.dimension()
        );
    }
    Ok(embedder)
}
