//! Exact answers from the graph, without an LLM: imports, importers, impact (transitive dependents, all
//! edges or runtime only), cycles, central modules, leaves, import paths, where a symbol is defined and
//! what a module exports. Pure over the bundle.

use std::collections::{BTreeMap, BTreeSet, VecDeque};
use std::fmt::Write;

use super::entities::{EntityLinker, Linked};
use super::route::Intent;
use crate::bundle::{Bundle, Node};
use crate::search::chunks::limited;
use crate::search::retrieve::is_test_path;

/// How many modules an answer lists before "and N more" (the citations carry them all, up to a cap).
const MAX_LISTED: usize = 30;

/// An exact answer: its text, the modules it relies on, and line ranges for symbol answers.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StructuralAnswer {
    pub text: String,
    pub cited: Vec<(String, Option<(u32, u32)>)>,
}

/// Why a structural question could not be answered: a mention that matches nothing.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Unlinked {
    pub mention: String,
    pub suggestions: Vec<String>,
}

pub fn answer_structural(bundle: &Bundle, intent: &Intent) -> Result<StructuralAnswer, Unlinked> {
    let linker = EntityLinker::new(bundle);
    let module = |mention: &str| -> Result<(String, String), Unlinked> {
        match linker.link(mention) {
            Some(Linked::Module { id, alternatives }) => Ok((id, ambiguity_note(&alternatives))),
            Some(Linked::Symbol { name, modules }) => {
                let note = format!(" (`{name}` is defined in `{}`)", modules[0]);
                Ok((modules[0].clone(), note))
            }
            None => Err(Unlinked { mention: mention.to_string(), suggestions: suggestions(bundle, mention) }),
        }
    };
    match intent {
        Intent::ImportsOf(mention) => {
            let (id, note) = module(mention)?;
            Ok(imports_of(bundle, &bundle.nodes[&id], &note))
        }
        Intent::ImportersOf(mention) => {
            let (id, note) = module(mention)?;
            Ok(importers_of(bundle, &id, &note))
        }
        Intent::Impact { mention, runtime } => {
            let (id, note) = module(mention)?;
            Ok(impact(bundle, &id, *runtime, &note))
        }
        Intent::Cycles(None) => Ok(all_cycles(bundle)),
        Intent::Cycles(Some(mention)) => {
            let (id, note) = module(mention)?;
            Ok(cycles_of(bundle, &id, &note))
        }
        Intent::RuntimeCycleOf(mention) => {
            let (id, note) = module(mention)?;
            Ok(runtime_cycle_of(bundle, &id, &note))
        }
        Intent::Central { direct: true, runtime, without_tests } => Ok(most_imported(bundle, *runtime, *without_tests)),
        Intent::Central { direct: false, .. } => Ok(central(bundle)),
        Intent::Leaves => Ok(leaves(bundle)),
        Intent::Path(reach) | Intent::DependsOn(reach) => {
            let (from, _) = module(&reach.from)?;
            let (to, _) = module(&reach.to)?;
            Ok(path(bundle, &from, &to, reach.runtime, reach.direct))
        }
        Intent::DefinedIn(mention) => defined_in(bundle, &linker, mention),
        Intent::Exports(mention) => {
            let (id, note) = module(mention)?;
            let node = &bundle.nodes[&id];
            let source = if node.exports_source == "__all__" {
                "its `__all__`"
            } else {
                "its public top-level names (no `__all__`): what it defines and what it imports from the repository's own modules"
            };
            let mut text = format!(
                "`{id}`{note} exports {} names, from {source}: {}.",
                node.exports.len(),
                code_list(&node.exports, MAX_LISTED)
            );
            if !node.exports_fallback.is_empty() {
                let _ = write!(
                    text,
                    " Bound only inside `try` blocks (compatibility fallbacks, possibly `None`): {}.",
                    code_list(&node.exports_fallback, MAX_LISTED)
                );
            }
            Ok(StructuralAnswer { text, cited: vec![(id, None)] })
        }
    }
}

