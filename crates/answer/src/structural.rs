//! Exact answers from the graph, without an LLM: imports, importers, impact (transitive dependents, all
//! edges or runtime only), cycles, central modules, leaves, import paths, where a symbol is defined and
//! what a module exports. Pure over the bundle.

use std::collections::{BTreeMap, BTreeSet, VecDeque};
use std::fmt::Write;

use serde::Serialize;

use super::understand::{Entity, Part, Relation};
use strata_core::bundle::Bundle;
use strata_search::chunks::limited;
use strata_search::retrieve::is_test_path;

/// How many modules an answer lists before "and N more" (the citations carry them all, up to a cap).
const MAX_LISTED: usize = 30;

/// An exact answer: its text, the modules it relies on (line ranges for symbol answers), and the
/// result as data for `ask --format json`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StructuralAnswer {
    pub text: String,
    pub cited: Vec<(String, Option<(u32, u32)>)>,
    pub result: ExactResult,
}

/// The computed answer of one part, for programs: what the text says, as values.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct ExactResult {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub yes: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub count: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub modules: Option<Vec<String>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub path: Option<Vec<String>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub names: Option<Vec<String>>,
}

/// Every part of an understood question answered, in order: one text, the modules cited, and each
/// part's result stored in the part.
pub struct AnsweredParts {
    pub text: String,
    pub cited: Vec<(String, Option<(u32, u32)>)>,
}

pub fn answer_parts(bundle: &Bundle, parts: &mut [Part]) -> AnsweredParts {
    let mut texts = Vec::new();
    let mut cited = Vec::new();
    for part in parts.iter_mut() {
        let answer = answer_part(bundle, part);
        texts.push(answer.text);
        cited.extend(answer.cited);
        part.result = Some(answer.result);
    }
    AnsweredParts { text: texts.join("\n\n"), cited }
}

/// The exact answer to one part.
pub fn answer_part(bundle: &Bundle, part: &Part) -> StructuralAnswer {
    let ranking = matches!(part.relation, Relation::MostImported | Relation::MostDependedOn);
    // A ranking "inside the django package": only modules under that package's folder count.
    let within =
        if ranking { part.modules.first().map(|m| m.id.trim_end_matches("__init__.py").to_string()) } else { None };
    let scope = Scope { runtime: part.runtime, without_tests: part.without_tests, only_tests: part.only_tests, within };
    let module = |i: usize| part.modules.get(i);
    let mut answer = match (part.relation, module(0)) {
        (Relation::Imports, Some(m)) => neighbours(bundle, m, Direction::Imports, &scope, part),
        (Relation::Importers, Some(m)) => neighbours(bundle, m, Direction::Importers, &scope, part),
        (Relation::Dependents, Some(m)) => reach_all(bundle, m, Direction::Importers, &scope, part),
        (Relation::Dependencies, Some(m)) => reach_all(bundle, m, Direction::Imports, &scope, part),
        (Relation::Reach, Some(from)) => match module(1) {
            Some(to) => path(bundle, &from.id, &to.id, part.runtime, !part.transitive),
            None => unanswerable(),
        },
        (Relation::CycleOf, Some(m)) => cycle_of(bundle, m, part),
        (Relation::Cycles, _) => all_cycles(bundle, part),
        (Relation::LargestCycle, _) => largest_cycle(bundle, part),
        (Relation::MostImported, _) => most_imported(bundle, &scope, part.top.unwrap_or(10), false),
        (Relation::MostDependedOn, _) => most_imported(bundle, &scope, part.top.unwrap_or(10), true),
        (Relation::Leaves, _) => leaves(bundle, &scope, part, Direction::Imports),
        (Relation::Roots, _) => leaves(bundle, &scope, part, Direction::Importers),
        (Relation::DefinedIn, _) => defined_in(bundle, part.symbol.as_deref().unwrap_or_default()),
        (Relation::Exports, Some(m)) => exports(bundle, m),
        _ => unanswerable(),
    };
    if part.yes_no && answer.result.yes.is_none() {
        let yes = answer.result.count.map(|n| n > 0).or(answer.result.modules.as_ref().map(|m| !m.is_empty()));
        if let Some(yes) = yes {
            answer.text = format!("{} {}", if yes { "Yes:" } else { "No:" }, lower_first(&answer.text));
            answer.result.yes = Some(yes);
        }
    }
    answer
}

