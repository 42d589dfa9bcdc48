//! Walking the graph: what a module reaches (its dependencies) or what reaches it (its dependents),
//! with the chain to each; paths between two modules; one-hop neighbours; neighbourhoods; modules
//! without imports or importers.
//!
//! A search prefers chains that run: it first follows runtime imports only, then (when the filter
//! counts it) the package `__init__` rule at runtime, then every import the filter counts, then those
//! with the package rule. A module is reached in the first phase that reaches it, so its chain is a
//! runtime chain whenever one exists, and uses the package rule only when no chain of imports does.

use std::collections::{BTreeSet, VecDeque};

use serde::{Deserialize, Serialize};

use super::{EdgeKind, Filter, GraphView, Link};

/// Along imports (what a module depends on) or against them (what depends on it).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Direction {
    Imports,
    Importers,
}

/// A module one import away, with that import's kind and line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Neighbour<'a> {
    pub id: &'a str,
    pub kind: EdgeKind,
    pub line: u32,
}

/// Modules from an importer to what it depends on: each imports the next, or (a package step) runs
/// it by importing one of its submodules.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Chain {
    /// Module ids, importer first.
    pub modules: Vec<String>,
    /// One step per neighbouring pair of `modules`.
    pub steps: Vec<ChainStep>,
}

/// How one module of a chain leads to the next.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ChainStep {
    /// When the import runs: `runtime`, `type_checking` (never) or `main_block` (only as a script).
    pub kind: EdgeKind,
    /// The import's line in the importer.
    pub line: u32,
    /// Set for the package `__init__` rule: the importer imports this submodule, which runs its
    /// package's `__init__.py` (the next module) first.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub submodule: Option<String>,
}

impl Chain {
    /// True when every step runs on import.
    pub fn runtime(&self) -> bool {
        self.steps.iter().all(|step| step.kind == EdgeKind::Runtime)
    }

    /// The kinds of its steps that do not run on import, sorted, each once.
    pub fn kinds(&self) -> Vec<EdgeKind> {
        let kinds: BTreeSet<EdgeKind> =
            self.steps.iter().map(|step| step.kind).filter(|kind| *kind != EdgeKind::Runtime).collect();
        kinds.into_iter().collect()
    }

    /// True when a step is the package `__init__` rule rather than an import.
    pub fn uses_package_init(&self) -> bool {
        self.steps.iter().any(|step| step.submodule.is_some())
    }
}

/// How a module was reached.
#[derive(Debug, Clone, Copy)]
struct Arrival {
    /// The module it was reached from; `None` for a start.
    from: Option<u32>,
    link: Option<Link>,
    /// Reached in a phase that follows runtime links only.
    runtime: bool,
}

/// The result of a search: which modules were reached, how, and in which order.
#[derive(Debug, Clone)]
pub struct Reached<'v, 'a> {
    view: &'v GraphView<'a>,
    filter: Filter,
    direction: Direction,
    arrivals: Vec<Option<Arrival>>,
    /// Reached modules (starts left out) in the order they were reached, runtime phases first.
    order: Vec<u32>,
}

impl<'a> Reached<'_, 'a> {
    /// The modules reached (the starts left out) that the filter lists, sorted.
    pub fn ids(&self) -> Vec<&'a str> {
        let mut found: Vec<u32> = self.order.iter().copied().filter(|&m| self.view.listed(m, &self.filter)).collect();
        found.sort_unstable();
        found.into_iter().map(|m| self.view.ids[m as usize]).collect()
    }

    /// The modules reached, in the order they were reached (runtime chains first).
    pub fn in_order(&self) -> impl Iterator<Item = &'a str> + '_ {
        self.order.iter().map(|&m| self.view.ids[m as usize])
    }

    pub fn contains(&self, id: &str) -> bool {
        self.view.index(id).is_some_and(|m| self.arrivals[m as usize].is_some_and(|a| a.from.is_some()))
    }

    /// Reached through imports that all run on import.
    pub fn at_runtime(&self, id: &str) -> bool {
        self.view.index(id).is_some_and(|m| self.arrivals[m as usize].is_some_and(|a| a.from.is_some() && a.runtime))
    }

    /// The chain between `id` and the start it was reached from, importer first.
    pub fn chain(&self, id: &str) -> Option<Chain> {
        let mut at = self.view.index(id)?;
        self.arrivals[at as usize]?;
        let mut modules = vec![self.view.ids[at as usize].to_string()];
        let mut steps = Vec::new();
        while let Some(Arrival { from: Some(from), link: Some(link), .. }) = self.arrivals[at as usize] {
            modules.push(self.view.ids[from as usize].to_string());
            steps.push(ChainStep {
                kind: link.kind,
                line: link.line,
                submodule: link.submodule.map(|s| self.view.ids[s as usize].to_string()),
            });
            at = from;
        }
        if self.direction == Direction::Imports {
            // Found from the start outwards: the start imports first.
            modules.reverse();
            steps.reverse();
        }
        Some(Chain { modules, steps })
    }
}

/// Which links one phase of a search follows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Phase {
    type_checking: bool,
    main_blocks: bool,
    package_inits: bool,
}

