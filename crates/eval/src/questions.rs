//! Eval question sets: JSONL, one question per line, in the shape of
//! `schemas/eval-questions.schema.json`. Ground truth is written by reading the code and cross-checked
//! with an independent oracle (`eval/ast_oracle.py`, grimp), never derived from strata's output.

use std::collections::BTreeMap;

use anyhow::{Context, Result, bail};
use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Question {
    pub id: String,
    pub repo: String,
    pub version: String,
    pub category: String,
    pub question: String,
    pub answerable: bool,
    pub expected: Expected,
    #[serde(default)]
    pub convention_sensitive: bool,
    #[serde(default)]
    pub conventions: BTreeMap<String, serde_json::Value>,
    #[serde(default)]
    pub oracle_query: Option<OracleQuery>,
    pub provenance: serde_json::Value,
}

/// The ground truth: module paths, and a number, a yes/no or a ranking when the question asks for one.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct Expected {
    #[serde(default)]
    pub modules: Vec<String>,
    #[serde(default)]
    pub number: Option<f64>,
    #[serde(default)]
    pub yes_no: Option<bool>,
    #[serde(default)]
    pub ranking: Vec<String>,
    #[serde(default)]
    pub ranking_k: Option<usize>,
    #[serde(default)]
    pub ranking_ties: Vec<Vec<String>>,
    #[serde(default)]
    pub reference: String,
}

/// The structural relation a question asks about, as the oracle computed it.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct OracleQuery {
    pub op: String,
    #[serde(default)]
    pub module: Option<String>,
    #[serde(default)]
    pub name: Option<String>,
    #[serde(default)]
    pub runtime: bool,
}

/// Parses a question set; errors name the line. Ids must be unique.
pub fn parse_questions(jsonl: &str) -> Result<Vec<Question>> {
    parse_set(jsonl, "question", |q: &Question| &q.id)
}

/// One JSONL question set of any kind: each non-blank line a `T`, ids unique, at least one line.
pub fn parse_set<T: serde::de::DeserializeOwned>(jsonl: &str, kind: &str, id: fn(&T) -> &str) -> Result<Vec<T>> {
    let mut questions: Vec<T> = Vec::new();
    for (number, line) in jsonl.lines().enumerate().filter(|(_, line)| !line.trim().is_empty()) {
        let question: T =
            serde_json::from_str(line).with_context(|| format!("line {}: not a valid {kind}", number + 1))?;
        if questions.iter().any(|q| id(q) == id(&question)) {
            bail!("line {}: duplicate question id {}", number + 1, id(&question));
        }
        questions.push(question);
    }
    if questions.is_empty() {
        bail!("the question set is empty");
    }
    Ok(questions)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_committed_question_sets_parse() {
        for (file, minimum) in [("flask.jsonl", 40), ("django.jsonl", 40)] {
            let path = format!("{}/../../eval/questions/{file}", env!("CARGO_MANIFEST_DIR"));
            let questions = parse_questions(&std::fs::read_to_string(&path).unwrap()).unwrap();
            assert!(questions.len() >= minimum, "{file} has {} questions", questions.len());
            assert!(questions.iter().any(|q| !q.answerable) && questions.iter().any(|q| q.oracle_query.is_some()));
        }
    }

    #[test]
    fn bad_lines_are_named() {
        let error = parse_questions("{\"id\": 1}\n").unwrap_err();
        assert!(format!("{error:#}").contains("line 1"), "{error:#}");
        assert!(parse_questions("\n").is_err());
    }
}
