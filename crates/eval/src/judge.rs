//! LLM-judged metrics, following RAGAS's definitions, for when an OpenAI-compatible endpoint is
//! configured: faithfulness (the answer split into statements, each judged 0/1 against the retrieved
//! context), answer relevancy (three questions written back from the answer, mean cosine to the real
//! question, 0 when all call the answer noncommittal) and answer correctness (0.75 · F1 of TP/FP/FN
//! statements against the reference + 0.25 · cosine of answer and reference). Every exchange is
//! cached by a hash of its request, so a judged run replays offline and byte for byte.

use std::path::PathBuf;

use anyhow::{Context, Result, bail};
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

use strata_answer::ChatSettings;
use strata_answer::generate::chat;
use strata_search::embed::Embedder;
use strata_search::text_hash;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Judged {
    pub faithfulness: Option<f64>,
    pub answer_relevancy: Option<f64>,
    pub answer_correctness: Option<f64>,
}

/// The judge: a chat model (absent when replaying from the cache only) and its cache.
pub struct Judge<'a> {
    pub chat: Option<ChatSettings>,
    pub model: String,
    pub cache_dir: PathBuf,
    pub embedder: &'a dyn Embedder,
}

const INSTRUCTIONS: &str =
    "You are a strict evaluator. Answer with one JSON object exactly as the schema and examples show, nothing else.";

