//! Architecture contracts (`[[contracts]]` in `strata.toml`), import-linter's three kinds plus "no new
//! cycles", checked against a bundle. Pure: a bundle and contracts in, violations out.
//!
//! Names are dotted modules and stand for their descendants too (`shop.api` is `shop.api` and
//! `shop.api.*`); a name that matches no module is an error naming it ([`unknown_names`]), never a
//! contract that passes because it checks nothing. Imports count directly and through other modules,
//! as in import-linter, through `graph_view::GraphView`: a violation names the importer, the imported
//! module, the chain between them (a runtime chain when there is one) and the line of the chain's
//! first import, so it can be annotated where a fix starts, and says when it holds only through
//! imports that do not run on import (`TYPE_CHECKING`, `__main__` blocks).
//!
//! - `layers`: `layers = ["high", "middle", "low"]`, highest first: a lower layer must not import a
//!   higher one.
//! - `forbidden`: `source = [...]` must not import `forbidden = [...]`.
//! - `independence`: none of `modules = [...]` imports another.
//! - `no-new-cycles`: with a base index, no cycle may appear or grow; without one, no cycle at all.

use std::collections::BTreeSet;

use serde::{Deserialize, Serialize};

use crate::bundle::Bundle;
use crate::graph_view::{Direction, EdgeKind, Filter, GraphView, cycle_at_runtime, only_through};

/// One `[[contracts]]` entry as written.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(tag = "kind", rename_all = "kebab-case", deny_unknown_fields)]
pub enum Contract {
    Layers { name: String, layers: Vec<String> },
    Forbidden { name: String, source: Vec<String>, forbidden: Vec<String> },
    Independence { name: String, modules: Vec<String> },
    NoNewCycles { name: String },
}

impl Contract {
    pub fn name(&self) -> &str {
        match self {
            Contract::Layers { name, .. }
            | Contract::Forbidden { name, .. }
            | Contract::Independence { name, .. }
            | Contract::NoNewCycles { name } => name,
        }
    }

    /// The dotted module names it uses.
    pub fn modules(&self) -> Vec<&str> {
        match self {
            Contract::Layers { layers, .. } => layers.iter().map(String::as_str).collect(),
            Contract::Forbidden { source, forbidden, .. } => {
                source.iter().chain(forbidden).map(String::as_str).collect()
            }
            Contract::Independence { modules, .. } => modules.iter().map(String::as_str).collect(),
            Contract::NoNewCycles { .. } => Vec::new(),
        }
    }
}

/// A name in a contract that matches no module of the index (neither a module nor its descendants).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnknownName {
    pub contract: String,
    pub name: String,
    /// The module whose dotted name is closest, when one is close.
    pub closest: Option<String>,
}

impl std::fmt::Display for UnknownName {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "contract `{}` names `{}`, which is no module of the index", self.contract, self.name)?;
        if let Some(closest) = &self.closest {
            write!(f, " (did you mean `{closest}`?)")?;
        }
        Ok(())
    }
}

/// Every name of `contracts` that matches no module of `bundle`, in contract order.
pub fn unknown_names(bundle: &Bundle, contracts: &[Contract]) -> Vec<UnknownName> {
    let mut unknown = Vec::new();
    for contract in contracts {
        for name in contract.modules() {
            if !modules_named(bundle, name).is_empty() {
                continue;
            }
            let closest = bundle
                .nodes
                .values()
                .map(|node| (edit_distance(&node.module, name), &node.module))
                .filter(|(distance, module)| *distance <= 2.max(module.len() / 5))
                .min()
                .map(|(_, module)| module.clone());
            unknown.push(UnknownName { contract: contract.name().to_string(), name: name.to_string(), closest });
        }
    }
    unknown
}

/// Levenshtein distance by characters.
fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut diagonal = row[0];
        row[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let above = row[j + 1];
            row[j + 1] = (above + 1).min(row[j] + 1).min(diagonal + usize::from(ca != *cb));
            diagonal = above;
        }
    }
    row[b.len()]
}

/// Module ids named by `name` (the module and its descendants).
fn modules_named<'b>(bundle: &'b Bundle, name: &str) -> BTreeSet<&'b str> {
    let prefix = format!("{name}.");
    bundle
        .nodes
        .values()
        .filter(|node| node.module == name || node.module.starts_with(&prefix))
        .map(|node| node.id.as_str())
        .collect()
}

#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize)]
pub struct Violation {
    pub contract: String,
    /// The module whose import breaks the contract (the chain's first module).
    pub importer: String,
    /// The module it must not reach (the chain's last).
    pub imported: String,
    /// Module ids from importer to imported; for a cycle, its members.
    pub chain: Vec<String>,
    /// The line of the chain's first import in `importer`.
    pub line: u32,
    /// Empty when the violation holds at runtime; otherwise the kinds of the imports it needs that do
    /// not run on import (`type_checking`, `main_block`).
    pub only_through: Vec<EdgeKind>,
    pub message: String,
}

