//! Ranking whole modules for a question, pure. A [`Query`] holds everything the ranking needs about
//! one question, computed once: its terms with their rarity, and for every module holding any of them
//! the term counts per field and its other evidence. [`rank`] scores it with a [`RankingSettings`];
//! the fit (`strata eval fit`) scores the same `Query` under many settings, so the function it tunes
//! is the one `ask` runs.
//!
//! A module's score: BM25F over the word fields (path, defined names, signatures, prose, code), each
//! field length-normalised so a long file gains nothing by length, words about code in general
//! ("mechanism") weighed less, divided by the most a question's terms could score so it lies in
//! [0, 1); plus the code names the question writes that the module
//! defines or is, and that its code uses; plus its best chunk in the hybrid chunk search; plus a
//! PageRank prior; minus a penalty for a test module when the question is not about tests.

use std::collections::BTreeMap;

use strata_core::bundle::RankingSettings;

use super::lexicon::{Lexicon, WORD_FIELDS};

/// The reciprocal-rank constant of the chunk evidence: the best chunk scores 1, the 10th 0.5.
const CHUNK_RRF_K: f32 = 10.0;
/// The place of `Field::Code` in a candidate's counts (the order of `WORD_FIELDS`).
const CODE_SLOT: usize = 4;

/// One term of a question.
#[derive(Debug, Clone, PartialEq)]
pub struct QueryTerm {
    pub term: String,
    /// Modules that hold it in any word field.
    pub df: usize,
    /// ln(1 + (N − df + ½) / (df + ½)): BM25's inverse document frequency.
    pub idf: f32,
    /// A word about code in general ("mechanism"): weighed `RankingSettings::discourse` times.
    pub discourse: bool,
    /// When no module holds the term itself: the terms of the index it stands for, the same word
    /// in another form (`convers` of "conversion" → `convert`; see [`other_forms`]). Their counts are
    /// the term's.
    pub other_forms: Vec<String>,
}

/// One module that could answer, with its evidence.
#[derive(Debug, Clone, PartialEq)]
pub struct Candidate {
    /// Index of the module in the bundle's id order.
    pub module: u32,
    /// Per query term, its count in each word field.
    pub counts: Vec<[u16; 5]>,
    /// Each word field's length over the field's mean length.
    pub relative_length: [f32; 5],
    /// Code names of the question this module defines or is (each shared among its modules).
    pub named: f32,
    /// IDF-weighted share of the question's code names this module's code uses.
    pub mentioned: f32,
    /// Its best chunk in the hybrid chunk search, as CHUNK_RRF_K / (CHUNK_RRF_K + rank); 0 if none.
    pub chunk: f32,
    /// PageRank over the largest.
    pub pagerank: f32,
    /// A test module, and the question is not about tests.
    pub unwanted_test: bool,
    /// Candidates (indices into `Query::candidates`) this module imports or is imported by.
    pub neighbours: Vec<u32>,
}

/// What ranking knows about one question.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Query {
    pub terms: Vec<QueryTerm>,
    pub candidates: Vec<Candidate>,
    /// Modules in the index.
    pub n_modules: usize,
}

/// Evidence about the modules that is not term counts, by module index.
#[derive(Debug, Clone, Default)]
pub struct ModuleEvidence {
    pub named: BTreeMap<u32, f32>,
    pub mentioned: BTreeMap<u32, f32>,
    /// The best rank (0 = first) of each module's chunks in the hybrid chunk search.
    pub chunk_rank: BTreeMap<u32, usize>,
}

