//! Embeddings from any OpenAI-compatible server (OpenAI, Azure, Ollama, vLLM, llama.cpp) through
//! async-openai: batched, with retries and exponential backoff on rate limits, server errors and
//! connection failures (never on other client errors, which retrying cannot fix).

use std::time::Duration;

use anyhow::{Context, Result, bail};
use async_openai::Client;
use async_openai::config::OpenAIConfig;
use async_openai::error::OpenAIError;
use async_openai::types::embeddings::{CreateEmbeddingRequestArgs, EmbeddingInput};

use super::{EmbedFuture, Embedder};
use strata_core::secret::Secret;

const BATCH_SIZE: usize = 64;
const MAX_ATTEMPTS: u32 = 4;
const FIRST_BACKOFF: Duration = Duration::from_millis(500);

/// Where and what to call.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OpenAiSettings {
    /// e.g. `https://api.openai.com/v1` or `http://localhost:11434/v1`.
    pub base_url: String,
    pub api_key: Secret,
    pub model: String,
}

pub struct OpenAiEmbedder {
    client: Client<OpenAIConfig>,
    model: String,
    dimension: usize,
}

impl OpenAiEmbedder {
    /// Connects and learns the model's dimension by embedding one probe text.
    pub async fn connect(settings: &OpenAiSettings) -> Result<OpenAiEmbedder> {
        let config = OpenAIConfig::new().with_api_base(&settings.base_url).with_api_key(settings.api_key.expose());
        let mut embedder =
            OpenAiEmbedder { client: Client::with_config(config), model: settings.model.clone(), dimension: 0 };
        let probe = embedder.embed_batch(&["dimension probe"]).await?;
        embedder.dimension = probe.first().map_or(0, Vec::len);
        if embedder.dimension == 0 {
            bail!("the embedding server returned an empty vector for model {}", settings.model);
        }
        Ok(embedder)
    }

    async fn embed_batch(&self, texts: &[&str]) -> Result<Vec<Vec<f32>>> {
        let request = CreateEmbeddingRequestArgs::default()
            .model(self.model.clone())
            .input(EmbeddingInput::StringArray(texts.iter().map(|text| text.to_string()).collect()))
            .build()?;
        let mut backoff = FIRST_BACKOFF;
        let mut attempt = 1;
        let response = loop {
            match self.client.embeddings().create(request.clone()).await {
                Ok(response) => break response,
                Err(error) if attempt < MAX_ATTEMPTS && is_retryable(&error) => {
                    tokio::time::sleep(backoff).await;
                    backoff *= 2;
                    attempt += 1;
                }
                Err(error) => {
                    return Err(error).with_context(|| {
                        format!("embedding request to model {} failed after {attempt} attempt(s)", self.model)
                    });
                }
            }
        };
        let mut data = response.data;
        if data.len() != texts.len() {
            bail!("the embedding server returned {} vectors for {} texts", data.len(), texts.len());
        }
        data.sort_by_key(|embedding| embedding.index);
        Ok(data.into_iter().map(|embedding| embedding.embedding).collect())
    }
}

fn is_retryable(error: &OpenAIError) -> bool {
    match error {
        OpenAIError::ApiError(response) => {
            let status = response.status_code.as_u16();
            status == 429 || status >= 500
        }
        OpenAIError::Reqwest(error) => {
            error.is_connect() || error.is_timeout() || error.status().is_some_and(|s| s.is_server_error())
        }
        _ => false,
    }
}

impl Embedder for OpenAiEmbedder {
    fn id(&self) -> String {
        format!("openai:{}", self.model)
    }

    fn dimension(&self) -> usize {
        self.dimension
    }

    fn embed<'a>(&'a self, texts: &'a [&'a str]) -> EmbedFuture<'a> {
        Box::pin(async move {
            let mut vectors = Vec::with_capacity(texts.len());
            for batch in texts.chunks(BATCH_SIZE) {
                let batch_vectors = self.embed_batch(batch).await?;
                if batch_vectors.iter().any(|vector| vector.len() != self.dimension) {
                    bail!("the embedding server changed dimension mid-run (expected {})", self.dimension);
                }
                vectors.extend(batch_vectors);
            }
            Ok(vectors)
        })
    }
}
