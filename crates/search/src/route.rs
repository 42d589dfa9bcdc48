//! Which of an organisation's repositories to search for a question about code, pure. Searching a
//! repository opens its index (the manifest, the bundle, the chunk table: a few round trips and
//! about a megabyte), so a question cannot be searched in every repository of a large organisation;
//! reading every repository's lexicon is cheap (about 2 % of an index) and says which could answer.
//!
//! One ranking across the repositories: every repository's modules scored by the ranking's own BM25F
//! over their word fields, each field length-normalised within its repository, with every question
//! term weighed by its rarity over the whole organisation (a word every repository has says little
//! about which one to search). A repository ranks by its best module: a module is what answers, so a
//! repository whose words are spread over many modules ranks below one where they meet. Only the order
//! matters: the searches that follow decide the answer, each with its repository's own evidence and
//! decline.

use strata_core::bundle::RankingSettings;

use super::lexicon::Lexicon;
use super::rank::{ModuleEvidence, Query, bm25f};

/// For each repository (`lexicons`, one per repository in the caller's order), the BM25F in [0, 1) of
/// its best module for the question (`terms`: content terms with whether they only frame the question,
/// as `strata_core::text::question_terms` gives them) under `settings` (field weights, length
/// normalisation, framing words' weight), with the terms' rarity taken over every repository. 0 for a
/// repository holding none of the terms, and for all when no repository holds any.
pub fn route(terms: &[(String, bool)], lexicons: &[&Lexicon], settings: &RankingSettings) -> Vec<f32> {
    let mut queries: Vec<Query> = lexicons
        .iter()
        .map(|lexicon| Query::build(lexicon, terms, &ModuleEvidence::default(), |_| 0.0, |_| false))
        .collect();
    let Some(first) = queries.first() else { return Vec::new() };
    let n_modules: usize = queries.iter().map(|query| query.n_modules).sum();
    // Query::build keeps the terms' first-seen order in every repository, so term t is the same word
    // in each query: its document frequency over the organisation is the sum.
    for t in 0..first.terms.len() {
        let df: usize = queries.iter().map(|query| query.terms[t].df).sum();
        let idf = (1.0 + (n_modules as f32 - df as f32 + 0.5) / (df as f32 + 0.5)).ln();
        for query in &mut queries {
            query.terms[t].df = df;
            query.terms[t].idf = idf;
        }
    }
    queries
        .iter()
        .map(|query| query.candidates.iter().map(|candidate| bm25f(query, candidate, settings)).fold(0.0_f32, f32::max))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rank::tests::lexicon_of as lexicon;
    use strata_core::bundle::fitted_ranking;
    use strata_core::text::question_terms;

    #[test]
    fn the_repository_whose_one_module_holds_the_rare_words_comes_first() {
        let auth = lexicon(&[
            ("acme_auth/tokens.py", "def refresh_token(session):\n    '''Refresh an expired OAuth token.'''\n"),
            ("acme_auth/config.py", "TIMEOUT = 30\n"),
        ]);
        // The same words, but never in one module.
        let spread = lexicon(&[
            ("billing/refresh.py", "def refresh(view):\n    return view\n"),
            ("billing/oauth.py", "PROVIDER = 'oauth'\n"),
            ("billing/token.py", "def token():\n    return 1\n"),
        ]);
        let unrelated = lexicon(&[("shop/cart.py", "class Cart:\n    def add(self, item): ...\n")]);
        let terms = question_terms("Where is an expired OAuth token refreshed?");
        let scores = route(&terms, &[&unrelated, &spread, &auth], &fitted_ranking());
        assert_eq!(scores[0], 0.0, "holds none of the words");
        assert!(scores[2] > 2.0 * scores[1] && scores[1] > 0.0, "{scores:?}");
    }

    #[test]
    fn a_word_every_repository_has_weighs_less_than_a_rare_one() {
        // "config" is everywhere; "ledger" only in billing.
        let billing = lexicon(&[("billing/ledger.py", "LEDGER = 1\n"), ("billing/config.py", "X = 1\n")]);
        let shop = lexicon(&[("shop/config.py", "def config(): ...\n"), ("shop/config_io.py", "config = 2\n")]);
        let terms = question_terms("Which config does the ledger use?");
        let scores = route(&terms, &[&shop, &billing], &fitted_ranking());
        assert!(scores[1] > scores[0], "{scores:?}");
        // Nothing held anywhere: no order.
        assert_eq!(route(&question_terms("kafka zookeeper"), &[&shop, &billing], &fitted_ranking()), [0.0, 0.0]);
        assert!(route(&terms, &[], &fitted_ranking()).is_empty());
    }
}
