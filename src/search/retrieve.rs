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
    let wants_tests = asks_about_tests(question);
    let mut folders =
        chosen_folders.filter(|folders| !folders.is_empty()).unwrap_or_else(|| pick_folders(bundle, question));
    if !wants_tests {
        folders.retain(|folder| !is_test_path(folder));
    }
    // Twice the limit, so that implementation code can move ahead of tests and still fill it.
    let wanted = if wants_tests { limit } else { limit * 2 };
    let mut hits = Vec::new();
    if !folders.is_empty() {
        hits = store.search(&query_words.join(" "), &vector, wanted, Some(&folder_predicate(&folders))).await?;
    }
    if hits.len() < wanted {
        let seen: BTreeSet<String> = hits.iter().map(|hit| hit.id.clone()).collect();
        let more = store.search(&query_words.join(" "), &vector, wanted, None).await?;
        hits.extend(more.into_iter().filter(|hit| !seen.contains(&hit.id)));
    }
    // Tests mention what they test on every line, so they outrank the code itself; unless the question is
    // about tests, the code comes first (a stable sort keeps the fused order within each group).
    if !wants_tests {
        hits.sort_by_key(|hit| is_test_path(&hit.module));
    }
    hits.truncate(limit);
    Ok(Retrieval { hits, central: central_modules(bundle, N_CENTRAL), folders, query_words })
}

/// A test module or folder: a `tests`/`test`/`testing` folder, `test_*.py`, `*_test.py`, `conftest.py`.
pub fn is_test_path(path: &str) -> bool {
    let mut segments = path.split('/').peekable();
    while let Some(segment) = segments.next() {
        let is_file = segments.peek().is_none() && segment.ends_with(".py");
        if is_file {
            return segment.starts_with("test_") || segment.ends_with("_test.py") || segment == "conftest.py";
        }
        if matches!(segment, "tests" | "test" | "testing") {
            return true;
        }
    }
    false
}

fn asks_about_tests(question: &str) -> bool {
    split_words(question).iter().any(|word| {
        matches!(word.as_str(), "test" | "tests" | "tested" | "testing" | "fixture" | "fixtures" | "pytest")
    })
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
    fn test_paths_are_recognised() {
        for path in ["tests/csrf_tests/views.py", "tests", "src/pkg/test_util.py", "a/conftest.py", "a/b_test.py"] {
            assert!(is_test_path(path), "{path}");
        }
        for path in ["django/middleware/csrf.py", "src/testing_tools.py", "contest.py", "latest/x.py"] {
            assert!(!is_test_path(path), "{path}");
        }
        assert!(asks_about_tests("Which tests cover the CSRF middleware?"));
        assert!(!asks_about_tests("Where are CSRF failures handled?"));
    }

    #[test]
    fn query_words_keep_the_original_spelling() {
        assert_eq!(query_words("Where are HTTP requests retried?"), ["http", "requests", "retried"]);
    }

    #[test]
    fn folder_predicate_escapes_quotes() {
        assert_eq!(folder_predicate(&["it's".to_string()]), "(folder = 'it''s' OR folder LIKE 'it''s/%')");
    }
}