fn imports_of(bundle: &Bundle, node: &Node, note: &str) -> StructuralAnswer {
    let mut text = format!("`{}`{note} imports {} module(s) of the repository", node.id, node.imports.len());
    if node.imports.is_empty() {
        text.push('.');
    } else {
        let described: Vec<String> = node.imports.iter().map(|dst| describe_edge(bundle, &node.id, dst, dst)).collect();
        let _ = write!(text, ": {}.", limited(&described, MAX_LISTED));
    }
    let external = &node.external_imports;
    if !external.stdlib.is_empty() || !external.third_party.is_empty() {
        let _ = write!(
            text,
            " Outside the repository: standard library {}; third-party {}.",
            or_none(&external.stdlib),
            or_none(&external.third_party)
        );
    }
    let mut cited = vec![(node.id.clone(), None)];
    cited.extend(node.imports.iter().map(|id| (id.clone(), None)));
    StructuralAnswer { text, cited }
}

fn importers_of(bundle: &Bundle, id: &str, note: &str) -> StructuralAnswer {
    let importers: Vec<String> =
        bundle.edges.iter().filter(|e| e.dst == id).map(|e| describe_edge(bundle, &e.src, id, &e.src)).collect();
    let sources: Vec<String> = bundle.edges.iter().filter(|e| e.dst == id).map(|e| e.src.clone()).collect();
    let node = &bundle.nodes[id];
    let text = if importers.is_empty() {
        format!("No module of the repository imports `{id}`{note}.")
    } else {
        format!(
            "{} module(s) import `{id}`{note} directly: {}. Counting indirect importers, {} module(s) depend on it.",
            importers.len(),
            limited(&importers, MAX_LISTED),
            node.importers_count
        )
    };
    let mut cited = vec![(id.to_string(), None)];
    cited.extend(sources.into_iter().map(|source| (source, None)));
    StructuralAnswer { text, cited }
}

fn impact(bundle: &Bundle, id: &str, runtime: bool, note: &str) -> StructuralAnswer {
    let dependents = transitive_dependents(bundle, id, runtime);
    let direct: BTreeSet<&str> = bundle
        .edges
        .iter()
        .filter(|e| e.dst == id && e.src != id && !(runtime && e.type_checking))
        .map(|e| e.src.as_str())
        .collect();
    let scope = if runtime { "at runtime (leaving out `if TYPE_CHECKING:` imports)" } else { "counting every import" };
    // Direct importers and the rest are listed apart, so "directly" labels only modules that import it.
    let (direct_ids, indirect_ids): (Vec<&String>, Vec<&String>) =
        dependents.iter().partition(|d| direct.contains(d.as_str()));
    let quoted = |ids: &[&String]| ids.iter().map(|d| format!("`{d}`")).collect::<Vec<_>>();
    let text = if dependents.is_empty() {
        format!("Nothing in the repository depends on `{id}`{note} {scope}: changing it affects only itself.")
    } else {
        let mut text = format!(
            "Changing `{id}`{note} can affect {} module(s) {scope}. {} import it directly: {}.",
            dependents.len(),
            direct_ids.len(),
            limited(&quoted(&direct_ids), MAX_LISTED)
        );
        if !indirect_ids.is_empty() {
            let _ = write!(
                text,
                " {} more depend on it indirectly, through those: {}.",
                indirect_ids.len(),
                limited(&quoted(&indirect_ids), MAX_LISTED)
            );
        }
        text
    };
    // Cite what the answer lists: the direct importers, then the indirect dependents shown.
    let mut cited = vec![(id.to_string(), None)];
    cited.extend(direct_ids.iter().take(MAX_LISTED).map(|d| (d.to_string(), None)));
    cited.extend(indirect_ids.iter().take(MAX_LISTED).map(|d| (d.to_string(), None)));
    StructuralAnswer { text, cited }
}

