//! Retrieval for a question: hybrid search (full text + vectors) over the whole repository, then
//! **modules ranked by the evidence of all their chunks**, with the module's own names (path, symbols)
//! as a field that counts on its own, a soft boost for the folders that share the most words with the
//! question (or that a model picked), and a small PageRank prior. The context is the best modules' best
//! chunks; the most central modules come after them, never in their place.
//!
//! Nothing is filtered out before ranking, so a wrong folder guess can only reorder, never hide, the
//! best lexical hit. `rank_modules` is pure; the weights are in [`RankWeights`].

use std::collections::{BTreeMap, BTreeSet};

use anyhow::Result;

use super::embed::Embedder;
use super::store::{ChunkStore, Hit};
use super::tokens::{content_terms, split_words};
use strata_core::bundle::{Bundle, Node};

/// How many of the most central modules are added to the context after the retrieved ones.
pub const N_CENTRAL: usize = 3;
/// The folder boost applies to at most this many folders, and only when the best shares at least
/// `MIN_FOLDER_SCORE` words with the question.
const MAX_FOLDERS: usize = 3;
const MIN_FOLDER_SCORE: usize = 2;
/// Chunks fetched from the index before modules are ranked (per-module evidence needs a deep pool).
const POOL: usize = 100;
/// At most this many chunks of one module in the context, so one big file cannot crowd out the rest.
const MAX_CHUNKS_PER_MODULE: usize = 2;

/// How the signals of a module add up (see [`rank_modules`]).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RankWeights {
    /// The reciprocal-rank constant for chunk positions in the pool.
    pub rrf_k: f32,
    /// A module's second, third... chunk counts this much less than the one before.
    pub decay: f32,
    /// Per IDF-weighted question term found in the module's path or symbol names.
    pub name: f32,
    /// For modules in the folders that match the question.
    pub folder: f32,
    /// Times the module's PageRank relative to the largest.
    pub pagerank: f32,
}

/// Chosen on the even-numbered half of the SWE-QA sets (`bench/locate.sh`); the odd half is only reported.
pub const RANK_WEIGHTS: RankWeights = RankWeights { rrf_k: 10.0, decay: 0.5, name: 0.02, folder: 0.02, pagerank: 0.01 };

#[derive(Debug, Clone, PartialEq)]
pub struct Retrieval {
    /// Search hits, best module first, each module's chunks together.
    pub hits: Vec<Hit>,
    /// The modules of `hits` with their scores, best first.
    pub modules: Vec<(String, f32)>,
    /// Module ids of the most central modules (context after the hits).
    pub central: Vec<String>,
    /// The folders boosted, if any matched.
    pub folders: Vec<String>,
    /// The words sent to the full-text index.
    pub query_words: Vec<String>,
    /// What the import graph says about the modules the question names (module id, facts), added by
    /// the answerer when it understood names but not the whole question.
    pub graph_facts: Vec<(String, String)>,
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
    let vector = embedder.embed(&[question]).await?.pop().unwrap_or_default();
    let wants_tests = asks_about_tests(question);
    let mut folders =
        chosen_folders.filter(|folders| !folders.is_empty()).unwrap_or_else(|| pick_folders(bundle, question));
    if !wants_tests {
        folders.retain(|folder| !is_test_path(folder));
    }
    let pool = store.search(&query_words.join(" "), &vector, POOL, None).await?;
    let ranked = rank_modules(bundle, question, &pool, &folders, wants_tests, &RANK_WEIGHTS);
    let hits = best_chunks(pool, &ranked, limit);
    let modules = ranked.into_iter().filter(|(id, _)| hits.iter().any(|hit| &hit.module == id)).collect();
    Ok(Retrieval {
        hits,
        modules,
        central: central_modules(bundle, N_CENTRAL),
        folders,
        query_words,
        graph_facts: Vec::new(),
    })
}

