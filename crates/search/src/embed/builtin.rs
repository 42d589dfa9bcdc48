//! The built-in embedder: code-aware terms and term bigrams hashed into a fixed number of signed
//! buckets, sublinear term frequency, L2-normalised. Needs no model and no network, costs microseconds
//! per chunk, and gives the same vector for the same text on every machine (FNV-1a, fixed seed).

use super::{EmbedFuture, Embedder};
use crate::tokens::content_terms;

pub const BUILTIN_DIMENSION: usize = 512;
const BIGRAM_WEIGHT: f32 = 0.5;

#[derive(Debug, Clone, Copy, Default)]
pub struct HashingEmbedder;

impl HashingEmbedder {
    pub fn embed_one(&self, text: &str) -> Vec<f32> {
        let terms = content_terms(text);
        let mut counts: std::collections::HashMap<u64, f32> = std::collections::HashMap::new();
        for term in &terms {
            *counts.entry(fnv1a(b"u", term)).or_default() += 1.0;
        }
        for pair in terms.windows(2) {
            let bigram = format!("{} {}", pair[0], pair[1]);
            *counts.entry(fnv1a(b"b", &bigram)).or_default() += BIGRAM_WEIGHT;
        }
        let mut vector = vec![0.0f32; BUILTIN_DIMENSION];
        // Iterate in a fixed order so float sums are identical run to run.
        let mut features: Vec<(u64, f32)> = counts.into_iter().collect();
        features.sort_unstable_by_key(|(hash, _)| *hash);
        for (hash, count) in features {
            let bucket = (hash % BUILTIN_DIMENSION as u64) as usize;
            let sign = if hash >> 63 == 0 { 1.0 } else { -1.0 };
            vector[bucket] += sign * (1.0 + count.ln());
        }
        let norm = vector.iter().map(|v| v * v).sum::<f32>().sqrt();
        if norm > 0.0 {
            vector.iter_mut().for_each(|v| *v /= norm);
        }
        vector
    }
}

impl Embedder for HashingEmbedder {
    fn id(&self) -> String {
        format!("builtin-hash-v1-{BUILTIN_DIMENSION}")
    }

    fn dimension(&self) -> usize {
        BUILTIN_DIMENSION
    }

    fn embed<'a>(&'a self, texts: &'a [String]) -> EmbedFuture<'a> {
        Box::pin(async move { Ok::<_, anyhow::Error>(texts.iter().map(|text| self.embed_one(text)).collect()) })
    }
}

fn fnv1a(namespace: &[u8], text: &str) -> u64 {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for byte in namespace.iter().chain(b":").chain(text.as_bytes()) {
        hash ^= u64::from(*byte);
        hash = hash.wrapping_mul(0x0100_0000_01b3);
    }
    hash
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cosine(a: &[f32], b: &[f32]) -> f32 {
        a.iter().zip(b).map(|(x, y)| x * y).sum()
    }

    #[test]
    fn deterministic_normalised_and_code_aware() {
        let embedder = HashingEmbedder;
        let a = embedder.embed_one("class RetryMiddleware handles retries of failed requests");
        assert_eq!(a, embedder.embed_one("class RetryMiddleware handles retries of failed requests"));
        assert!((a.iter().map(|v| v * v).sum::<f32>() - 1.0).abs() < 1e-5);
        let near = embedder.embed_one("retry_middleware: retrying a failed request");
        let far = embedder.embed_one("template rendering of HTML pages");
        assert!(cosine(&a, &near) > cosine(&a, &far) + 0.1, "{} vs {}", cosine(&a, &near), cosine(&a, &far));
    }

    #[test]
    fn empty_text_is_the_zero_vector() {
        assert!(HashingEmbedder.embed_one("the of and").iter().all(|v| *v == 0.0));
    }
}
