//! The built-in embedder: code-aware terms and term bigrams hashed into a fixed number of signed
//! buckets, sublinear term frequency, L2-normalised. Needs no model and no network, costs microseconds
//! per chunk, and gives the same vector for the same text on every machine (FNV-1a, fixed seed).

use super::{EmbedFuture, Embedder};
use strata_core::text::content_terms;

pub const BUILTIN_DIMENSION: usize = 512;
const BIGRAM_WEIGHT: f32 = 0.5;

#[derive(Debug, Clone, Copy, Default)]
pub struct HashingEmbedder;

impl HashingEmbedder {
    pub fn embed_one(&self, text: &str) -> Vec<f32> {
        let terms = content_terms(text);
        // (feature hash, weight) for every term and bigram, summed per hash below. Weights are 1 and
        // 0.5, so the sums are exact whatever the order.
        let mut features: Vec<(u64, f32)> = Vec::with_capacity(terms.len() * 2);
        features.extend(terms.iter().map(|term| (fnv1a(b"u", &[term.as_bytes()]), 1.0)));
        features.extend(
            terms.windows(2).map(|pair| (fnv1a(b"b", &[pair[0].as_bytes(), b" ", pair[1].as_bytes()]), BIGRAM_WEIGHT)),
        );
        features.sort_unstable_by_key(|(hash, _)| *hash);
        let mut vector = vec![0.0f32; BUILTIN_DIMENSION];
        // In hash order so float sums are identical run to run.
        for run in features.chunk_by(|a, b| a.0 == b.0) {
            let (hash, count) = (run[0].0, run.iter().map(|(_, weight)| weight).sum::<f32>());
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
        format!("builtin-hash-v2-{BUILTIN_DIMENSION}")
    }

    fn dimension(&self) -> usize {
        BUILTIN_DIMENSION
    }

    fn embed<'a>(&'a self, texts: &'a [&'a str]) -> EmbedFuture<'a> {
        Box::pin(async move {
            use rayon::prelude::*;
            Ok::<_, anyhow::Error>(texts.par_iter().map(|text| self.embed_one(text)).collect())
        })
    }
}

/// FNV-1a of `namespace:` followed by `parts`, as if they were one string.
fn fnv1a(namespace: &[u8], parts: &[&[u8]]) -> u64 {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for byte in namespace.iter().chain(b":").chain(parts.iter().flat_map(|part| part.iter())) {
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

    /// The definition the stored vectors of `builtin-hash-v2-512` were made with: term and bigram
    /// strings counted in a map. Indexes written before must keep matching the questions embedded now.
    fn reference_vector(text: &str) -> Vec<f32> {
        let terms = content_terms(text);
        let mut counts: std::collections::HashMap<u64, f32> = std::collections::HashMap::new();
        for term in &terms {
            *counts.entry(fnv1a(b"u", &[term.as_bytes()])).or_default() += 1.0;
        }
        for pair in terms.windows(2) {
            let bigram = format!("{} {}", pair[0], pair[1]);
            *counts.entry(fnv1a(b"b", &[bigram.as_bytes()])).or_default() += BIGRAM_WEIGHT;
        }
        let mut vector = vec![0.0f32; BUILTIN_DIMENSION];
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

    #[test]
    fn vectors_are_those_of_the_stored_definition() {
        let texts = [
            "def get_response(self, request):\n    return self._middleware_chain(request)",
            "retry retry retry retry: retries of retried requests, retry again",
            "class ÜberParser(BaseParser): résumé naïve 日本語 parseHTML2JSON",
            "",
            "a b a b a b a b",
        ];
        let embedded = futures::executor::block_on(HashingEmbedder.embed(&texts)).unwrap();
        for (text, vector) in texts.iter().zip(&embedded) {
            assert_eq!(vector, &reference_vector(text), "{text:?}");
        }
    }

    #[test]
    fn empty_text_is_the_zero_vector() {
        assert!(HashingEmbedder.embed_one("the of and").iter().all(|v| *v == 0.0));
    }
}
