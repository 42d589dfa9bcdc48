//! Answers to questions about a pull request's change from its [`Impact`]: "what does this PR
//! affect?", "which tests should I run?", "does this change add a cycle?", "what imports the files I
//! changed?", "does it break anything?". The question reader (`understand::change`) says whether a
//! question is about the change and what it asks; this module only answers. Pure: the bot computes the
//! impact, `ask` on an issue or a terminal says such a question needs a pull request.

use std::fmt::Write;

pub use super::understand::change::{ChangeQuestion, ChangeTopic};
use strata_core::graph_view::{Chain, chain_text, cycle_at_runtime, only_through};
use strata_core::impact::{Affected, Impact};

/// Items a list in an answer shows; `strata impact --format json` has them all.
const MAX_LISTED: usize = 25;

/// The answer's Markdown, and the modules it cites (changed ones first).
pub fn answer_about_change(asked: &ChangeQuestion, impact: &Impact, mentioned: &[String]) -> (String, Vec<String>) {
    let (topic, yes_no) = (asked.topic, asked.yes_no);
    let mut out = String::new();
    match topic {
        ChangeTopic::Tests => tests(&mut out, impact),
        ChangeTopic::Cycles => cycles(&mut out, impact, yes_no),
        ChangeTopic::Breaking => breaking(&mut out, impact, yes_no),
        ChangeTopic::NewImports => new_imports(&mut out, impact, yes_no),
        ChangeTopic::Importers => importers(&mut out, impact),
        ChangeTopic::Affected => affected(&mut out, impact, mentioned, yes_no),
        ChangeTopic::Summary => {}
    }
    if !out.is_empty() {
        out.push('\n');
    }
    summary(&mut out, impact);
    let mut cited: Vec<String> = impact.changed.iter().chain(&impact.added).cloned().collect();
    cited.extend(impact.renamed.iter().map(|r| r.to.clone()));
    (out, cited)
}

fn tests(out: &mut String, impact: &Impact) {
    if impact.tests.is_empty() {
        let _ = writeln!(out, "No test module imports a changed module, directly or through other modules.");
        return;
    }
    let _ = writeln!(
        out,
        "Run these {} test module(s): they import a changed module directly or through other modules.\n",
        impact.tests.len()
    );
    list(out, impact.tests.iter().map(|t| format!("`{t}`")));
    if impact.tests.len() <= MAX_LISTED {
        let _ = writeln!(out, "\n```\npytest {}\n```", impact.tests.join(" "));
    }
}

fn cycles(out: &mut String, impact: &Impact, yes_no: bool) {
    let new = impact.cycles_new.len() + impact.cycles_grown.len();
    let verdict = if yes_no { if new > 0 { "Yes. " } else { "No. " } } else { "" };
    if new == 0 {
        let _ = writeln!(out, "{verdict}This change adds no import cycle and grows none.");
    } else {
        let _ = writeln!(out, "{verdict}This change adds or grows {new} import cycle(s).");
    }
    let mut listed = false;
    for (what, list) in [
        ("New cycle", &impact.cycles_new),
        ("Grown cycle", &impact.cycles_grown),
        ("Shrunk cycle", &impact.cycles_shrunk),
        ("Resolved cycle", &impact.cycles_resolved),
    ] {
        for cycle in list {
            if !listed {
                out.push('\n');
                listed = true;
            }
            let members: Vec<String> = cycle.members.iter().map(|m| format!("`{m}`")).collect();
            let note = cycle_at_runtime(cycle.runtime_size, &cycle.only_through)
                .map(|note| format!("; {note}"))
                .unwrap_or_default();
            let _ = writeln!(
                out,
                "- {what} ({} → {} modules{note}): {}",
                cycle.old_size,
                cycle.new_size,
                members.join(", ")
            );
        }
    }
}

fn breaking(out: &mut String, impact: &Impact, yes_no: bool) {
    if yes_no {
        out.push_str(if impact.breaking.is_empty() { "No. " } else { "Yes. " });
    }
    if impact.breaking.is_empty() {
        let _ = writeln!(
            out,
            "No module this change removes is still imported. (Only imports are checked: a removed function or a changed signature is not.)"
        );
        return;
    }
    let _ = writeln!(out, "These modules import a module this change removes:\n");
    list(
        out,
        impact.breaking.iter().map(|b| {
            format!("`{}` imports `{}` (line {}), removed with `{}`", b.importer, b.import, b.line, b.removed)
        }),
    );
}