impl Judge<'_> {
    pub async fn judge(&self, question: &str, answer: &str, context: &[String], reference: &str) -> Result<Judged> {
        let statements = self.statements(question, answer).await?;
        let faithfulness = if statements.is_empty() {
            None
        } else {
            let verdicts = self.verdicts(&statements, context).await?;
            Some(verdicts.iter().filter(|&&v| v).count() as f64 / statements.len() as f64)
        };
        let answer_relevancy = Some(self.relevancy(question, answer).await?);
        let answer_correctness = if reference.trim().is_empty() {
            None
        } else {
            Some(self.correctness(question, answer, reference, &statements).await?)
        };
        Ok(Judged { faithfulness, answer_relevancy, answer_correctness })
    }

    async fn statements(&self, question: &str, answer: &str) -> Result<Vec<String>> {
        #[derive(Deserialize)]
        struct Out {
            statements: Vec<String>,
        }
        let prompt = format!(
            "Break the answer into standalone statements, each understandable without pronouns.\nSchema: {{\"statements\": [string]}}\nExample: question \"Where is Cart defined?\", answer \"It is defined in shop/cart.py and imports pricing.\" -> {{\"statements\": [\"Cart is defined in shop/cart.py.\", \"shop/cart.py imports pricing.\"]}}\nQuestion: {question}\nAnswer: {answer}"
        );
        Ok(self.ask::<Out>(&prompt).await?.statements)
    }

    async fn verdicts(&self, statements: &[String], context: &[String]) -> Result<Vec<bool>> {
        #[derive(Deserialize)]
        struct Verdict {
            verdict: u8,
        }
        #[derive(Deserialize)]
        struct Out {
            verdicts: Vec<Verdict>,
        }
        let prompt = format!(
            "For each statement, verdict 1 if it can be directly inferred from the context, else 0.\nSchema: {{\"verdicts\": [{{\"statement\": string, \"reason\": string, \"verdict\": 0|1}}]}}\nContext:\n{}\nStatements:\n{}",
            context.join("\n---\n"),
            statements.iter().map(|s| format!("- {s}")).collect::<Vec<_>>().join("\n")
        );
        let out = self.ask::<Out>(&prompt).await?;
        if out.verdicts.len() != statements.len() {
            bail!("the judge gave {} verdicts for {} statements", out.verdicts.len(), statements.len());
        }
        Ok(out.verdicts.iter().map(|v| v.verdict == 1).collect())
    }

    async fn relevancy(&self, question: &str, answer: &str) -> Result<f64> {
        #[derive(Deserialize)]
        struct Out {
            question: String,
            noncommittal: u8,
        }
        let mut generated = Vec::new();
        let mut all_noncommittal = true;
        for attempt in 1..=3 {
            let prompt = format!(
                "Write the question this answer answers (variant {attempt} of 3), and say whether the answer is noncommittal (\"I don't know\", evasive): 1 or 0.\nSchema: {{\"question\": string, \"noncommittal\": 0|1}}\nAnswer: {answer}"
            );
            let out = self.ask::<Out>(&prompt).await?;
            all_noncommittal &= out.noncommittal == 1;
            generated.push(out.question);
        }
        if all_noncommittal {
            return Ok(0.0);
        }
        let mut texts = vec![question];
        texts.extend(generated.iter().map(String::as_str));
        let vectors = self.embedder.embed(&texts).await?;
        let similarities: Vec<f64> = vectors[1..].iter().map(|v| cosine(&vectors[0], v)).collect();
        Ok(similarities.iter().sum::<f64>() / similarities.len() as f64)
    }

    async fn correctness(&self, question: &str, answer: &str, reference: &str, statements: &[String]) -> Result<f64> {
        #[derive(Deserialize)]
        #[allow(non_snake_case)]
        struct Out {
            TP: Vec<serde_json::Value>,
            FP: Vec<serde_json::Value>,
            FN: Vec<serde_json::Value>,
        }
        let prompt = format!(
            "Classify the answer's statements against the reference: TP (supported by the reference), FP (not in the reference), FN (reference statements missing from the answer).\nSchema: {{\"TP\": [string], \"FP\": [string], \"FN\": [string]}}\nQuestion: {question}\nAnswer statements:\n{}\nReference: {reference}",
            statements.iter().map(|s| format!("- {s}")).collect::<Vec<_>>().join("\n")
        );
        let out = self.ask::<Out>(&prompt).await?;
        let (tp, fp, false_negatives) = (out.TP.len() as f64, out.FP.len() as f64, out.FN.len() as f64);
        let f1 = if tp + fp + false_negatives == 0.0 { 1.0 } else { tp / (tp + 0.5 * (fp + false_negatives)) };
        let vectors = self.embedder.embed(&[answer, reference]).await?;
        Ok(0.75 * f1 + 0.25 * cosine(&vectors[0], &vectors[1]))
    }

    /// One exchange, from the cache when this exact request was made before.
    async fn ask<T: DeserializeOwned>(&self, prompt: &str) -> Result<T> {
        let key = text_hash(&format!("{}\n{INSTRUCTIONS}\n{prompt}", self.model));
        let path = self.cache_dir.join(format!("{key}.json"));
        let reply = match std::fs::read_to_string(&path) {
            Ok(cached) => {
                serde_json::from_str::<Exchange>(&cached)
                    .with_context(|| format!("corrupt judge cache entry {}", path.display()))?
                    .reply
            }
            Err(_) => {
                let Some(settings) = &self.chat else {
                    bail!("judge exchange {key} is not in the cache and no endpoint is configured");
                };
                let reply = chat(settings, INSTRUCTIONS, prompt.to_string()).await?;
                std::fs::create_dir_all(&self.cache_dir)?;
                let exchange = Exchange { model: self.model.clone(), prompt: prompt.to_string(), reply: reply.clone() };
                strata_core::bundle::write_atomically(
                    &self.cache_dir,
                    &format!("{key}.json"),
                    &serde_json::to_vec_pretty(&exchange)?,
                )?;
                reply
            }
        };
        let json = reply.trim().trim_start_matches("```json").trim_start_matches("```").trim_end_matches("```");
        serde_json::from_str(json).with_context(|| format!("the judge's reply is not the expected JSON: {reply}"))
    }
}

#[derive(Serialize, Deserialize)]
struct Exchange {
    model: String,
    prompt: String,
    reply: String,
}

pub fn cosine(a: &[f32], b: &[f32]) -> f64 {
    let dot: f64 = a.iter().zip(b).map(|(x, y)| f64::from(*x) * f64::from(*y)).sum();
    let norm = |v: &[f32]| v.iter().map(|x| f64::from(*x).powi(2)).sum::<f64>().sqrt();
    let denominator = norm(a) * norm(b);
    if denominator == 0.0 { 0.0 } else { dot / denominator }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cosine_of_vectors() {
        assert!((cosine(&[1.0, 0.0], &[1.0, 0.0]) - 1.0).abs() < 1e-12);
        assert!(cosine(&[1.0, 0.0], &[0.0, 1.0]).abs() < 1e-12);
        assert_eq!(cosine(&[0.0, 0.0], &[1.0, 0.0]), 0.0);
    }
}