/// Module ids with their scores, best first, from the chunk pool (in fused order) and the bundle.
///
/// A module scores the reciprocal ranks of its chunks (each further chunk counting `decay` times less),
/// plus `name` per IDF-weighted question term that its path or symbol names contain (a field of its
/// own: code that *is* about the thing, not code that mentions it), plus `folder` inside a boosted
/// folder and `pagerank` times its relative PageRank. Unless the question is about tests, test modules
/// come after the code (they mention what they test on every line).
pub fn rank_modules(
    bundle: &Bundle,
    question: &str,
    pool: &[Hit],
    folders: &[String],
    wants_tests: bool,
    weights: &RankWeights,
) -> Vec<(String, f32)> {
    let mut evidence: BTreeMap<&str, (f32, i32)> = BTreeMap::new();
    for (rank, hit) in pool.iter().enumerate() {
        let entry = evidence.entry(hit.module.as_str()).or_insert((0.0, 0));
        entry.0 += weights.decay.powi(entry.1) / (weights.rrf_k + rank as f32 + 1.0);
        entry.1 += 1;
    }
    let terms: BTreeSet<String> = content_terms(question).into_iter().collect();
    let idf = name_idf(bundle, &terms);
    let max_pagerank = bundle.nodes.values().map(|n| n.pagerank).fold(0.0_f64, f64::max).max(f64::MIN_POSITIVE);
    let in_folder = |id: &str| folders.iter().any(|f| f.is_empty() || id.starts_with(&format!("{f}/")));
    let mut scored: Vec<(f32, bool, &str)> = evidence
        .into_iter()
        .filter_map(|(id, (chunks, _))| {
            let node = bundle.nodes.get(id)?;
            let names = name_terms(node);
            let name_score: f32 = terms.iter().filter(|t| names.contains(*t)).filter_map(|t| idf.get(t)).sum();
            let mut score = chunks + weights.name * name_score;
            if in_folder(id) {
                score += weights.folder;
            }
            score += weights.pagerank * (node.pagerank / max_pagerank) as f32;
            Some((score, !wants_tests && is_test_path(id), id))
        })
        .collect();
    scored.sort_by(|a, b| a.1.cmp(&b.1).then(b.0.total_cmp(&a.0)).then_with(|| a.2.cmp(b.2)));
    scored.into_iter().map(|(score, _, id)| (id.to_string(), score)).collect()
}

/// The words of a module's path and of its class, function and method names, stemmed.
fn name_terms(node: &Node) -> BTreeSet<String> {
    let mut names: BTreeSet<String> = content_terms(&node.id).into_iter().collect();
    for symbol in &node.symbols {
        names.extend(content_terms(&symbol.name));
        for method in &symbol.methods {
            names.extend(content_terms(&method.name));
        }
    }
    names
}

/// ln(1 + N / df) of each term over the modules' names: a term every path holds (`django`) says little.
fn name_idf(bundle: &Bundle, terms: &BTreeSet<String>) -> BTreeMap<String, f32> {
    let n = bundle.nodes.len().max(1) as f32;
    let mut df: BTreeMap<&str, usize> = BTreeMap::new();
    for node in bundle.nodes.values() {
        let names = name_terms(node);
        for term in terms.iter().filter(|t| names.contains(*t)) {
            *df.entry(term.as_str()).or_default() += 1;
        }
    }
    df.into_iter().map(|(term, df)| (term.to_string(), (1.0 + n / df as f32).ln())).collect()
}

