//! When retrieval should say "I don't know": one decision from the evidence of the ranking, a logistic
//! model whose weights were fitted on answerable and unanswerable questions pooled from several
//! repositories (`strata eval fit`, leave one repository out) and recorded in every index's manifest
//! ([`DeclineSettings`]), so an answer can be traced to the settings that produced it.
//!
//! The evidence ([`Features`]): how much of the question the best module and the best five hold,
//! how strongly the best module wins, whether the code names the question writes exist, how many of
//! its topic words no module holds at all, and whether it asks about the project's people, plans,
//! numbers or operations rather than its code. Two things decline without the model: no search
//! result at all, and a question about the project's people, plans, numbers or operations (what one
//! snapshot of the code cannot record, however well some module matches its words).

use std::collections::BTreeSet;
use std::sync::LazyLock;

use serde::Serialize;

use strata_core::bundle::RankingSettings;
use strata_core::text::{content_terms, glued_names, split_words, stem, versioned_names, written_as_names};
use strata_search::retrieve::Retrieval;

pub use strata_core::bundle::DeclineSettings;

/// One question term and what the index says about it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct TermEvidence {
    /// The term, stemmed.
    pub word: String,
    /// Modules that hold it.
    pub modules: usize,
    /// Whether one of the best five modules holds it.
    pub in_context: bool,
    /// A word about code in general ("mechanism"), never counted as unseen.
    pub discourse: bool,
}

/// The evidence the decision weighs.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Features {
    /// Share of the topic terms (not discourse words) that no module holds.
    pub unseen: f64,
    /// Share of the topic the best module holds, each term weighed by its rarity (a term no module
    /// holds as the rarest).
    pub coverage_top: f64,
    /// The same for the best five modules together.
    pub coverage_top5: f64,
    /// The best module's BM25F over the most the whole topic could score, in [0, 1).
    pub bm25_top: f64,
    /// The best module's score less the fifth's.
    pub margin: f64,
    /// 1 when the question writes code names and every one is defined, is a module, or is used.
    pub names_known: f64,
    /// 1 when the question writes a code name that no module defines, is, or uses.
    pub names_unknown: f64,
    /// 1 when the question asks about the project's people, plans, numbers or operations (declined by
    /// rule; the model is not fitted on these).
    pub beyond_code: f64,
    /// 1 when a word the question writes as a name (`Kafka`, `JWT`, `WebSocket`) is held by no module of
    /// the context (the best five).
    pub unseen_name: f64,
    /// ln(1 + the number of topic terms). A topic of two or three words is covered by some module
    /// by chance far more often than one of ten, so the coverage features mean less on a short
    /// question; with its size the model can hold them to a higher standard there.
    pub topic_size: f64,
}

/// The features' names, in the order of [`Features::values`]: the names the settings' weights use.
pub const FEATURE_NAMES: [&str; 10] = [
    "unseen",
    "coverage_top",
    "coverage_top5",
    "bm25_top",
    "margin",
    "names_known",
    "names_unknown",
    "beyond_code",
    "unseen_name",
    "topic_size",
];

impl Features {
    pub fn values(&self) -> [f64; 10] {
        [
            self.unseen,
            self.coverage_top,
            self.coverage_top5,
            self.bm25_top,
            self.margin,
            self.names_known,
            self.names_unknown,
            self.beyond_code,
            self.unseen_name,
            self.topic_size,
        ]
    }

