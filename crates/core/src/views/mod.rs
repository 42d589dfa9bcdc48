//! Graph views people can read, from a bundle: the package level (folders, edges aggregated with
//! counts), a module's neighbourhood (`focus`, `depth`), only the import cycles, and runtime edges
//! only. Pure: a bundle and a [`ViewRequest`] in, a [`View`] out; `render` writes Mermaid, DOT and JSON.
//!
//! Neighbourhoods and cycles are `graph_view::GraphView` queries on the level's graph. Cycles are found
//! before a focus cuts the view down, so a group says how large its whole cycle is. At the package
//! level a package with more than [`OWN_MODULES_OPEN`] modules of its own (not counting its
//! subfolders') is shown as those modules: one box would hide them, and there is no finer package
//! level to show them at (rich's 78 modules were one box, `rich (78)`).

pub mod render;

use std::collections::{BTreeMap, BTreeSet};

use serde::Serialize;

use crate::bundle::Bundle;
use crate::graph_view::{EdgeKind, Filter, GraphView, TestModules};

/// A package with more modules of its own than this is shown as its modules at the package level (as
/// `graph.html` opens it), rather than as one box.
pub const OWN_MODULES_OPEN: usize = 60;

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
    /// Only imports that run on import: leave out `TYPE_CHECKING` and `__main__`-block imports.
    pub runtime: bool,
    /// At the package level, folders deeper than this many levels are folded into their ancestor (and
    /// no package is shown as its modules).
    pub package_depth: Option<usize>,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct View {
    pub level: &'static str,
    pub nodes: Vec<ViewNode>,
    pub edges: Vec<ViewEdge>,
    /// Cycles (or package-level cycles) as groups, largest first.
    pub groups: Vec<ViewGroup>,
}

/// One cycle: how many nodes the whole cycle has, and those of them the view shows.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ViewGroup {
    pub size: usize,
    /// The members in the view, sorted.
    pub members: Vec<String>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ViewNode {
    pub id: String,
    /// `module` or `package` (at the package level, the modules of a package with more than
    /// [`OWN_MODULES_OPEN`] of its own are modules).
    pub kind: &'static str,
    /// Modules in it (1 for a module).
    pub modules: usize,
    /// Modules that depend on it, directly or not (the largest of its modules at the package level).
    pub dependents: usize,
    /// In an import cycle, whether or not the rest of the cycle is in the view.
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
    /// No import it stands for runs on import, and some are in `__main__` blocks.
    pub main_block: bool,
}

impl ViewEdge {
    fn kind(&self) -> EdgeKind {
        EdgeKind::from_flags(self.type_checking, self.main_block)
    }
}

/// The view, or an error naming a focus that matches nothing.
pub fn view(bundle: &Bundle, request: &ViewRequest) -> anyhow::Result<View> {
    let filter = Filter::imports(request.runtime);
    let (mut nodes, mut view_edges) = match request.level {
        Level::Module => module_level(bundle, &filter),
        Level::Package => package_level(bundle, &filter, request.package_depth),
    };
    let graph = GraphView::from_edges(
        nodes.iter().map(|n| n.id.as_str()),
        view_edges.iter().map(|e| (e.src.as_str(), e.dst.as_str(), e.kind(), 1)),
        &TestModules::pytest(),
    );
    let cycles: Vec<Vec<String>> =
        graph.cycles(&Filter::all()).into_iter().map(|cycle| cycle.into_iter().map(str::to_string).collect()).collect();
    if let Some(focus) = &request.focus {
        let centre = resolve(bundle, &nodes, focus, request)?;
        let keep: BTreeSet<String> =
            graph.neighbourhood(&centre, request.depth, &Filter::all()).into_iter().map(str::to_string).collect();
        nodes.retain(|n| keep.contains(&n.id));
        view_edges.retain(|e| keep.contains(&e.src) && keep.contains(&e.dst));
    }
    let cyclic: BTreeSet<&String> = cycles.iter().flatten().collect();
    for node in &mut nodes {
        node.in_cycle = cyclic.contains(&node.id);
    }
    let shown: BTreeSet<String> = nodes.iter().map(|n| n.id.clone()).collect();
    let groups: Vec<ViewGroup> = cycles
        .iter()
        .map(|cycle| ViewGroup {
            size: cycle.len(),
            members: cycle.iter().filter(|m| shown.contains(*m)).cloned().collect(),
        })
        .filter(|group| !group.members.is_empty())
        .collect();
    if request.cycles {
        nodes.retain(|n| n.in_cycle);
        // Only the imports inside one cycle: those between cycles would tangle the groups again.
        let group_of: BTreeMap<&String, usize> =
            cycles.iter().enumerate().flat_map(|(i, g)| g.iter().map(move |id| (id, i))).collect();
        view_edges.retain(|e| group_of.get(&e.src).is_some_and(|g| group_of.get(&e.dst) == Some(g)));
    }
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
    let largest: BTreeSet<String> = shown.groups.first()?.members.iter().cloned().collect();
    if largest.len() > MAX_SUMMARY_DIAGRAM {
        return None;
    }
    shown.nodes.retain(|n| largest.contains(&n.id));
    shown.edges.retain(|e| largest.contains(&e.src) && largest.contains(&e.dst));
    shown.groups.truncate(1);
    let diagram = render::mermaid(&shown).ok()?;
    Some(format!(
        "## The largest import cycle\n\n{} modules; dashed imports do not run on import (under `if TYPE_CHECKING:` or in a `__main__` block).\n\n```mermaid\n{diagram}```\n",
        largest.len()
    ))
}

