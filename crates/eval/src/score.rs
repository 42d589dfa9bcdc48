//! Scoring one answer against one question: which metric applies, and what the answer and the graph
//! say. The retrieved context is the ranked chunks' modules; a structural answer retrieves nothing but
//! reads the graph, so its citations stand for its context. Faithfulness counts a cited module as
//! supported when it is in the retrieved context or, for a structural answer, when the relation the
//! question asks about holds in the graph; explicit claims in the text ("`a.py` imports `b.py`") are
//! checked against the graph too. That graph is the independent oracle's (`--oracle-edges`) when given,
//! so strata is not graded against itself; the index's own graph otherwise, and the report says which.

use std::collections::BTreeSet;
use std::sync::LazyLock;

use regex::Regex;
use serde::Serialize;

use super::metrics;
use super::questions::{OracleQuery, Question};
use strata_answer::{Answer, Mode};
use strata_core::bundle::Bundle;
use strata_core::graph_view::{Direction, EdgeKind, Filter, GraphView, TestModules};

#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct QuestionScore {
    pub id: String,
    pub category: String,
    pub answerable: bool,
    pub mode: Mode,
    pub latency_ms: f64,
    pub context_recall: Option<f64>,
    pub context_precision: Option<f64>,
    pub average_precision: Option<f64>,
    pub reciprocal_rank: Option<f64>,
    pub faithfulness: Option<f64>,
    pub claim_truth: Option<f64>,
    pub answer_correctness: Option<f64>,
    pub answer_relevancy: Option<f64>,
    /// Unanswerable questions: 1 when declined.
    pub abstention: Option<f64>,
    /// Answerable questions: 1 when declined.
    pub false_decline: Option<f64>,
    pub cited: Vec<String>,
    pub retrieved: Vec<String>,
    /// The LLM judge's scores, with `--judge`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub judged: Option<super::judge::Judged>,
}

/// Scores `answer` to `question`; `latency_ms` is how long answering took.
pub fn score(question: &Question, answer: &Answer, graph: &Graph<'_>, latency_ms: f64) -> QuestionScore {
    let declined = answer.mode == Mode::Declined;
    let expected = &question.expected.modules;
    let bundle = graph.bundle;
    // The module a question is about is cited as the answer's subject, not as part of the answer.
    let subject = question.oracle_query.as_ref().and_then(|q| q.module.as_deref()).and_then(|m| graph.resolve(m));
    let cited: Vec<String> = answer
        .citations
        .iter()
        .map(|c| c.path.clone())
        .filter(|path| Some(path.as_str()) != subject || expected.contains(path))
        .collect();
    let retrieved: Vec<String> = if answer.context.is_empty() && answer.mode == Mode::Structural {
        cited.clone()
    } else {
        answer.context.iter().map(|c| c.module.clone()).collect()
    };
    // Chunk-level relevance for RAGAS's precision (it judges each chunk); module-level for AP and MRR,
    // where a module's later chunks are not new hits (else AP could exceed 1).
    let relevant: Vec<bool> = retrieved.iter().map(|m| expected.contains(m)).collect();
    let mut seen = BTreeSet::new();
    let first_relevant: Vec<bool> = retrieved.iter().map(|m| expected.contains(m) && seen.insert(m)).collect();
    let n_relevant = expected.iter().collect::<BTreeSet<_>>().len();
    let claims = text_claims(&answer.answer);
    let true_claims = claims.iter().filter(|(src, dst)| graph.has_edge(src, dst)).count();
    let supported_citations = cited
        .iter()
        .filter(|module| match (&answer.mode, &question.oracle_query) {
            (Mode::Structural, Some(query)) => graph.relation_holds(query, module),
            (Mode::Structural, None) => bundle.nodes.contains_key(*module),
            _ => answer.context.iter().any(|c| &c.module == *module),
        })
        .count();
    let answerable = question.answerable;
    QuestionScore {
        id: question.id.clone(),
        category: question.category.clone(),
        answerable,
        mode: answer.mode,
        latency_ms,
        context_recall: answerable.then(|| metrics::context_recall(expected, &retrieved)).flatten(),
        context_precision: if answerable && n_relevant > 0 {
            metrics::ragas_context_precision(&relevant)
        } else {
            None
        },
        average_precision: if answerable && !retrieved.is_empty() {
            metrics::average_precision(&first_relevant, n_relevant)
        } else {
            None
        },
        reciprocal_rank: if answerable && n_relevant > 0 { metrics::reciprocal_rank(&first_relevant) } else { None },
        faithfulness: metrics::supported_share(supported_citations + true_claims, cited.len() + claims.len()),
        claim_truth: metrics::supported_share(true_claims, claims.len()),
        answer_correctness: answerable.then(|| correctness(question, answer, &cited, declined)),
        answer_relevancy: answerable.then(|| relevancy(question, answer, &cited, declined)),
        abstention: (!answerable).then_some(if declined { 1.0 } else { 0.0 }),
        false_decline: answerable.then_some(if declined { 1.0 } else { 0.0 }),
        cited,
        retrieved,
        judged: None,
    }
}

