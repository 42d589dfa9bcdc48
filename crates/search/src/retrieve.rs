//! Retrieval for a question: whole modules ranked from the lexical index and the question's code
//! names (see `rank`), with the best chunk of each module in a hybrid (full-text + vector) chunk
//! search as one more piece of evidence; then the context: the best chunks of the best modules, and
//! after them the most central modules, never in their place.
//!
//! [`prepare`] does the I/O once per question (the chunk search) and builds the [`Query`];
//! [`Prepared::finish`] ranks it with the settings and picks the context. The fit prepares each
//! question once and ranks it many times.

use std::collections::{BTreeMap, BTreeSet};

use anyhow::Result;

use super::SearchIndex;
use super::embed::Embedder;
use super::entities::EntityLinker;
use super::rank::{ModuleEvidence, Query, rank};
use super::store::Hit;
use strata_core::bundle::{Bundle, RankingSettings};
use strata_core::text::{
    CodeName, NameShape, code_names, content_terms, glued_names, is_content_word, is_discourse, question_terms,
    split_words, stem, versioned_names,
};

/// How many of the most central modules are added to the context after the retrieved ones.
pub const N_CENTRAL: usize = 3;
/// How many modules retrieval returns.
pub const N_MODULES: usize = 8;
/// Chunks fetched from the hybrid chunk search: the evidence of each module's best chunk.
const POOL: usize = 100;
/// The best modules that get a second chunk in the context.
const SECOND_CHUNKS: usize = 3;
/// Added to modules in the folders a language model picked (not fitted: there is no model offline).
const FOLDER_BOOST: f32 = 0.05;

#[derive(Debug, Clone, PartialEq)]
pub struct Retrieval {
    /// Context chunks, best module first, each module's chunks together.
    pub hits: Vec<Hit>,
    /// The best modules with their scores, best first.
    pub modules: Vec<(String, f32)>,
    /// Module ids of the most central modules (context after the hits).
    pub central: Vec<String>,
    /// The folders a language model picked, if any.
    pub folders: Vec<String>,
    /// The words sent to the full-text chunk search.
    pub query_words: Vec<String>,
    /// What the ranking weighed: the question's terms and every candidate module.
    pub query: Query,
    /// Candidate indices of `query.candidates` with their scores, best first.
    pub ranked: Vec<(usize, f32)>,
    /// The code names the question writes, with the modules each denotes exactly (empty: none).
    pub names: Vec<(String, Vec<String>)>,
    /// Code names of the question that no module defines, is, or mentions.
    pub unknown_names: Vec<String>,
    /// Dotted names of the question that lead into a module of the index and then name nothing it
    /// holds (`sympy.ml.autofit`): (the module's id, the part nothing is called).
    pub missing: Vec<(String, String)>,
    /// What the import graph says about the modules the question names (module id, facts), added by
    /// the answerer when it understood names but not the whole question.
    pub graph_facts: Vec<(String, String)>,
}

/// A question with its I/O done: ready to rank.
#[derive(Debug, Clone)]
pub struct Prepared {
    pub query: Query,
    pub query_words: Vec<String>,
    pub names: Vec<(String, Vec<String>)>,
    pub unknown_names: Vec<String>,
    pub missing: Vec<(String, String)>,
    /// The hybrid chunk search's hits, in its order.
    pub pool: Vec<Hit>,
    pub folders: Vec<String>,
    /// The module id of each module index.
    module_ids: Vec<String>,
    central: Vec<String>,
}

/// The chunk search and the query for `question`. `chosen_folders` are folders a language model
/// picked; modules inside them get a small boost.
pub async fn prepare(
    index: &SearchIndex,
    embedder: &dyn Embedder,
    bundle: &Bundle,
    linker: &EntityLinker<'_>,
    question: &str,
    chosen_folders: Option<Vec<String>>,
) -> Result<Prepared> {
    let query_words = query_words(question);
    let vector = embedder.embed(&[question]).await?.pop().unwrap_or_default();
    let pool = index.store.search(&query_words.join(" "), &vector, POOL, index.vectors.as_ref()).await?;
    let folders = chosen_folders.unwrap_or_default();
    Ok(prepare_with_pool(index, bundle, linker, question, pool, folders, query_words))
}

