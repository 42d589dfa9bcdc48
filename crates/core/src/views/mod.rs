//! Graph views people can read, from a bundle: the package level (folders, edges aggregated with
//! counts), a module's neighbourhood (`focus`, `depth`), only the import cycles, and runtime edges
//! only. Pure: a bundle and a [`ViewRequest`] in, a [`View`] out; `render` writes Mermaid, DOT and JSON.

pub mod render;

use std::collections::{BTreeMap, BTreeSet, VecDeque};

use petgraph::algo::tarjan_scc;
use petgraph::graph::DiGraph;
use serde::Serialize;

use crate::bundle::Bundle;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Level {
    Package,
    Module,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ViewRequest {
    pub level: Level,
    /// A module id, dotted name or (at the package level) folder to centre on.
    pub focus: Option<String>,
    /// How many imports away from `focus`, both directions.
    pub depth: usize,
    /// Only the modules in import cycles, each cycle a group.
    pub cycles: bool,
    /// Leave out `TYPE_CHECKING`-only imports.
    pub runtime: bool,
    /// At the package level, folders deeper than this many levels are folded into their ancestor.
    pub package_depth: Option<usize>,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct View {
    pub level: &'static str,
    pub nodes: Vec<ViewNode>,
    pub edges: Vec<ViewEdge>,
    /// Cycles (or package-level cycles) as groups of node ids, largest first.
    pub groups: Vec<Vec<String>>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ViewNode {
    pub id: String,
    /// Modules in it (1 for a module).
    pub modules: usize,
    /// Modules that depend on it, directly or not (the largest of its modules at the package level).
    pub dependents: usize,
    pub in_cycle: bool,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ViewEdge {
    pub src: String,
    pub dst: String,
    /// Module imports it stands for (1 at the module level).
    pub count: usize,
    /// Every import it stands for is `TYPE_CHECKING`-only.
    pub type_checking: bool,
}

/// The view, or an error naming a focus that matches nothing.
pub fn view(bundle: &Bundle, request: &ViewRequest) -> anyhow::Result<View> {
    let edges: Vec<(&str, &str, bool)> = bundle
        .edges
        .iter()
        .filter(|e| !(request.runtime && e.type_checking))
        .map(|e| (e.src.as_str(), e.dst.as_str(), e.type_checking))
        .collect();
    let (mut nodes, mut view_edges) = match request.level {
        Level::Module => module_level(bundle, &edges),
        Level::Package => package_level(bundle, &edges, request.package_depth),
    };
    if let Some(focus) = &request.focus {
        let centre = resolve(bundle, &nodes, focus, request)?;
        let keep = neighbourhood(&view_edges, &centre, request.depth);
        nodes.retain(|n| keep.contains(&n.id));
        view_edges.retain(|e| keep.contains(&e.src) && keep.contains(&e.dst));
    }
    let mut groups = strongly_connected(&nodes, &view_edges);
    let grouped: BTreeSet<String> = groups.iter().flatten().cloned().collect();
    for node in &mut nodes {
        node.in_cycle = grouped.contains(&node.id);
    }
    if request.cycles {
        nodes.retain(|n| n.in_cycle);
        // Only the imports inside one cycle: those between cycles would tangle the groups again.
        let group_of: BTreeMap<&String, usize> =
            groups.iter().enumerate().flat_map(|(i, g)| g.iter().map(move |id| (id, i))).collect();
        view_edges.retain(|e| group_of.get(&e.src).is_some_and(|g| group_of.get(&e.dst) == Some(g)));
    }
    groups.sort_by(|a, b| b.len().cmp(&a.len()).then_with(|| a.cmp(b)));
    Ok(View {
        level: if request.level == Level::Module { "module" } else { "package" },
        nodes,
        edges: view_edges,
        groups,
    })
}

/// Modules in one diagram at most where a summary shows it unasked.
pub const MAX_SUMMARY_DIAGRAM: usize = 40;

/// A Markdown section with a Mermaid diagram of the largest import cycle (module level), for
/// `summary.md`; `None` without cycles or when the cycle is too large to read as a diagram.
pub fn largest_cycle_section(bundle: &Bundle) -> Option<String> {
    let request =
        ViewRequest { level: Level::Module, focus: None, depth: 0, cycles: true, runtime: false, package_depth: None };
    let mut shown = view(bundle, &request).ok()?;
    let largest: BTreeSet<String> = shown.groups.first()?.iter().cloned().collect();
    if largest.len() > MAX_SUMMARY_DIAGRAM {
        return None;
    }
    shown.nodes.retain(|n| largest.contains(&n.id));
    shown.edges.retain(|e| largest.contains(&e.src) && largest.contains(&e.dst));
    shown.groups.truncate(1);
    let diagram = render::mermaid(&shown).ok()?;
    Some(format!(
        "## The largest import cycle\n\n{} modules; dashed imports are under `if TYPE_CHECKING:`.\n\n```mermaid\n{diagram}```\n",
        largest.len()
    ))
}

fn module_level(bundle: &Bundle, edges: &[(&str, &str, bool)]) -> (Vec<ViewNode>, Vec<ViewEdge>) {
    let nodes = bundle
        .nodes
        .values()
        .map(|n| ViewNode { id: n.id.clone(), modules: 1, dependents: n.importers_count, in_cycle: false })
        .collect();
    let edges = edges
        .iter()
        .map(|(src, dst, tc)| ViewEdge { src: src.to_string(), dst: dst.to_string(), count: 1, type_checking: *tc })
        .collect();
    (nodes, edges)
}

/// A module's package: its folder (`.` for the root), cut to `depth` levels when given.
fn package_of(bundle: &Bundle, id: &str, depth: Option<usize>) -> String {
    let folder = bundle.nodes.get(id).map_or("", |n| n.folder.as_str());
    if folder.is_empty() {
        return ".".to_string();
    }
    match depth {
        Some(depth) => folder.split('/').take(depth.max(1)).collect::<Vec<_>>().join("/"),
        None => folder.to_string(),
    }
}

fn package_level(
    bundle: &Bundle,
    edges: &[(&str, &str, bool)],
    depth: Option<usize>,
) -> (Vec<ViewNode>, Vec<ViewEdge>) {
    let mut packages: BTreeMap<String, ViewNode> = BTreeMap::new();
    for node in bundle.nodes.values() {
        let id = package_of(bundle, &node.id, depth);
        let entry = packages.entry(id.clone()).or_insert(ViewNode { id, modules: 0, dependents: 0, in_cycle: false });
        entry.modules += 1;
        entry.dependents = entry.dependents.max(node.importers_count);
    }
    let mut aggregated: BTreeMap<(String, String), (usize, bool)> = BTreeMap::new();
    for (src, dst, tc) in edges {
        let (from, to) = (package_of(bundle, src, depth), package_of(bundle, dst, depth));
        if from != to {
            let entry = aggregated.entry((from, to)).or_insert((0, true));
            entry.0 += 1;
            entry.1 &= *tc;
        }
    }
    let edges = aggregated
        .into_iter()
        .map(|((src, dst), (count, type_checking))| ViewEdge { src, dst, count, type_checking })
        .collect();
    (packages.into_values().collect(), edges)
}

/// The id of the module named by its path or dotted name.
pub fn find_module<'b>(bundle: &'b Bundle, name: &str) -> Option<&'b str> {
    bundle.nodes.values().find(|n| n.module == name || n.id == name).map(|n| n.id.as_str())
}

fn resolve(bundle: &Bundle, nodes: &[ViewNode], focus: &str, request: &ViewRequest) -> anyhow::Result<String> {
    let level = request.level;
    let trimmed = focus.trim_end_matches('/');
    if nodes.iter().any(|n| n.id == trimmed) {
        return Ok(trimmed.to_string());
    }
    if let Some(id) = find_module(bundle, focus) {
        return Ok(match level {
            Level::Module => id.to_string(),
            Level::Package => package_of(bundle, id, request.package_depth),
        });
    }
    anyhow::bail!(
        "--focus {focus} names no {} of the index",
        if level == Level::Module { "module" } else { "package (folder) or module" }
    )
}

/// Node ids within `depth` imports of `centre`, either direction.
fn neighbourhood(edges: &[ViewEdge], centre: &str, depth: usize) -> BTreeSet<String> {
    let mut around: BTreeMap<&str, Vec<&str>> = BTreeMap::new();
    for edge in edges {
        around.entry(&edge.src).or_default().push(&edge.dst);
        around.entry(&edge.dst).or_default().push(&edge.src);
    }
    let mut seen = BTreeSet::from([centre.to_string()]);
    let mut queue = VecDeque::from([(centre.to_string(), 0)]);
    while let Some((id, distance)) = queue.pop_front() {
        if distance == depth {
            continue;
        }
        for next in around.get(id.as_str()).into_iter().flatten() {
            if seen.insert(next.to_string()) {
                queue.push_back((next.to_string(), distance + 1));
            }
        }
    }
    seen
}

/// Strongly connected components of more than one node, each sorted.
fn strongly_connected(nodes: &[ViewNode], edges: &[ViewEdge]) -> Vec<Vec<String>> {
    let mut graph = DiGraph::<&str, ()>::new();
    let index: BTreeMap<&str, _> = nodes.iter().map(|n| (n.id.as_str(), graph.add_node(n.id.as_str()))).collect();
    for edge in edges {
        if let (Some(&a), Some(&b)) = (index.get(edge.src.as_str()), index.get(edge.dst.as_str())) {
            graph.add_edge(a, b, ());
        }
    }
    tarjan_scc(&graph)
        .into_iter()
        .filter(|component| component.len() > 1)
        .map(|component| {
            let mut ids: Vec<String> = component.iter().map(|&i| graph[i].to_string()).collect();
            ids.sort();
            ids
        })
        .collect()
}
