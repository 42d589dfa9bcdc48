//! Retrieval for a question: the most central modules as fixed context, then hybrid search, first
//! within the folders whose names and modules share the most words with the question (a lexical
//! pre-filter), topped up from the whole repository so a wrong folder guess can only reorder, never
//! empty, the results.

use std::collections::{BTreeMap, BTreeSet};

use anyhow::Result;

use super::embed::Embedder;
use super::store::{ChunkStore, Hit};
use super::tokens::{content_terms, split_words};
use crate::bundle::Bundle;

/// How many of the most central modules are always part of the context.
pub const N_CENTRAL: usize = 3;
/// The pre-filter keeps at most this many folders, and only when the best shares at least
/// `MIN_FOLDER_SCORE` words with the question.
const MAX_FOLDERS: usize = 3;
const MIN_FOLDER_SCORE: usize = 2;

#[derive(Debug, Clone, PartialEq)]
pub struct Retrieval {
    /// Search hits, best first.
    pub hits: Vec<Hit>,
    /// Module ids of the most central modules (fixed context).
    pub central: Vec<String>,
    /// The folders searched first, if the pre-filter applied.
    pub folders: Vec<String>,
    /// The words sent to the full-text index.
    pub query_words: Vec<String>,
}

/// `chosen_folders` are folders picked by a language model, used instead of lexical scoring when given.
pub async fn retrieve(
    store: &ChunkStore,
    embedder: &dyn Embedder,
    bundle: &Bundle,
    question: &str,
    limit: usize,
    chosen_folders: Option<Vec<String>>,
) -> Result<Retrieval> {
    let query_words = query_words(question);
    let vector = embedder.embed(&[question.to_string()]).await?.pop().unwrap_or_default();
    let folders =
        chosen_folders.filter(|folders| !folders.is_empty()).unwrap_or_else(|| pick_folders(bundle, question));
    let mut hits = Vec::new();
    if !folders.is_empty() {
        hits = store.search(&query_words.join(" "), &vector, limit, Some(&folder_predicate(&folders))).await?;
    }
    if hits.len() < limit {
        let seen: BTreeSet<String> = hits.iter().map(|hit| hit.id.clone()).collect();
        let more = store.search(&query_words.join(" "), &vector, limit, None).await?;
        hits.extend(more.into_iter().filter(|hit| !seen.contains(&hit.id)));
        hits.truncate(limit);
    }
    Ok(Retrieval { hits, central: central_modules(bundle, N_CENTRAL), folders, query_words })
}

/// The question's words without stop words, unstemmed (the full-text index stems them itself).
pub fn query_words(question: &str) -> Vec<String> {
    let terms: BTreeSet<String> = content_terms(question).into_iter().collect();
    let mut words = Vec::new();
    for word in split_words(question) {
        if terms.contains(&super::tokens::stem(&word)) && !words.contains(&word) {
            words.push(word);
        }
    }
    words
}

/// Module ids with the highest PageRank.
pub fn central_modules(bundle: &Bundle, n: usize) -> Vec<String> {
    let mut nodes: Vec<_> = bundle.nodes.values().collect();
    nodes.sort_by(|a, b| b.pagerank.total_cmp(&a.pagerank).then_with(|| a.id.cmp(&b.id)));
    nodes.into_iter().take(n).map(|node| node.id.clone()).collect()
}

/// Folders whose path, module names and exports share the most distinct words with the question.
pub fn pick_folders(bundle: &Bundle, question: &str) -> Vec<String> {
    let wanted: BTreeSet<String> = content_terms(question).into_iter().collect();
    if wanted.is_empty() {
        return Vec::new();
    }
    let mut scores: BTreeMap<&str, usize> = BTreeMap::new();
    for (folder, entry) in &bundle.folder_index {
        let mut vocabulary: BTreeSet<String> = content_terms(folder).into_iter().collect();
        for module in &entry.modules {
            vocabulary.extend(content_terms(module));
        }
        let score = wanted.iter().filter(|term| vocabulary.contains(*term)).count();
        if score > 0 {
            scores.insert(folder, score);
        }
    }
    let mut ranked: Vec<(&str, usize)> = scores.into_iter().collect();
    ranked.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(b.0)));
    let Some(&(_, best)) = ranked.first() else { return Vec::new() };
    if best < MIN_FOLDER_SCORE {
        return Vec::new();
    }
    ranked
        .into_iter()
        .take_while(|(_, score)| *score == best)
        .take(MAX_FOLDERS)
        .map(|(folder, _)| folder.to_string())
        .collect()
}

/// `folder = 'a' OR folder LIKE 'a/%' OR ...`, quotes escaped.
fn folder_predicate(folders: &[String]) -> String {
    folders
        .iter()
        .map(|folder| {
            // `_` and `%` are left unescaped: at worst they widen the pre-filter by a few folders.
            let quoted = folder.replace('\'', "''");
            format!("(folder = '{quoted}' OR folder LIKE '{quoted}/%')")
        })
        .collect::<Vec<_>>()
        .join(" OR ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn query_words_keep_the_original_spelling() {
        assert_eq!(query_words("Where are HTTP requests retried?"), ["http", "requests", "retried"]);
    }

    #[test]
    fn folder_predicate_escapes_quotes() {
        assert_eq!(folder_predicate(&["it's".to_string()]), "(folder = 'it''s' OR folder LIKE 'it''s/%')");
    }
}