/// [`prepare`] once the chunk search is done (pure).
fn prepare_with_pool(
    index: &SearchIndex,
    bundle: &Bundle,
    linker: &EntityLinker<'_>,
    question: &str,
    pool: Vec<Hit>,
    folders: Vec<String>,
    query_words: Vec<String>,
) -> Prepared {
    let module_ids: Vec<String> = bundle.nodes.keys().cloned().collect();
    let position: BTreeMap<&str, u32> = module_ids.iter().enumerate().map(|(i, id)| (id.as_str(), i as u32)).collect();
    let mut evidence = ModuleEvidence::default();
    for (rank, hit) in pool.iter().enumerate() {
        if let Some(&module) = position.get(hit.module.as_str()) {
            evidence.chunk_rank.entry(module).or_insert(rank);
        }
    }
    let mut mentions = code_names(question);
    mentions.extend(defined_words(question, linker, &mentions));
    let (names, unknown_names, missing) = named_evidence(index, linker, &mentions, &position, &mut evidence);
    let wants_tests = asks_about_tests(question);
    let max_pagerank = bundle.nodes.values().map(|n| n.pagerank).fold(0.0_f64, f64::max).max(f64::MIN_POSITIVE);
    let nodes: Vec<&strata_core::bundle::Node> = bundle.nodes.values().collect();
    let tests = strata_core::graph_view::TestModules::of(bundle);
    let in_folder =
        |id: &str| folders.iter().any(|f| f.is_empty() || id.starts_with(&format!("{}/", f.trim_end_matches('/'))));
    let mut query = Query::build(
        &index.lexicon,
        &topic_terms(question, &index.lexicon),
        &evidence,
        |m| nodes.get(m as usize).map_or(0.0, |node| (node.pagerank / max_pagerank) as f32),
        |m| !wants_tests && nodes.get(m as usize).is_some_and(|node| tests.is_test(&node.id)),
    );
    query.link_neighbours(
        bundle
            .edges
            .iter()
            .filter_map(|edge| Some((*position.get(edge.src.as_str())?, *position.get(edge.dst.as_str())?))),
    );
    if !folders.is_empty() {
        for candidate in &mut query.candidates {
            if nodes.get(candidate.module as usize).is_some_and(|node| in_folder(&node.id)) {
                candidate.chunk += FOLDER_BOOST;
            }
        }
    }
    let central = central_modules(bundle, N_CENTRAL);
    Prepared { query, query_words, names, unknown_names, missing, pool, folders, module_ids, central }
}

impl Prepared {
    /// The modules ranked with `settings`, and the context: each of the best modules' best chunk from
    /// the chunk search (a second one for the very best), or a description of the module from the
    /// bundle when the search did not reach it.
    pub fn finish(self, bundle: &Bundle, settings: &RankingSettings) -> Retrieval {
        let ranked = rank(&self.query, settings);
        let modules: Vec<(String, f32)> = ranked
            .iter()
            .take(N_MODULES)
            .filter_map(|&(i, score)| {
                let module = self.query.candidates[i].module as usize;
                self.module_ids.get(module).map(|id| (id.clone(), score))
            })
            .collect();
        let mut by_module: BTreeMap<&str, Vec<&Hit>> = BTreeMap::new();
        for hit in &self.pool {
            by_module.entry(hit.module.as_str()).or_default().push(hit);
        }
        let mut hits = Vec::new();
        for (position, (id, _)) in modules.iter().enumerate() {
            let take = if position < SECOND_CHUNKS { 2 } else { 1 };
            match by_module.get(id.as_str()) {
                Some(chunks) => hits.extend(chunks.iter().take(take).map(|hit| (*hit).clone())),
                None => hits.extend(described_module(bundle, id)),
            }
        }
        Retrieval {
            hits,
            modules,
            central: self.central,
            folders: self.folders,
            query_words: self.query_words,
            query: self.query,
            ranked,
            names: self.names,
            unknown_names: self.unknown_names,
            missing: self.missing,
            graph_facts: Vec::new(),
        }
    }
}