fn new_imports(out: &mut String, impact: &Impact, yes_no: bool) {
    if yes_no {
        out.push_str(if impact.edges_added.is_empty() { "No. " } else { "Yes. " });
    }
    if impact.edges_added.is_empty() && impact.edges_removed.is_empty() {
        let _ = writeln!(out, "This change adds and removes no import between indexed modules.");
        return;
    }
    for (title, edges) in [("Imports added", &impact.edges_added), ("Imports removed", &impact.edges_removed)] {
        if !edges.is_empty() {
            let _ = writeln!(out, "{title} ({}):\n", edges.len());
            list(out, edges.iter().map(|e| format!("`{}` → `{}`", e.src, e.dst)));
            out.push('\n');
        }
    }
}

fn importers(out: &mut String, impact: &Impact) {
    if impact.neighbourhood.is_empty() {
        let _ = writeln!(out, "No module imports the changed modules.");
        return;
    }
    let _ = writeln!(out, "Modules that import the changed modules directly:\n");
    list(out, impact.neighbourhood.iter().map(|e| format!("`{}` imports `{}`", e.src, e.dst)));
    if !impact.affected.is_empty() {
        let _ = writeln!(out, "\nWith indirect importers, {} module(s) depend on the change.", impact.affected.len());
    }
}

fn affected(out: &mut String, impact: &Impact, mentioned: &[String], yes_no: bool) {
    let asked: Vec<&String> =
        mentioned.iter().filter(|m| !impact.changed.contains(m) && !impact.added.contains(m)).collect();
    if yes_no && !asked.is_empty() {
        for module in asked {
            match impact.affected.iter().find(|a| &a.id == module) {
                Some(found) => {
                    let chain = chain_of(found);
                    let when = match only_through(&chain.kinds()) {
                        Some(words) if !found.runtime => format!(", but {words}"),
                        _ => String::new(),
                    };
                    let _ = writeln!(out, "Yes{when}: {}.", chain_text(&chain, &|m| format!("`{m}`")));
                }
                None => {
                    let _ = writeln!(out, "No: `{module}` does not import any changed module, directly or indirectly.");
                }
            }
        }
        return;
    }
    if impact.affected.is_empty() {
        let _ = writeln!(out, "No other module imports the changed modules, directly or indirectly.");
        return;
    }
    let runtime = impact.affected.iter().filter(|a| a.runtime).count();
    let _ = writeln!(
        out,
        "{} module(s) depend on this change through imports ({runtime} at runtime); each with the chain that reaches a changed module:\n",
        impact.affected.len()
    );
    list(out, impact.affected.iter().map(|a| chain_text(&chain_of(a), &|m| format!("`{m}`"))));
}

fn chain_of(affected: &Affected) -> Chain {
    Chain { modules: affected.via.clone(), steps: affected.steps.clone() }
}

/// One line that says everything, so every answer states the whole change.
fn summary(out: &mut String, impact: &Impact) {
    let _ = writeln!(out, "**The change:** {}", strata_core::impact::render::counts_sentence(impact));
    out.push('\n');
    for (title, modules) in [("Changed", &impact.changed), ("Added", &impact.added), ("Removed", &impact.removed)] {
        if !modules.is_empty() {
            let shown: Vec<String> = modules.iter().take(MAX_LISTED).map(|m| format!("`{m}`")).collect();
            let more = modules.len().saturating_sub(MAX_LISTED);
            let tail = if more > 0 { format!(" and {more} more") } else { String::new() };
            let _ = writeln!(out, "- {title}: {}{tail}.", shown.join(", "));
        }
    }
}

fn list(out: &mut String, items: impl ExactSizeIterator<Item = String>) {
    let total = items.len();
    for item in items.take(MAX_LISTED) {
        let _ = writeln!(out, "- {item}");
    }
    if total > MAX_LISTED {
        let _ = writeln!(out, "- … and {} more (`strata impact` lists them all)", total - MAX_LISTED);
    }
}