fn phases(filter: &Filter) -> Vec<Phase> {
    let runtime = Phase { type_checking: false, main_blocks: false, package_inits: false };
    let every = Phase { type_checking: filter.type_checking, main_blocks: filter.main_blocks, package_inits: false };
    let mut phases = vec![runtime];
    if filter.package_inits {
        phases.push(Phase { package_inits: true, ..runtime });
    }
    if every != runtime {
        phases.push(every);
        if filter.package_inits {
            phases.push(Phase { package_inits: true, ..every });
        }
    }
    phases
}

impl<'a> GraphView<'a> {
    /// Every module `starts` reach in `direction` (their dependencies along imports, their
    /// dependents against them), with chains.
    pub fn reach<'v>(&'v self, starts: &[&str], direction: Direction, filter: &Filter) -> Reached<'v, 'a> {
        self.search(starts, direction, filter, |_| true)
    }

    /// Like [`GraphView::reach`], but modules for which `expand` is false are reached and not gone past.
    pub fn reach_until<'v>(
        &'v self,
        starts: &[&str],
        direction: Direction,
        filter: &Filter,
        expand: impl Fn(&str) -> bool,
    ) -> Reached<'v, 'a> {
        self.search(starts, direction, filter, expand)
    }

    /// The chain from `from` to `to` along imports: a shortest runtime one when there is one, else a
    /// shortest one over what the filter counts. `None` when `to` is not reached (or is `from`).
    pub fn path(&self, from: &str, to: &str, filter: &Filter) -> Option<Chain> {
        let reached = self.search(&[from], Direction::Imports, filter, |_| true);
        if reached.contains(to) { reached.chain(to) } else { None }
    }

    /// What `id` imports (`Imports`) or what imports it (`Importers`), one import away, that the
    /// filter counts and lists, sorted.
    pub fn neighbours(&self, id: &str, direction: Direction, filter: &Filter) -> Vec<Neighbour<'a>> {
        let Some(module) = self.index(id).filter(|&m| self.in_graph(m, filter)) else { return Vec::new() };
        self.links(module, direction, filter, false)
            .filter(|link| self.listed(link.other, filter))
            .map(|link| Neighbour { id: self.ids[link.other as usize], kind: link.kind, line: link.line })
            .collect()
    }

    /// Modules within `depth` imports of `centre`, either direction, `centre` included.
    pub fn neighbourhood(&self, centre: &str, depth: usize, filter: &Filter) -> BTreeSet<&'a str> {
        let Some(start) = self.index(centre) else { return BTreeSet::new() };
        let mut seen = BTreeSet::from([start]);
        let mut queue = VecDeque::from([(start, 0)]);
        while let Some((module, distance)) = queue.pop_front() {
            if distance == depth {
                continue;
            }
            let around = self.links(module, Direction::Imports, filter, false).chain(self.links(
                module,
                Direction::Importers,
                filter,
                false,
            ));
            for link in around {
                if seen.insert(link.other) {
                    queue.push_back((link.other, distance + 1));
                }
            }
        }
        seen.into_iter().map(|m| self.ids[m as usize]).collect()
    }

    /// Listed modules with no import (`Imports`) or no importer (`Importers`) the filter counts.
    pub fn without_links(&self, direction: Direction, filter: &Filter) -> Vec<&'a str> {
        (0..self.ids.len() as u32)
            .filter(|&m| self.listed(m, filter) && self.links(m, direction, filter, false).next().is_none())
            .map(|m| self.ids[m as usize])
            .collect()
    }

    fn search<'v>(
        &'v self,
        starts: &[&str],
        direction: Direction,
        filter: &Filter,
        expand: impl Fn(&str) -> bool,
    ) -> Reached<'v, 'a> {
        let mut arrivals: Vec<Option<Arrival>> = vec![None; self.ids.len()];
        let mut seeds = Vec::new();
        for start in starts {
            if let Some(m) = self.index(start).filter(|&m| arrivals[m as usize].is_none()) {
                arrivals[m as usize] = Some(Arrival { from: None, link: None, runtime: true });
                seeds.push(m);
            }
        }
        let mut order: Vec<u32> = Vec::new();
        for phase in phases(filter) {
            let phase_filter =
                Filter { type_checking: phase.type_checking, main_blocks: phase.main_blocks, ..filter.clone() };
            let runtime = phase_filter.is_runtime();
            // Everything reached so far goes on from where it is, nearest first.
            let mut queue: VecDeque<u32> = seeds.iter().chain(&order).copied().collect();
            while let Some(module) = queue.pop_front() {
                let is_start = arrivals[module as usize].is_some_and(|a| a.from.is_none());
                if !self.in_graph(module, filter) || (!is_start && !expand(self.ids[module as usize])) {
                    continue;
                }
                for link in self.links(module, direction, &phase_filter, phase.package_inits) {
                    let slot = &mut arrivals[link.other as usize];
                    if slot.is_none() {
                        *slot = Some(Arrival { from: Some(module), link: Some(*link), runtime });
                        order.push(link.other);
                        queue.push_back(link.other);
                    }
                }
            }
        }
        Reached { view: self, filter: filter.clone(), direction, arrivals, order }
    }
}
