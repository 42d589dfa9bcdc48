//! The impact as Markdown for a job summary or a terminal: counts first, then each list (capped), the
//! chains that link affected modules to the change when asked for, worded by `graph_view` (an import
//! that does not run on import and the package `__init__` rule say so). Module paths come from the change
//! (a fork's pull request, in the impact workflow) and may hold any character: each is a code span that
//! nothing inside it can close.

use std::fmt::Write;

use super::{Affected, Impact};
use crate::graph_view::{Chain, chain_text, cycle_at_runtime, only_through};

/// Rows each list shows; the JSON has them all.
const MAX_ROWS: usize = 50;

pub fn render_markdown(impact: &Impact, with_chains: bool) -> String {
    let mut out = String::new();
    let short = |commit: &Option<String>| {
        commit.as_deref().map_or("working tree".to_string(), |c| code(&c.chars().take(12).collect::<String>()))
    };
    let _ = writeln!(out, "## strata impact: {} → {}\n", short(&impact.base_commit), short(&impact.head_commit));
    let _ = writeln!(out, "{}\n", counts_sentence(impact));
    if let Some(diagram) = mermaid(impact) {
        out.push_str(&diagram);
    }
    if !impact.breaking.is_empty() {
        let _ = writeln!(out, "### Breaking: removed modules still imported\n");
        for b in impact.breaking.iter().take(MAX_ROWS) {
            let _ = writeln!(
                out,
                "- {} is removed but {} imports {} (line {})",
                code(&b.removed),
                code(&b.importer),
                code(&b.import),
                b.line
            );
        }
        more(&mut out, impact.breaking.len());
    }
    let cycles = [
        ("New import cycles", &impact.cycles_new),
        ("Cycles that grew", &impact.cycles_grown),
        ("Cycles that shrank", &impact.cycles_shrunk),
        ("Cycles resolved", &impact.cycles_resolved),
    ];
    for (title, list) in cycles {
        if list.is_empty() {
            continue;
        }
        let _ = writeln!(out, "### {title}\n");
        for cycle in list.iter().take(MAX_ROWS) {
            let members: Vec<String> = cycle.members.iter().map(|m| code(m)).collect();
            let note = cycle_at_runtime(cycle.runtime_size, &cycle.only_through)
                .map(|n| format!(" ({n})"))
                .unwrap_or_default();
            let _ = writeln!(out, "- {} → {} modules{note}: {}", cycle.old_size, cycle.new_size, members.join(", "));
        }
        more(&mut out, list.len());
    }
    let modules = [("Changed", &impact.changed), ("Added", &impact.added), ("Removed", &impact.removed)];
    for (title, list) in modules {
        if list.is_empty() {
            continue;
        }
        let _ = writeln!(out, "### {title} modules\n");
        for id in list.iter().take(MAX_ROWS) {
            let _ = writeln!(out, "- {}", code(id));
        }
        more(&mut out, list.len());
    }
    if !impact.renamed.is_empty() {
        let _ = writeln!(out, "### Renamed modules\n");
        for rename in impact.renamed.iter().take(MAX_ROWS) {
            let _ = writeln!(out, "- {} → {}", code(&rename.from), code(&rename.to));
        }
        more(&mut out, impact.renamed.len());
    }
    for (title, list) in [("Imports added", &impact.edges_added), ("Imports removed", &impact.edges_removed)] {
        if list.is_empty() {
            continue;
        }
        let _ = writeln!(out, "### {title}\n");
        for edge in list.iter().take(MAX_ROWS) {
            let _ = writeln!(out, "- {} → {}", code(&edge.src), code(&edge.dst));
        }
        more(&mut out, list.len());
    }
    if !impact.affected.is_empty() {
        let _ = writeln!(out, "### Affected modules\n");
        for affected in impact.affected.iter().take(MAX_ROWS) {
            let _ = writeln!(out, "{}", affected_line(affected, with_chains));
        }
        more(&mut out, impact.affected.len());
    }
    if !impact.other_repositories.is_empty() {
        let _ = writeln!(out, "### In other repositories\n");
        // Always with its chain: across repositories, how it is reached is the point.
        for affected in impact.other_repositories.iter().take(MAX_ROWS) {
            let _ = writeln!(out, "{}", affected_line(affected, true));
        }
        more(&mut out, impact.other_repositories.len());
    }
    if !impact.tests.is_empty() {
        let _ = writeln!(out, "### Test modules to run\n");
        for test in impact.tests.iter().take(MAX_ROWS) {
            let _ = writeln!(out, "- {}", code(test));
        }
        more(&mut out, impact.tests.len());
    }
    out
}

/// One affected module as a list item: its chain to the change (or its id alone), and what the chain
/// holds only through when that is not at runtime.
fn affected_line(affected: &Affected, with_chain: bool) -> String {
    let chain = Chain { modules: affected.via.clone(), steps: affected.steps.clone() };
    let when = if affected.runtime {
        String::new()
    } else {
        only_through(&chain.kinds()).map(|words| format!(" ({words})")).unwrap_or_default()
    };
    if with_chain {
        format!("- {}{when}", chain_text(&chain, &|m| code(m)))
    } else {
        format!("- {}{when}", code(&affected.id))
    }
}