impl Retrieval {
    /// Reads the text of the context's chunks: the search's pool of hits is read without it (a hundred
    /// chunks' text is most of what a search would read on object storage, and an answer shows about
    /// ten). Hits that already have a text (a module described from the bundle) are left as they are.
    pub async fn read_texts(&mut self, index: &SearchIndex) -> Result<()> {
        let wanted: Vec<(&str, Option<u64>)> =
            self.hits.iter().filter(|hit| hit.text.is_empty()).map(|hit| (hit.id.as_str(), hit.row)).collect();
        if wanted.is_empty() {
            return Ok(());
        }
        let texts = index.store.texts(&wanted).await?;
        for hit in &mut self.hits {
            if hit.text.is_empty()
                && let Some(text) = texts.get(&hit.id)
            {
                hit.text.clone_from(text);
            }
        }
        Ok(())
    }
}

/// What [`named_evidence`] finds: each name with its modules, the unknown names, and the missing parts.
type NamedEvidence = (Vec<(String, Vec<String>)>, Vec<String>, Vec<(String, String)>);

/// The code names of the question resolved: modules that are or define one (`named`, each name's
/// weight shared among its modules) and modules whose code uses one (`mentioned`, IDF-weighted share
/// of the names). Returns each name with the modules it denotes, the names nothing holds, and of those
/// the dotted ones that lead into a module and then name nothing anywhere in the code (see
/// [`EntityLinker::missing_under`]; a part of three or more characters is also looked for as an
/// identifier anywhere, so an attribute or a constant is not missing).
fn named_evidence(
    index: &SearchIndex,
    linker: &EntityLinker<'_>,
    mentions: &[CodeName],
    position: &BTreeMap<&str, u32>,
    evidence: &mut ModuleEvidence,
) -> NamedEvidence {
    let mut names = Vec::new();
    let mut unknown = Vec::new();
    let mut missing = Vec::new();
    let mut used: Vec<(Vec<u32>, f32)> = Vec::new();
    let n = index.lexicon.n_modules() as f32;
    for mention in mentions {
        if names.iter().any(|(name, _)| name == &mention.text) {
            continue;
        }
        let modules = linker.exact(&mention.text);
        // The project's own name (`SymPy`, `Django`) names the whole repository, not a module.
        if modules.len() == 1 && linker.is_top_level_package(&modules[0]) {
            continue;
        }
        for id in &modules {
            if let Some(&m) = position.get(id.as_str()) {
                *evidence.named.entry(m).or_default() += 1.0 / modules.len() as f32;
            }
        }
        let last = last_identifier(&mention.text);
        let users: Vec<u32> = match versioned_names(&mention.text).as_slice() {
            // `HTTP/2` is no path: the code writes it `http2`, inside identifiers (`http2`, `HTTP2Connection`).
            [glued] => index.lexicon.identifier_users_containing(glued).into_keys().collect(),
            _ => index.lexicon.identifier_users(&last),
        };
        if modules.is_empty() && users.is_empty() {
            unknown.push(mention.text.clone());
            if let Some((module, part)) = linker.missing_under(&mention.text)
                && index.lexicon.identifier_users(&part).is_empty()
            {
                missing.push((module, part));
            }
        }
        if !users.is_empty() {
            let idf = (1.0 + (n - users.len() as f32 + 0.5) / (users.len() as f32 + 0.5)).ln();
            used.push((users, idf));
        }
        names.push((mention.text.clone(), modules));
    }
    let mass: f32 = used.iter().map(|(_, idf)| idf).sum();
    for (users, idf) in &used {
        for &m in users {
            *evidence.mentioned.entry(m).or_default() += idf / mass;
        }
    }
    (names, unknown, missing)
}