fn unanswerable() -> StructuralAnswer {
    StructuralAnswer {
        text: "I could not tell which modules this is about.".into(),
        cited: Vec::new(),
        result: ExactResult::default(),
    }
}

fn lower_first(text: &str) -> String {
    // Module names in backticks and numbers stay as they are.
    let mut chars = text.chars();
    match chars.next() {
        Some(first) if first.is_uppercase() && !text.starts_with("No module") => {
            first.to_lowercase().chain(chars).collect()
        }
        _ => text.to_string(),
    }
}

/// Which edges count and which modules are listed.
#[derive(Debug, Clone)]
struct Scope {
    runtime: bool,
    without_tests: bool,
    only_tests: bool,
    /// A folder (`django/`): modules outside it neither count nor are listed.
    within: Option<String>,
}

impl Scope {
    fn edge(&self, edge: &strata_core::bundle::BundleEdge) -> bool {
        !(self.runtime && edge.type_checking)
            && !(self.without_tests && (is_test_path(&edge.src) || is_test_path(&edge.dst)))
            && self.inside(&edge.src)
            && self.inside(&edge.dst)
    }

    fn listed(&self, id: &str) -> bool {
        let kept = if is_test_path(id) { !self.without_tests } else { !self.only_tests };
        kept && self.inside(id)
    }

    fn inside(&self, id: &str) -> bool {
        self.within.as_deref().is_none_or(|folder| id.starts_with(folder))
    }

