//! How `ask` ranks and declines with an index: the fitted settings, recorded in `manifest.json`
//! (`answer`) when the index is written, so every answer can be traced to the settings that produced
//! it. The values come from `strata eval fit` (leave one repository out over the development sets;
//! see `docs/retrieval.md`), pasted into [`fitted`] in one commit with the figures they gave.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

/// The word fields ranking weighs, in this order (the lexicon's fields but whole identifiers).
pub const RANKED_FIELDS: [&str; 5] = ["path", "names", "signatures", "prose", "code"];

/// How `ask` answers from an index, recorded when the index is written. Indexes written before a
/// part existed, or by a strata whose settings had other fields, lack it here, and `ask` uses
/// [`fitted`] for that part: settings are never half read.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct AnswerSettings {
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "whole_or_none")]
    pub ranking: Option<RankingSettings>,
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "whole_or_none")]
    pub decline: Option<DeclineSettings>,
}

/// A part of the settings as recorded, or `None` when it is not this strata's shape.
fn whole_or_none<'de, D, T>(deserializer: D) -> Result<Option<T>, D::Error>
where
    D: serde::Deserializer<'de>,
    T: serde::de::DeserializeOwned,
{
    let value = serde_json::Value::deserialize(deserializer)?;
    Ok(serde_json::from_value(value).ok())
}

/// How modules are ranked for a question (see `search::rank`): BM25F over the word fields, plus the
/// code names the question writes, the best chunk of the hybrid search, and priors.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RankingSettings {
    /// Weight of a term occurrence in each field of [`RANKED_FIELDS`].
    pub field_weights: [f32; 5],
    /// Length normalisation of each field (0: none, 1: full), so a long file does not win by length.
    pub field_b: [f32; 5],
    /// Term-frequency saturation.
    pub k1: f32,
    /// How much a word about code in general ("mechanism", "architecture") weighs against the
    /// question's other words.
    pub discourse: f32,
    /// Per code name of the question (`Session.send`, `to_native_string`) the module defines or is.
    pub named: f32,
    /// Per code name of the question the module's code uses.
    pub mentioned: f32,
    /// For the module's best chunk in the hybrid (full-text + vector) chunk search, by its rank.
    pub chunk: f32,
    /// Times the module's PageRank relative to the largest.
    pub pagerank: f32,
    /// Subtracted from test modules when the question is not about tests.
    pub tests: f32,
    /// A module imported by or importing one of the three best gains this share of its best score.
    pub neighbours: f32,
    pub fitted_on: String,
}

/// When retrieval declines: a logistic model over the evidence of the ranking (see `answer::abstain`):
/// the answer is given when `bias + Σ weights[f] · f` is at least `threshold`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct DeclineSettings {
    pub bias: f64,
    pub weights: BTreeMap<String, f64>,
    pub threshold: f64,
    pub fitted_on: String,
}

/// The settings this strata ranks and declines with (see the module's docs for where they come from).
pub fn fitted() -> AnswerSettings {
    AnswerSettings { ranking: Some(fitted_ranking()), decline: Some(fitted_decline()) }
}

/// Fitted by `strata fit` on 354 answerable questions of flask, requests, django, sympy and conan
/// (SWE-QA development sets and `eval/locate/newuser-*.jsonl`); leave one repository out, they rank
/// as `docs/retrieval.md` reports.
pub fn fitted_ranking() -> RankingSettings {
    RankingSettings {
        field_weights: [5.0, 0.5, 5.0, 1.0, 0.5],
        field_b: [1.0, 0.5, 0.9, 0.5, 0.9],
        k1: 4.0,
        discourse: 0.0,
        named: 0.1,
        mentioned: 0.0,
        chunk: 0.2,
        pagerank: 0.1,
        tests: 0.3,
        neighbours: 0.2,
        fitted_on: "strata fit: 354 answerable questions of flask, requests, django, sympy, conan (leave one repository out reported)".to_string(),
    }
}

/// Fitted by `strata fit` with the ranking above, on the same answerable questions and 185 questions
/// about things those repositories do not contain (`eval/locate/absent-*.jsonl`).
pub fn fitted_decline() -> DeclineSettings {
    let weights = [
        ("beyond_code", 0.0),
        ("bm25_top", 3.016593),
        ("coverage_top", 3.233665),
        ("coverage_top5", 2.75214),
        ("margin", 1.990744),
        ("names_known", 0.133254),
        ("names_unknown", -1.503014),
        ("topic_size", 1.372707),
        ("unseen", -2.151285),
        ("unseen_name", -2.738335),
    ];
    DeclineSettings {
        bias: -6.525253,
        weights: weights.iter().map(|(name, weight)| (name.to_string(), *weight)).collect(),
        threshold: -1.344296,
        fitted_on: "strata fit: 354 answerable questions of flask, requests, django, sympy, conan (leave one repository out reported); 185 questions about absent things; false-decline budget 0.02".to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn settings_of_another_shape_are_dropped_whole() {
        let recorded =
            r#"{"ranking": {"k1": 1.0}, "decline": {"bias": 1, "weights": {}, "threshold": 0, "fitted_on": ""}}"#;
        let settings: AnswerSettings = serde_json::from_str(recorded).unwrap();
        assert_eq!(settings.ranking, None);
        assert_eq!(settings.decline.unwrap().bias, 1.0);
        let old: AnswerSettings = serde_json::from_str(r#"{"abstention": {"max_absent": 0.25}}"#).unwrap();
        assert_eq!(old, AnswerSettings { ranking: None, decline: None });
        let written = serde_json::to_string(&fitted()).unwrap();
        assert_eq!(serde_json::from_str::<AnswerSettings>(&written).unwrap(), fitted());
    }
}