fn correctness(question: &Question, answer: &Answer, cited: &[String], declined: bool) -> f64 {
    let expected = &question.expected;
    if declined {
        return 0.0;
    }
    if let Some(number) = expected.number {
        return f64::from(u8::from(metrics::states_number(&answer.answer, number)));
    }
    if let Some(yes) = expected.yes_no {
        return f64::from(u8::from(answers_yes_no(answer) == Some(yes)));
    }
    if !expected.ranking.is_empty() {
        let k = expected.ranking_k.unwrap_or(expected.ranking.len());
        return metrics::ranking_overlap(cited, &expected.ranking, k, &expected.ranking_ties).unwrap_or(0.0);
    }
    metrics::set_f1(cited, &expected.modules)
}

/// The yes or no an answer gives. Retrieved code listed without a verdict gives neither, however its
/// first sentence reads (it would otherwise count as a "yes" for having no negation).
fn answers_yes_no(answer: &Answer) -> Option<bool> {
    match answer.mode {
        Mode::Structural | Mode::Generated => metrics::yes_no_of(&answer.answer),
        Mode::Retrieval | Mode::Declined => None,
    }
}

fn relevancy(question: &Question, answer: &Answer, cited: &[String], declined: bool) -> f64 {
    let expected = &question.expected;
    let haystack = format!("{}\n{}", answer.answer, cited.join("\n")).to_lowercase();
    let subjects = subject_terms(question);
    let names_subject =
        if subjects.is_empty() { !cited.is_empty() } else { subjects.iter().any(|term| haystack.contains(term)) };
    let answers_type = if expected.number.is_some() {
        !metrics::numbers_in(&answer.answer).is_empty()
    } else if expected.yes_no.is_some() {
        answers_yes_no(answer).is_some()
    } else if !expected.ranking.is_empty() {
        cited.len() >= expected.ranking_k.unwrap_or(expected.ranking.len()).min(expected.ranking.len())
    } else {
        !cited.is_empty()
    };
    metrics::answer_relevancy(names_subject, answers_type, declined)
}

/// What the question is about, lowercased: the oracle's module (its file stem or last dotted part) or
/// symbol, else the identifiers the question names (`snake_case`, `CamelCase`, dotted, paths, code).
pub fn subject_terms(question: &Question) -> Vec<String> {
    let mut terms = Vec::new();
    if let Some(query) = &question.oracle_query {
        for mention in [query.module.as_deref(), query.name.as_deref()].into_iter().flatten() {
            terms.push(last_part(mention));
        }
    }
    if terms.is_empty() {
        for name in strata_core::text::code_names(&question.question) {
            terms.push(last_part(&name.text));
        }
    }
    terms.retain(|term| term.len() >= 3 && term != "py");
    terms
}

fn last_part(mention: &str) -> String {
    let mention = mention.trim_end_matches(".py").trim_end_matches("/__init__");
    let last = mention.rsplit(['/', '.']).next().unwrap_or(mention);
    let last = if last == "__init__" { mention } else { last };
    last.to_lowercase()
}