/// Every module that reaches `id` along import edges, sorted.
pub fn transitive_dependents(bundle: &Bundle, id: &str, runtime: bool) -> Vec<String> {
    let mut importers: BTreeMap<&str, Vec<&str>> = BTreeMap::new();
    for edge in bundle.edges.iter().filter(|e| !(runtime && e.type_checking)) {
        importers.entry(edge.dst.as_str()).or_default().push(edge.src.as_str());
    }
    let mut seen: BTreeSet<&str> = BTreeSet::new();
    let mut queue: VecDeque<&str> = VecDeque::from([id]);
    while let Some(current) = queue.pop_front() {
        for &importer in importers.get(current).map_or(&[][..], Vec::as_slice) {
            if importer != id && seen.insert(importer) {
                queue.push_back(importer);
            }
        }
    }
    seen.into_iter().map(str::to_string).collect()
}

fn all_cycles(bundle: &Bundle) -> StructuralAnswer {
    let all: Vec<_> = bundle.cycles.iter().filter(|c| c.edges == "all").collect();
    let runtime: Vec<_> = bundle.cycles.iter().filter(|c| c.edges == "runtime").collect();
    if all.is_empty() {
        return StructuralAnswer {
            text: "There are no import cycles in the repository.".to_string(),
            cited: Vec::new(),
        };
    }
    let largest_runtime = runtime.iter().map(|c| c.size).max().unwrap_or(0);
    let mut text = format!(
        "There are {} import cycle(s) counting every import ({} at runtime, leaving out `if TYPE_CHECKING:` imports). The largest has {} modules ({} at runtime).",
        all.len(),
        runtime.len(),
        all.iter().map(|c| c.size).max().unwrap_or(0),
        largest_runtime
    );
    for cycle in all.iter().take(5) {
        let members: Vec<String> = cycle.members.iter().map(|m| format!("`{m}`")).collect();
        let _ = write!(text, "\n- {} modules: {}", cycle.size, limited(&members, 12));
    }
    let cited = all.iter().take(5).flat_map(|cycle| cycle.members.iter().take(12).map(|m| (m.clone(), None))).collect();
    StructuralAnswer { text, cited }
}

fn cycles_of(bundle: &Bundle, id: &str, note: &str) -> StructuralAnswer {
    let node = &bundle.nodes[id];
    let find = |edges: &str| bundle.cycles.iter().find(|c| c.edges == edges && c.members.iter().any(|m| m == id));
    let Some(cycle) = find("all") else {
        return StructuralAnswer {
            text: format!("`{id}`{note} is not part of any import cycle."),
            cited: vec![(id.to_string(), None)],
        };
    };
    let members: Vec<String> = cycle.members.iter().map(|m| format!("`{m}`")).collect();
    let runtime = match find("runtime") {
        Some(runtime_cycle) => format!("At runtime the cycle has {} modules.", runtime_cycle.size),
        None => "It exists only through `if TYPE_CHECKING:` imports: there is no cycle at runtime.".to_string(),
    };
    let text = format!(
        "`{id}`{note} is in an import cycle of {} modules: {}. {runtime}",
        node.scc_size,
        limited(&members, MAX_LISTED)
    );
    let cited = cycle.members.iter().take(MAX_LISTED).map(|m| (m.clone(), None)).collect();
    StructuralAnswer { text, cited }
}

