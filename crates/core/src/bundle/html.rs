//! `graph.html`: one self-contained page (no network) with the interactive import graph. The layout and
//! rendering come from the vendored force-graph library (MIT, `assets/vendor/force-graph/`); the page's
//! own script (`assets/graph.html`) draws packages first (a package with more than 60 modules of its own
//! opens at once), opens them on click, gives labels that several nodes share their folder, and fits labels and
//! arrowheads inside the canvas. This file only packs the bundle into a compact array form and inlines
//! it with the library into the template.

use anyhow::Result;
use serde_json::json;

use super::model::Bundle;
use crate::graph_view::EdgeKind;

const TEMPLATE: &str = include_str!("../../../../assets/graph.html");
const LIBRARY: &str = include_str!("../../../../assets/vendor/force-graph/force-graph.min.js");

/// Where the page links a module's code: `{repository}/blob/{commit}/{folder}{path}`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CodeLinks {
    /// `https://github.com/owner/name`.
    pub repository: String,
    /// The indexed folder inside the repository (`src/`, empty for its root).
    pub folder: String,
}

/// The page; `start` is the view it opens on when its URL names none, in the page's URL-fragment form
/// (`module=shop/cart.py`, `tab=cycles`, `tc=0`; empty for the package view).
pub fn render_graph_html(bundle: &Bundle, links: Option<&CodeLinks>, start: &str) -> Result<String> {
    let ids: Vec<&String> = bundle.nodes.keys().collect();
    let position = |id: &str| ids.binary_search_by(|probe| probe.as_str().cmp(id)).ok();
    let nodes: Vec<serde_json::Value> = bundle
        .nodes
        .values()
        .map(|node| json!([node.id, node.module, node.folder, node.scc_size, node.importers_count, node.exports]))
        .collect();
    // When each import runs: 0 on import, 1 never (`TYPE_CHECKING`), 2 only as a script (`__main__`).
    let edges: Vec<serde_json::Value> = bundle
        .edges
        .iter()
        .filter_map(|edge| {
            let kind = match EdgeKind::of(edge) {
                EdgeKind::Runtime => 0,
                EdgeKind::TypeChecking => 1,
                EdgeKind::MainBlock => 2,
            };
            Some(json!([position(&edge.src)?, position(&edge.dst)?, kind]))
        })
        .collect();
    // Cycles over every edge, largest first (the bundle's order), as member positions.
    let cycles: Vec<Vec<usize>> = bundle
        .cycles
        .iter()
        .filter(|cycle| cycle.edges == "all")
        .map(|cycle| cycle.members.iter().filter_map(|m| position(m)).collect())
        .collect();
    let data = json!({
        "commit": bundle.meta.commit,
        "repository": links.map(|l| l.repository.trim_end_matches('/')),
        "folder": links.map_or("", |l| l.folder.as_str()),
        "nodes": nodes,
        "edges": edges,
        "cycles": cycles,
        "start": start,
    });
    // `</` inside a script element would end it early; `<\/` means the same to JSON.parse.
    let data_text = serde_json::to_string(&data)?.replace("</", "<\\/");
    Ok(TEMPLATE.replacen("/*STRATA_LIBRARY*/", LIBRARY, 1).replacen("/*STRATA_DATA*/", &data_text, 1))
}
