//! The structural diff between two indexes: modules added, removed and renamed (same blob, new path),
//! import edges added and removed, cycles that appeared, grew, shrank or went away, the largest changes in
//! transitive dependents, and per-module import changes as unified diffs. Pure over two bundles and their
//! manifests' blob ids; `render_diff_markdown` is what the job summary shows after a merge. Cycles are
//! matched over every import; each new, grown or shrunk one says how much of it holds at runtime
//! (`graph_view::GraphView::cycle_status`), so one that exists only under `TYPE_CHECKING` says so.

use std::cell::OnceCell;
use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write;

use serde::Serialize;
use similar::TextDiff;

use super::model::Bundle;
use crate::graph_view::{EdgeKind, GraphView, cycle_at_runtime};

/// How many rows each Markdown section shows.
const MAX_ROWS: usize = 20;

#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct StructuralDiff {
    pub old_commit: Option<String>,
    pub new_commit: Option<String>,
    pub modules_added: Vec<String>,
    pub modules_removed: Vec<String>,
    pub modules_renamed: Vec<Rename>,
    pub edges_added: Vec<EdgeRef>,
    pub edges_removed: Vec<EdgeRef>,
    pub cycles_new: Vec<CycleChange>,
    pub cycles_grown: Vec<CycleChange>,
    pub cycles_shrunk: Vec<CycleChange>,
    pub cycles_resolved: Vec<CycleChange>,
    /// Largest changes in transitive dependents first.
    pub dependents_changes: Vec<DependentsChange>,
    /// One unified diff of the import list per module whose imports changed.
    pub import_changes: Vec<ImportChange>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Rename {
    pub from: String,
    pub to: String,
}