fn runtime_cycle_of(bundle: &Bundle, id: &str, note: &str) -> StructuralAnswer {
    let node = &bundle.nodes[id];
    let runtime = bundle.cycles.iter().find(|c| c.edges == "runtime" && c.members.iter().any(|m| m == id));
    let Some(cycle) = runtime else {
        let all_edges = if node.scc_size > 1 {
            format!(" Counting `if TYPE_CHECKING:` imports too, it is in a cycle of {} modules.", node.scc_size)
        } else {
            String::new()
        };
        return StructuralAnswer {
            text: format!(
                "No: leaving out `if TYPE_CHECKING:` imports, `{id}`{note} is not part of any import cycle.{all_edges}"
            ),
            cited: vec![(id.to_string(), None)],
        };
    };
    let members: Vec<String> = cycle.members.iter().map(|m| format!("`{m}`")).collect();
    StructuralAnswer {
        text: format!(
            "Yes: leaving out `if TYPE_CHECKING:` imports, `{id}`{note} is in an import cycle of {} modules: {}.",
            cycle.size,
            limited(&members, MAX_LISTED)
        ),
        cited: cycle.members.iter().take(MAX_LISTED).map(|m| (m.clone(), None)).collect(),
    }
}

fn central(bundle: &Bundle) -> StructuralAnswer {
    let mut by_importers: Vec<&Node> = bundle.nodes.values().collect();
    by_importers.sort_by(|a, b| b.importers_count.cmp(&a.importers_count).then_with(|| a.id.cmp(&b.id)));
    let mut by_rank: Vec<&Node> = bundle.nodes.values().collect();
    by_rank.sort_by(|a, b| b.pagerank.total_cmp(&a.pagerank).then_with(|| a.id.cmp(&b.id)));
    let top: Vec<String> = by_importers
        .iter()
        .take(10)
        .map(|n| {
            format!("`{}` ({} transitive, {} direct importers)", n.id, n.importers_count, n.direct_importers_count)
        })
        .collect();
    let ranked: Vec<String> = by_rank.iter().take(10).map(|n| format!("`{}`", n.id)).collect();
    let text =
        format!("Most depended-on modules: {}.\nMost central by PageRank: {}.", top.join(", "), ranked.join(", "));
    let mut cited: Vec<(String, Option<(u32, u32)>)> = Vec::new();
    for node in by_importers.iter().take(10).chain(by_rank.iter().take(10)) {
        if !cited.iter().any(|(id, _)| id == &node.id) {
            cited.push((node.id.clone(), None));
        }
    }
    StructuralAnswer { text, cited }
}

/// Modules ranked by how many modules import them directly, optionally counting runtime imports only
/// and leaving test modules out (as importers and as candidates).
fn most_imported(bundle: &Bundle, runtime: bool, without_tests: bool) -> StructuralAnswer {
    let mut importers: BTreeMap<&str, usize> = BTreeMap::new();
    for edge in &bundle.edges {
        if (runtime && edge.type_checking) || (without_tests && is_test_path(&edge.src)) || edge.src == edge.dst {
            continue;
        }
        *importers.entry(edge.dst.as_str()).or_default() += 1;
    }
    let mut ranked: Vec<(&str, usize)> =
        importers.into_iter().filter(|(id, _)| !(without_tests && is_test_path(id))).collect();
    ranked.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(b.0)));
    ranked.truncate(10);
    let mut qualifiers = Vec::new();
    if runtime {
        qualifiers.push("runtime imports only");
    }
    if without_tests {
        qualifiers.push("not counting test modules");
    }
    let qualifier = if qualifiers.is_empty() { String::new() } else { format!(" ({})", qualifiers.join(", ")) };
    let listed: Vec<String> = ranked
        .iter()
        .map(|(id, n)| format!("`{id}` ({n} direct importer{})", if *n == 1 { "" } else { "s" }))
        .collect();
    let text = if listed.is_empty() {
        format!("No module of the repository is imported by another{qualifier}.")
    } else {
        format!("Most imported modules{qualifier}: {}.", listed.join(", "))
    };
    StructuralAnswer { text, cited: ranked.iter().map(|(id, _)| (id.to_string(), None)).collect() }
}