/// The whole change in one sentence of counts (the Markdown's first line, and every bot answer's).
pub fn counts_sentence(impact: &Impact) -> String {
    let runtime = impact.affected.iter().filter(|a| a.runtime).count();
    let sentence = format!(
        "{} changed, {} added, {} removed, {} renamed module(s); {} import(s) added, {} removed; {} new or grown cycle(s); {} module(s) affected ({runtime} at runtime); {} test module(s) to run.",
        impact.changed.len(),
        impact.added.len(),
        impact.removed.len(),
        impact.renamed.len(),
        impact.edges_added.len(),
        impact.edges_removed.len(),
        impact.cycles_new.len() + impact.cycles_grown.len(),
        impact.affected.len(),
        impact.tests.len(),
    );
    match impact.other_repositories.len() {
        0 => sentence,
        n => format!("{sentence} {n} module(s) in other repositories affected."),
    }
}

/// Most modules a diagram shows: GitHub renders larger ones slowly or not at all.
const MAX_DIAGRAM_MODULES: usize = 40;

/// A Mermaid diagram of the changed neighbourhood: changed and added modules highlighted, their
/// importers one level up, new cycles' imports in red. `None` when nothing changed or when it would
/// be too large to read (the lists below still say everything).
pub fn mermaid(impact: &Impact) -> Option<String> {
    let mut modules: Vec<&str> = Vec::new();
    for edge in &impact.neighbourhood {
        for id in [edge.src.as_str(), edge.dst.as_str()] {
            if !modules.contains(&id) {
                modules.push(id);
            }
        }
    }
    let changed = impact
        .changed
        .iter()
        .chain(&impact.added)
        .map(String::as_str)
        .chain(impact.renamed.iter().map(|r| r.to.as_str()));
    for id in changed {
        if !modules.contains(&id) {
            modules.push(id);
        }
    }
    if modules.is_empty() || modules.len() > MAX_DIAGRAM_MODULES {
        return None;
    }
    modules.sort_unstable();
    let node = |id: &str| format!("m{}", modules.iter().position(|m| *m == id).unwrap_or(0));
    let is_changed = |id: &str| {
        impact.changed.iter().chain(&impact.added).any(|c| c == id) || impact.renamed.iter().any(|r| r.to == id)
    };
    let cycle_members: Vec<&str> = impact
        .cycles_new
        .iter()
        .chain(&impact.cycles_grown)
        .flat_map(|c| c.members.iter().map(String::as_str))
        .collect();
    let mut out = String::from("```mermaid\ngraph LR\n");
    for id in &modules {
        let _ = writeln!(out, "  {}{}", node(id), crate::views::render::mermaid_label(id));
    }
    let mut red = Vec::new();
    for (position, edge) in impact.neighbourhood.iter().enumerate() {
        let _ = writeln!(out, "  {} --> {}", node(&edge.src), node(&edge.dst));
        if cycle_members.contains(&edge.src.as_str()) && cycle_members.contains(&edge.dst.as_str()) {
            red.push(position.to_string());
        }
    }
    let _ = writeln!(out, "  classDef changed fill:#fff3b0,stroke:#b58900");
    let highlighted: Vec<String> = modules.iter().filter(|id| is_changed(id)).map(|id| node(id)).collect();
    if !highlighted.is_empty() {
        let _ = writeln!(out, "  class {} changed", highlighted.join(","));
    }
    if !red.is_empty() {
        let _ = writeln!(out, "  linkStyle {} stroke:#d00,stroke-width:2px", red.join(","));
    }
    out.push_str("```\n\n");
    Some(out)
}

/// `text` as an inline code span that nothing in it can close: a backtick run longer than any inside,
/// padded when it starts or ends with a backtick or a space, line breaks as spaces.
fn code(text: &str) -> String {
    let flat: String = text.chars().map(|c| if c == '\n' || c == '\r' { ' ' } else { c }).collect();
    let (mut longest, mut run) = (0, 0);
    for c in flat.chars() {
        run = if c == '`' { run + 1 } else { 0 };
        longest = longest.max(run);
    }
    let ticks = "`".repeat(longest + 1);
    let pad = if flat.starts_with(['`', ' ']) || flat.ends_with(['`', ' ']) { " " } else { "" };
    format!("{ticks}{pad}{flat}{pad}{ticks}")
}

fn more(out: &mut String, n: usize) {
    if n > MAX_ROWS {
        let _ = writeln!(out, "- … and {} more (see `--format json`)", n - MAX_ROWS);
    }
    out.push('\n');
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A path with backticks closed the code span around it, and the rest rendered as Markdown (an
    /// image, a mention) in the job summary.
    #[test]
    fn module_paths_stay_inside_their_code_spans() {
        assert_eq!(code("shop/cart.py"), "`shop/cart.py`");
        assert_eq!(code("a`b ![i](//e.x/p.png) @x.py"), "``a`b ![i](//e.x/p.png) @x.py``");
        assert_eq!(code("`x``\ny"), "``` `x`` y ```");
        let path = "x` ![i](//evil.example/p.png) `.py".to_string();
        let impact = Impact {
            base_commit: None,
            head_commit: None,
            changed: vec![path.clone()],
            added: Vec::new(),
            removed: Vec::new(),
            renamed: Vec::new(),
            edges_added: Vec::new(),
            edges_removed: Vec::new(),
            cycles_new: Vec::new(),
            cycles_grown: Vec::new(),
            cycles_shrunk: Vec::new(),
            cycles_resolved: Vec::new(),
            affected: Vec::new(),
            tests: vec![path],
            breaking: Vec::new(),
            neighbourhood: Vec::new(),
            other_repositories: Vec::new(),
        };
        let markdown = render_markdown(&impact, false);
        assert!(markdown.contains("- ``x` ![i](//evil.example/p.png) `.py``"), "{markdown}");
        assert!(!markdown.contains("- `x` ![i]"), "{markdown}");
    }
}