    /// (name, value) of every feature.
    pub fn named(&self) -> [(&'static str, f64); 10] {
        let values = self.values();
        std::array::from_fn(|i| (FEATURE_NAMES[i], values[i]))
    }
}

/// Why an answer was given or declined, for the JSON answer and for fitting the settings.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Evidence {
    pub terms: Vec<TermEvidence>,
    pub features: Features,
    /// `bias + Σ weight · feature` under the settings used; answered when at least their threshold.
    pub score: f64,
    pub decision: Decision,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case", tag = "kind", content = "detail")]
pub enum Decision {
    Answer,
    NoResults,
    /// The question asks about the project's people, plans, numbers or operations, which no snapshot
    /// of the code holds: declined whatever the search found.
    BeyondTheCode,
    /// The model declined; the detail says which evidence weighed most against answering.
    WeakEvidence(String),
    /// A dotted name of the question leads into a module of the index and then names nothing in the
    /// code (`sympy.ml.autofit`: nothing is called `ml`); the detail is the module and the part,
    /// `sympy/__init__.py: ml`. Declined whatever the words found: the thing asked about is not here.
    NoSuchName(String),
}

/// The evidence of a retrieval for `question`, ranked with `ranking`.
pub fn evidence(question: &str, retrieval: &Retrieval, ranking: &RankingSettings) -> (Vec<TermEvidence>, Features) {
    let query = &retrieval.query;
    let top: Vec<usize> = retrieval.ranked.iter().take(5).map(|&(i, _)| i).collect();
    let terms: Vec<TermEvidence> = query
        .terms
        .iter()
        .enumerate()
        .map(|(t, term)| TermEvidence {
            word: term.term.clone(),
            modules: term.df,
            in_context: top.iter().any(|&i| query.candidates[i].counts[t].iter().any(|&c| c > 0)),
            discourse: term.discourse,
        })
        .collect();
    let topic: Vec<&TermEvidence> = terms.iter().filter(|t| !t.discourse).collect();
    let unseen = if topic.is_empty() {
        0.0
    } else {
        topic.iter().filter(|t| t.modules == 0).count() as f64 / topic.len() as f64
    };
    // The question's topic weighed by rarity, a term no module holds as rare as a term can be: how
    // much of the whole question a module accounts for, not only of the words the index knows.
    let rarest = f64::from(query.rarest_idf());
    let weight = |term: &strata_search::rank::QueryTerm| if term.df == 0 { rarest } else { f64::from(term.idf) };
    let mass: f64 = query.terms.iter().filter(|t| !t.discourse).map(weight).sum();
    let known_mass: f64 = query.terms.iter().filter(|t| !t.discourse && t.df > 0).map(weight).sum();
    let held_by = |candidates: &[usize]| -> f64 {
        if mass <= 0.0 {
            return 0.0;
        }
        let held: f64 = query
            .terms
            .iter()
            .enumerate()
            .filter(|(t, term)| {
                !term.discourse
                    && term.df > 0
                    && candidates.iter().any(|&i| query.candidates[i].counts[*t].iter().any(|&c| c > 0))
            })
            .map(|(_, term)| weight(term))
            .sum();
        held / mass
    };
    let scores: Vec<f32> = retrieval.ranked.iter().take(5).map(|&(_, s)| s).collect();
    let known_share = if mass > 0.0 { known_mass / mass } else { 0.0 };
    let bm25_top = top
        .first()
        .map_or(0.0, |&i| f64::from(strata_search::rank::bm25f(query, &query.candidates[i], ranking)) * known_share);
    let names_known = !retrieval.names.is_empty() && retrieval.unknown_names.is_empty();
    let written_as_names = name_terms(question);
    // Held by no module of the context, not only by no module at all: a name held by a module or two
    // that the ranking does not put in the best five (`ldap` in one of conan's modules, `matlab` in
    // two of sympy's) is there by chance more often than because the question is about them.
    let unseen_name = terms.iter().any(|t| !t.in_context && written_as_names.contains(&t.word));
    let features = Features {
        unseen,
        coverage_top: held_by(&top[..top.len().min(1)]),
        coverage_top5: held_by(&top),
        bm25_top,
        margin: f64::from(scores.first().copied().unwrap_or(0.0) - scores.last().copied().unwrap_or(0.0)),
        names_known: f64::from(u8::from(names_known)),
        names_unknown: f64::from(u8::from(!retrieval.unknown_names.is_empty())),
        beyond_code: f64::from(u8::from(beyond_the_code(question).is_some())),
        unseen_name: f64::from(u8::from(unseen_name)),
        topic_size: (1.0 + topic.len() as f64).ln(),
    };
    (terms, features)
}

/// The stemmed terms of the words a question writes as names (`max_retries`, `JWT`, `Kafka`).
fn name_terms(question: &str) -> BTreeSet<String> {
    let names = written_as_names(question);
    names
        .iter()
        .flat_map(|name| content_terms(name).into_iter().chain(versioned_names(name)).chain(glued_names(name)))
        .collect()
}

/// The decision on `features` under `settings`, with the model's score.
pub fn decide(features: &Features, has_results: bool, settings: &DeclineSettings) -> (f64, Decision) {
    let contributions: Vec<(&str, f64)> = features
        .named()
        .into_iter()
        .map(|(name, value)| (name, settings.weights.get(name).copied().unwrap_or(0.0) * value))
        .collect();
    let score = settings.bias + contributions.iter().map(|(_, c)| c).sum::<f64>();
    if !has_results {
        return (score, Decision::NoResults);
    }
    if features.beyond_code > 0.0 {
        return (score, Decision::BeyondTheCode);
    }
    if score >= settings.threshold {
        return (score, Decision::Answer);
    }
    let worst = contributions.iter().min_by(|a, b| a.1.total_cmp(&b.1)).map_or("", |(name, _)| *name);
    (score, Decision::WeakEvidence(worst.to_string()))
}

/// What a question about a project (not its code) asks about, and the words that show it, as data:
/// `alone` words show it by themselves; `paired` words only next to one of `with` (a release *date*,
/// *how many* users). Words are matched as written (lowercased, a plural `s` allowed), not by stem:
/// "maintainers" is about people, "maintains" is not.
struct Beyond {
    what: &'static str,
    alone: &'static str,
    paired: &'static str,
    with: &'static str,
}

const BEYOND: &[Beyond] = &[
    Beyond {
        what: "the project's people",
        alone: "maintainer author creator founder contributor committer sponsor funder donor volunteer mentor \
            bdfl steering|council core|team core|developer release|manager project|lead employee salary \
            point|of|contact commit|rights merge|rights commit|access commit|bit",
        paired: "",
        with: "",
    },
    Beyond {
        what: "the project's community and process",
        alone: "gsoc summer|of|code sprint conference meetup mailing|list forum discord slack governance triage \
            code|of|conduct issue|tracker trac jira",
        paired: "vote ticket tickets meeting",
        with: "project team community core open developer contributor maintainer weekly monthly regular",
    },
    Beyond {
        what: "the project's plans and releases",
        alone: "roadmap upcoming deadline timeline end|of|life eol",
        paired: "release released version ship shipped plan planned schedule scheduled bugfix backport",
        with: "next date when|will when|is when|does cadence upcoming this|month this|year last|year future",
    },
    Beyond {
        what: "numbers about the project",
        alone: "popularity market|share survey",
        paired: "users people companies websites sites stars forks contributors members installs universities \
            developers organizations businesses downloads pull|request",
        with: "how|many number count per|month per|week per|year worldwide",
    },
    Beyond {
        what: "the project's operations",
        alone: "cdn datacenter build|farm",
        paired: "host hosted hosting runs run server serve serves provider deploy deployed production \
            infrastructure administer administers",
        with: "website site docs documentation domain homepage cloud company companies",
    },
];

/// A cue list as phrases (`a|b` is the phrase "a b").
fn phrases(words: &str) -> Vec<Vec<String>> {
    words.split_whitespace().map(|phrase| phrase.split('|').map(str::to_string).collect()).collect()
}

/// A cue list as phrases of words.
type Phrases = Vec<Vec<String>>;

static BEYOND_STEMS: LazyLock<Vec<(&'static str, [Phrases; 3])>> =
    LazyLock::new(|| BEYOND.iter().map(|b| (b.what, [phrases(b.alone), phrases(b.paired), phrases(b.with)])).collect());

/// "who" followed closely by a verb of making or running the project ("who maintains"), not of code
/// ("who calls").
const WHO_VERBS: &str = "maintain wrote written write create found lead led own fund sponsor develop review decide \
    approve manage started";

/// What a question asks that only the project's people, history, plans or operations could say, or
/// `None` for a question about the code. A web address (`djangoproject.com`) is about a site, not code.
pub fn beyond_the_code(question: &str) -> Option<&'static str> {
    let words: Vec<String> = split_words(question);
    let same = |word: &String, cue: &String| word == cue || word.strip_suffix('s') == Some(cue.as_str());
    let has = |phrases: &[Vec<String>]| {
        phrases.iter().any(|phrase| {
            words.windows(phrase.len().max(1)).any(|window| window.iter().zip(phrase).all(|(w, c)| same(w, c)))
        })
    };
    let who_verbs: Vec<String> = WHO_VERBS.split_whitespace().map(stem).collect();
    let who_makes = words
        .iter()
        .enumerate()
        .any(|(i, w)| w == "who" && words.iter().skip(i + 1).take(3).any(|next| who_verbs.contains(&stem(next))));
    if who_makes {
        return Some("the project's people");
    }
    for (what, [alone, paired, with]) in BEYOND_STEMS.iter() {
        if has(alone) || (has(paired) && has(with)) {
            return Some(what);
        }
    }
    let web_address = question.split_whitespace().any(|token| {
        let token = token.trim_matches(|c: char| !c.is_alphanumeric());
        [".com", ".org", ".io", ".net", ".dev"].iter().any(|tld| token.ends_with(tld)) && !token.ends_with(".py")
    });
    web_address.then_some("a website")
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeMap;

    fn features(unseen: f64, coverage: f64) -> Features {
        Features {
            unseen,
            coverage_top: coverage,
            coverage_top5: coverage,
            bm25_top: coverage / 2.0,
            margin: 0.1,
            names_known: 0.0,
            names_unknown: 0.0,
            beyond_code: 0.0,
            unseen_name: 0.0,
            topic_size: 0.0,
        }
    }

    #[test]
    fn the_model_weighs_the_evidence_and_names_what_weighed_most() {
        let settings = DeclineSettings {
            bias: 0.0,
            weights: BTreeMap::from([("unseen".to_string(), -4.0), ("coverage_top".to_string(), 2.0)]),
            threshold: 0.0,
            fitted_on: String::new(),
        };
        assert_eq!(decide(&features(0.0, 0.8), true, &settings).1, Decision::Answer);
        assert_eq!(decide(&features(0.5, 0.8), true, &settings).1, Decision::WeakEvidence("unseen".into()));
        assert_eq!(decide(&features(0.0, 0.8), false, &settings).1, Decision::NoResults);
    }

    #[test]
    fn words_written_as_names() {
        let terms = name_terms("How does Flask talk to Kafka over JWT with max_retries and Redis? Where too.");
        let expected = ["flask", "kafka", "jwt", "max", "retri", "redi"];
        assert_eq!(terms, expected.iter().map(|w| w.to_string()).collect::<BTreeSet<String>>());
    }

    #[test]
    fn questions_about_people_plans_numbers_and_operations_are_beyond_the_code() {
        for question in [
            "Who maintains this library these days?",
            "When is the next release planned?",
            "How many downloads per month does it get?",
            "When will the next version ship?",
            "Which cloud hosts the project's documentation website?",
            "Why did the core developers decide to drop the old parser, and who decided it?",
            "What is on the roadmap for the ORM?",
            "Who is the right point of contact for a security report?",
            "Which developers have commit rights on the main repository?",
            "How often does the core team hold its weekly meeting?",
            "How many pull requests are waiting for review right now?",
        ] {
            assert!(beyond_the_code(question).is_some(), "{question}");
        }
        for question in [
            "Who calls send() when a redirect is followed?",
            "Which function writes the response body to disk?",
            "How does the server start its worker threads?",
            "Where is the version string parsed?",
            "How many modules import the session module?",
            "Why do I get a version conflict error when two packages need different versions?",
            "Where are the file downloads of a package retried?",
            "How does the client open a pull request through the API?",
            "Which function decides whether a meeting room is free?",
            "How does the session commit pending rows to the database?",
            "Where does the core call the plugin hooks?",
        ] {
            assert_eq!(beyond_the_code(question), None, "{question}");
        }
    }
}
