//! Metrics over the import graph: strongly connected components (with and without TYPE_CHECKING-only
//! edges), transitive dependents, direct importers and PageRank centrality.
//!
//! Transitive dependents are computed once per component of the condensed graph with bitsets, in
//! topological order, so the cost is O(components × edges / 64) rather than a search per module.

use fixedbitset::FixedBitSet;
use petgraph::algo::tarjan_scc;
use petgraph::graph::{DiGraph, NodeIndex};

use super::ImportGraph;

const PAGERANK_DAMPING: f64 = 0.85;
const PAGERANK_MAX_ITERATIONS: usize = 100;
const PAGERANK_TOLERANCE: f64 = 1e-12;

/// Per-module metrics (indexed like `ImportGraph::index.modules`) and the cycles found.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct GraphMetrics {
    pub scc_size: Vec<usize>,
    pub scc_size_runtime: Vec<usize>,
    /// Modules that depend on this one directly or through others, over all edges.
    pub importers_count: Vec<usize>,
    pub direct_importers_count: Vec<usize>,
    pub imports_count: Vec<usize>,
    pub pagerank: Vec<f64>,
    /// Components with more than one module, largest first, members sorted by id.
    pub cycles: Vec<Vec<usize>>,
    pub cycles_runtime: Vec<Vec<usize>>,
}

pub fn compute_metrics(graph: &ImportGraph) -> GraphMetrics {
    let n_modules = graph.n_modules();
    let all_edges: Vec<(usize, usize)> = graph.edge_pairs(false).collect();
    let runtime_edges: Vec<(usize, usize)> = graph.edge_pairs(true).collect();

    let all_graph = petgraph_of(n_modules, &all_edges);
    let components = tarjan_scc(&all_graph);
    let (scc_size, cycles) = component_sizes(n_modules, &components);
    let (scc_size_runtime, cycles_runtime) =
        component_sizes(n_modules, &tarjan_scc(&petgraph_of(n_modules, &runtime_edges)));

    let mut direct_importers_count = vec![0; n_modules];
    let mut imports_count = vec![0; n_modules];
    for &(src, dst) in &all_edges {
        direct_importers_count[dst] += 1;
        imports_count[src] += 1;
    }
    GraphMetrics {
        scc_size,
        scc_size_runtime,
        importers_count: transitive_dependents(n_modules, &all_edges, &components),
        direct_importers_count,
        imports_count,
        pagerank: pagerank(n_modules, &all_edges),
        cycles,
        cycles_runtime,
    }
}

fn petgraph_of(n_modules: usize, edges: &[(usize, usize)]) -> DiGraph<(), ()> {
    let mut graph = DiGraph::with_capacity(n_modules, edges.len());
    for _ in 0..n_modules {
        graph.add_node(());
    }
    for &(src, dst) in edges {
        graph.add_edge(NodeIndex::new(src), NodeIndex::new(dst), ());
    }
    graph
}

fn component_sizes(n_modules: usize, components: &[Vec<NodeIndex>]) -> (Vec<usize>, Vec<Vec<usize>>) {
    let mut sizes = vec![1; n_modules];
    let mut cycles = Vec::new();
    for component in components.iter().filter(|component| component.len() > 1) {
        let mut members: Vec<usize> = component.iter().map(|node| node.index()).collect();
        members.sort_unstable();
        for &member in &members {
            sizes[member] = members.len();
        }
        cycles.push(members);
    }
    cycles.sort_by(|a, b| b.len().cmp(&a.len()).then_with(|| a.cmp(b)));
    (sizes, cycles)
}