fn leaves(bundle: &Bundle) -> StructuralAnswer {
    let leaves: Vec<String> =
        bundle.nodes.values().filter(|n| n.imports.is_empty()).map(|n| format!("`{}`", n.id)).collect();
    let text = format!(
        "{} of {} modules import no other module of the repository: {}.",
        leaves.len(),
        bundle.nodes.len(),
        limited(&leaves, MAX_LISTED)
    );
    let cited =
        bundle.nodes.values().filter(|n| n.imports.is_empty()).take(MAX_LISTED).map(|n| (n.id.clone(), None)).collect();
    StructuralAnswer { text, cited }
}

fn path(bundle: &Bundle, from: &str, to: &str, runtime: bool, direct: bool) -> StructuralAnswer {
    let scope = if runtime { " at runtime (leaving out `if TYPE_CHECKING:` imports)" } else { "" };
    let cited_ends = vec![(from.to_string(), None), (to.to_string(), None)];
    if direct {
        let edge = bundle.edges.iter().find(|e| e.src == from && e.dst == to && !(runtime && e.type_checking));
        let text = match edge {
            Some(edge) => format!("Yes: `{from}` imports `{to}` directly{scope} (line {}).", edge.line),
            None => {
                let only_type_checking = runtime && bundle.edges.iter().any(|e| e.src == from && e.dst == to);
                let indirect = shortest_path(bundle, from, to, runtime).is_some();
                let note = match (only_type_checking, indirect) {
                    (true, _) => " (it does under `if TYPE_CHECKING:`, which never runs)",
                    (false, true) => " (it does depend on it indirectly, through other modules)",
                    (false, false) => "",
                };
                format!("No: `{from}` does not import `{to}` directly{scope}{note}.")
            }
        };
        return StructuralAnswer { text, cited: cited_ends };
    }
    match shortest_path(bundle, from, to, runtime) {
        Some(steps) => {
            let chain: Vec<String> = steps.iter().map(|s| format!("`{s}`")).collect();
            let text = if steps.len() == 2 {
                format!("Yes: `{from}` imports `{to}` directly{scope}.")
            } else {
                format!(
                    "Yes: `{from}` depends on `{to}`{scope} through {} import(s): {}.",
                    steps.len() - 1,
                    chain.join(" → ")
                )
            };
            StructuralAnswer { text, cited: steps.into_iter().map(|s| (s, None)).collect() }
        }
        None => {
            let mut hints = Vec::new();
            if runtime && shortest_path(bundle, from, to, false).is_some() {
                hints.push("only through `if TYPE_CHECKING:` imports, which never run".to_string());
            }
            if shortest_path(bundle, to, from, runtime).is_some() {
                hints.push(format!("the other way round, `{to}` does depend on `{from}`"));
            }
            let hint = if hints.is_empty() { String::new() } else { format!(" ({})", hints.join("; ")) };
            StructuralAnswer {
                text: format!("No: there is no import path from `{from}` to `{to}`{scope}{hint}."),
                cited: cited_ends,
            }
        }
    }
}

/// Breadth-first search along importer→imported edges (`runtime`: leaving out TYPE_CHECKING-only ones).
pub fn shortest_path(bundle: &Bundle, from: &str, to: &str, runtime: bool) -> Option<Vec<String>> {
    let mut imports: BTreeMap<&str, Vec<&str>> = BTreeMap::new();
    for edge in bundle.edges.iter().filter(|e| !(runtime && e.type_checking)) {
        imports.entry(edge.src.as_str()).or_default().push(edge.dst.as_str());
    }
    let mut previous: BTreeMap<&str, &str> = BTreeMap::new();
    let mut queue = VecDeque::from([from]);
    while let Some(current) = queue.pop_front() {
        if current == to && current != from {
            let mut steps = vec![to.to_string()];
            let mut at = to;
            while let Some(&before) = previous.get(at) {
                steps.push(before.to_string());
                at = before;
                if at == from {
                    break;
                }
            }
            steps.reverse();
            return Some(steps);
        }
        for &next in imports.get(current).map_or(&[][..], Vec::as_slice) {
            if next != from && !previous.contains_key(next) {
                previous.insert(next, current);
                queue.push_back(next);
            }
        }
    }
    None
}