impl Violation {
    /// What makes two violations the same one across commits (lines move).
    pub fn key(&self) -> (&str, &str, &str) {
        (&self.contract, &self.importer, &self.imported)
    }
}

/// Every violation of `contracts` in `bundle`. `base` is the base branch's bundle, for `no-new-cycles`.
/// Names that match no module are left to [`unknown_names`].
pub fn check(bundle: &Bundle, contracts: &[Contract], base: Option<&Bundle>) -> Vec<Violation> {
    let graph = Reach { bundle, view: GraphView::of(bundle) };
    let mut violations = Vec::new();
    for contract in contracts {
        let name = contract.name();
        match contract {
            Contract::Layers { layers, .. } => {
                for (low_position, low) in layers.iter().enumerate() {
                    for high in &layers[..low_position] {
                        let because = format!("layer `{low}` is below `{high}` and must not import it");
                        violations.extend(graph.violations(name, low, high, &because));
                    }
                }
            }
            Contract::Forbidden { source, forbidden, .. } => {
                for from in source {
                    for to in forbidden {
                        let because = format!("`{from}` must not import `{to}`");
                        violations.extend(graph.violations(name, from, to, &because));
                    }
                }
            }
            Contract::Independence { modules, .. } => {
                for from in modules {
                    for to in modules.iter().filter(|to| *to != from) {
                        let because = format!("`{from}` and `{to}` must be independent");
                        violations.extend(graph.violations(name, from, to, &because));
                    }
                }
            }
            Contract::NoNewCycles { .. } => violations.extend(cycle_violations(name, bundle, base)),
        }
    }
    violations.sort();
    violations.dedup();
    violations
}

/// Cycles over every import (each says how much of it holds at runtime), new or grown against `base`.
fn cycle_violations(name: &str, bundle: &Bundle, base: Option<&Bundle>) -> Vec<Violation> {
    let all = |bundle: &'_ Bundle| {
        bundle.cycles.iter().filter(|c| c.edges == "all").map(|c| c.members.clone()).collect::<Vec<_>>()
    };
    let cycles = all(bundle);
    let (new, what): (Vec<&Vec<String>>, &str) = match base {
        Some(base) => {
            let base_cycles = all(base);
            // A cycle is new or grown when it has a member pair no base cycle had together.
            let together =
                |a: &str, b: &str| base_cycles.iter().any(|c| c.iter().any(|m| m == a) && c.iter().any(|m| m == b));
            let changed = cycles
                .iter()
                .filter(|members| members.iter().any(|a| members.iter().any(|b| a < b && !together(a, b))));
            (changed.collect(), "an import cycle appeared or grew")
        }
        None => (cycles.iter().collect(), "an import cycle"),
    };
    let view = GraphView::of(bundle);
    new.into_iter()
        .map(|members| {
            let first = members.first().cloned().unwrap_or_default();
            let line = bundle.edges.iter().find(|e| e.src == first && members.contains(&e.dst)).map_or(1, |e| e.line);
            let status = view.cycle_status(members);
            let note = cycle_at_runtime(status.runtime_size, &status.only_through)
                .map(|note| format!("; {note}"))
                .unwrap_or_default();
            Violation {
                contract: name.to_string(),
                importer: first.clone(),
                imported: members.get(1).cloned().unwrap_or_default(),
                chain: members.clone(),
                line,
                message: format!("{what}: {} modules ({}){note}", members.len(), members.join(", ")),
                only_through: status.only_through,
            }
        })
        .collect()
}

/// The import graph, for chains between the modules two names stand for.
struct Reach<'a> {
    bundle: &'a Bundle,
    view: GraphView<'a>,
}

impl Reach<'_> {
    /// One violation per module of `from` that reaches a module of `to`, with the shortest chain (a
    /// runtime one when there is one). Chains stop at `to`'s modules.
    fn violations(&self, contract: &str, from: &str, to: &str, because: &str) -> Vec<Violation> {
        let sources = modules_named(self.bundle, from);
        let targets = modules_named(self.bundle, to);
        let mut found = Vec::new();
        for &source in &sources {
            if targets.contains(source) {
                continue;
            }
            let reached =
                self.view.reach_until(&[source], Direction::Imports, &Filter::all(), |id| !targets.contains(id));
            let Some(target) = reached.in_order().find(|id| targets.contains(id)) else { continue };
            let Some(chain) = reached.chain(target) else { continue };
            let line = chain.steps.first().map_or(1, |step| step.line);
            let route = if chain.modules.len() > 2 {
                format!(" (through {})", chain.modules[1..chain.modules.len() - 1].join(" → "))
            } else {
                String::new()
            };
            let only = if reached.at_runtime(target) { Vec::new() } else { chain.kinds() };
            let note = only_through(&only).map(|words| format!("; {words}")).unwrap_or_default();
            found.push(Violation {
                contract: contract.to_string(),
                importer: source.to_string(),
                imported: target.to_string(),
                line,
                message: format!("`{source}` imports `{target}`{route}: {because}{note}"),
                chain: chain.modules,
                only_through: only,
            });
        }
        found
    }
}
