//! Rankings, with the words `docs/graph.md` defines once: "imported by" counts direct importers,
//! "depended on" counts every module that depends on a module, directly or transitively; the other
//! way, "imports" counts the modules a module imports directly, "depends on" every one it reaches.
//!
//! Transitive counts come from the condensed graph (one bitset of ancestor components per strongly
//! connected component, in topological order), so ranking every module costs about one search.

use fixedbitset::FixedBitSet;
use petgraph::algo::tarjan_scc;
use petgraph::graph::{DiGraph, NodeIndex};

use super::{Direction, Filter, GraphView};

/// What a ranking counts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Measure {
    /// Direct importers ("most imported", "imported by the most modules").
    ImportedBy,
    /// Modules that depend on it, directly or transitively ("most depended on").
    DependedOn,
    /// Modules it imports directly ("which module imports the most modules?").
    Imports,
    /// Modules it depends on, directly or transitively ("which module depends on the most modules?").
    DependsOn,
}

impl<'a> GraphView<'a> {
    /// Every listed module with a count above zero, highest first, ties in id order.
    pub fn ranking(&self, measure: Measure, filter: &Filter) -> Vec<(usize, &'a str)> {
        // One import away: the listed modules at the other end of each module's imports.
        let direct = |direction: Direction| -> Vec<usize> {
            (0..self.ids.len() as u32)
                .map(|m| {
                    if !self.in_graph(m, filter) {
                        return 0;
                    }
                    self.links(m, direction, filter, false).filter(|l| self.listed(l.other, filter)).count()
                })
                .collect()
        };
        let counts = match measure {
            Measure::ImportedBy => direct(Direction::Importers),
            Measure::Imports => direct(Direction::Imports),
            Measure::DependedOn => self.transitive_counts(filter, Direction::Importers),
            Measure::DependsOn => self.transitive_counts(filter, Direction::Imports),
        };
        let mut ranked: Vec<(usize, &'a str)> = counts
            .into_iter()
            .enumerate()
            .filter(|&(m, n)| n > 0 && self.listed(m as u32, filter))
            .map(|(m, n)| (n, self.ids[m]))
            .collect();
        ranked.sort_by(|a, b| b.0.cmp(&a.0).then_with(|| a.1.cmp(b.1)));
        ranked
    }

    /// How many listed modules depend on each module under the filter, directly or transitively.
    pub fn dependents_counts(&self, filter: &Filter) -> Vec<usize> {
        self.transitive_counts(filter, Direction::Importers)
    }

    /// How many listed modules each module reaches in `direction` under the filter, directly or
    /// transitively: its dependents (`Importers`) or its dependencies (`Imports`).
    pub(super) fn transitive_counts(&self, filter: &Filter, direction: Direction) -> Vec<usize> {
        let n = self.ids.len();
        let mut graph = DiGraph::<(), ()>::with_capacity(n, 0);
        for _ in 0..n {
            graph.add_node(());
        }
        // Counted below: the modules with a path to each one. For dependencies, along reversed edges.
        for module in (0..n as u32).filter(|&m| self.in_graph(m, filter)) {
            for link in self.links(module, Direction::Imports, filter, filter.package_inits) {
                let (from, to) = match direction {
                    Direction::Importers => (module as usize, link.other as usize),
                    Direction::Imports => (link.other as usize, module as usize),
                };
                graph.add_edge(NodeIndex::new(from), NodeIndex::new(to), ());
            }
        }
        // Tarjan gives components in reverse topological order: importers after what they import.
        let components = tarjan_scc(&graph);
        let mut component_of = vec![0; n];
        for (c, component) in components.iter().enumerate() {
            for node in component {
                component_of[node.index()] = c;
            }
        }
        let listed_in: Vec<usize> = components
            .iter()
            .map(|component| component.iter().filter(|node| self.listed(node.index() as u32, filter)).count())
            .collect();
        let mut importer_components: Vec<Vec<usize>> = vec![Vec::new(); components.len()];
        for edge in graph.raw_edges() {
            let (importer, imported) = (component_of[edge.source().index()], component_of[edge.target().index()]);
            if importer != imported {
                importer_components[imported].push(importer);
            }
        }
        let mut ancestors: Vec<FixedBitSet> = vec![FixedBitSet::with_capacity(0); components.len()];
        let mut counts_of_component = vec![0; components.len()];
        for c in (0..components.len()).rev() {
            let mut set = FixedBitSet::with_capacity(components.len());
            for &importer in &importer_components[c] {
                set.insert(importer);
                set.union_with(&ancestors[importer]);
            }
            counts_of_component[c] = set.ones().map(|a| listed_in[a]).sum::<usize>() + listed_in[c];
            ancestors[c] = set;
        }
        (0..n).map(|m| counts_of_component[component_of[m]] - usize::from(self.listed(m as u32, filter))).collect()
    }
}