impl Query {
    /// The query for `terms` (content terms, stemmed, with whether they only frame the question; see
    /// `strata_core::text::question_terms`) over `lexicon`. `pagerank(m)` is module m's
    /// PageRank over the largest; `unwanted_test(m)` whether it is a test module the question is not
    /// about.
    pub fn build(
        lexicon: &Lexicon,
        terms: &[(String, bool)],
        evidence: &ModuleEvidence,
        pagerank: impl Fn(u32) -> f32,
        unwanted_test: impl Fn(u32) -> bool,
    ) -> Query {
        let n = lexicon.n_modules() as f32;
        let mut unique: Vec<(&String, bool)> = Vec::new();
        for (term, discourse) in terms {
            match unique.iter_mut().find(|(seen, _)| *seen == term) {
                Some((_, all)) => *all &= *discourse,
                None => unique.push((term, *discourse)),
            }
        }
        let mut counts: BTreeMap<u32, Vec<[u16; 5]>> = BTreeMap::new();
        let mut query_terms = Vec::with_capacity(unique.len());
        for (t, &(term, discourse)) in unique.iter().enumerate() {
            let mut forms = vec![term.to_string()];
            let mut other = Vec::new();
            if lexicon.document_frequency(term) == 0 {
                other = other_forms(lexicon, term);
                forms = other.clone();
            }
            let mut holders: Vec<u32> = Vec::new();
            for form in &forms {
                for (f, field) in WORD_FIELDS.iter().enumerate() {
                    for (module, count) in lexicon.postings(form, *field) {
                        let row = counts.entry(module).or_insert_with(|| vec![[0; 5]; unique.len()]);
                        row[t][f] = row[t][f].saturating_add(u16::try_from(count).unwrap_or(u16::MAX));
                        holders.push(module);
                    }
                }
            }
            // A name with its number (`http2`, `oauth2`) is no word of any word field, which split it
            // (`http`): the identifiers holding it are the code's uses of it, counted as code words.
            if holders.is_empty() && strata_core::text::is_versioned(term) {
                for (module, count) in lexicon.identifier_users_containing(term) {
                    let row = counts.entry(module).or_insert_with(|| vec![[0; 5]; unique.len()]);
                    row[t][CODE_SLOT] = row[t][CODE_SLOT].saturating_add(u16::try_from(count).unwrap_or(u16::MAX));
                    holders.push(module);
                }
            }
            holders.sort_unstable();
            holders.dedup();
            let df = holders.len();
            let idf = (1.0 + (n - df as f32 + 0.5) / (df as f32 + 0.5)).ln();
            query_terms.push(QueryTerm { term: term.to_string(), df, idf, discourse, other_forms: other });
        }
        for module in evidence.named.keys().chain(evidence.mentioned.keys()).chain(evidence.chunk_rank.keys()) {
            counts.entry(*module).or_insert_with(|| vec![[0; 5]; unique.len()]);
        }
        let means: Vec<f32> = WORD_FIELDS.iter().map(|&field| lexicon.mean_length(field)).collect();
        let candidates = counts
            .into_iter()
            .filter(|(module, _)| (*module as usize) < lexicon.n_modules())
            .map(|(module, counts)| {
                let mut relative_length = [0.0; 5];
                for (f, field) in WORD_FIELDS.iter().enumerate() {
                    relative_length[f] = lexicon.length(*field, module as usize) as f32 / means[f];
                }
                Candidate {
                    module,
                    counts,
                    relative_length,
                    named: evidence.named.get(&module).copied().unwrap_or(0.0),
                    mentioned: evidence.mentioned.get(&module).copied().unwrap_or(0.0),
                    chunk: evidence
                        .chunk_rank
                        .get(&module)
                        .map_or(0.0, |&rank| CHUNK_RRF_K / (CHUNK_RRF_K + rank as f32)),
                    pagerank: pagerank(module),
                    unwanted_test: unwanted_test(module),
                    neighbours: Vec::new(),
                }
            })
            .collect();
        Query { terms: query_terms, candidates, n_modules: lexicon.n_modules() }
    }

    /// The inverse document frequency of a term no module holds: the rarest a term can be.
    pub fn rarest_idf(&self) -> f32 {
        (1.0 + (self.n_modules as f32 + 0.5) / 0.5).ln()
    }

    /// Records which candidates import one another; `edges` are (importer, imported) module indices.
    pub fn link_neighbours(&mut self, edges: impl Iterator<Item = (u32, u32)>) {
        let position: BTreeMap<u32, usize> = self.candidates.iter().enumerate().map(|(i, c)| (c.module, i)).collect();
        for (src, dst) in edges {
            if let (Some(&a), Some(&b)) = (position.get(&src), position.get(&dst))
                && a != b
            {
                self.candidates[a].neighbours.push(b as u32);
                self.candidates[b].neighbours.push(a as u32);
            }
        }
        for candidate in &mut self.candidates {
            candidate.neighbours.sort_unstable();
            candidate.neighbours.dedup();
        }
    }

    /// The IDF mass of the terms some module holds: what a module holding all of them would match.
    pub fn known_idf_mass(&self) -> f32 {
        self.terms.iter().filter(|t| t.df > 0).map(|t| t.idf).sum()
    }

    /// The IDF-weighted share of the known terms that `candidate` holds in any word field.
    pub fn coverage(&self, candidate: &Candidate) -> f32 {
        let mass = self.known_idf_mass();
        if mass <= 0.0 {
            return 0.0;
        }
        let held: f32 = self
            .terms
            .iter()
            .zip(&candidate.counts)
            .filter(|(term, counts)| term.df > 0 && counts.iter().any(|&c| c > 0))
            .map(|(term, _)| term.idf)
            .sum();
        held / mass
    }
}

