//! One graph, one meaning: the import graph every command asks its questions of. A [`GraphView`]
//! holds a bundle's modules (or any edge list: the eval oracle's, the package level of a view) with
//! their imports in both directions, each import with its [`EdgeKind`] (runtime, `TYPE_CHECKING`,
//! `__main__` block) and line, plus the package `__init__` rule as links of their own. Every query
//! takes a [`Filter`] (which imports, the package rule, test modules, a folder):
//!
//! - `search`: reach (dependents, dependencies) with the chain to each module and its kinds, paths,
//!   one-hop neighbours, neighbourhoods, modules without imports or importers;
//! - `rank`: rankings by direct importers ("imported by") and transitive dependents ("depended on");
//! - `cycles`: import cycles, and how much of a cycle holds at runtime;
//! - `wording`: the one sentence for each kind of qualifier (TYPE_CHECKING-only, `__main__`-block-only,
//!   the package `__init__` rule) that every answer uses.
//!
//! `ask`, `impact`, `check`, `graph`, `diff` and `eval` all read the graph through it, so the same
//! question gets the same answer from each. Pure: no I/O.

mod cycles;
mod filter;
mod rank;
mod search;
mod wording;

#[cfg(test)]
mod tests;

use std::cell::OnceCell;
use std::collections::{BTreeSet, HashMap, HashSet};

use crate::bundle::Bundle;

pub use cycles::CycleStatus;
pub use filter::{DEFAULT_TEST_FILES, EdgeKind, Filter, TEST_FOLDERS, TestModules, Tests};
pub use rank::Measure;
pub use search::{Chain, ChainStep, Direction, Neighbour, Reached};
pub use wording::{AT_RUNTIME, PACKAGE_INIT, chain_text, cycle_at_runtime, kind_label, only_through, step_note};

/// One import as the view holds it, seen from one end.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Link {
    /// The module at the other end (an index into `ids`).
    other: u32,
    kind: EdgeKind,
    line: u32,
    /// For a package `__init__` link: the submodule whose import runs the package first.
    submodule: Option<u32>,
}

/// The import graph with adjacency both ways. Module indices follow id order.
#[derive(Debug, Clone)]
pub struct GraphView<'a> {
    ids: Vec<&'a str>,
    position: HashMap<&'a str, u32>,
    /// Per module, what it imports (sorted by the imported module).
    imports: Vec<Vec<Link>>,
    /// Per module, what imports it (sorted by the importer).
    importers: Vec<Vec<Link>>,
    /// The package `__init__` rule's links, built the first time a filter counts the rule (there are
    /// several per import in a deep package tree).
    packages: OnceCell<PackageLinks>,
    tests: Vec<bool>,
}

/// The package `__init__` rule as links, both ways.
#[derive(Debug, Clone)]
struct PackageLinks {
    /// Per module, the package `__init__.py` files it runs by importing one of their submodules.
    runs: Vec<Vec<Link>>,
    /// Per package `__init__.py`, the modules that run it that way.
    run_by: Vec<Vec<Link>>,
}

impl<'a> GraphView<'a> {
    /// The graph of a bundle, with the test modules its recorded patterns define.
    pub fn of(bundle: &'a Bundle) -> GraphView<'a> {
        let tests = TestModules::of(bundle);
        GraphView::from_edges(
            bundle.nodes.keys().map(String::as_str),
            bundle.edges.iter().map(|e| (e.src.as_str(), e.dst.as_str(), EdgeKind::of(e), e.line)),
            &tests,
        )
    }

    /// The graph of `nodes` and `edges` (`src`, `dst`, kind, line); an edge's ends are modules even
    /// when `nodes` lacks them, a module importing itself is no edge, and of several edges between one
    /// pair the first counts.
    pub fn from_edges(
        nodes: impl IntoIterator<Item = &'a str>,
        edges: impl IntoIterator<Item = (&'a str, &'a str, EdgeKind, u32)>,
        tests: &TestModules,
    ) -> GraphView<'a> {
        let edges: Vec<(&'a str, &'a str, EdgeKind, u32)> = edges.into_iter().filter(|(s, d, ..)| s != d).collect();
        let mut ids: BTreeSet<&'a str> = nodes.into_iter().collect();
        ids.extend(edges.iter().flat_map(|(src, dst, ..)| [*src, *dst]));
        let ids: Vec<&'a str> = ids.into_iter().collect();
        let position: HashMap<&'a str, u32> = ids.iter().enumerate().map(|(i, id)| (*id, i as u32)).collect();
        let n = ids.len();
        let (mut imports, mut importers) = (vec![Vec::new(); n], vec![Vec::new(); n]);
        let mut seen: HashSet<(u32, u32)> = HashSet::with_capacity(edges.len());
        for (src, dst, kind, line) in edges {
            let (s, d) = (position[src], position[dst]);
            if seen.insert((s, d)) {
                imports[s as usize].push(Link { other: d, kind, line, submodule: None });
                importers[d as usize].push(Link { other: s, kind, line, submodule: None });
            }
        }
        for links in imports.iter_mut().chain(&mut importers) {
            links.sort_by_key(|l| (l.other, l.kind, l.line));
        }
        let tests = ids.iter().map(|id| tests.is_test(id)).collect();
        GraphView { ids, position, imports, importers, packages: OnceCell::new(), tests }
    }

