//! Exact answers from the graph, without an LLM: imports, importers, impact (transitive dependents, all
//! edges or runtime only), cycles, rankings, leaves, import paths, where a symbol is defined and what a
//! module exports. Pure over the bundle.
//!
//! Two halves: `query` computes each part's result as data through `strata_core::graph_view` (the
//! same queries `impact`, `check`, `graph`, `diff` and `eval` use), `wording` says it. This file routes
//! a part to both and turns a yes/no question's result into "Yes:" or "No:".

mod query;
mod wording;

use std::collections::BTreeSet;

use serde::Serialize;

use super::understand::{Entity, Part, Relation};
use query::{Graph, Scope};
use strata_core::bundle::Bundle;
use strata_core::graph_view::{Direction, Filter};
use strata_search::chunks::limited;

/// An exact answer: its text, the modules it relies on (line ranges for symbol answers), and the
/// result as data for `ask --format json`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StructuralAnswer {
    pub text: String,
    pub cited: Vec<(String, Option<(u32, u32)>)>,
    pub result: ExactResult,
}

/// The computed answer of one part, for programs: what the text says, as values.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct ExactResult {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub yes: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub count: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub modules: Option<Vec<String>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub path: Option<Vec<String>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub names: Option<Vec<String>>,
}

/// Every part of an understood question answered, in order: one text, the modules cited, and each
/// part's result stored in the part.
pub struct AnsweredParts {
    pub text: String,
    pub cited: Vec<(String, Option<(u32, u32)>)>,
}

pub fn answer_parts(bundle: &Bundle, parts: &mut [Part]) -> AnsweredParts {
    let graph = Graph::new(bundle);
    let mut texts = Vec::new();
    let mut cited = Vec::new();
    for part in parts.iter_mut() {
        let answer = answer_with(&graph, part);
        texts.push(answer.text);
        cited.extend(answer.cited);
        part.result = Some(answer.result);
    }
    AnsweredParts { text: texts.join("\n\n"), cited }
}

/// The exact answer to one part.
pub fn answer_part(bundle: &Bundle, part: &Part) -> StructuralAnswer {
    answer_with(&Graph::new(bundle), part)
}

fn answer_with(graph: &Graph<'_>, part: &Part) -> StructuralAnswer {
    let scope = Scope::of(part);
    let module = |i: usize| part.modules.get(i);
    let mut answer = match (part.relation, module(0)) {
        (Relation::Imports, Some(m)) => {
            let found = query::neighbours(graph, &m.id, Direction::Imports, &scope);
            wording::neighbours(graph, m, found, &scope, part.count)
        }
        (Relation::Importers, Some(m)) => {
            let found = query::neighbours(graph, &m.id, Direction::Importers, &scope);
            wording::neighbours(graph, m, found, &scope, part.count)
        }
        (Relation::Dependents, Some(m)) => {
            wording::reach(graph, m, query::reach(graph, &m.id, Direction::Importers, &scope), &scope)
        }
        (Relation::Dependencies, Some(m)) => {
            wording::reach(graph, m, query::reach(graph, &m.id, Direction::Imports, &scope), &scope)
        }
        (Relation::Reach, Some(from)) => match module(1) {
            Some(to) => {
                let direct = !part.transitive;
                wording::path(&from.id, &to.id, direct, query::path(graph, &from.id, &to.id, direct, &scope), &scope)
            }
            None => unanswerable(),
        },
        (Relation::CycleOf, Some(m)) => {
            let found = query::cycle_of(graph, &m.id, &scope);
            // "Does requests have any import cycles?" is read as about `requests/__init__.py`; when that
            // is in none, the project's cycles elsewhere are what the asker may mean, and are said too.
            let top_level = strata_search::entities::is_top_level_package(graph.bundle, &m.id);
            let elsewhere = (found.cycle.is_none() && top_level).then(|| query::cycles(graph, &scope));
            wording::cycle_of(m, &found, elsewhere.as_ref(), &scope)
        }
        (Relation::SameCycle, Some(a)) => match module(1) {
            Some(b) => wording::same_cycle(a, b, &query::cycle_of(graph, &a.id, &scope), &scope),
            None => unanswerable(),
        },
        (Relation::Cycles, _) => wording::cycles(&query::cycles(graph, &scope), &scope, part.yes_no),
        (Relation::LargestCycle, _) => wording::largest_cycle(&query::cycles(graph, &scope), &scope),
        (ranking, _) if let Some(measure) = ranking.measure() => {
            wording::ranking(&query::ranking(graph, measure, &scope), measure, part.top.unwrap_or(10), &scope)
        }
        (Relation::Leaves, _) => {
            let found = query::without_links(graph, Direction::Imports, &scope);
            wording::without_links(&found, graph.bundle.nodes.len(), Direction::Imports, &scope)
        }
        (Relation::Roots, _) => {
            let found = query::without_links(graph, Direction::Importers, &scope);
            wording::without_links(&found, graph.bundle.nodes.len(), Direction::Importers, &scope)
        }
        (Relation::DefinedIn, _) => {
            let name = part.symbol.as_deref().unwrap_or_default();
            wording::defined_in(name, query::definitions(graph.bundle, name))
        }
        (Relation::Exports, Some(m)) => wording::exports(graph, m),
        _ => unanswerable(),
    };
    if part.yes_no && answer.result.yes.is_none() {
        let yes = answer.result.count.map(|n| n > 0).or(answer.result.modules.as_ref().map(|m| !m.is_empty()));
        if let Some(yes) = yes {
            answer.text = format!("{} {}", if yes { "Yes:" } else { "No:" }, lower_first(&answer.text));
            answer.result.yes = Some(yes);
        }
    }
    answer
}