/// Plain words of the question that are, as written, the name of a class or function of the index
/// (`slugify`, `Session`): names written without backticks. Stop words and words about code in
/// general are never names here.
fn defined_words(question: &str, linker: &EntityLinker<'_>, code: &[CodeName]) -> Vec<CodeName> {
    let mut found: Vec<CodeName> = Vec::new();
    let mut at = 0;
    for token in question.split_whitespace() {
        let start = question[at..].find(token).map_or(at, |i| at + i);
        at = start + token.len();
        let word = token.trim_matches(|c: char| !c.is_alphanumeric() && c != '_');
        let lower = word.to_lowercase();
        let plain = word.len() >= 3 && word.chars().all(|c| c.is_alphanumeric() || c == '_');
        if !plain || !is_content_word(&lower) || is_discourse(&lower) {
            continue;
        }
        if code.iter().chain(&found).any(|name| name.text == word) || linker.symbol(word).is_none() {
            continue;
        }
        found.push(CodeName { text: word.to_string(), start, end: start + token.len(), shape: NameShape::Call });
    }
    found
}

/// The last identifier of a code name, lowercased, as the lexicon stores whole identifiers:
/// `requests.sessions.Session.send` → `send`, `flask/app.py` → `app`.
fn last_identifier(name: &str) -> String {
    let name = name.trim_end_matches(".py").trim_end_matches("/__init__");
    name.rsplit(['.', '/']).next().unwrap_or(name).to_lowercase()
}

/// A stand-in chunk for a module the chunk search did not reach: what the bundle says of it.
fn described_module(bundle: &Bundle, id: &str) -> Option<Hit> {
    let node = bundle.nodes.get(id)?;
    let mut text = format!("module {} ({})\n", node.id, node.module);
    if let Some(docstring) = &node.docstring {
        text.push_str(&format!("summary: {docstring}\n"));
    }
    let defines: Vec<&str> = node.symbols.iter().map(|s| s.name.as_str()).take(30).collect();
    if !defines.is_empty() {
        text.push_str(&format!("defines: {}\n", defines.join(", ")));
    }
    Some(Hit {
        id: format!("module:{id}"),
        kind: "module".to_string(),
        module: id.to_string(),
        symbol: None,
        line_start: 1,
        line_end: node.n_lines.max(1),
        text,
        score: 0.0,
        row: None,
    })
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
        if terms.contains(&stem(&word)) && !words.contains(&word) {
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

/// The question's terms, and each name it writes in mixed case that the code holds nowhere, glued or
/// as an identifier (`TypeScript`, when no code says `typescript`): split, its pieces (`type`,
/// `script`) are everywhere, and the question would seem to be about them. A glued name the code
/// does hold (`latex`) adds nothing its pieces and the names' own evidence do not.
fn topic_terms(question: &str, lexicon: &crate::lexicon::Lexicon) -> Vec<(String, bool)> {
    let mut terms = question_terms(question);
    for glued in glued_names(question) {
        // The word fields hold stems; the identifiers are whole.
        let held = lexicon.document_frequency(&stem(&glued)) > 0 || !lexicon.identifier_users(&glued).is_empty();
        if !held && !terms.iter().any(|(term, _)| *term == glued) {
            terms.push((glued, false));
        }
    }
    terms
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn questions_about_tests_are_recognised() {
        assert!(asks_about_tests("Which tests cover the CSRF middleware?"));
        assert!(!asks_about_tests("Where are CSRF failures handled?"));
    }

    #[test]
    fn query_words_keep_the_original_spelling() {
        assert_eq!(query_words("Where are HTTP requests retried?"), ["http", "requests", "retried"]);
    }

    #[test]
    fn the_last_identifier_of_a_name() {
        assert_eq!(last_identifier("requests.sessions.Session.send"), "send");
        assert_eq!(last_identifier("flask/app.py"), "app");
        assert_eq!(last_identifier("to_native_string"), "to_native_string");
    }
}
