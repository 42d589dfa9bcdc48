//! Architecture contracts (`[[contracts]]` in `strata.toml`), import-linter's three kinds plus "no new
//! cycles", checked against a bundle. Pure: a bundle and contracts in, violations out.
//!
//! Names are dotted modules and stand for their descendants too (`shop.api` is `shop.api` and
//! `shop.api.*`). Imports count directly and through other modules, as in import-linter: a violation
//! names the importer, the imported module, the chain between them and the line of the chain's first
//! import, so it can be annotated where a fix starts.
//!
//! - `layers`: `layers = ["high", "middle", "low"]`, highest first: a lower layer must not import a
//!   higher one.
//! - `forbidden`: `source = [...]` must not import `forbidden = [...]`.
//! - `independence`: none of `modules = [...]` imports another.
//! - `no-new-cycles`: with a base index, no cycle may appear or grow; without one, no cycle at all.

use std::collections::{BTreeMap, BTreeSet, VecDeque};

use serde::{Deserialize, Serialize};

use crate::bundle::Bundle;

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
    pub message: String,
}

impl Violation {
    /// What makes two violations the same one across commits (lines move).
    pub fn key(&self) -> (&str, &str, &str) {
        (&self.contract, &self.importer, &self.imported)
    }
}

/// Every violation of `contracts` in `bundle`. `base` is the base branch's bundle, for `no-new-cycles`.
pub fn check(bundle: &Bundle, contracts: &[Contract], base: Option<&Bundle>) -> Vec<Violation> {
    let graph = Reach::of(bundle);
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

fn cycle_violations(name: &str, bundle: &Bundle, base: Option<&Bundle>) -> Vec<Violation> {
    let (new, what): (Vec<&Vec<String>>, &str) = match base {
        Some(base) => {
            // A cycle is new or grown when it has a member pair no base cycle had together.
            let together = |a: &str, b: &str| {
                base.cycles.iter().any(|c| c.members.iter().any(|m| m == a) && c.members.iter().any(|m| m == b))
            };
            let changed = bundle
                .cycles
                .iter()
                .map(|c| &c.members)
                .filter(|members| members.iter().any(|a| members.iter().any(|b| a < b && !together(a, b))));
            (changed.collect(), "an import cycle appeared or grew")
        }
        None => (bundle.cycles.iter().map(|c| &c.members).collect(), "an import cycle"),
    };
    new.into_iter()
        .map(|members| {
            let first = members.first().cloned().unwrap_or_default();
            let line = bundle.edges.iter().find(|e| e.src == first && members.contains(&e.dst)).map_or(1, |e| e.line);
            Violation {
                contract: name.to_string(),
                importer: first.clone(),
                imported: members.get(1).cloned().unwrap_or_default(),
                chain: members.clone(),
                line,
                message: format!("{what}: {} modules ({})", members.len(), members.join(", ")),
            }
        })
        .collect()
}

/// The import graph by dotted name, for chains between packages.
struct Reach<'a> {
    bundle: &'a Bundle,
    imports: BTreeMap<&'a str, Vec<&'a str>>,
}

impl<'a> Reach<'a> {
    fn of(bundle: &'a Bundle) -> Reach<'a> {
        let mut imports: BTreeMap<&str, Vec<&str>> = BTreeMap::new();
        for edge in &bundle.edges {
            imports.entry(edge.src.as_str()).or_default().push(edge.dst.as_str());
        }
        Reach { bundle, imports }
    }

    /// Module ids named by `name` (the module and its descendants).
    fn modules(&self, name: &str) -> BTreeSet<&'a str> {
        let prefix = format!("{name}.");
        self.bundle
            .nodes
            .values()
            .filter(|node| node.module == name || node.module.starts_with(&prefix))
            .map(|node| node.id.as_str())
            .collect()
    }

    /// One violation per module of `from` that reaches a module of `to`, with the shortest chain.
    /// Chains through `to`'s own modules stop there; `from`'s modules importing each other do not count.
    fn violations(&self, contract: &str, from: &str, to: &str, because: &str) -> Vec<Violation> {
        let sources = self.modules(from);
        let targets = self.modules(to);
        let mut found = Vec::new();
        for &source in &sources {
            if targets.contains(source) {
                continue;
            }
            let mut previous: BTreeMap<&str, &str> = BTreeMap::new();
            let mut queue = VecDeque::from([source]);
            let mut hit = None;
            while let Some(module) = queue.pop_front() {
                for &next in self.imports.get(module).into_iter().flatten() {
                    if next == source || previous.contains_key(next) {
                        continue;
                    }
                    previous.insert(next, module);
                    if targets.contains(next) {
                        hit = Some(next);
                        break;
                    }
                    queue.push_back(next);
                }
                if hit.is_some() {
                    break;
                }
            }
            let Some(target) = hit else { continue };
            let mut chain = vec![target.to_string()];
            let mut at = target;
            while let Some(&step) = previous.get(at) {
                chain.push(step.to_string());
                at = step;
            }
            chain.reverse();
            let line = self
                .bundle
                .edges
                .iter()
                .find(|e| e.src == chain[0] && chain.get(1).is_some_and(|second| &e.dst == second))
                .map_or(1, |e| e.line);
            let route = if chain.len() > 2 {
                format!(" (through {})", chain[1..chain.len() - 1].join(" → "))
            } else {
                String::new()
            };
            found.push(Violation {
                contract: contract.to_string(),
                importer: source.to_string(),
                imported: target.to_string(),
                line,
                message: format!("`{source}` imports `{target}`{route}: {because}"),
                chain,
            });
        }
        found
    }
}