/// BM25F of a candidate over the word fields, divided by the most the question's known terms could
/// score (each saturated at its maximum), so it lies in [0, 1).
pub fn bm25f(query: &Query, candidate: &Candidate, settings: &RankingSettings) -> f32 {
    let weight = |term: &QueryTerm| if term.discourse { term.idf * settings.discourse } else { term.idf };
    let mass: f32 = query.terms.iter().filter(|t| t.df > 0).map(weight).sum();
    if mass <= 0.0 {
        return 0.0;
    }
    let k1 = settings.k1.max(1e-3);
    let mut score = 0.0;
    for (term, counts) in query.terms.iter().zip(&candidate.counts) {
        let mut weighted = 0.0;
        for (f, &count) in counts.iter().enumerate().filter(|(_, count)| **count > 0) {
            let b = settings.field_b[f].clamp(0.0, 1.0);
            let norm = 1.0 - b + b * candidate.relative_length[f];
            weighted += settings.field_weights[f] * f32::from(count) / norm.max(1e-3);
        }
        if weighted > 0.0 {
            score += weight(term) * weighted / (k1 + weighted);
        }
    }
    score / mass
}

/// A candidate's score under `settings`.
pub fn score(query: &Query, candidate: &Candidate, settings: &RankingSettings) -> f32 {
    let mut score = bm25f(query, candidate, settings)
        + settings.named * candidate.named
        + settings.mentioned * candidate.mentioned
        + settings.chunk * candidate.chunk
        + settings.pagerank * candidate.pagerank;
    if candidate.unwanted_test {
        score -= settings.tests;
    }
    score
}

/// How many of the best modules lend score to the modules they import or are imported by.
const NEIGHBOUR_SOURCES: usize = 3;

/// Every candidate's score: its own, plus `neighbours` times the best own score among the
/// [`NEIGHBOUR_SOURCES`] best candidates it imports or is imported by (an answer often spans a module
/// and the modules next to it in the graph).
pub fn scores(query: &Query, settings: &RankingSettings) -> Vec<f32> {
    let own: Vec<f32> = query.candidates.iter().map(|c| score(query, c, settings)).collect();
    if settings.neighbours <= 0.0 {
        return own;
    }
    let mut best: Vec<usize> = (0..own.len()).collect();
    let by_score = |a: &usize, b: &usize| own[*b].total_cmp(&own[*a]).then(a.cmp(b));
    if best.len() > NEIGHBOUR_SOURCES {
        best.select_nth_unstable_by(NEIGHBOUR_SOURCES, by_score);
        best.truncate(NEIGHBOUR_SOURCES);
    }
    let mut total = own.clone();
    for &source in &best {
        for &neighbour in &query.candidates[source].neighbours {
            let neighbour = neighbour as usize;
            let lent = settings.neighbours * own[source].max(0.0);
            if own[neighbour] + lent > total[neighbour] {
                total[neighbour] = own[neighbour] + lent;
            }
        }
    }
    total
}

/// (candidate index, score) best first; ties go to the module first in id order.
pub fn rank(query: &Query, settings: &RankingSettings) -> Vec<(usize, f32)> {
    let mut scored: Vec<(usize, f32)> = scores(query, settings).into_iter().enumerate().collect();
    scored.sort_by(|a, b| {
        b.1.total_cmp(&a.1).then_with(|| query.candidates[a.0].module.cmp(&query.candidates[b.0].module))
    });
    scored
}