    fn words(&self) -> String {
        let mut words = Vec::new();
        if self.runtime {
            words.push("at runtime (leaving out `if TYPE_CHECKING:` imports)");
        }
        if self.without_tests {
            words.push("not counting test modules");
        }
        if self.only_tests {
            words.push("test modules only");
        }
        let within = self.within.as_deref().map(|folder| format!("inside `{folder}`"));
        if let Some(within) = &within {
            words.push(within);
        }
        if words.is_empty() { String::new() } else { format!(" {}", words.join(", ")) }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Direction {
    Imports,
    Importers,
}

/// One hop: what a module imports, or what imports it.
fn neighbours(bundle: &Bundle, entity: &Entity, direction: Direction, scope: &Scope, part: &Part) -> StructuralAnswer {
    let id = entity.id.as_str();
    let note = &entity.note;
    let found: Vec<&strata_core::bundle::BundleEdge> = bundle
        .edges
        .iter()
        .filter(|e| scope.edge(e) && e.src != e.dst)
        .filter(|e| match direction {
            Direction::Imports => e.src == id && scope.listed(&e.dst),
            Direction::Importers => e.dst == id && scope.listed(&e.src),
        })
        .collect();
    let other = |e: &strata_core::bundle::BundleEdge| {
        if direction == Direction::Imports { e.dst.clone() } else { e.src.clone() }
    };
    let modules: Vec<String> = found.iter().map(|e| other(e)).collect();
    let described: Vec<String> = found.iter().map(|e| describe_edge(bundle, &e.src, &e.dst, &other(e))).collect();
    let n = modules.len();
    let qualifier = scope.words();
    let mut text = match (direction, n) {
        (Direction::Imports, 0) => format!("`{id}`{note} imports no module of the repository{qualifier}."),
        (Direction::Imports, _) => {
            format!(
                "`{id}`{note} imports {n} module(s) of the repository{qualifier}: {}.",
                limited(&described, MAX_LISTED)
            )
        }
        (Direction::Importers, 0) => format!("No module of the repository imports `{id}`{note}{qualifier}."),
        (Direction::Importers, _) => {
            format!("{n} module(s) import `{id}`{note} directly{qualifier}: {}.", limited(&described, MAX_LISTED))
        }
    };
    if direction == Direction::Imports && !part.count {
        let external = &bundle.nodes[id].external_imports;
        if !external.stdlib.is_empty() || !external.third_party.is_empty() {
            let _ = write!(
                text,
                " Outside the repository: standard library {}; third-party {}.",
                or_none(&external.stdlib),
                or_none(&external.third_party)
            );
        }
    }
    let mut cited = vec![(id.to_string(), None)];
    cited.extend(modules.iter().take(MAX_LISTED).map(|m| (m.clone(), None)));
    StructuralAnswer {
        text,
        cited,
        result: ExactResult { count: Some(n), modules: Some(modules), ..ExactResult::default() },
    }
}

/// Everything reachable along imports (dependencies) or against them (dependents).
fn reach_all(bundle: &Bundle, entity: &Entity, direction: Direction, scope: &Scope, part: &Part) -> StructuralAnswer {
    let id = entity.id.as_str();
    let note = &entity.note;
    let all = reachable(bundle, id, direction, scope);
    let modules: Vec<String> = all.iter().filter(|m| scope.listed(m)).cloned().collect();
    let next: BTreeSet<String> = bundle
        .edges
        .iter()
        .filter(|e| scope.edge(e) && e.src != e.dst)
        .filter_map(|e| match direction {
            Direction::Imports if e.src == id => Some(e.dst.clone()),
            Direction::Importers if e.dst == id => Some(e.src.clone()),
            _ => None,
        })
        .collect();
    let (direct, indirect): (Vec<&String>, Vec<&String>) = modules.iter().partition(|m| next.contains(*m));
    let quoted = |ids: &[&String]| ids.iter().map(|d| format!("`{d}`")).collect::<Vec<_>>();
    let qualifier = match scope.words() {
        words if words.is_empty() => " counting every import".to_string(),
        words => words,
    };
    let n = modules.len();
    let text = match (direction, n) {
        (Direction::Importers, 0) => {
            format!("Nothing in the repository depends on `{id}`{note}{qualifier}: changing it affects only itself.")
        }
        (Direction::Imports, 0) => format!("`{id}`{note} depends on no module of the repository{qualifier}."),
        (direction, _) => {
            let (head, through) = match direction {
                Direction::Importers => (
                    format!(
                        "{n} module(s) depend on `{id}`{note}{qualifier}, so changing it can affect them. {} import it directly",
                        direct.len()
                    ),
                    "depend on it indirectly, through those",
                ),
                Direction::Imports => (
                    format!("`{id}`{note} depends on {n} module(s){qualifier}. It imports {} directly", direct.len()),
                    "through those",
                ),
            };
            let mut text = format!("{head}: {}.", limited(&quoted(&direct), MAX_LISTED));
            if !indirect.is_empty() {
                let _ =
                    write!(text, " {} more {through}: {}.", indirect.len(), limited(&quoted(&indirect), MAX_LISTED));
            }
            text
        }
    };
    let _ = part;
    let mut cited = vec![(id.to_string(), None)];
    cited.extend(direct.iter().take(MAX_LISTED).map(|d| (d.to_string(), None)));
    cited.extend(indirect.iter().take(MAX_LISTED).map(|d| (d.to_string(), None)));
    StructuralAnswer {
        text,
        cited,
        result: ExactResult { count: Some(n), modules: Some(modules), ..ExactResult::default() },
    }
}

/// Every module reachable from `id` in `direction` along the edges `scope` keeps, sorted, `id` left out.
fn reachable(bundle: &Bundle, id: &str, direction: Direction, scope: &Scope) -> Vec<String> {
    let mut next: BTreeMap<&str, Vec<&str>> = BTreeMap::new();
    for edge in bundle.edges.iter().filter(|e| scope.edge(e)) {
        let (from, to) = match direction {
            Direction::Imports => (edge.src.as_str(), edge.dst.as_str()),
            Direction::Importers => (edge.dst.as_str(), edge.src.as_str()),
        };
        next.entry(from).or_default().push(to);
    }
    let mut seen: BTreeSet<&str> = BTreeSet::new();
    let mut queue: VecDeque<&str> = VecDeque::from([id]);
    while let Some(current) = queue.pop_front() {
        for &n in next.get(current).map_or(&[][..], Vec::as_slice) {
            if n != id && seen.insert(n) {
                queue.push_back(n);
            }
        }
    }
    seen.into_iter().map(str::to_string).collect()
}

/// Every module that reaches `id` along import edges, sorted.
pub fn transitive_dependents(bundle: &Bundle, id: &str, runtime: bool) -> Vec<String> {
    reachable(
        bundle,
        id,
        Direction::Importers,
        &Scope { runtime, without_tests: false, only_tests: false, within: None },
    )
}

/// The cycles counted with every import, or without `if TYPE_CHECKING:` imports.
fn cycles(bundle: &Bundle, runtime: bool) -> Vec<&strata_core::bundle::Cycle> {
    let wanted = if runtime { "runtime" } else { "all" };
    let mut cycles: Vec<_> = bundle.cycles.iter().filter(|c| c.edges == wanted).collect();
    cycles.sort_by(|a, b| b.size.cmp(&a.size).then_with(|| a.members.cmp(&b.members)));
    cycles
}

fn scope_words(runtime: bool) -> &'static str {
    if runtime { " at runtime (leaving out `if TYPE_CHECKING:` imports)" } else { "" }
}

fn all_cycles(bundle: &Bundle, part: &Part) -> StructuralAnswer {
    let found = cycles(bundle, part.runtime);
    let scope = scope_words(part.runtime);
    if found.is_empty() {
        return StructuralAnswer {
            text: format!("There are 0 import cycles in the repository{scope}."),
            cited: Vec::new(),
            result: ExactResult { yes: part.yes_no.then_some(false), count: Some(0), ..ExactResult::default() },
        };
    }
    let other = cycles(bundle, !part.runtime);
    let other_words = if part.runtime { "counting every import" } else { "at runtime" };
    let mut text = format!(
        "There {} {} import cycle{}{scope} ({} {other_words}). The largest has {} modules.",
        if found.len() == 1 { "is" } else { "are" },
        found.len(),
        if found.len() == 1 { "" } else { "s" },
        other.len(),
        found[0].size
    );
    for cycle in found.iter().take(5) {
        let members: Vec<String> = cycle.members.iter().map(|m| format!("`{m}`")).collect();
        let _ = write!(text, "\n- {} modules: {}", cycle.size, limited(&members, 12));
    }
    let cited = found.iter().take(5).flat_map(|c| c.members.iter().take(12).map(|m| (m.clone(), None))).collect();
    StructuralAnswer {
        text,
        cited,
        result: ExactResult { count: Some(found.len()), modules: None, ..ExactResult::default() },
    }
}

fn largest_cycle(bundle: &Bundle, part: &Part) -> StructuralAnswer {
    let found = cycles(bundle, part.runtime);
    let scope = scope_words(part.runtime);
    let Some(largest) = found.first() else {
        return StructuralAnswer {
            text: format!("There are no import cycles in the repository{scope}."),
            cited: Vec::new(),
            result: ExactResult { count: Some(0), modules: Some(Vec::new()), ..ExactResult::default() },
        };
    };
    let members: Vec<String> = largest.members.iter().map(|m| format!("`{m}`")).collect();
    let tied = found.iter().filter(|c| c.size == largest.size).count();
    let ties = if tied > 1 { format!(" ({tied} cycles share that size)") } else { String::new() };
    StructuralAnswer {
        text: format!(
            "The largest import cycle{scope} has {} modules{ties}: {}.",
            largest.size,
            limited(&members, MAX_LISTED)
        ),
        cited: largest.members.iter().take(MAX_LISTED).map(|m| (m.clone(), None)).collect(),
        result: ExactResult {
            count: Some(largest.size),
            modules: Some(largest.members.clone()),
            ..ExactResult::default()
        },
    }
}

fn cycle_of(bundle: &Bundle, entity: &Entity, part: &Part) -> StructuralAnswer {
    let (id, note) = (entity.id.as_str(), entity.note.as_str());
    let scope = scope_words(part.runtime);
    let found = cycles(bundle, part.runtime).into_iter().find(|c| c.members.iter().any(|m| m == id));
    let Some(cycle) = found else {
        let elsewhere = if part.runtime
            && let Some(all) = cycles(bundle, false).into_iter().find(|c| c.members.iter().any(|m| m == id))
        {
            format!(" Counting `if TYPE_CHECKING:` imports too, it is in a cycle of {} modules.", all.size)
        } else {
            String::new()
        };
        return StructuralAnswer {
            text: format!("No: `{id}`{note} is not part of any import cycle{scope}.{elsewhere}"),
            cited: vec![(id.to_string(), None)],
            result: ExactResult {
                yes: Some(false),
                count: Some(0),
                modules: Some(Vec::new()),
                ..ExactResult::default()
            },
        };
    };
    let members: Vec<String> = cycle.members.iter().map(|m| format!("`{m}`")).collect();
    let runtime_note = if part.runtime {
        String::new()
    } else {
        match cycles(bundle, true).into_iter().find(|c| c.members.iter().any(|m| m == id)) {
            Some(runtime_cycle) => format!(" At runtime the cycle has {} modules.", runtime_cycle.size),
            None => " It exists only through `if TYPE_CHECKING:` imports: there is no cycle at runtime.".to_string(),
        }
    };
    StructuralAnswer {
        text: format!(
            "Yes: `{id}`{note} is in an import cycle{scope} of {} modules: {}.{runtime_note}",
            cycle.size,
            limited(&members, MAX_LISTED)
        ),
        cited: cycle.members.iter().take(MAX_LISTED).map(|m| (m.clone(), None)).collect(),
        result: ExactResult {
            yes: Some(true),
            count: Some(cycle.size),
            modules: Some(cycle.members.clone()),
            ..ExactResult::default()
        },
    }
}

/// Modules ranked by direct importers (or by transitive dependents), within `scope`; ties beyond
/// the last place are named.
fn most_imported(bundle: &Bundle, scope: &Scope, top: usize, transitive: bool) -> StructuralAnswer {
    let top = top.max(1);
    let mut counts: Vec<(usize, &str)> = bundle
        .nodes
        .keys()
        .filter(|id| scope.listed(id))
        .map(|id| {
            let whole_graph = !scope.runtime && !scope.without_tests && !scope.only_tests && scope.within.is_none();
            let n = if transitive && whole_graph {
                // The bundle already holds every module's transitive dependents over all edges.
                bundle.nodes[id].importers_count
            } else if transitive {
                reachable(bundle, id, Direction::Importers, scope).iter().filter(|m| scope.listed(m)).count()
            } else {
                bundle
                    .edges
                    .iter()
                    .filter(|e| e.dst == *id && e.src != e.dst && scope.edge(e) && scope.listed(&e.src))
                    .count()
            };
            (n, id.as_str())
        })
        .filter(|(n, _)| *n > 0)
        .collect();
    counts.sort_by(|a, b| b.0.cmp(&a.0).then_with(|| a.1.cmp(b.1)));
    let shown: Vec<(usize, &str)> = counts.iter().take(top).copied().collect();
    let what = |n: usize| match (transitive, n) {
        (true, 1) => "module depending on it",
        (true, _) => "modules depending on it",
        (false, 1) => "direct importer",
        (false, _) => "direct importers",
    };
    let ranking = if transitive { "Most depended-on modules" } else { "Most imported modules" };
    let qualifier = match scope.words() {
        words if words.is_empty() => String::new(),
        words => format!(" ({})", words.trim()),
    };
    let listed: Vec<String> = shown.iter().map(|(n, id)| format!("`{id}` ({n} {})", what(*n))).collect();
    let mut text = match shown.as_slice() {
        [] => format!("No module of the repository is imported by another{qualifier}."),
        [(n, id)] if top == 1 => format!("The most imported module{qualifier} is `{id}`, with {n} {}.", what(*n)),
        _ => format!("{ranking}{qualifier}: {}.", listed.join(", ")),
    };
    if let Some(&(last, _)) = shown.last() {
        let tied: Vec<String> =
            counts.iter().skip(shown.len()).take_while(|(n, _)| *n == last).map(|(_, id)| format!("`{id}`")).collect();
        if !tied.is_empty() {
            let _ = write!(text, " Tied with the last of those: {}.", limited(&tied, 10));
        }
    }
    let modules: Vec<String> = shown.iter().map(|(_, id)| id.to_string()).collect();
    StructuralAnswer {
        text,
        cited: modules.iter().map(|id| (id.clone(), None)).collect(),
        result: ExactResult { modules: Some(modules), ..ExactResult::default() },
    }
}

/// Modules importing nothing of the repository (`Imports`), or imported by nothing (`Importers`).
fn leaves(bundle: &Bundle, scope: &Scope, part: &Part, direction: Direction) -> StructuralAnswer {
    let mut has_edge: BTreeSet<&str> = BTreeSet::new();
    for edge in bundle.edges.iter().filter(|e| scope.edge(e) && e.src != e.dst) {
        has_edge.insert(if direction == Direction::Imports { edge.src.as_str() } else { edge.dst.as_str() });
    }
    let found: Vec<String> =
        bundle.nodes.keys().filter(|id| scope.listed(id) && !has_edge.contains(id.as_str())).cloned().collect();
    let quoted: Vec<String> = found.iter().map(|id| format!("`{id}`")).collect();
    let what = if direction == Direction::Imports {
        "import no other module of the repository"
    } else {
        "are imported by no other module of the repository"
    };
    let text = format!(
        "{} of {} modules {what}{}: {}.",
        found.len(),
        bundle.nodes.len(),
        scope.words(),
        limited(&quoted, MAX_LISTED)
    );
    let _ = part;
    StructuralAnswer {
        text,
        cited: found.iter().take(MAX_LISTED).map(|id| (id.clone(), None)).collect(),
        result: ExactResult { count: Some(found.len()), modules: Some(found), ..ExactResult::default() },
    }
}

fn exports(bundle: &Bundle, entity: &Entity) -> StructuralAnswer {
    let (id, note) = (entity.id.as_str(), entity.note.as_str());
    let node = &bundle.nodes[id];
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
    StructuralAnswer {
        text,
        cited: vec![(id.to_string(), None)],
        result: ExactResult {
            count: Some(node.exports.len()),
            names: Some(node.exports.clone()),
            ..ExactResult::default()
        },
    }
}

fn path(bundle: &Bundle, from: &str, to: &str, runtime: bool, direct: bool) -> StructuralAnswer {
    let scope = if runtime { " at runtime (leaving out `if TYPE_CHECKING:` imports)" } else { "" };
    let cited_ends = vec![(from.to_string(), None), (to.to_string(), None)];
    if direct {
        let edge = bundle.edges.iter().find(|e| e.src == from && e.dst == to && !(runtime && e.type_checking));
        let result = ExactResult {
            yes: Some(edge.is_some()),
            path: edge.map(|_| vec![from.to_string(), to.to_string()]),
            ..ExactResult::default()
        };
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
        return StructuralAnswer { text, cited: cited_ends, result };
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
            let result = ExactResult { yes: Some(true), path: Some(steps.clone()), ..ExactResult::default() };
            StructuralAnswer { text, cited: steps.into_iter().map(|s| (s, None)).collect(), result }
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
                result: ExactResult { yes: Some(false), ..ExactResult::default() },
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

fn defined_in(bundle: &Bundle, name: &str) -> StructuralAnswer {
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
    let places: Vec<String> =
        found.iter().map(|(id, kind, start, end)| format!("`{id}` lines {start}-{end} ({kind})")).collect();
    let mut modules: Vec<String> = found.iter().map(|(id, ..)| id.clone()).collect();
    modules.dedup();
    let text = if found.is_empty() {
        format!("No module of the repository defines `{name}` at its top level.")
    } else {
        format!("`{name}` is defined in {}.", limited(&places, MAX_LISTED))
    };
    let cited = found.into_iter().map(|(id, _, start, end)| (id, Some((start, end)))).collect();
    let result = ExactResult { count: Some(modules.len()), modules: Some(modules), ..ExactResult::default() };
    StructuralAnswer { text, cited, result }
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

/// One line per named module: what it imports and what imports it, for answers that retrieval gives.
pub fn graph_facts(bundle: &Bundle, entities: &[Entity]) -> Vec<(String, String)> {
    let mut seen = BTreeSet::new();
    let mut facts = Vec::new();
    for entity in entities {
        let Some(node) = bundle.nodes.get(&entity.id) else { continue };
        if !seen.insert(node.id.clone()) {
            continue;
        }
        let importers: Vec<String> =
            bundle.edges.iter().filter(|e| e.dst == node.id).map(|e| format!("`{}`", e.src)).collect();
        let imports: Vec<String> = node.imports.iter().map(|i| format!("`{i}`")).collect();
        let cycle = if node.scc_size > 1 {
            format!("; in an import cycle of {} modules", node.scc_size)
        } else {
            String::new()
        };
        facts.push((
            node.id.clone(),
            format!(
                "imports {} module(s) ({}); imported directly by {} ({}); {} module(s) depend on it{cycle}",
                imports.len(),
                limited(&imports, 8),
                importers.len(),
                limited(&importers, 8),
                node.importers_count
            ),
        ));
    }
    facts
}
