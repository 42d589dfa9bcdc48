//! A static token-embedding model run in-process: the text is tokenized (a Hugging Face
//! `tokenizer.json`), each token's row of the embedding matrix (`embeddings.safetensors`, one F16 or F32
//! tensor of shape `[vocabulary, dimension]`) is averaged, and the mean is L2-normalised. This is how
//! WordLlama and model2vec models embed; no neural network runs, so it costs about as little as the
//! hashing embedder while knowing that different words can mean the same thing.

use std::path::Path;

use anyhow::{Context, Result, bail};
use safetensors::{Dtype, SafeTensors};
use tokenizers::Tokenizer;

use super::{EmbedFuture, Embedder};

/// The longest text embedded, in tokens (a code chunk is at most 100 lines).
const MAX_TOKENS: usize = 4096;

pub struct StaticEmbedder {
    id: String,
    tokenizer: Tokenizer,
    /// Row-major `[vocabulary, dimension]`.
    matrix: Vec<f32>,
    dimension: usize,
}

impl StaticEmbedder {
    /// Loads `tokenizer.json` and `embeddings.safetensors` from `dir`; `id` names the model in manifests.
    pub fn load(dir: &Path, id: &str) -> Result<StaticEmbedder> {
        let tokenizer_path = dir.join("tokenizer.json");
        let tokenizer = Tokenizer::from_file(&tokenizer_path)
            .map_err(|error| anyhow::anyhow!("cannot read the tokenizer {}: {error}", tokenizer_path.display()))?;
        let weights_path = dir.join("embeddings.safetensors");
        let bytes = std::fs::read(&weights_path).with_context(|| format!("cannot read {}", weights_path.display()))?;
        let tensors = SafeTensors::deserialize(&bytes)
            .map_err(|error| anyhow::anyhow!("{} is not a safetensors file: {error}", weights_path.display()))?;
        let names = tensors.names();
        let [name] = names.as_slice() else {
            bail!("{} must hold exactly one tensor, it holds {}", weights_path.display(), names.len());
        };
        let tensor = tensors.tensor(name)?;
        let &[vocabulary, dimension] = tensor.shape() else {
            bail!("the embedding tensor in {} is not two-dimensional", weights_path.display());
        };
        let data = tensor.data();
        let matrix: Vec<f32> = match tensor.dtype() {
            Dtype::F32 => data.chunks_exact(4).map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]])).collect(),
            Dtype::F16 => data.chunks_exact(2).map(|b| half::f16::from_le_bytes([b[0], b[1]]).to_f32()).collect(),
            other => bail!("the embedding tensor in {} is {other:?}; F16 or F32 expected", weights_path.display()),
        };
        if matrix.len() != vocabulary * dimension || dimension == 0 {
            bail!("the embedding tensor in {} does not match its shape", weights_path.display());
        }
        if tokenizer.get_vocab_size(true) > vocabulary {
            bail!("the tokenizer knows more tokens than the embedding matrix has rows ({vocabulary})");
        }
        Ok(StaticEmbedder { id: id.to_string(), tokenizer, matrix, dimension })
    }

    pub fn embed_one(&self, text: &str) -> Result<Vec<f32>> {
        let encoding =
            self.tokenizer.encode(text, false).map_err(|error| anyhow::anyhow!("the tokenizer failed: {error}"))?;
        let mut sum = vec![0.0f32; self.dimension];
        let ids = encoding.get_ids();
        let ids = &ids[..ids.len().min(MAX_TOKENS)];
        for &id in ids {
            let row = id as usize * self.dimension;
            if let Some(values) = self.matrix.get(row..row + self.dimension) {
                sum.iter_mut().zip(values).for_each(|(s, v)| *s += v);
            }
        }
        let norm = sum.iter().map(|v| v * v).sum::<f32>().sqrt();
        if norm > 0.0 {
            sum.iter_mut().for_each(|v| *v /= norm);
        }
        Ok(sum)
    }
}

impl Embedder for StaticEmbedder {
    fn id(&self) -> String {
        self.id.clone()
    }

    fn dimension(&self) -> usize {
        self.dimension
    }

    fn embed<'a>(&'a self, texts: &'a [&'a str]) -> EmbedFuture<'a> {
        Box::pin(async move {
            use rayon::prelude::*;
            texts.par_iter().map(|text| self.embed_one(text)).collect()
        })
    }
}