fn defined_in(bundle: &Bundle, linker: &EntityLinker<'_>, mention: &str) -> Result<StructuralAnswer, Unlinked> {
    let name = super::entities::clean_mention(mention);
    let mut found: Vec<(String, String, u32, u32)> = Vec::new();
    for node in bundle.nodes.values() {
        for symbol in &node.symbols {
            if symbol.name == name {
                found.push((node.id.clone(), symbol.kind.clone(), symbol.line_start, symbol.line_end));
            }
            for method in
                symbol.methods.iter().filter(|m| m.name == name || format!("{}.{}", symbol.name, m.name) == name)
            {
                found.push((node.id.clone(), format!("method of {}", symbol.name), method.line_start, method.line_end));
            }
        }
    }
    if found.is_empty() {
        // Maybe a misspelling, or a module name.
        return match linker.link(&name) {
            Some(Linked::Symbol { name: corrected, .. }) if corrected != name => defined_in(bundle, linker, &corrected),
            Some(Linked::Module { id, .. }) => {
                Ok(StructuralAnswer { text: format!("`{name}` is the module `{id}`."), cited: vec![(id, None)] })
            }
            _ => Err(Unlinked { mention: name.clone(), suggestions: suggestions(bundle, &name) }),
        };
    }
    let places: Vec<String> =
        found.iter().map(|(id, kind, start, end)| format!("`{id}` lines {start}-{end} ({kind})")).collect();
    let text = format!("`{name}` is defined in {}.", limited(&places, MAX_LISTED));
    let cited = found.into_iter().map(|(id, _, start, end)| (id, Some((start, end)))).collect();
    Ok(StructuralAnswer { text, cited })
}

/// `shown` (one end of the edge src → dst) with the edge's flags.
fn describe_edge(bundle: &Bundle, src: &str, dst: &str, shown: &str) -> String {
    let Some(edge) = bundle.edges.iter().find(|e| e.src == src && e.dst == dst) else { return format!("`{shown}`") };
    let mut flags = Vec::new();
    if edge.type_checking {
        flags.push("TYPE_CHECKING only");
    }
    if edge.conditional {
        flags.push("conditional");
    }
    if edge.local {
        flags.push("inside a function");
    }
    if flags.is_empty() { format!("`{shown}`") } else { format!("`{shown}` ({})", flags.join(", ")) }
}

fn ambiguity_note(alternatives: &[String]) -> String {
    if alternatives.is_empty() {
        String::new()
    } else {
        let shown: Vec<String> = alternatives.iter().take(3).map(|a| format!("`{a}`")).collect();
        format!(" (also matching: {})", shown.join(", "))
    }
}

/// Module ids whose names look most like the mention, for "did you mean" replies.
pub fn suggestions(bundle: &Bundle, mention: &str) -> Vec<String> {
    let wanted = mention.to_lowercase();
    let mut scored: Vec<(usize, &String)> = bundle
        .nodes
        .values()
        .map(|node| {
            let short = node.module.rsplit('.').next().unwrap_or(&node.module).to_lowercase();
            (
                strsim::levenshtein(&short, &wanted).min(strsim::levenshtein(&node.module.to_lowercase(), &wanted)),
                &node.id,
            )
        })
        .collect();
    scored.sort();
    scored.into_iter().take(3).map(|(_, id)| id.clone()).collect()
}

fn code_list(items: &[String], max: usize) -> String {
    let quoted: Vec<String> = items.iter().map(|i| format!("`{i}`")).collect();
    if quoted.is_empty() { "none".to_string() } else { limited(&quoted, max) }
}

fn or_none(items: &[String]) -> String {
    if items.is_empty() { "none".to_string() } else { items.join(", ") }
}
