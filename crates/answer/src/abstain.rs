//! When retrieval should say "I don't know": a decision from the retrieval evidence, not from whether
//! every word of the question appears in the code.
//!
//! Three things decline outright, because no search result can make up for them: a name the question
//! writes as a name (`JWT`, `Kafka`, `cached_property`) that no chunk of the whole index contains (a
//! technology or component the repository lacks), no search result at all, and a question about the
//! project's people or deployments (why the maintainers chose something, what a site runs in
//! production), which one snapshot of the code cannot show. Everything else is weighed on two
//! features of the evidence ([`Features`]) against thresholds fitted on development questions
//! (`eval/abstention/fit.py`) and recorded in every index's manifest ([`AbstentionSettings`]), so an
//! answer can be traced to the settings that produced it.

use serde::Serialize;

pub use strata_core::bundle::AbstentionSettings;

/// Words people use to talk *about* code rather than name what it does: how it is built (architecture,
/// component, layer, flow), how a question is framed (purpose, relationship, definition), and function
/// words the full-text index drops. That the code never says "mechanism" is no sign that the question
/// is about something the repository lacks, so these words never count as absent.
const DISCOURSE: &str = "\
    abstraction abstractions also accomplish achieve achieves actual actually additional after again against \
    aim approach approaches architectural architecture aspect aspects because before behave behaves \
    behavior behaviour behind benefit benefits best better between both boundaries boundary brief \
    briefly central characteristics choice clean cohesion collaborate collaboration component components \
    concept concepts conceptual concern concerns consequence consequences consider considerations \
    coordinate coordinates coordination core coupling decision decisions definition definitions describe \
    design designed detail details difference differences different during each effect effects \
    effectively efficient efficiently enable enables ensure ensures entire establish establishing \
    example examples exist exists explain extensibility facilitate facilitates feature features flow \
    flows framework frameworks functionality further general goal goals happen happens impact \
    implication implications importance important influence instead integrate integration intent \
    intention interact interaction interactions interplay involve involved involves key layer layered \
    layers lifecycle logic main maintain maintainability manner meaning mechanism mechanisms modular \
    modularity more most motivation nature necessary need needs other over overall own part particular \
    parts pattern patterns perform performs pipeline play plays possible precise precisely primary \
    principle principles process purpose purposes rationale reason reasons relate related relation \
    relationship relationships rely relies responsibility responsibilities responsible result role roles \
    same scenario scenarios semantic semantics separation serve serves significance similar specific \
    specifically stage stages step steps strategy strategies structure structured such support supports \
    system systems than then through throughout together trade tradeoff tradeoffs typical typically \
    under underlying understand until various very way ways while within without work works workflow";

/// One question word and what the index says about it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct TermEvidence {
    pub word: String,
    /// Chunks of the whole index that contain it, counted up to [`DF_CAP`].
    pub chunks: usize,
    /// Whether the retrieved context contains it.
    pub in_context: bool,
    /// Whether the question writes it as a name (`JWT`, `WebSocket`, `cached_property`).
    pub name: bool,
}

impl TermEvidence {
    /// A word of the question's topic that no chunk of the index contains.
    pub fn absent_topic(&self) -> bool {
        let word = self.word.to_lowercase();
        // Derived forms count too ("architecturally", "relationships"), for entries long enough not to
        // be the start of unrelated words.
        let discourse =
            DISCOURSE.split_whitespace().any(|entry| word == entry || (entry.len() >= 5 && word.starts_with(entry)));
        let function = FUNCTION_WORDS.split_whitespace().any(|entry| word == entry);
        self.chunks == 0 && !discourse && !function
    }
}

/// Document frequencies are counted up to this: beyond it a word is common and its weight is the floor.
pub const DF_CAP: usize = 500;

/// Function words the full-text index drops as stop words, so that it never reports them.
const FUNCTION_WORDS: &str = "been being could did had has have may might must shall should were whether which \
    who whom whose will would";