fn unanswerable() -> StructuralAnswer {
    StructuralAnswer {
        text: "I could not tell which modules this is about.".into(),
        cited: Vec::new(),
        result: ExactResult::default(),
    }
}

fn lower_first(text: &str) -> String {
    // Module names in backticks and numbers stay as they are.
    let mut chars = text.chars();
    match chars.next() {
        Some(first) if first.is_uppercase() && !text.starts_with("No module") => {
            first.to_lowercase().chain(chars).collect()
        }
        _ => text.to_string(),
    }
}

/// Module ids whose names look most like the mention, for "did you mean" replies.
pub fn suggestions(bundle: &Bundle, mention: &str) -> Vec<String> {
    let wanted = mention.to_lowercase();
    let mut scored: Vec<(usize, &String)> = bundle
        .nodes
        .values()
        .map(|node| {
            let short = node.module.rsplit('.').next().unwrap_or(&node.module).to_lowercase();
            (
                strsim::levenshtein(&short, &wanted).min(strsim::levenshtein(&node.module.to_lowercase(), &wanted)),
                &node.id,
            )
        })
        .collect();
    scored.sort();
    scored.into_iter().take(3).map(|(_, id)| id.clone()).collect()
}

/// One line per named module: what it imports and what imports it, for answers that retrieval gives.
pub fn graph_facts(bundle: &Bundle, entities: &[Entity]) -> Vec<(String, String)> {
    let graph = Graph::new(bundle);
    let mut seen = BTreeSet::new();
    let mut facts = Vec::new();
    for entity in entities {
        let Some(node) = bundle.nodes.get(&entity.id) else { continue };
        if !seen.insert(node.id.clone()) {
            continue;
        }
        let quoted = |direction| -> Vec<String> {
            graph.view.neighbours(&node.id, direction, &Filter::all()).iter().map(|n| format!("`{}`", n.id)).collect()
        };
        let (imports, importers) = (quoted(Direction::Imports), quoted(Direction::Importers));
        let cycle = if node.scc_size > 1 {
            format!("; in an import cycle of {} modules", node.scc_size)
        } else {
            String::new()
        };
        facts.push((
            node.id.clone(),
            format!(
                "imports {} module(s) ({}); imported directly by {} ({}); {} module(s) depend on it{cycle}",
                imports.len(),
                limited(&imports, 8),
                importers.len(),
                limited(&importers, 8),
                node.importers_count
            ),
        ));
    }
    facts
}