/// The terms of the index that are another form of `term`, a stem no module holds: they share all
/// but its last three characters (at least five), and are at most two characters longer
/// (`convers` of "conversion" → `convert`, `registr` → `regist`; not `redis` → `redistribut`).
pub fn other_forms(lexicon: &Lexicon, term: &str) -> Vec<String> {
    let chars: Vec<char> = term.chars().collect();
    if chars.len() < 5 || !term.is_ascii() {
        return Vec::new();
    }
    let shared = (chars.len().saturating_sub(3)).max(5);
    let prefix: String = chars[..shared.min(chars.len())].iter().collect();
    lexicon
        .terms_with_prefix(&prefix)
        .into_iter()
        .filter(|candidate| candidate.len() <= term.len() + 2 && *candidate != term)
        .filter(|candidate| lexicon.document_frequency(candidate) > 0)
        .map(str::to_string)
        .collect()
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::lexicon::{Lexicon, file_terms};
    use strata_core::text::question_terms;

    /// The lexicon of `(path, source)` files, in order (also the routing tests').
    pub(crate) fn lexicon_of(files: &[(&str, &str)]) -> Lexicon {
        let terms: Vec<_> = files.iter().map(|(path, source)| file_terms(path, source)).collect();
        Lexicon::build(&terms)
    }

    fn query_over(files: &[(&str, &str)], question: &str, evidence: &ModuleEvidence) -> Query {
        Query::build(&lexicon_of(files), &question_terms(question), evidence, |_| 0.0, |_| false)
    }

    /// Settings of the tests' own, so a refit cannot change what they show.
    fn settings() -> RankingSettings {
        RankingSettings {
            field_weights: [3.0, 3.0, 1.0, 1.0, 1.0],
            field_b: [0.75; 5],
            k1: 1.2,
            discourse: 0.5,
            named: 1.0,
            mentioned: 0.2,
            chunk: 0.2,
            pagerank: 0.0,
            tests: 0.3,
            neighbours: 0.0,
            fitted_on: String::new(),
        }
    }

    fn order(query: &Query) -> Vec<u32> {
        rank(query, &settings()).into_iter().map(|(i, _)| query.candidates[i].module).collect()
    }

    #[test]
    fn the_module_about_the_thing_beats_one_that_mentions_it_often() {
        let mentions = "x = 1\n".repeat(300) + &"retry(); retry(); retry()\n".repeat(20);
        let about = "def retry(request):\n    \"\"\"Retry a request.\"\"\"";
        let files = [("pkg/client.py", mentions.as_str()), ("pkg/retries.py", about)];
        let query = query_over(&files, "Where are requests retried?", &ModuleEvidence::default());
        assert_eq!(order(&query), [1, 0]);
        let best = &query.candidates[1];
        assert!(bm25f(&query, best, &settings()) < 1.0);
        assert!((query.coverage(best) - 1.0).abs() < 1e-6);
    }

    #[test]
    fn length_alone_buys_nothing() {
        let short = "def parse(text): return text";
        let long = format!("{short}\n{}", "y = compute(z)\n".repeat(500));
        let files = [("a/one.py", long.as_str()), ("a/two.py", short)];
        let query = query_over(&files, "How is text parsed?", &ModuleEvidence::default());
        assert_eq!(order(&query), [1, 0]);
    }

    #[test]
    fn a_word_no_module_holds_stands_for_its_other_forms() {
        let files = [("a/convert.py", "def convert(value): pass"), ("a/other.py", "def redistribute(): pass")];
        let query = query_over(&files, "Where is the conversion done?", &ModuleEvidence::default());
        assert_eq!(query.terms[0].other_forms, ["convert"]);
        assert_eq!(order(&query), [0]);
        let query = query_over(&files, "Where is Redis used?", &ModuleEvidence::default());
        assert!(query.terms[0].other_forms.is_empty() && query.candidates.is_empty());
    }

    #[test]
    fn neighbours_of_the_best_modules_gain() {
        let files = [("a/one.py", "def parse(): pass"), ("a/two.py", "x = 1"), ("a/three.py", "y = 2")];
        let mut evidence = ModuleEvidence::default();
        evidence.chunk_rank.insert(1, 50);
        evidence.chunk_rank.insert(2, 40);
        let mut query = Query::build(&lexicon_of(&files), &question_terms("parse"), &evidence, |_| 0.0, |_| false);
        query.link_neighbours([(0, 1)].into_iter());
        let settings = RankingSettings { neighbours: 0.5, ..settings() };
        let ranked: Vec<u32> = rank(&query, &settings).into_iter().map(|(i, _)| query.candidates[i].module).collect();
        assert_eq!(ranked, [0, 1, 2]);
    }

    #[test]
    fn named_code_and_tests_move_modules() {
        let files = [("a/one.py", "def send(): pass"), ("a/two.py", "def send(): pass")];
        let mut evidence = ModuleEvidence::default();
        evidence.named.insert(1, 1.0);
        let query = query_over(&files, "Where is send?", &evidence);
        assert_eq!(order(&query), [1, 0]);
        let question = question_terms("Where is send?");
        let query = Query::build(&lexicon_of(&files), &question, &ModuleEvidence::default(), |_| 0.0, |m| m == 0);
        assert_eq!(order(&query), [1, 0]);
        assert!(query.terms[0].idf > 0.0 && query.terms[0].df == 2);
    }
}