fn module_level(bundle: &Bundle, filter: &Filter) -> (Vec<ViewNode>, Vec<ViewEdge>) {
    let nodes = bundle
        .nodes
        .values()
        .map(|n| ViewNode {
            id: n.id.clone(),
            kind: "module",
            modules: 1,
            dependents: n.importers_count,
            in_cycle: false,
        })
        .collect();
    let edges = bundle
        .edges
        .iter()
        .filter(|e| filter.keeps(EdgeKind::of(e)))
        .map(|e| ViewEdge {
            src: e.src.clone(),
            dst: e.dst.clone(),
            count: 1,
            type_checking: e.type_checking,
            main_block: e.main_block,
        })
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

/// Folders with more than [`OWN_MODULES_OPEN`] modules of their own.
fn large_packages(bundle: &Bundle) -> BTreeSet<String> {
    let mut sizes: BTreeMap<&str, usize> = BTreeMap::new();
    for node in bundle.nodes.values() {
        *sizes.entry(node.folder.as_str()).or_default() += 1;
    }
    sizes.into_iter().filter(|(_, n)| *n > OWN_MODULES_OPEN).map(|(folder, _)| folder.to_string()).collect()
}

fn package_level(bundle: &Bundle, filter: &Filter, depth: Option<usize>) -> (Vec<ViewNode>, Vec<ViewEdge>) {
    let expanded = if depth.is_none() { large_packages(bundle) } else { BTreeSet::new() };
    // The node a module is drawn in: itself inside an expanded package, else its package.
    let unit_of = |id: &str| -> String {
        match bundle.nodes.get(id) {
            Some(node) if expanded.contains(&node.folder) => id.to_string(),
            _ => package_of(bundle, id, depth),
        }
    };
    let mut units: BTreeMap<String, ViewNode> = BTreeMap::new();
    for node in bundle.nodes.values() {
        let id = unit_of(&node.id);
        let kind = if id == node.id { "module" } else { "package" };
        let entry =
            units.entry(id.clone()).or_insert(ViewNode { id, kind, modules: 0, dependents: 0, in_cycle: false });
        entry.modules += 1;
        entry.dependents = entry.dependents.max(node.importers_count);
    }
    // Per pair of units: imports, and how many are TYPE_CHECKING-only and main-block-only.
    let mut aggregated: BTreeMap<(String, String), (usize, usize, usize)> = BTreeMap::new();
    for edge in bundle.edges.iter().filter(|e| filter.keeps(EdgeKind::of(e))) {
        let (from, to) = (unit_of(&edge.src), unit_of(&edge.dst));
        if from != to {
            let entry = aggregated.entry((from, to)).or_default();
            entry.0 += 1;
            entry.1 += usize::from(edge.type_checking);
            entry.2 += usize::from(edge.main_block);
        }
    }
    let edges = aggregated
        .into_iter()
        .map(|((src, dst), (count, type_checking, main_block))| ViewEdge {
            src,
            dst,
            count,
            type_checking: type_checking == count,
            main_block: type_checking < count && type_checking + main_block == count,
        })
        .collect();
    (units.into_values().collect(), edges)
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
            Level::Package if nodes.iter().any(|n| n.id == id) => id.to_string(),
            Level::Package => package_of(bundle, id, request.package_depth),
        });
    }
    anyhow::bail!(
        "--focus {focus} names no {} of the index",
        if level == Level::Module { "module" } else { "package (folder) or module" }
    )
}
