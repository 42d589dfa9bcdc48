//! The wording half of exact answers: each computed result said in a sentence or two, with every
//! qualifier said the way `graph_view`'s wording says it (what "at runtime" leaves out, a result that
//! holds only through `TYPE_CHECKING` or `__main__`-block imports, the package `__init__` rule, a
//! module skipped for its size), and the modules it relies on to cite.

use std::fmt::Write;

use strata_core::graph_view::{
    AT_RUNTIME, Direction, EdgeKind, Measure, PACKAGE_INIT, Tests, chain_text, cycle_at_runtime, kind_label,
    only_through,
};
use strata_search::chunks::limited;

use super::query::{CycleFound, CycleOf, Cycles, Graph, Neighbours, PathResult, Reach, Scope};
use super::{ExactResult, StructuralAnswer};
use crate::understand::Entity;

/// How many modules an answer lists before "and N more" (the citations carry them all, up to a cap).
const MAX_LISTED: usize = 30;

fn code(id: &str) -> String {
    format!("`{id}`")
}

/// What the scope leaves out or keeps, as words after the answer's subject (empty for everything).
pub(super) fn scope_words(scope: &Scope) -> String {
    let mut words: Vec<String> = Vec::new();
    if scope.runtime() {
        words.push(AT_RUNTIME.to_string());
    }
    match scope.filter.tests {
        Tests::Excluded => words.push("not counting test modules".to_string()),
        Tests::Only => words.push("counting only test modules".to_string()),
        Tests::Included => {}
    }
    if let Some(folder) = &scope.filter.within {
        words.push(format!("inside `{folder}`"));
    }
    if words.is_empty() { String::new() } else { format!(" {}", words.join(", ")) }
}

/// `shown` (one end of the import `src` → `dst`) with what is special about that import, and a note
/// when `shown` was not read.
fn describe_import(graph: &Graph<'_>, src: &str, dst: &str, shown: &str) -> String {
    let mut flags: Vec<String> = Vec::new();
    if let Some(edge) = graph.bundle.edges.iter().find(|e| e.src == src && e.dst == dst) {
        flags.extend(kind_label(EdgeKind::of(edge)).map(str::to_string));
        if edge.conditional {
            flags.push("conditional".to_string());
        }
        if edge.local {
            flags.push("inside a function".to_string());
        }
    }
    if graph.skipped_reason(shown).is_some() {
        flags.push("not read: skipped for its size".to_string());
    }
    if flags.is_empty() { code(shown) } else { format!("{} ({})", code(shown), flags.join(", ")) }
}

/// A sentence for a module that was not read, so its own imports are unknown.
fn unread_note(graph: &Graph<'_>, id: &str) -> String {
    match graph.skipped_reason(id) {
        Some(reason) => format!(" `{id}` was not read ({reason}), so what it imports is unknown."),
        None => String::new(),
    }
}

