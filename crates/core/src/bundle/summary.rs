//! `summary.md`: the few facts a person wants after an index run (counts, largest cycles, most depended
//! on and most central modules, files that could not be fully read). Deterministic, so no timings.
//! "Runtime" leaves out imports under `TYPE_CHECKING` and in `__main__` blocks; "depended on" counts
//! every dependent and "imported by" direct importers, as docs/graph.md defines them.

use std::fmt::Write;

use super::model::{Bundle, Node};
use crate::graph_view::{GraphView, cycle_at_runtime};

const TOP_N: usize = 10;
const MAX_CYCLE_MEMBERS_SHOWN: usize = 12;

pub fn render_summary(bundle: &Bundle) -> String {
    let mut out = String::new();
    let counts = &bundle.counts;
    let commit =
        bundle.meta.commit.as_deref().map_or("working tree".to_string(), |c| format!("`{}`", &c[..c.len().min(12)]));
    let _ = writeln!(out, "# strata index\n");
    let _ = writeln!(out, "Indexed {commit} ({} source).\n", bundle.meta.source);
    let _ = writeln!(
        out,
        "| modules | import edges | TYPE_CHECKING-only | `__main__`-block-only | cycles (runtime) | largest cycle (runtime) | folders | symbols | partial files | skipped files |"
    );
    let _ = writeln!(out, "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
    let _ = writeln!(
        out,
        "| {} | {} | {} | {} | {} ({}) | {} ({}) | {} | {} | {} | {} |\n",
        counts.modules,
        counts.edges,
        counts.type_checking_edges,
        counts.main_block_edges,
        counts.cycles,
        counts.cycles_runtime,
        counts.largest_cycle,
        counts.largest_cycle_runtime,
        counts.folders,
        counts.symbols,
        counts.partial_files,
        counts.skipped_files
    );

    let cycles: Vec<_> = bundle.cycles.iter().filter(|cycle| cycle.edges == "all").take(5).collect();
    if !cycles.is_empty() {
        let _ = writeln!(out, "## Largest import cycles\n");
        let view = GraphView::of(bundle);
        for cycle in cycles {
            let status = view.cycle_status(&cycle.members);
            let note = cycle_at_runtime(status.runtime_size, &status.only_through)
                .map(|note| format!(" ({note})"))
                .unwrap_or_default();
            let shown: Vec<String> =
                cycle.members.iter().take(MAX_CYCLE_MEMBERS_SHOWN).map(|m| format!("`{m}`")).collect();
            let more = cycle.members.len().saturating_sub(MAX_CYCLE_MEMBERS_SHOWN);
            let suffix = if more > 0 { format!(" and {more} more") } else { String::new() };
            let _ = writeln!(out, "- {} modules{note}: {}{suffix}", cycle.size, shown.join(", "));
        }
        out.push('\n');
    }

    let mut nodes: Vec<&Node> = bundle.nodes.values().collect();
    if !nodes.is_empty() {
        nodes.sort_by(|a, b| b.importers_count.cmp(&a.importers_count).then_with(|| a.id.cmp(&b.id)));
        // The ranking words of docs/graph.md, as `strata ask` uses them.
        let _ = writeln!(out, "## Most depended on\n");
        let _ = writeln!(
            out,
            "Ranked by the modules that depend on each, directly or transitively, over every import (\"depended on by\"); \"imported by\" counts direct importers.\n"
        );
        let _ = writeln!(out, "| module | depended on by | imported by |\n|---|---:|---:|");
        for node in nodes.iter().take(TOP_N) {
            let _ = writeln!(out, "| `{}` | {} | {} |", node.id, node.importers_count, node.direct_importers_count);
        }
        nodes.sort_by(|a, b| b.pagerank.total_cmp(&a.pagerank).then_with(|| a.id.cmp(&b.id)));
        let _ = writeln!(out, "\n## Most central (PageRank)\n");
        let _ = writeln!(out, "| module | PageRank |\n|---|---:|");
        for node in nodes.iter().take(TOP_N) {
            let _ = writeln!(out, "| `{}` | {:.4} |", node.id, node.pagerank);
        }
        out.push('\n');
    }

    let unresolved: Vec<(&str, &super::model::UnresolvedImport)> = bundle
        .nodes
        .values()
        .flat_map(|node| node.unresolved_imports.iter().map(move |import| (node.id.as_str(), import)))
        .collect();
    if !unresolved.is_empty() {
        let _ = writeln!(
            out,
            "## Unresolved imports
"
        );
        let _ = writeln!(
            out,
            "Imports of the repository's own packages that name no module (not counted as edges):
"
        );
        for (id, import) in unresolved.iter().take(TOP_N) {
            let _ = writeln!(out, "- `{id}` line {}: `{}`", import.line, import.name);
        }
        if unresolved.len() > TOP_N {
            let _ = writeln!(out, "- … {} more in `bundle.json`", unresolved.len() - TOP_N);
        }
        out.push('\n');
    }

    let partial: Vec<&Node> = bundle.nodes.values().filter(|node| !node.warnings.is_empty()).collect();
    if !partial.is_empty() || !bundle.meta.skipped_files.is_empty() {
        let _ = writeln!(out, "## Files not fully indexed\n");
        for node in partial.iter().take(TOP_N) {
            let _ = writeln!(out, "- `{}`: {}", node.id, node.warnings.join("; "));
        }
        for skipped in bundle.meta.skipped_files.iter().take(TOP_N) {
            let _ = writeln!(out, "- `{}` (skipped): {}", skipped.path, skipped.reason);
        }
        let hidden = partial.len().saturating_sub(TOP_N) + bundle.meta.skipped_files.len().saturating_sub(TOP_N);
        if hidden > 0 {
            let _ = writeln!(out, "- … {hidden} more in `bundle.json`");
        }
    }
    out
}
