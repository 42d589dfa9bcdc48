//! Import cycles: strongly connected components of more than one module under a filter, and how
//! much of a cycle found over every import holds at runtime.

use std::collections::BTreeSet;

use petgraph::algo::tarjan_scc;
use petgraph::graph::{DiGraph, NodeIndex};
use serde::{Deserialize, Serialize};

use super::{Direction, EdgeKind, Filter, GraphView};

/// How much of a cycle runs when modules are imported.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct CycleStatus {
    /// The largest cycle its members form at runtime (0: none).
    pub runtime_size: usize,
    /// The kinds of the imports between its members that do not run on import, when the cycle does
    /// not hold whole at runtime (empty when it does).
    pub only_through: Vec<EdgeKind>,
}

impl<'a> GraphView<'a> {
    /// Cycles (members sorted), largest first, then by members.
    pub fn cycles(&self, filter: &Filter) -> Vec<Vec<&'a str>> {
        self.components(filter, None)
    }

    /// The cycle `id` is in, if any.
    pub fn cycle_of(&self, id: &str, filter: &Filter) -> Option<Vec<&'a str>> {
        self.cycles(filter).into_iter().find(|cycle| cycle.contains(&id))
    }

    /// How much of the cycle of `members` (found over every import) holds at runtime.
    pub fn cycle_status(&self, members: &[String]) -> CycleStatus {
        let inside: BTreeSet<u32> = members.iter().filter_map(|m| self.index(m)).collect();
        let runtime_size =
            self.components(&Filter::runtime(), Some(&inside)).first().map_or(0, |largest| largest.len());
        if runtime_size == inside.len() {
            return CycleStatus { runtime_size, only_through: Vec::new() };
        }
        let kinds: BTreeSet<EdgeKind> = inside
            .iter()
            .flat_map(|&m| self.imports[m as usize].iter())
            .filter(|link| inside.contains(&link.other) && link.kind != EdgeKind::Runtime)
            .map(|link| link.kind)
            .collect();
        CycleStatus { runtime_size, only_through: kinds.into_iter().collect() }
    }

    /// Components of more than one module of the filtered graph, or of its part among `only`.
    fn components(&self, filter: &Filter, only: Option<&BTreeSet<u32>>) -> Vec<Vec<&'a str>> {
        let keep = |m: u32| self.in_graph(m, filter) && only.is_none_or(|set| set.contains(&m));
        let mut graph = DiGraph::<u32, ()>::new();
        let nodes: Vec<NodeIndex> = (0..self.ids.len() as u32).map(|m| graph.add_node(m)).collect();
        for module in (0..self.ids.len() as u32).filter(|&m| keep(m)) {
            for link in self.links(module, Direction::Imports, filter, false).filter(|l| keep(l.other)) {
                graph.add_edge(nodes[module as usize], nodes[link.other as usize], ());
            }
        }
        let mut cycles: Vec<Vec<&'a str>> = tarjan_scc(&graph)
            .into_iter()
            .filter(|component| component.len() > 1)
            .map(|component| {
                let mut members: Vec<&'a str> = component.iter().map(|&n| self.ids[graph[n] as usize]).collect();
                members.sort_unstable();
                members
            })
            .collect();
        cycles.sort_by(|a, b| b.len().cmp(&a.len()).then_with(|| a.cmp(b)));
        cycles
    }
}
