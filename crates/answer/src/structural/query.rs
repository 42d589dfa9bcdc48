//! The querying half of exact answers: each part of an understood question computed as data from the
//! bundle's `graph_view::GraphView`, with the filter the question's modifiers set. No text here;
//! `wording` says the results.

use std::collections::{BTreeMap, BTreeSet};

use strata_core::bundle::Bundle;
use strata_core::graph_view::{Chain, CycleStatus, Direction, EdgeKind, Filter, GraphView, Measure, Neighbour, Tests};

use super::super::understand::Part;

/// A bundle and its graph, built once per question.
pub(super) struct Graph<'a> {
    pub bundle: &'a Bundle,
    pub view: GraphView<'a>,
}

impl<'a> Graph<'a> {
    pub fn new(bundle: &'a Bundle) -> Graph<'a> {
        Graph { bundle, view: GraphView::of(bundle) }
    }

    /// Why a module was not read (skipped for its size), when it was not.
    pub fn skipped_reason(&self, id: &str) -> Option<&'a str> {
        let node = self.bundle.nodes.get(id)?;
        (node.parse_status == "skipped").then(|| node.warnings.first().map_or("", String::as_str))
    }
}

/// What a part counts: which imports, test modules, and which folder (`Part::within`).
#[derive(Debug, Clone)]
pub(super) struct Scope {
    pub filter: Filter,
}

impl Scope {
    pub fn of(part: &Part) -> Scope {
        let tests = match (part.without_tests, part.only_tests) {
            (true, _) => Tests::Excluded,
            (false, true) => Tests::Only,
            (false, false) => Tests::Included,
        };
        Scope { filter: Filter { tests, within: part.within.clone(), ..Filter::imports(part.runtime) } }
    }

    pub fn runtime(&self) -> bool {
        self.filter.is_runtime()
    }
}

/// One hop from a module.
pub(super) struct Neighbours<'a> {
    pub direction: Direction,
    pub found: Vec<Neighbour<'a>>,
}

pub(super) fn neighbours<'a>(graph: &Graph<'a>, id: &str, direction: Direction, scope: &Scope) -> Neighbours<'a> {
    Neighbours { direction, found: graph.view.neighbours(id, direction, &scope.filter) }
}

/// Everything a module reaches, or what reaches it.
pub(super) struct Reach<'a> {
    pub direction: Direction,
    /// Listed modules reached, sorted.
    pub modules: Vec<&'a str>,
    /// Those one import away.
    pub direct: BTreeSet<&'a str>,
    /// Those reached only through imports that do not run on import, with those imports' kinds.
    pub not_at_runtime: BTreeMap<&'a str, Vec<EdgeKind>>,
    /// For dependents of a package's `__init__.py`: modules that import none of it but run it by
    /// importing one of its submodules (the package `__init__` rule).
    pub package_runs: Vec<&'a str>,
}

pub(super) fn reach<'a>(graph: &Graph<'a>, id: &str, direction: Direction, scope: &Scope) -> Reach<'a> {
    let reached = graph.view.reach(&[id], direction, &scope.filter);
    let modules = reached.ids();
    let direct = graph.view.neighbours(id, direction, &scope.filter).into_iter().map(|n| n.id).collect();
    let not_at_runtime = modules
        .iter()
        .filter(|m| !reached.at_runtime(m))
        .map(|m| (*m, reached.chain(m).map(|chain| chain.kinds()).unwrap_or_default()))
        .collect();
    let package_runs = if direction == Direction::Importers && id.ends_with("__init__.py") {
        let with_rule = Filter { package_inits: true, ..scope.filter.clone() };
        let counted: BTreeSet<&str> = modules.iter().copied().collect();
        graph.view.reach(&[id], direction, &with_rule).ids().into_iter().filter(|m| !counted.contains(m)).collect()
    } else {
        Vec::new()
    };
    Reach { direction, modules, direct, not_at_runtime, package_runs }
}

/// Whether one module reaches another, and what else is true when it does not.
pub(super) struct PathResult {
    /// The chain found: one import when `direct` was asked.
    pub chain: Option<Chain>,
    /// Asked about one import that exists but is not counted (at runtime): its kind.
    pub uncounted_edge: Option<EdgeKind>,
    /// Asked about one import that does not exist: whether a longer path does.
    pub indirect: bool,
    /// Asked at runtime and none exists: the kinds a path over every import needs.
    pub only_through: Vec<EdgeKind>,
    /// No path: whether the other one reaches this one.
    pub reverse: bool,
}