/// "`a` imports `b`" statements in an answer.
fn text_claims(text: &str) -> Vec<(String, String)> {
    static CLAIM: LazyLock<Regex> =
        LazyLock::new(|| Regex::new(r"`([^`\s]+)` imports `([^`\s]+)`").expect("valid regex"));
    CLAIM.captures_iter(text).map(|c| (c[1].to_string(), c[2].to_string())).collect()
}

/// One edge of the oracle's graph, as `ast_oracle.py edge-paths` prints it.
#[derive(Debug, Clone, serde::Deserialize)]
pub struct OracleEdge {
    pub src: String,
    pub dst: String,
    pub type_checking: bool,
    /// Every import of the pair is in an `if __name__ == "__main__":` block (or under TYPE_CHECKING).
    #[serde(default)]
    pub main_block: bool,
}

pub fn read_oracle_edges(path: &std::path::Path) -> anyhow::Result<Vec<OracleEdge>> {
    use anyhow::Context;
    let text = std::fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))?;
    serde_json::from_str(&text)
        .with_context(|| format!("{} is not a list of edges from `ast_oracle.py edge-paths`", path.display()))
}

/// The graph claims are checked against: the oracle's edges when given, else the index's; the
/// index's modules and symbols either way (the questions name modules by the same paths). Reachability
/// and cycles are `graph_view::GraphView` queries over those edges, as `ask` answers them.
pub struct Graph<'a> {
    bundle: &'a Bundle,
    view: GraphView<'a>,
    /// `oracle` or `index`.
    pub source: &'static str,
}