/// The context: for each module in rank order, its best chunks (pool order), until `limit` chunks.
fn best_chunks(pool: Vec<Hit>, ranked: &[(String, f32)], limit: usize) -> Vec<Hit> {
    let mut by_module: BTreeMap<String, Vec<Hit>> = BTreeMap::new();
    for hit in pool {
        by_module.entry(hit.module.clone()).or_default().push(hit);
    }
    let mut hits = Vec::new();
    for (id, _) in ranked {
        let Some(chunks) = by_module.remove(id) else { continue };
        hits.extend(chunks.into_iter().take(MAX_CHUNKS_PER_MODULE));
        if hits.len() >= limit {
            break;
        }
    }
    hits.truncate(limit);
    hits
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

    fn hit(module: &str) -> Hit {
        Hit {
            id: format!("code:{module}:1-2"),
            kind: "code".to_string(),
            module: module.to_string(),
            symbol: None,
            line_start: 1,
            line_end: 2,
            text: String::new(),
            score: 0.0,
        }
    }

    fn bundle_of(modules: &[(&str, &[&str])]) -> Bundle {
        let mut bundle: Bundle = serde_json::from_str(
            r#"{"schema_version":"x","meta":{"generator":{"name":"s","version":"0"},"language":"python","edge_direction":"x","commit":null,"source":"git","source_roots":[],"conventions":{},"skipped_files":[]},"nodes":{},"edges":[],"cycles":[],"folder_index":{},"counts":{"modules":0,"edges":0,"type_checking_edges":0,"cycles":0,"cycles_runtime":0,"largest_cycle":0,"largest_cycle_runtime":0,"folders":0,"symbols":0,"partial_files":0,"skipped_files":0}}"#,
        )
        .unwrap();
        for (id, symbols) in modules {
            let symbols: Vec<serde_json::Value> = symbols
                .iter()
                .map(|name| serde_json::json!({"name": name, "kind": "function", "line_start": 1, "line_end": 2}))
                .collect();
            let node = serde_json::json!({
                "id": id, "module": id.trim_end_matches(".py").replace('/', "."), "folder": "", "is_package": false,
                "docstring": null, "imports": [], "imports_count": 0, "importers_count": 0, "direct_importers_count": 0,
                "scc_size": 1, "scc_size_runtime": 1, "pagerank": 0.1, "exports": [], "exports_source": "public_names",
                "exports_fallback": [], "symbols": symbols, "entry_points": [],
                "external_imports": {"stdlib": [], "third_party": []}, "unresolved_imports": [], "n_lines": 2,
                "parse_status": "ok", "warnings": []
            });
            bundle.nodes.insert(id.to_string(), serde_json::from_value(node).unwrap());
        }
        bundle
    }

    fn ids(ranked: Vec<(String, f32)>) -> Vec<String> {
        ranked.into_iter().map(|(id, _)| id).collect()
    }

    #[test]
    fn modules_rank_by_all_their_chunks_and_their_names() {
        let bundle = bundle_of(&[("a/one.py", &[]), ("a/two.py", &[]), ("b/sessions.py", &["save_session"])]);
        // One strong chunk against three good ones: the module with more evidence wins.
        let pool = [hit("a/one.py"), hit("a/two.py"), hit("a/two.py"), hit("a/two.py")];
        let ranked = ids(rank_modules(&bundle, "how", &pool, &[], false, &RANK_WEIGHTS));
        assert_eq!(ranked, ["a/two.py", "a/one.py"]);
        // A module whose name is what the question is about moves ahead of one that only mentions it.
        let pool = [hit("a/one.py"), hit("b/sessions.py")];
        let ranked = ids(rank_modules(&bundle, "Where are sessions saved?", &pool, &[], false, &RANK_WEIGHTS));
        assert_eq!(ranked, ["b/sessions.py", "a/one.py"]);
    }

    #[test]
    fn the_folder_boost_reorders_but_never_hides_and_tests_come_last() {
        let bundle = bundle_of(&[("a/one.py", &[]), ("b/two.py", &[]), ("tests/test_one.py", &[])]);
        let pool = [hit("tests/test_one.py"), hit("a/one.py"), hit("a/one.py"), hit("b/two.py")];
        let ranked = ids(rank_modules(&bundle, "how", &pool, &["b".to_string()], false, &RANK_WEIGHTS));
        assert_eq!(ranked, ["a/one.py", "b/two.py", "tests/test_one.py"]);
        let tied = [hit("a/one.py"), hit("b/two.py")];
        let ranked = ids(rank_modules(&bundle, "how", &tied, &["b".to_string()], false, &RANK_WEIGHTS));
        assert_eq!(ranked, ["b/two.py", "a/one.py"]);
        let ranked = ids(rank_modules(&bundle, "which tests", &pool, &[], true, &RANK_WEIGHTS));
        assert_eq!(ranked[0], "a/one.py");
        assert!(ranked.contains(&"tests/test_one.py".to_string()));
    }

    #[test]
    fn the_context_takes_at_most_two_chunks_per_module_in_rank_order() {
        let pool = vec![hit("a.py"), hit("a.py"), hit("a.py"), hit("b.py")];
        let ranked = vec![("b.py".to_string(), 1.0), ("a.py".to_string(), 0.5)];
        let modules: Vec<String> = best_chunks(pool, &ranked, 8).into_iter().map(|h| h.module).collect();
        assert_eq!(modules, ["b.py", "a.py", "a.py"]);
    }

    #[test]
    fn query_words_keep_the_original_spelling() {
        assert_eq!(query_words("Where are HTTP requests retried?"), ["http", "requests", "retried"]);
    }
}
