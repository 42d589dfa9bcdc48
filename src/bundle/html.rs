//! `graph.html`: one self-contained page (no network) with the interactive import graph. The layout and
//! rendering come from the vendored force-graph library (MIT, `assets/vendor/force-graph/`); this file
//! only packs the bundle into a compact array form and inlines it with the library into the template.

use anyhow::Result;
use serde_json::json;

use super::model::Bundle;

const TEMPLATE: &str = include_str!("../../assets/graph.html");
const LIBRARY: &str = include_str!("../../assets/vendor/force-graph/force-graph.min.js");

pub fn render_graph_html(bundle: &Bundle) -> Result<String> {
    let ids: Vec<&String> = bundle.nodes.keys().collect();
    let position = |id: &str| ids.binary_search_by(|probe| probe.as_str().cmp(id)).ok();
    let groups = colour_groups(bundle);
    let nodes: Vec<serde_json::Value> = bundle
        .nodes
        .values()
        .map(|node| {
            let group = groups.binary_search(&colour_group(&node.folder)).unwrap_or(0);
            json!([node.id, node.module, group, node.scc_size, node.importers_count, node.pagerank])
        })
        .collect();
    let edges: Vec<serde_json::Value> = bundle
        .edges
        .iter()
        .filter_map(|edge| Some(json!([position(&edge.src)?, position(&edge.dst)?, u8::from(edge.type_checking)])))
        .collect();
    let data = json!({ "commit": bundle.meta.commit, "groups": groups, "nodes": nodes, "edges": edges });
    // `</` inside a script element would end it early; `<\/` means the same to JSON.parse.
    let data_text = serde_json::to_string(&data)?.replace("</", "<\\/");
    Ok(TEMPLATE.replacen("/*STRATA_LIBRARY*/", LIBRARY, 1).replacen("/*STRATA_DATA*/", &data_text, 1))
}

/// Folders are coloured by their first two path segments, so a package's sub-packages share hues.
fn colour_group(folder: &str) -> String {
    folder.split('/').take(2).collect::<Vec<_>>().join("/")
}

fn colour_groups(bundle: &Bundle) -> Vec<String> {
    let mut groups: Vec<String> = bundle.nodes.values().map(|node| colour_group(&node.folder)).collect();
    groups.sort();
    groups.dedup();
    groups
}
