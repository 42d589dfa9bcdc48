//! The offline answer when no LLM is configured: the modules the retrieved chunks point to, what each
//! is (docstring, matching symbol and lines), and how they import one another.

use std::collections::BTreeSet;
use std::fmt::Write;

use strata_core::bundle::Bundle;
use strata_search::retrieve::Retrieval;

/// How many modules the answer names.
const MAX_MODULES: usize = 5;
/// A module is named only when its retrieval score is at least this share of the best module's: the
/// rest stay in the context, where a reader can still find them, without diluting the answer.
const MIN_SCORE_SHARE: f32 = 0.5;

pub struct Extract {
    pub text: String,
    pub cited: Vec<(String, Option<(u32, u32)>)>,
}

pub fn answer(bundle: &Bundle, retrieval: &Retrieval) -> Extract {
    let mut modules: Vec<&str> = Vec::new();
    let mut cited = Vec::new();
    let mut lines = Vec::new();
    let best = retrieval.modules.first().map_or(0.0, |(_, score)| *score);
    let strong: BTreeSet<&str> = retrieval
        .modules
        .iter()
        .filter(|(_, score)| *score >= MIN_SCORE_SHARE * best)
        .map(|(id, _)| id.as_str())
        .collect();
    for hit in retrieval.hits.iter().filter(|hit| strong.contains(hit.module.as_str())) {
        let Some(node) = bundle.nodes.get(&hit.module) else { continue };
        let first_for_module = !modules.contains(&hit.module.as_str());
        if first_for_module && modules.len() >= MAX_MODULES {
            continue;
        }
        let location = match (&hit.symbol, hit.kind.as_str()) {
            (Some(symbol), "code") => format!("`{symbol}` (lines {}-{})", hit.line_start, hit.line_end),
            _ => "the module as a whole".to_string(),
        };
        if first_for_module {
            modules.push(&hit.module);
            let summary = node.docstring.as_deref().map(|d| format!(": {d}")).unwrap_or_default();
            lines.push(format!("- `{}`{summary} — see {location}", node.id));
        } else if let Some(last) = lines.iter_mut().find(|line| line.starts_with(&format!("- `{}`", node.id))) {
            let _ = write!(last, ", {location}");
        }
        let range = (hit.kind == "code").then_some((hit.line_start, hit.line_end));
        cited.push((hit.module.clone(), range));
    }
    let mut text = String::from("The most relevant code for this question:\n");
    text.push_str(&lines.join("\n"));
    let chosen: BTreeSet<&str> = modules.iter().copied().collect();
    let links: Vec<String> = bundle
        .edges
        .iter()
        .filter(|edge| chosen.contains(edge.src.as_str()) && chosen.contains(edge.dst.as_str()))
        .map(|edge| format!("`{}` imports `{}`", edge.src, edge.dst))
        .collect();
    if !links.is_empty() {
        let _ = write!(text, "\n\nHow they connect: {}.", links.join("; "));
    }
    if !retrieval.graph_facts.is_empty() {
        text.push_str("\n\nWhat the import graph says about the modules the question names:");
        for (id, facts) in &retrieval.graph_facts {
            let _ = write!(text, "\n- `{id}`: {facts}");
            cited.push((id.clone(), None));
        }
    }
    Extract { text, cited }
}