/// The features the decision weighs, each in [0, 1].
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Features {
    /// Share of the question's topic words that no chunk of the index contains (words about code in
    /// general, like "mechanism" or "relationship", are not topic words): many mean the question is
    /// about something the code does not do.
    pub absent: f64,
    /// IDF-weighted share of the words the index knows that the retrieved context contains: whether
    /// the code found is about the question's rare, telling words or only its common ones.
    pub covered: f64,
}

/// Why an answer was given or declined, for the JSON answer and for fitting the settings.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Evidence {
    pub terms: Vec<TermEvidence>,
    pub features: Features,
    pub decision: Decision,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case", tag = "kind", content = "detail")]
pub enum Decision {
    Answer,
    /// Names the question uses that the index never mentions.
    UnknownNames(Vec<String>),
    NoResults,
    /// What the question asks about that the code cannot record.
    BeyondTheCode(String),
    /// The evidence is too weak: too many topic words absent, or too little of the rest in the context.
    WeakEvidence,
}

/// The settings fitted by `eval/abstention/fit.py` on the development half of the SWE-QA sets
/// (answerable) and `eval/abstention/*.jsonl` (unanswerable); the held-out half is only reported.
pub fn fitted() -> AbstentionSettings {
    AbstentionSettings {
        max_absent: 0.25,
        min_covered: 0.0,
        fitted_on:
            "eval/abstention/fit.py: SWE-QA even lines (73 answerable), eval/abstention/*.jsonl (35 unanswerable)"
                .to_string(),
    }
}

/// Features from the question's words; `total_chunks` is the size of the index.
pub fn features(terms: &[TermEvidence], total_chunks: usize) -> Features {
    let topic = terms.iter().filter(|t| t.chunks > 0 || t.absent_topic()).count();
    if topic == 0 {
        return Features { absent: 0.0, covered: 0.0 };
    }
    let absent = terms.iter().filter(|t| t.absent_topic()).count() as f64 / topic as f64;
    let idf = |t: &TermEvidence| ((total_chunks as f64 + 1.0) / (t.chunks as f64 + 1.0)).ln().max(0.05);
    let known: Vec<&TermEvidence> = terms.iter().filter(|t| t.chunks > 0).collect();
    let mass: f64 = known.iter().map(|t| idf(t)).sum();
    let found: f64 = known.iter().filter(|t| t.in_context).map(|t| idf(t)).sum();
    Features { absent, covered: if mass == 0.0 { 0.0 } else { found / mass } }
}

/// The decision for a question with its evidence; `has_results` is whether the search found anything.
pub fn decide(
    question: &str,
    terms: &[TermEvidence],
    features: &Features,
    has_results: bool,
    settings: &AbstentionSettings,
) -> Decision {
    let unknown: Vec<String> = terms.iter().filter(|t| t.name && t.chunks == 0).map(|t| t.word.clone()).collect();
    if !unknown.is_empty() {
        Decision::UnknownNames(unknown)
    } else if !has_results {
        Decision::NoResults
    } else if let Some(what) = beyond_the_code(question) {
        Decision::BeyondTheCode(what.to_string())
    } else if features.absent >= settings.max_absent || features.covered < settings.min_covered {
        Decision::WeakEvidence
    } else {
        Decision::Answer
    }
}

/// People who make a project's decisions, as the subject of a question.
const PEOPLE: &[&str] = &[
    "maintainers",
    "maintainer",
    "authors",
    "author",
    "developers",
    "contributors",
    "core team",
    "core developers",
    "team",
    "designers",
];
/// Verbs of a decision people made.
const DECIDED: &[&str] = &[
    "choose",
    "chose",
    "chosen",
    "decide",
    "decided",
    "prefer",
    "preferred",
    "pick",
    "picked",
    "opt",
    "opted",
    "vote",
    "voted",
];
/// Verbs of what a deployment runs or uses.
const RUNS: &[&str] =
    &["run", "runs", "running", "use", "uses", "deploy", "deploys", "deployed", "host", "hosts", "hosted"];