/// For each module, how many other modules reach it by following import edges.
///
/// `components` is tarjan's output: reverse topological order, so a component's importers come after it.
/// Walking the list backwards visits importers first, and each component's set of ancestor components is
/// the union of its direct importers' sets plus those importers themselves.
fn transitive_dependents(n_modules: usize, edges: &[(usize, usize)], components: &[Vec<NodeIndex>]) -> Vec<usize> {
    let n_components = components.len();
    let mut component_of = vec![0; n_modules];
    for (component_index, component) in components.iter().enumerate() {
        for node in component {
            component_of[node.index()] = component_index;
        }
    }
    let mut importer_components: Vec<Vec<usize>> = vec![Vec::new(); n_components];
    for &(src, dst) in edges {
        let (importer, imported) = (component_of[src], component_of[dst]);
        if importer != imported {
            importer_components[imported].push(importer);
        }
    }
    let mut ancestors: Vec<FixedBitSet> = vec![FixedBitSet::with_capacity(0); n_components];
    let mut counts = vec![0; n_components];
    for component_index in (0..n_components).rev() {
        let mut set = FixedBitSet::with_capacity(n_components);
        for &importer in &importer_components[component_index] {
            set.insert(importer);
            set.union_with(&ancestors[importer]);
        }
        counts[component_index] = set.ones().map(|ancestor| components[ancestor].len()).sum::<usize>()
            + components[component_index].len()
            - 1;
        ancestors[component_index] = set;
    }
    (0..n_modules).map(|module| counts[component_of[module]]).collect()
}

/// PageRank where an import is a vote for the imported module. Modules that import nothing spread their
/// rank evenly, so the ranks sum to one. Iterates in a fixed order: the result is deterministic.
fn pagerank(n_modules: usize, edges: &[(usize, usize)]) -> Vec<f64> {
    if n_modules == 0 {
        return Vec::new();
    }
    let n = n_modules as f64;
    let mut out_degree = vec![0usize; n_modules];
    for &(src, _) in edges {
        out_degree[src] += 1;
    }
    let mut rank = vec![1.0 / n; n_modules];
    for _ in 0..PAGERANK_MAX_ITERATIONS {
        let dangling: f64 = (0..n_modules).filter(|&m| out_degree[m] == 0).map(|m| rank[m]).sum();
        let base = (1.0 - PAGERANK_DAMPING) / n + PAGERANK_DAMPING * dangling / n;
        let mut next = vec![base; n_modules];
        for &(src, dst) in edges {
            next[dst] += PAGERANK_DAMPING * rank[src] / out_degree[src] as f64;
        }
        let change: f64 = next.iter().zip(&rank).map(|(a, b)| (a - b).abs()).sum();
        rank = next;
        if change < PAGERANK_TOLERANCE {
            break;
        }
    }
    rank
}

#[cfg(test)]
mod tests {
    use super::*;

    fn components_of(n: usize, edges: &[(usize, usize)]) -> Vec<Vec<NodeIndex>> {
        tarjan_scc(&petgraph_of(n, edges))
    }

    #[test]
    fn dependents_count_each_ancestor_once() {
        // 0 → 1 → 3, 0 → 2 → 3, 4 → 3: module 3 has four dependents, 1 and 2 have one, 0 and 4 none.
        let edges = [(0, 1), (1, 3), (0, 2), (2, 3), (4, 3)];
        let counts = transitive_dependents(5, &edges, &components_of(5, &edges));
        assert_eq!(counts, [0, 1, 1, 4, 0]);
    }

    #[test]
    fn dependents_through_a_cycle_include_the_cycle_members() {
        // 0 → 1 ⇄ 2 → 3: 1 and 2 depend on each other; 3 has all three upstream.
        let edges = [(0, 1), (1, 2), (2, 1), (2, 3)];
        let counts = transitive_dependents(4, &edges, &components_of(4, &edges));
        assert_eq!(counts, [0, 2, 2, 3]);
    }

    #[test]
    fn pagerank_sums_to_one_and_favours_the_imported() {
        let ranks = pagerank(3, &[(0, 2), (1, 2)]);
        assert!((ranks.iter().sum::<f64>() - 1.0).abs() < 1e-9);
        assert!(ranks[2] > ranks[0] && (ranks[0] - ranks[1]).abs() < 1e-12);
    }

    #[test]
    fn cycles_are_listed_largest_first() {
        let (sizes, cycles) = component_sizes(5, &components_of(5, &[(0, 1), (1, 0), (2, 3), (3, 4), (4, 2)]));
        assert_eq!(sizes, [2, 2, 3, 3, 3]);
        assert_eq!(cycles, vec![vec![2, 3, 4], vec![0, 1]]);
    }
}