impl<'a> Graph<'a> {
    pub fn of(bundle: &'a Bundle, oracle: Option<&'a [OracleEdge]>) -> Graph<'a> {
        let tests = TestModules::of(bundle);
        let nodes = bundle.nodes.keys().map(String::as_str);
        let (view, source) = match oracle {
            Some(edges) => {
                let edges = edges
                    .iter()
                    .map(|e| (e.src.as_str(), e.dst.as_str(), EdgeKind::from_flags(e.type_checking, e.main_block), 0));
                (GraphView::from_edges(nodes, edges, &tests), "oracle")
            }
            None => (GraphView::of(bundle), "index"),
        };
        Graph { bundle, view, source }
    }

    fn has_edge(&self, src: &str, dst: &str) -> bool {
        self.edge(src, dst, false)
    }

    fn edge(&self, src: &str, dst: &str, runtime: bool) -> bool {
        self.view.edge(src, dst).is_some_and(|(kind, _)| Filter::imports(runtime).keeps(kind))
    }

    /// The node id a question's module mention names: a path (of the index, or of the oracle's graph)
    /// or a dotted module name.
    fn resolve(&self, mention: &str) -> Option<&'a str> {
        if let Some((id, _)) = self.bundle.nodes.get_key_value(mention) {
            return Some(id.as_str());
        }
        if let Some(id) = self.view.ids().iter().find(|id| **id == mention) {
            return Some(id);
        }
        self.bundle.nodes.values().find(|node| node.module == mention).map(|node| node.id.as_str())
    }

    /// Modules that reach `target` along edges, `target` excluded.
    fn dependents(&self, target: &str, runtime: bool) -> Vec<&'a str> {
        self.view.reach(&[target], Direction::Importers, &Filter::imports(runtime)).ids()
    }

    /// Whether `a` and `b` are in one cycle.
    fn same_cycle(&self, a: &str, b: &str, runtime: bool) -> bool {
        a != b && self.view.cycle_of(a, &Filter::imports(runtime)).is_some_and(|cycle| cycle.contains(&b))
    }

    fn relation_holds(&self, query: &OracleQuery, cited: &str) -> bool {
        let subject = query.module.as_deref().and_then(|m| self.resolve(m));
        let runtime = query.runtime;
        match (query.op.as_str(), subject) {
            ("imports-of", Some(subject)) => self.edge(subject, cited, runtime),
            ("imported-by", Some(subject)) => self.edge(cited, subject, runtime),
            ("impact", Some(subject)) => self.dependents(subject, runtime).contains(&cited),
            ("cycle-of", Some(subject)) => subject == cited || self.same_cycle(subject, cited, runtime),
            ("cycles", _) => self.view.cycle_of(cited, &Filter::imports(runtime)).is_some(),
            ("defined-in", _) => {
                // `Class.method`: the module defines the method, its class, or a symbol of that name.
                let name = query.name.as_deref().unwrap_or_default();
                let (first, last) = (name.split('.').next().unwrap_or(name), name.rsplit('.').next().unwrap_or(name));
                self.bundle.nodes.get(cited).is_some_and(|node| {
                    node.symbols.iter().any(|s| s.name == name || s.name == first || s.name == last)
                })
            }
            ("exports", Some(subject)) => subject == cited,
            _ => self.bundle.nodes.contains_key(cited),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn claims_are_read_from_backticked_statements() {
        let claims = text_claims("`a/x.py` imports `a/y.py`; see also `b.py` imports `c.py`.");
        assert_eq!(claims, [("a/x.py".into(), "a/y.py".into()), ("b.py".into(), "c.py".into())]);
    }

    fn empty_bundle_with_edge(src: &str, dst: &str) -> Bundle {
        let mut bundle: Bundle = serde_json::from_str(
            r#"{"schema_version":"x","meta":{"generator":{"name":"s","version":"0"},"language":"python","edge_direction":"x","commit":null,"source":"git","source_roots":[],"conventions":{},"skipped_files":[]},"nodes":{},"edges":[],"cycles":[],"folder_index":{},"counts":{"modules":0,"edges":0,"type_checking_edges":0,"cycles":0,"cycles_runtime":0,"largest_cycle":0,"largest_cycle_runtime":0,"folders":0,"symbols":0,"partial_files":0,"skipped_files":0}}"#,
        )
        .unwrap();
        bundle.edges.push(serde_json::from_value(serde_json::json!({"src": src, "dst": dst, "kind": "import", "type_checking": false, "conditional": false, "local": false, "line": 1, "names": []})).unwrap());
        bundle
    }

    fn oracle(edges: &[(&str, &str, bool)]) -> Vec<OracleEdge> {
        edges
            .iter()
            .map(|(src, dst, tc)| OracleEdge {
                src: src.to_string(),
                dst: dst.to_string(),
                type_checking: *tc,
                main_block: false,
            })
            .collect()
    }

    #[test]
    fn with_the_oracle_claims_are_checked_against_its_edges_not_the_index() {
        // The index claims a.py imports b.py; the oracle says it does not.
        let bundle = empty_bundle_with_edge("a.py", "b.py");
        assert!(Graph::of(&bundle, None).has_edge("a.py", "b.py"));
        let edges = oracle(&[("a.py", "c.py", false), ("c.py", "d.py", true), ("d.py", "a.py", false)]);
        let graph = Graph::of(&bundle, Some(&edges));
        assert_eq!(graph.source, "oracle");
        assert!(!graph.has_edge("a.py", "b.py") && graph.has_edge("a.py", "c.py"));
        let query = |op: &str, runtime| OracleQuery { op: op.into(), module: Some("a.py".into()), name: None, runtime };
        // The oracle's paths and cycles, with and without the TYPE_CHECKING-only edge.
        assert!(graph.relation_holds(&query("impact", false), "c.py"));
        assert!(!graph.relation_holds(&query("impact", true), "c.py"));
        assert!(graph.relation_holds(&query("cycle-of", false), "d.py"));
        assert!(!graph.relation_holds(&query("cycle-of", true), "d.py"));
        assert!(graph.relation_holds(&query("cycles", false), "c.py"));
        assert!(!graph.relation_holds(&query("imports-of", false), "b.py"));
    }

    #[test]
    fn subjects_come_from_the_oracle_or_the_identifiers() {
        let mut question: Question = serde_json::from_value(serde_json::json!({
            "id": "q", "repo": "r", "version": "1", "category": "behavioural", "answerable": true,
            "question": "How does `url_for` build URLs for a BlueprintSetupState?", "expected": {}, "provenance": {}
        }))
        .unwrap();
        assert_eq!(subject_terms(&question), ["url_for", "blueprintsetupstate"]);
        question.oracle_query = Some(OracleQuery {
            op: "imports-of".into(),
            module: Some("src/flask/ctx.py".into()),
            name: None,
            runtime: false,
        });
        assert_eq!(subject_terms(&question), ["ctx"]);
    }
}