pub(super) fn path(graph: &Graph<'_>, from: &str, to: &str, direct: bool, scope: &Scope) -> PathResult {
    let filter = &scope.filter;
    let chain = if direct {
        graph.view.edge(from, to).filter(|(kind, _)| filter.keeps(*kind)).map(|(kind, line)| Chain {
            modules: vec![from.to_string(), to.to_string()],
            steps: vec![strata_core::graph_view::ChainStep { kind, line, submodule: None }],
        })
    } else {
        graph.view.path(from, to, filter)
    };
    let mut result =
        PathResult { chain, uncounted_edge: None, indirect: false, only_through: Vec::new(), reverse: false };
    if result.chain.is_some() {
        return result;
    }
    if direct {
        result.uncounted_edge = graph.view.edge(from, to).map(|(kind, _)| kind);
        result.indirect = graph.view.path(from, to, filter).is_some();
    } else {
        if filter.is_runtime() {
            let every = Filter { type_checking: true, main_blocks: true, ..filter.clone() };
            result.only_through = graph.view.path(from, to, &every).map(|chain| chain.kinds()).unwrap_or_default();
        }
        result.reverse = graph.view.path(to, from, filter).is_some();
    }
    result
}

/// A cycle with how much of it holds at runtime.
pub(super) type CycleFound<'a> = (Vec<&'a str>, CycleStatus);

/// The cycles under the scope, largest first, and how many there are counted the other way.
pub(super) struct Cycles<'a> {
    pub found: Vec<CycleFound<'a>>,
    pub other_count: usize,
}

pub(super) fn cycles<'a>(graph: &Graph<'a>, scope: &Scope) -> Cycles<'a> {
    let found = graph
        .view
        .cycles(&scope.filter)
        .into_iter()
        .map(|members| {
            let owned: Vec<String> = members.iter().map(|m| m.to_string()).collect();
            let status = graph.view.cycle_status(&owned);
            (members, status)
        })
        .collect();
    let other = Filter { type_checking: scope.runtime(), main_blocks: scope.runtime(), ..scope.filter.clone() };
    Cycles { found, other_count: graph.view.cycles(&other).len() }
}

/// The cycle of one module under the scope, and under the other count of imports.
pub(super) struct CycleOf<'a> {
    pub cycle: Option<CycleFound<'a>>,
    /// At runtime with no cycle: the cycle counting every import, with its status.
    pub counting_every_import: Option<CycleFound<'a>>,
}

pub(super) fn cycle_of<'a>(graph: &Graph<'a>, id: &str, scope: &Scope) -> CycleOf<'a> {
    let with_status = |members: Vec<&'a str>| {
        let owned: Vec<String> = members.iter().map(|m| m.to_string()).collect();
        let status = graph.view.cycle_status(&owned);
        (members, status)
    };
    let cycle = graph.view.cycle_of(id, &scope.filter).map(with_status);
    let counting_every_import = if cycle.is_none() && scope.runtime() {
        let every = Filter { type_checking: true, main_blocks: true, ..scope.filter.clone() };
        graph.view.cycle_of(id, &every).map(with_status)
    } else {
        None
    };
    CycleOf { cycle, counting_every_import }
}

/// Modules ranked by a measure, highest first.
pub(super) fn ranking<'a>(graph: &Graph<'a>, measure: Measure, scope: &Scope) -> Vec<(usize, &'a str)> {
    graph.view.ranking(measure, &scope.filter)
}

/// Listed modules without imports (`Imports`) or importers (`Importers`).
pub(super) fn without_links<'a>(graph: &Graph<'a>, direction: Direction, scope: &Scope) -> Vec<&'a str> {
    graph.view.without_links(direction, &scope.filter)
}

/// Where a class, function or method is defined: (module, kind, first line, last line).
pub(super) fn definitions(bundle: &Bundle, name: &str) -> Vec<(String, String, u32, u32)> {
    let mut found: Vec<(String, String, u32, u32)> = Vec::new();
    for node in bundle.nodes.values() {
        for symbol in &node.symbols {
            if symbol.name == name {
                found.push((node.id.clone(), symbol.kind.clone(), symbol.line_start, symbol.line_end));
            }
        }
    }
    // Methods by their bare name only when no top-level class or function has it ("save" finds
    // `Model.save`; "logout" finds the function, not every `logout` method).
    let bare_ok = found.is_empty();
    for node in bundle.nodes.values() {
        for symbol in &node.symbols {
            for method in symbol
                .methods
                .iter()
                .filter(|m| (bare_ok && m.name == name) || format!("{}.{}", symbol.name, m.name) == name)
            {
                found.push((node.id.clone(), format!("method of {}", symbol.name), method.line_start, method.line_end));
            }
        }
    }
    found
}