/// What a question asks that only the project's history or operations could say: a decision by its
/// people ("why did the maintainers choose …") or what a deployment runs in production. `None` for a
/// question about the code, including "why does the code use X instead of Y", which the code can show.
pub fn beyond_the_code(question: &str) -> Option<&'static str> {
    let lower = question.to_lowercase();
    let words: Vec<&str> = lower.split(|c: char| !c.is_alphanumeric()).filter(|w| !w.is_empty()).collect();
    let text = format!(" {} ", words.join(" "));
    let has = |phrase: &str| text.contains(&format!(" {phrase} "));
    if PEOPLE.iter().any(|p| has(p)) && DECIDED.iter().any(|v| has(v)) {
        return Some("a decision the project's people made");
    }
    if ends_a_clause(&lower, "in production") && RUNS.iter().any(|v| has(v)) {
        return Some("what a deployment runs in production");
    }
    None
}

/// Whether `phrase` occurs followed by the end of the text or punctuation, not by more words
/// ("in production?" but not "in production mode").
fn ends_a_clause(text: &str, phrase: &str) -> bool {
    text.match_indices(phrase).any(|(at, _)| {
        let before = text[..at].chars().next_back().is_none_or(|c| !c.is_alphanumeric());
        let after = text[at + phrase.len()..].trim_start().chars().next();
        before && after.is_none_or(|c| !c.is_alphanumeric())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn term(word: &str, chunks: usize, in_context: bool) -> TermEvidence {
        TermEvidence { word: word.to_string(), chunks, in_context, name: false }
    }

    #[test]
    fn rare_words_weigh_more_than_common_ones() {
        // The rare word in the context and the common one missing: most of the weight is covered.
        let rare_found = [term("signal", 3, true), term("request", 400, false)];
        let common_found = [term("signal", 3, false), term("request", 400, true)];
        let a = features(&rare_found, 1000);
        let b = features(&common_found, 1000);
        assert!(a.covered > 0.7 && b.covered < 0.3, "{a:?} {b:?}");
        assert_eq!(a.absent, 0.0);
    }

    #[test]
    fn absent_words_are_counted_but_not_weighed_in_coverage() {
        // "mechanisms" is how people talk about code; "bitrate" is a topic the index lacks.
        let terms = [term("mechanisms", 0, false), term("bitrate", 0, false), term("session", 5, true)];
        assert!(!term("architecturally", 0, false).absent_topic() && !term("did", 0, false).absent_topic());
        let f = features(&terms, 100);
        assert_eq!((f.absent, f.covered), (0.5, 1.0));
    }

    #[test]
    fn an_absent_name_declines_whatever_the_evidence() {
        let settings = fitted();
        let mut terms = vec![term("session", 5, true)];
        terms.push(TermEvidence { word: "kafka".into(), chunks: 0, in_context: false, name: true });
        let strong = Features { absent: 0.0, covered: 1.0 };
        let decision = decide("Where are Kafka events sent?", &terms, &strong, true, &settings);
        assert_eq!(decision, Decision::UnknownNames(vec!["kafka".into()]));
        let decision = decide("Where are sessions saved?", &terms[..1], &strong, false, &settings);
        assert_eq!(decision, Decision::NoResults);
    }

    #[test]
    fn weak_evidence_declines_at_either_threshold() {
        let settings = AbstentionSettings { max_absent: 0.4, min_covered: 0.3, fitted_on: String::new() };
        let terms = [term("session", 5, true)];
        let decide_on = |absent, covered| decide("How?", &terms, &Features { absent, covered }, true, &settings);
        assert_eq!(decide_on(0.2, 0.9), Decision::Answer);
        assert_eq!(decide_on(0.4, 0.9), Decision::WeakEvidence);
        assert_eq!(decide_on(0.2, 0.2), Decision::WeakEvidence);
    }

    #[test]
    fn questions_about_people_and_deployments_are_beyond_the_code() {
        for question in [
            "Why did the core developers decide to drop the old parser?",
            "Which cache backend does example.org use in production?",
            "Why have the authors chosen a metaclass for models?",
        ] {
            assert!(beyond_the_code(question).is_some(), "{question}");
        }
        for question in [
            "Why does the router use a trie instead of a list?",
            "How does the app decide which template to render?",
            "What changes when the server runs in production mode?",
            "Which settings does the team model store?",
        ] {
            assert_eq!(beyond_the_code(question), None, "{question}");
        }
    }
}