pub(super) fn neighbours(
    graph: &Graph<'_>,
    entity: &Entity,
    result: Neighbours<'_>,
    scope: &Scope,
    count_only: bool,
) -> StructuralAnswer {
    let (id, note) = (entity.id.as_str(), entity.note.as_str());
    let modules: Vec<String> = result.found.iter().map(|n| n.id.to_string()).collect();
    let described: Vec<String> = result
        .found
        .iter()
        .map(|n| match result.direction {
            Direction::Imports => describe_import(graph, id, n.id, n.id),
            Direction::Importers => describe_import(graph, n.id, id, n.id),
        })
        .collect();
    let n = modules.len();
    let qualifier = scope_words(scope);
    let mut text = match (result.direction, n) {
        (Direction::Imports, 0) => format!("`{id}`{note} imports no module of the repository{qualifier}."),
        (Direction::Imports, _) => format!(
            "`{id}`{note} imports {n} module(s) of the repository{qualifier}: {}.",
            limited(&described, MAX_LISTED)
        ),
        (Direction::Importers, 0) => format!("No module of the repository imports `{id}`{note}{qualifier}."),
        (Direction::Importers, _) => {
            format!("{n} module(s) import `{id}`{note} directly{qualifier}: {}.", limited(&described, MAX_LISTED))
        }
    };
    if result.direction == Direction::Imports {
        text.push_str(&unread_note(graph, id));
        let external = graph.bundle.nodes.get(id).map(|node| &node.external_imports);
        let outside = external.filter(|e| !e.stdlib.is_empty() || !e.third_party.is_empty());
        if let Some(external) = outside.filter(|_| !count_only) {
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

pub(super) fn reach(graph: &Graph<'_>, entity: &Entity, result: Reach<'_>, scope: &Scope) -> StructuralAnswer {
    let (id, note) = (entity.id.as_str(), entity.note.as_str());
    let (direct, indirect): (Vec<&str>, Vec<&str>) =
        result.modules.iter().copied().partition(|m| result.direct.contains(m));
    let quoted = |ids: &[&str]| ids.iter().map(|d| code(d)).collect::<Vec<_>>();
    let qualifier = match scope_words(scope) {
        words if words.is_empty() => " counting every import".to_string(),
        words => words,
    };
    let n = result.modules.len();
    let mut text = match (result.direction, n) {
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
    if !result.not_at_runtime.is_empty() {
        let kinds: Vec<EdgeKind> = {
            let mut all: Vec<EdgeKind> = result.not_at_runtime.values().flatten().copied().collect();
            all.sort();
            all.dedup();
            all
        };
        let listed: Vec<String> = result.not_at_runtime.keys().map(|m| code(m)).collect();
        let words = only_through(&kinds).unwrap_or("only through imports that do not run on import");
        let _ = write!(
            text,
            " Of those, {} {} {words}: {}.",
            listed.len(),
            if listed.len() == 1 { "holds" } else { "hold" },
            limited(&listed, MAX_LISTED)
        );
    }
    if !result.package_runs.is_empty() {
        let listed: Vec<String> = result.package_runs.iter().map(|m| code(m)).collect();
        let _ = write!(
            text,
            " Besides, {PACKAGE_INIT}: {} more module(s) import a submodule of this package, which runs `{id}`: {}.",
            listed.len(),
            limited(&listed, MAX_LISTED)
        );
    }
    if result.direction == Direction::Imports {
        text.push_str(&unread_note(graph, id));
    }
    let mut cited = vec![(id.to_string(), None)];
    cited.extend(direct.iter().take(MAX_LISTED).map(|d| (d.to_string(), None)));
    cited.extend(indirect.iter().take(MAX_LISTED).map(|d| (d.to_string(), None)));
    let modules: Vec<String> = result.modules.iter().map(|m| m.to_string()).collect();
    StructuralAnswer {
        text,
        cited,
        result: ExactResult { count: Some(n), modules: Some(modules), ..ExactResult::default() },
    }
}

pub(super) fn path(from: &str, to: &str, direct: bool, result: PathResult, scope: &Scope) -> StructuralAnswer {
    let words = scope_words(scope);
    let cited_ends = vec![(from.to_string(), None), (to.to_string(), None)];
    let Some(chain) = result.chain else {
        let mut hints: Vec<String> = Vec::new();
        match result.uncounted_edge {
            Some(kind) => hints.push(match kind_label(kind) {
                Some(label) => format!("it does, {label}, which does not run on import"),
                None => "it does".to_string(),
            }),
            None if result.indirect => hints.push("it does depend on it indirectly, through other modules".to_string()),
            None => {}
        }
        if let Some(only) = only_through(&result.only_through) {
            hints.push(only.to_string());
        }
        if result.reverse {
            hints.push(format!("the other way round, `{to}` does depend on `{from}`"));
        }
        let hint = if hints.is_empty() { String::new() } else { format!(" ({})", hints.join("; ")) };
        let text = if direct {
            format!("No: `{from}` does not import `{to}` directly{words}{hint}.")
        } else {
            format!("No: there is no import path from `{from}` to `{to}`{words}{hint}.")
        };
        return StructuralAnswer {
            text,
            cited: cited_ends,
            result: ExactResult { yes: Some(false), ..ExactResult::default() },
        };
    };
    // "Yes, but only through …:" when the chain does not run on import (a runtime one is preferred).
    let yes = match only_through(&chain.kinds()) {
        Some(only) => format!("Yes, but {only}:"),
        None => "Yes:".to_string(),
    };
    let text = if chain.modules.len() == 2 {
        let line = chain.steps.first().map_or(0, |step| step.line);
        format!("{yes} `{from}` imports `{to}` directly{words} (line {line}).")
    } else {
        format!(
            "{yes} `{from}` depends on `{to}`{words} through {} import(s): {}.",
            chain.steps.len(),
            chain_text(&chain, &code)
        )
    };
    let path = chain.modules.clone();
    let result = ExactResult { yes: Some(true), path: Some(path), ..ExactResult::default() };
    StructuralAnswer { text, cited: chain.modules.into_iter().map(|m| (m, None)).collect(), result }
}

/// "(not at runtime: …)" after a cycle counted over every import, when it does not hold whole.
fn cycle_note((_, status): &CycleFound<'_>, scope: &Scope) -> String {
    if scope.runtime() {
        return String::new();
    }
    cycle_at_runtime(status.runtime_size, &status.only_through).map(|note| format!(" ({note})")).unwrap_or_default()
}

pub(super) fn cycles(result: &Cycles<'_>, scope: &Scope, yes_no: bool) -> StructuralAnswer {
    let words = scope_words(scope);
    if result.found.is_empty() {
        return StructuralAnswer {
            text: format!("There are 0 import cycles in the repository{words}."),
            cited: Vec::new(),
            result: ExactResult { yes: yes_no.then_some(false), count: Some(0), ..ExactResult::default() },
        };
    }
    let n = result.found.len();
    let other_words = if scope.runtime() { "counting every import" } else { "at runtime" };
    let mut text = format!(
        "There {} {n} import cycle{}{words} ({} {other_words}). The largest has {} modules.",
        if n == 1 { "is" } else { "are" },
        if n == 1 { "" } else { "s" },
        result.other_count,
        result.found[0].0.len()
    );
    for cycle in result.found.iter().take(5) {
        let members: Vec<String> = cycle.0.iter().map(|m| code(m)).collect();
        let _ = write!(text, "\n- {} modules{}: {}", cycle.0.len(), cycle_note(cycle, scope), limited(&members, 12));
    }
    let cited = result
        .found
        .iter()
        .take(5)
        .flat_map(|(members, _)| members.iter().take(12).map(|m| (m.to_string(), None)))
        .collect();
    StructuralAnswer { text, cited, result: ExactResult { count: Some(n), ..ExactResult::default() } }
}

pub(super) fn largest_cycle(result: &Cycles<'_>, scope: &Scope) -> StructuralAnswer {
    let words = scope_words(scope);
    let Some(largest) = result.found.first() else {
        return StructuralAnswer {
            text: format!("There are no import cycles in the repository{words}."),
            cited: Vec::new(),
            result: ExactResult { count: Some(0), modules: Some(Vec::new()), ..ExactResult::default() },
        };
    };
    let size = largest.0.len();
    let members: Vec<String> = largest.0.iter().map(|m| code(m)).collect();
    let tied = result.found.iter().filter(|(c, _)| c.len() == size).count();
    let ties = if tied > 1 { format!(" ({tied} cycles share that size)") } else { String::new() };
    StructuralAnswer {
        text: format!(
            "The largest import cycle{words} has {size} modules{ties}{}: {}.",
            cycle_note(largest, scope),
            limited(&members, MAX_LISTED)
        ),
        cited: largest.0.iter().take(MAX_LISTED).map(|m| (m.to_string(), None)).collect(),
        result: ExactResult {
            count: Some(size),
            modules: Some(largest.0.iter().map(|m| m.to_string()).collect()),
            ..ExactResult::default()
        },
    }
}

/// Whether a module is in an import cycle. `project_cycles`: the cycles of the project, said after a "No"
/// about a top-level package's `__init__.py`.
pub(super) fn cycle_of(
    entity: &Entity,
    result: &CycleOf<'_>,
    project_cycles: Option<&Cycles<'_>>,
    scope: &Scope,
) -> StructuralAnswer {
    let (id, note) = (entity.id.as_str(), entity.note.as_str());
    let words = scope_words(scope);
    let Some(cycle) = &result.cycle else {
        let elsewhere = match &result.counting_every_import {
            Some((members, status)) => {
                let only = only_through(&status.only_through).map(|o| format!(", {o}")).unwrap_or_default();
                format!(" Counting every import, it is in a cycle of {} modules{only}.", members.len())
            }
            None => String::new(),
        };
        let project = project_cycles.map(|cycles| cycles_elsewhere(cycles, &words)).unwrap_or_default();
        return StructuralAnswer {
            text: format!("No: `{id}`{note} is not part of any import cycle{words}.{elsewhere}{project}"),
            cited: vec![(id.to_string(), None)],
            result: ExactResult {
                yes: Some(false),
                count: Some(0),
                modules: Some(Vec::new()),
                ..ExactResult::default()
            },
        };
    };
    let (members, status) = cycle;
    let quoted: Vec<String> = members.iter().map(|m| code(m)).collect();
    let runtime_note = runtime_sentence(scope.runtime(), status.runtime_size, &status.only_through);
    StructuralAnswer {
        text: format!(
            "Yes: `{id}`{note} is in an import cycle{words} of {} modules: {}.{runtime_note}",
            members.len(),
            limited(&quoted, MAX_LISTED)
        ),
        cited: members.iter().take(MAX_LISTED).map(|m| (m.to_string(), None)).collect(),
        result: ExactResult {
            yes: Some(true),
            count: Some(members.len()),
            modules: Some(members.iter().map(|m| m.to_string()).collect()),
            ..ExactResult::default()
        },
    }
}

/// " Elsewhere in the repository there are 2 import cycles; the largest has 11 modules: …".
fn cycles_elsewhere(cycles: &Cycles<'_>, words: &str) -> String {
    let Some((largest, _)) = cycles.found.first() else {
        return format!(" There are no import cycles anywhere in the repository{words}.");
    };
    let n = cycles.found.len();
    let members: Vec<String> = largest.iter().map(|m| code(m)).collect();
    format!(
        " Elsewhere in the repository{words} there {} {n} import cycle{}; the largest has {} modules: {}.",
        if n == 1 { "is" } else { "are" },
        if n == 1 { "" } else { "s" },
        largest.len(),
        limited(&members, 12)
    )
}

/// Whether `b` is in `a`'s import cycle: one cycle holding both, or why not.
pub(super) fn same_cycle(a: &Entity, b: &Entity, result: &CycleOf<'_>, scope: &Scope) -> StructuralAnswer {
    let words = scope_words(scope);
    let cited = vec![(a.id.clone(), None), (b.id.clone(), None)];
    let Some((members, status)) = &result.cycle else {
        let elsewhere = match &result.counting_every_import {
            Some((members, status)) => {
                let only = only_through(&status.only_through).map(|o| format!(", {o}")).unwrap_or_default();
                let with = if members.contains(&b.id.as_str()) { "with" } else { "without" };
                format!(
                    " Counting every import, it is in a cycle of {} modules {with} `{}`{only}.",
                    members.len(),
                    b.id
                )
            }
            None => String::new(),
        };
        return StructuralAnswer {
            text: format!(
                "No: `{}` is not part of any import cycle{words}, so it shares none with `{}`.{elsewhere}",
                a.id, b.id
            ),
            cited,
            result: ExactResult {
                yes: Some(false),
                count: Some(0),
                modules: Some(Vec::new()),
                ..ExactResult::default()
            },
        };
    };
    let result = ExactResult {
        yes: Some(members.contains(&b.id.as_str())),
        count: Some(members.len()),
        modules: Some(members.iter().map(|m| m.to_string()).collect()),
        ..ExactResult::default()
    };
    let quoted: Vec<String> = members.iter().map(|m| code(m)).collect();
    let text = if result.yes == Some(true) {
        let runtime_note = runtime_sentence(scope.runtime(), status.runtime_size, &status.only_through);
        format!(
            "Yes: `{}` and `{}` are in one import cycle{words}, of {} modules: {}.{runtime_note}",
            a.id,
            b.id,
            members.len(),
            limited(&quoted, MAX_LISTED)
        )
    } else {
        format!(
            "No: `{}` is in an import cycle{words} of {} modules, and `{}` is not in it: {}.",
            a.id,
            members.len(),
            b.id,
            limited(&quoted, MAX_LISTED)
        )
    };
    StructuralAnswer { text, cited, result }
}

/// Modules ranked by direct importers ("imported by") or by every module depending on them
/// ("depended on"); ties beyond the last place are named.
pub(super) fn ranking(ranked: &[(usize, &str)], measure: Measure, top: usize, scope: &Scope) -> StructuralAnswer {
    let top = top.max(1);
    let shown: Vec<(usize, &str)> = ranked.iter().take(top).copied().collect();
    let what = |n: usize| match (measure, n) {
        (Measure::DependedOn, 1) => "module depending on it",
        (Measure::DependedOn, _) => "modules depending on it",
        (Measure::ImportedBy, 1) => "direct importer",
        (Measure::ImportedBy, _) => "direct importers",
        (Measure::Imports, 1) => "module it imports",
        (Measure::Imports, _) => "modules it imports",
        (Measure::DependsOn, 1) => "module it depends on",
        (Measure::DependsOn, _) => "modules it depends on",
    };
    let (title, one) = match measure {
        Measure::DependedOn => ("Most depended-on modules", "most depended-on module"),
        Measure::ImportedBy => ("Most imported modules", "most imported module"),
        Measure::Imports => ("Modules importing the most modules", "module importing the most modules"),
        Measure::DependsOn => ("Modules depending on the most modules", "module depending on the most modules"),
    };
    let qualifier = match scope_words(scope) {
        words if words.is_empty() => String::new(),
        words => format!(" ({})", words.trim()),
    };
    let listed: Vec<String> = shown.iter().map(|(n, id)| format!("`{id}` ({n} {})", what(*n))).collect();
    let mut text = match shown.as_slice() {
        [] if matches!(measure, Measure::Imports | Measure::DependsOn) => {
            format!("No module of the repository imports another{qualifier}.")
        }
        [] => format!("No module of the repository is imported by another{qualifier}."),
        [(n, id)] if top == 1 => format!("The {one}{qualifier} is `{id}`, with {n} {}.", what(*n)),
        _ => format!("{title}{qualifier}: {}.", listed.join(", ")),
    };
    if let Some(&(last, _)) = shown.last() {
        let tied: Vec<String> =
            ranked.iter().skip(shown.len()).take_while(|(n, _)| *n == last).map(|(_, id)| code(id)).collect();
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

pub(super) fn without_links(found: &[&str], total: usize, direction: Direction, scope: &Scope) -> StructuralAnswer {
    let quoted: Vec<String> = found.iter().map(|id| code(id)).collect();
    let what = match direction {
        Direction::Imports => "import no other module of the repository",
        Direction::Importers => "are imported by no other module of the repository",
    };
    let text =
        format!("{} of {total} modules {what}{}: {}.", found.len(), scope_words(scope), limited(&quoted, MAX_LISTED));
    let modules: Vec<String> = found.iter().map(|m| m.to_string()).collect();
    StructuralAnswer {
        text,
        cited: modules.iter().take(MAX_LISTED).map(|id| (id.clone(), None)).collect(),
        result: ExactResult { count: Some(modules.len()), modules: Some(modules), ..ExactResult::default() },
    }
}

pub(super) fn defined_in(name: &str, found: Vec<(String, String, u32, u32)>) -> StructuralAnswer {
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

pub(super) fn exports(graph: &Graph<'_>, entity: &Entity) -> StructuralAnswer {
    let (id, note) = (entity.id.as_str(), entity.note.as_str());
    let Some(node) = graph.bundle.nodes.get(id) else { return super::unanswerable() };
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
    if let Some(reason) = graph.skipped_reason(id) {
        let _ = write!(text, " `{id}` was not read ({reason}), so its names are unknown.");
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

fn code_list(items: &[String], max: usize) -> String {
    let quoted: Vec<String> = items.iter().map(|i| code(i)).collect();
    if quoted.is_empty() { "none".to_string() } else { limited(&quoted, max) }
}

fn or_none(items: &[String]) -> String {
    if items.is_empty() { "none".to_string() } else { items.join(", ") }
}

/// The sentence after a cycle found over every import that says what of it runs (nothing when the
/// question counts only runtime imports, or all of it runs): "There is no cycle at runtime: …" or
/// "25 of its modules form a cycle at runtime; the rest …".
fn runtime_sentence(runtime_only: bool, runtime_size: usize, only_through: &[EdgeKind]) -> String {
    match (runtime_only, cycle_at_runtime(runtime_size, only_through)) {
        (false, Some(note)) if runtime_size == 0 => format!(" There is {note}."),
        (false, Some(note)) => format!(" {note}."),
        _ => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn what_of_a_cycle_runs_is_said_in_a_sentence() {
        let only = [EdgeKind::TypeChecking];
        assert_eq!(
            runtime_sentence(false, 0, &only),
            " There is no cycle at runtime: it exists only through `if TYPE_CHECKING:` imports, which never run."
        );
        assert_eq!(
            runtime_sentence(false, 25, &only),
            " 25 of its modules form a cycle at runtime; the rest are in it only through `if TYPE_CHECKING:` \
             imports, which never run."
        );
        assert_eq!(runtime_sentence(true, 25, &only), "");
        assert_eq!(runtime_sentence(false, 25, &[]), "");
    }
}