    /// The package `__init__` rule's links: a module that imports `a/b/c.py` runs `a/__init__.py` and
    /// `a/b/__init__.py` first (one link per package and kind of import).
    fn package_links(&self) -> &PackageLinks {
        self.packages.get_or_init(|| {
            let n = self.ids.len();
            let init_of_folder: HashMap<&str, u32> =
                self.ids.iter().filter_map(|id| Some((id.strip_suffix("/__init__.py")?, self.position[id]))).collect();
            let mut packages_of: Vec<Option<Vec<u32>>> = vec![None; n];
            let (mut runs, mut run_by) = (vec![Vec::<Link>::new(); n], vec![Vec::<Link>::new(); n]);
            for (s, links) in self.imports.iter().enumerate() {
                let mut made: HashSet<(u32, EdgeKind)> = HashSet::new();
                for link in links {
                    let d = link.other as usize;
                    let packages =
                        packages_of[d].get_or_insert_with(|| enclosing_packages(&init_of_folder, self.ids[d]));
                    for &package in packages.iter() {
                        if package as usize != s && made.insert((package, link.kind)) {
                            let submodule = Some(link.other);
                            runs[s].push(Link { other: package, kind: link.kind, line: link.line, submodule });
                            run_by[package as usize].push(Link {
                                other: s as u32,
                                kind: link.kind,
                                line: link.line,
                                submodule,
                            });
                        }
                    }
                }
            }
            for links in runs.iter_mut().chain(&mut run_by) {
                links.sort_by_key(|l| (l.other, l.kind, l.line));
            }
            PackageLinks { runs, run_by }
        })
    }

    /// Every module id, sorted.
    pub fn ids(&self) -> &[&'a str] {
        &self.ids
    }

    pub fn contains(&self, id: &str) -> bool {
        self.position.contains_key(id)
    }

    /// The kind and line of the import `src` → `dst`, whatever a filter says.
    pub fn edge(&self, src: &str, dst: &str) -> Option<(EdgeKind, u32)> {
        let (s, d) = (self.index(src)?, self.index(dst)?);
        self.imports[s as usize].iter().find(|l| l.other == d).map(|l| (l.kind, l.line))
    }

    pub fn is_test(&self, id: &str) -> bool {
        self.index(id).is_some_and(|i| self.tests[i as usize])
    }

    fn index(&self, id: &str) -> Option<u32> {
        self.position.get(id).copied()
    }

    /// Whether a module is part of the graph the filter keeps (its imports count).
    fn in_graph(&self, module: u32, filter: &Filter) -> bool {
        let test = self.tests[module as usize];
        !(filter.tests == Tests::Excluded && test) && filter.inside(self.ids[module as usize])
    }

    /// Whether a module is listed and counted in answers under the filter.
    fn listed(&self, module: u32, filter: &Filter) -> bool {
        self.in_graph(module, filter) && (filter.tests != Tests::Only || self.tests[module as usize])
    }

    /// The links of `module` in `direction` the filter keeps: imports, then (with `package_inits`)
    /// package `__init__` links, to modules inside the filtered graph.
    fn links<'v>(
        &'v self,
        module: u32,
        direction: Direction,
        filter: &'v Filter,
        package_inits: bool,
    ) -> impl Iterator<Item = &'v Link> + 'v {
        let plain = match direction {
            Direction::Imports => &self.imports[module as usize],
            Direction::Importers => &self.importers[module as usize],
        };
        let package: &[Link] = match (package_inits, direction) {
            (false, _) => &[],
            (true, Direction::Imports) => &self.package_links().runs[module as usize],
            (true, Direction::Importers) => &self.package_links().run_by[module as usize],
        };
        plain.iter().chain(package).filter(move |l| filter.keeps(l.kind) && self.in_graph(l.other, filter))
    }
}

/// The `__init__.py` of every package folder above `id` that the graph has, innermost first (as far
/// up as the folders are packages); `init_of_folder` maps a folder to its `__init__.py`.
fn enclosing_packages(init_of_folder: &HashMap<&str, u32>, id: &str) -> Vec<u32> {
    let own = id.strip_suffix("/__init__.py");
    let mut packages = Vec::new();
    let mut folder = id.rsplit_once('/').map(|(folder, _)| folder);
    while let Some(current) = folder {
        match init_of_folder.get(current) {
            Some(_) if own == Some(current) => {}
            Some(&package) => packages.push(package),
            None => break,
        }
        folder = current.rsplit_once('/').map(|(parent, _)| parent);
    }
    packages
}
