//! A [`View`] as Mermaid (renders on GitHub, within its limits), Graphviz DOT, or JSON. Node ids in
//! the output are `n0`, `n1`, … in view order with the module or package path as the label, so any
//! path is safe to show; cycles are groups (subgraphs) outlined in red.

use std::fmt::Write;

use super::View;

/// Mermaid's default limits, which GitHub keeps: beyond them the diagram does not render.
pub const MERMAID_MAX_TEXT: usize = 50_000;
pub const MERMAID_MAX_EDGES: usize = 500;

/// The Mermaid text, or why it would not render on GitHub.
pub fn mermaid(view: &View) -> Result<String, String> {
    if view.edges.len() > MERMAID_MAX_EDGES {
        return Err(format!("{} edges, more than the {MERMAID_MAX_EDGES} GitHub's Mermaid draws", view.edges.len()));
    }
    let position = positions(view);
    let mut out = String::from("graph LR\n");
    let grouped: std::collections::BTreeSet<&String> = view.groups.iter().flat_map(|g| &g.members).collect();
    for (number, group) in view.groups.iter().enumerate() {
        let present: Vec<&String> = group.members.iter().filter(|id| position.contains_key(id.as_str())).collect();
        if present.is_empty() {
            continue;
        }
        let _ = writeln!(out, "  subgraph c{number} [\"{}\"]", group_label(view, number, group.size, present.len()));
        for id in present {
            let _ = writeln!(out, "    {}", node_line(view, id, &position));
        }
        let _ = writeln!(out, "  end");
        let _ = writeln!(out, "  style c{number} stroke:#d00,stroke-width:2px");
    }
    for node in view.nodes.iter().filter(|n| !grouped.contains(&n.id)) {
        let _ = writeln!(out, "  {}", node_line(view, &node.id, &position));
    }
    for edge in &view.edges {
        let arrow = if edge.type_checking || edge.main_block { "-.->" } else { "-->" };
        let label = if edge.count > 1 { format!("|{}|", edge.count) } else { String::new() };
        let _ = writeln!(out, "  n{} {arrow}{label} n{}", position[edge.src.as_str()], position[edge.dst.as_str()]);
    }
    if out.len() > MERMAID_MAX_TEXT {
        return Err(format!("{} characters, more than the {MERMAID_MAX_TEXT} GitHub's Mermaid accepts", out.len()));
    }
    Ok(out)
}

/// Graphviz DOT: cycles as red clusters, `TYPE_CHECKING`-only imports dashed, `__main__`-block ones
/// dotted, counts as labels.
pub fn dot(view: &View) -> String {
    let position = positions(view);
    let mut out = String::from("digraph strata {\n  rankdir=LR;\n  node [shape=box, fontname=\"Helvetica\"];\n");
    let grouped: std::collections::BTreeSet<&String> = view.groups.iter().flat_map(|g| &g.members).collect();
    for (number, group) in view.groups.iter().enumerate() {
        let present: Vec<&String> = group.members.iter().filter(|id| position.contains_key(id.as_str())).collect();
        if present.is_empty() {
            continue;
        }
        let _ = writeln!(
            out,
            "  subgraph cluster_{number} {{\n    label={};\n    color=red;",
            quoted(&group_label(view, number, group.size, present.len()))
        );
        for id in present {
            let _ = writeln!(out, "    n{} [label={}];", position[id.as_str()], quoted(&label(view, id)));
        }
        let _ = writeln!(out, "  }}");
    }
    for node in view.nodes.iter().filter(|n| !grouped.contains(&n.id)) {
        let _ = writeln!(out, "  n{} [label={}];", position[node.id.as_str()], quoted(&label(view, &node.id)));
    }
    for edge in &view.edges {
        let mut attributes = Vec::new();
        if edge.count > 1 {
            attributes.push(format!("label=\"{}\"", edge.count));
        }
        if edge.type_checking {
            attributes.push("style=dashed".to_string());
        } else if edge.main_block {
            attributes.push("style=dotted".to_string());
        }
        let attributes = if attributes.is_empty() { String::new() } else { format!(" [{}]", attributes.join(", ")) };
        let _ = writeln!(out, "  n{} -> n{}{attributes};", position[edge.src.as_str()], position[edge.dst.as_str()]);
    }
    out.push_str("}\n");
    out
}

fn positions(view: &View) -> std::collections::BTreeMap<&str, usize> {
    view.nodes.iter().enumerate().map(|(i, n)| (n.id.as_str(), i)).collect()
}

/// A cycle's label counts the whole cycle, and says how many of it are shown when not all are.
fn group_label(view: &View, number: usize, size: usize, shown: usize) -> String {
    let unit = match view.level {
        "module" => "modules",
        _ if view.nodes.iter().all(|n| n.kind == "package") => "packages",
        _ => "nodes",
    };
    if shown == size {
        format!("cycle {} ({size} {unit})", number + 1)
    } else {
        format!("cycle {} ({size} {unit}, {shown} shown)", number + 1)
    }
}

/// The shown label: the path, and for a package its module count.
fn label(view: &View, id: &str) -> String {
    match view.nodes.iter().find(|n| n.id == id) {
        Some(node) if node.kind == "package" => format!("{id} ({})", node.modules),
        _ => id.to_string(),
    }
}

fn node_line(view: &View, id: &str, position: &std::collections::BTreeMap<&str, usize>) -> String {
    format!("n{}{}", position[id], mermaid_label(&label(view, id)))
}

/// A Mermaid node's label: in double quotes, with `#quot;`, Mermaid's escape, for a quote inside.
pub fn mermaid_label(text: &str) -> String {
    format!("[\"{}\"]", text.replace('"', "#quot;"))
}

fn quoted(text: &str) -> String {
    format!("\"{}\"", text.replace('\\', "\\\\").replace('"', "\\\""))
}