#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize)]
pub struct EdgeRef {
    pub src: String,
    pub dst: String,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct CycleChange {
    pub old_size: usize,
    pub new_size: usize,
    pub members: Vec<String>,
    /// The largest cycle its members form at runtime in the newer bundle (the older one for a resolved
    /// cycle); 0 when none.
    pub runtime_size: usize,
    /// When the cycle does not hold whole at runtime: the kinds of the imports between its members that
    /// do not run on import (`type_checking`, `main_block`).
    pub only_through: Vec<EdgeKind>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct DependentsChange {
    pub id: String,
    pub old: usize,
    pub new: usize,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ImportChange {
    pub id: String,
    pub unified_diff: String,
}

impl StructuralDiff {
    pub fn is_empty(&self) -> bool {
        self.modules_added.is_empty()
            && self.modules_removed.is_empty()
            && self.modules_renamed.is_empty()
            && self.edges_added.is_empty()
            && self.edges_removed.is_empty()
    }
}

/// `old_files` / `new_files` map paths to blob ids (from the manifests), for rename detection.
pub fn diff_bundles(
    old: &Bundle,
    old_files: &BTreeMap<String, String>,
    new: &Bundle,
    new_files: &BTreeMap<String, String>,
) -> StructuralDiff {
    let old_ids: BTreeSet<&str> = old.nodes.keys().map(String::as_str).collect();
    let new_ids: BTreeSet<&str> = new.nodes.keys().map(String::as_str).collect();
    let removed: Vec<&str> = old_ids.difference(&new_ids).copied().collect();
    let added: Vec<&str> = new_ids.difference(&old_ids).copied().collect();

    // A removed path whose blob reappears at an added path was renamed (first match, in path order).
    let mut renames: BTreeMap<&str, &str> = BTreeMap::new();
    let mut taken: BTreeSet<&str> = BTreeSet::new();
    for &from in &removed {
        let Some(blob) = old_files.get(from) else { continue };
        if let Some(&to) = added.iter().find(|&&to| !taken.contains(to) && new_files.get(to) == Some(blob)) {
            renames.insert(from, to);
            taken.insert(to);
        }
    }
    let renamed = |id: &str| -> String { renames.get(id).map_or(id, |to| to).to_string() };

    let old_edges: BTreeSet<EdgeRef> =
        old.edges.iter().map(|e| EdgeRef { src: renamed(&e.src), dst: renamed(&e.dst) }).collect();
    let new_edges: BTreeSet<EdgeRef> =
        new.edges.iter().map(|e| EdgeRef { src: e.src.clone(), dst: e.dst.clone() }).collect();

    let mut dependents_changes: Vec<DependentsChange> = old
        .nodes
        .values()
        .filter_map(|node| {
            let new_node = new.nodes.get(&renamed(&node.id))?;
            (new_node.importers_count != node.importers_count).then(|| DependentsChange {
                id: new_node.id.clone(),
                old: node.importers_count,
                new: new_node.importers_count,
            })
        })
        .collect();
    dependents_changes.sort_by(|a, b| {
        let delta = |c: &DependentsChange| c.new.abs_diff(c.old);
        delta(b).cmp(&delta(a)).then_with(|| a.id.cmp(&b.id))
    });

    let mut import_changes = Vec::new();
    for (id, node) in &new.nodes {
        let old_id = renames.iter().find(|(_, to)| **to == id.as_str()).map_or(id.as_str(), |(from, _)| from);
        let old_imports: Vec<String> =
            old.nodes.get(old_id).map(|n| n.imports.iter().map(|i| renamed(i)).collect()).unwrap_or_default();
        if old_imports == node.imports {
            continue;
        }
        let before = lines_of(&old_imports);
        let after = lines_of(&node.imports);
        let unified =
            TextDiff::from_lines(&before, &after).unified_diff().context_radius(2).header(old_id, id).to_string();
        import_changes.push(ImportChange { id: id.clone(), unified_diff: unified });
    }

    let (cycles_new, cycles_grown, cycles_shrunk, cycles_resolved) = cycle_changes(old, new, &renamed);
    StructuralDiff {
        old_commit: old.meta.commit.clone(),
        new_commit: new.meta.commit.clone(),
        modules_added: added.iter().filter(|id| !taken.contains(**id)).map(|id| id.to_string()).collect(),
        modules_removed: removed.iter().filter(|id| !renames.contains_key(**id)).map(|id| id.to_string()).collect(),
        modules_renamed: renames
            .iter()
            .map(|(from, to)| Rename { from: from.to_string(), to: to.to_string() })
            .collect(),
        edges_added: new_edges.difference(&old_edges).cloned().collect(),
        edges_removed: old_edges.difference(&new_edges).cloned().collect(),
        cycles_new,
        cycles_grown,
        cycles_shrunk,
        cycles_resolved,
        dependents_changes,
        import_changes,
    }
}

type CycleChanges = (Vec<CycleChange>, Vec<CycleChange>, Vec<CycleChange>, Vec<CycleChange>);

/// Matches cycles (over all edges) by shared members: a new cycle sharing no module with an old one is
/// new; one that shares modules grew or shrank; an old cycle sharing none with any new one was resolved.
fn cycle_changes(old: &Bundle, new: &Bundle, renamed: &dyn Fn(&str) -> String) -> CycleChanges {
    let old_cycles: Vec<BTreeSet<String>> = old
        .cycles
        .iter()
        .filter(|c| c.edges == "all")
        .map(|c| c.members.iter().map(|m| renamed(m)).collect())
        .collect();
    let new_cycles: Vec<BTreeSet<String>> =
        new.cycles.iter().filter(|c| c.edges == "all").map(|c| c.members.iter().cloned().collect()).collect();
    // Built only when a cycle changed: most diffs have none.
    let (old_cell, new_cell) = (OnceCell::new(), OnceCell::new());
    let old_view = || old_cell.get_or_init(|| GraphView::of(old));
    let new_view = || new_cell.get_or_init(|| GraphView::of(new));
    let change = |view: &GraphView<'_>, old_size: usize, new_size: usize, members: Vec<String>| {
        let status = view.cycle_status(&members);
        CycleChange {
            old_size,
            new_size,
            members,
            runtime_size: status.runtime_size,
            only_through: status.only_through,
        }
    };
    let (mut appeared, mut grown, mut shrunk, mut resolved) = (Vec::new(), Vec::new(), Vec::new(), Vec::new());
    for cycle in &new_cycles {
        let overlapping: Vec<&BTreeSet<String>> = old_cycles.iter().filter(|old| !old.is_disjoint(cycle)).collect();
        let old_size = overlapping.iter().map(|c| c.len()).max().unwrap_or(0);
        let members: Vec<String> = cycle.iter().cloned().collect();
        match old_size {
            0 => appeared.push(change(new_view(), old_size, cycle.len(), members)),
            size if cycle.len() > size => grown.push(change(new_view(), old_size, cycle.len(), members)),
            size if cycle.len() < size => shrunk.push(change(new_view(), old_size, cycle.len(), members)),
            _ => {}
        }
    }
    for cycle in &old_cycles {
        if new_cycles.iter().all(|new| new.is_disjoint(cycle)) {
            // The old bundle names members by their old paths.
            let old_members: Vec<String> = old
                .cycles
                .iter()
                .filter(|c| c.edges == "all")
                .find(|c| c.members.iter().map(|m| renamed(m)).collect::<BTreeSet<_>>() == *cycle)
                .map_or_else(|| cycle.iter().cloned().collect(), |c| c.members.clone());
            let status = old_view().cycle_status(&old_members);
            resolved.push(CycleChange {
                old_size: cycle.len(),
                new_size: 0,
                members: cycle.iter().cloned().collect(),
                runtime_size: status.runtime_size,
                only_through: status.only_through,
            });
        }
    }
    (appeared, grown, shrunk, resolved)
}

fn lines_of(items: &[String]) -> String {
    items.iter().map(|item| format!("{item}\n")).collect()
}

/// The diff as Markdown for a job summary: counts first, details in `<details>` blocks.
pub fn render_diff_markdown(diff: &StructuralDiff) -> String {
    let mut out = String::from("## What changed since the previous index\n\n");
    let short = |commit: &Option<String>| {
        commit.as_deref().map_or("working tree".to_string(), |c| format!("`{}`", &c[..c.len().min(12)]))
    };
    let _ = writeln!(out, "From {} to {}.\n", short(&diff.old_commit), short(&diff.new_commit));
    if diff.is_empty() && diff.import_changes.is_empty() {
        out.push_str("No structural changes: same modules, same import edges.\n");
        return out;
    }
    let _ = writeln!(
        out,
        "| modules added | removed | renamed | edges added | edges removed | new cycles | cycles grown | shrunk | resolved |\n|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n| {} | {} | {} | {} | {} | {} | {} | {} | {} |\n",
        diff.modules_added.len(),
        diff.modules_removed.len(),
        diff.modules_renamed.len(),
        diff.edges_added.len(),
        diff.edges_removed.len(),
        diff.cycles_new.len(),
        diff.cycles_grown.len(),
        diff.cycles_shrunk.len(),
        diff.cycles_resolved.len()
    );
    section(&mut out, "Modules added", diff.modules_added.iter().map(|m| format!("`{m}`")));
    section(&mut out, "Modules removed", diff.modules_removed.iter().map(|m| format!("`{m}`")));
    section(&mut out, "Modules renamed", diff.modules_renamed.iter().map(|r| format!("`{}` → `{}`", r.from, r.to)));
    for (title, cycles) in [
        ("New import cycles", &diff.cycles_new),
        ("Cycles that grew", &diff.cycles_grown),
        ("Cycles that shrank", &diff.cycles_shrunk),
        ("Cycles resolved", &diff.cycles_resolved),
    ] {
        section(
            &mut out,
            title,
            cycles.iter().map(|c| {
                format!(
                    "{} → {} modules{}: {}",
                    c.old_size,
                    c.new_size,
                    cycle_at_runtime(c.runtime_size, &c.only_through)
                        .map(|note| format!(" ({note})"))
                        .unwrap_or_default(),
                    c.members.iter().take(8).map(|m| format!("`{m}`")).collect::<Vec<_>>().join(", ")
                )
            }),
        );
    }
    section(
        &mut out,
        "Largest changes in transitive dependents",
        diff.dependents_changes.iter().map(|c| format!("`{}`: {} → {}", c.id, c.old, c.new)),
    );
    if !diff.import_changes.is_empty() {
        let _ = writeln!(
            out,
            "<details><summary>Import changes in {} module(s)</summary>\n\n```diff",
            diff.import_changes.len()
        );
        for change in diff.import_changes.iter().take(MAX_ROWS) {
            out.push_str(&change.unified_diff);
        }
        out.push_str("```\n\n</details>\n");
    }
    out
}

fn section(out: &mut String, title: &str, rows: impl Iterator<Item = String>) {
    let rows: Vec<String> = rows.collect();
    if rows.is_empty() {
        return;
    }
    let _ = writeln!(out, "<details><summary>{title} ({})</summary>\n", rows.len());
    for row in rows.iter().take(MAX_ROWS) {
        let _ = writeln!(out, "- {row}");
    }
    if rows.len() > MAX_ROWS {
        let _ = writeln!(out, "- … and {} more", rows.len() - MAX_ROWS);
    }
    out.push_str("\n</details>\n\n");
}
