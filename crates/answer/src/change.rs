//! Questions about a pull request's change, and their answers from its [`Impact`]: "what does this PR
//! affect?", "which tests should I run?", "does this change add a cycle?", "what imports the files I
//! changed?", "does it break anything?".
//!
//! A question is about the change when it points at one (this PR, my changes, the files I changed);
//! which part of the impact it wants comes from its topic words, read independently (tests, cycles,
//! breaking, new imports, importers, affected), and anything else gets the summary. Pure: the bot
//! computes the impact, `ask` on an issue or a terminal says such a question needs a pull request.

use std::fmt::Write;
use std::sync::LazyLock;

use regex::Regex;
use serde::Serialize;

use super::entities::{EntityLinker, Linked};
use strata_core::bundle::Bundle;
use strata_core::graph_view::{Chain, chain_text, cycle_at_runtime, only_through};
use strata_core::impact::{Affected, Impact};

/// Which part of the impact a question asks for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ChangeTopic {
    Summary,
    Affected,
    Tests,
    Cycles,
    Importers,
    NewImports,
    Breaking,
}

/// Items a list in an answer shows; `strata impact --format json` has them all.
const MAX_LISTED: usize = 25;

static POINTS_AT_CHANGE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"(?xi)
        \b(this|my|our|these|your|the\s+current)\s+(pull\s+request|pr|change(s|set)?|diff|patch|branch|edits?|commits?)\b
        | \bthe\s+(pull\s+request|pr|diff|patch|changeset)\b
        | \b(files?|modules?|code)\s+(that\s+)?(i|we|you)\s*('ve|\s+have)?\s*(changed|touched|modified|edited|added|deleted|removed|renamed)\b
        | \b(changed|modified|touched)\s+(files?|modules?)\b
        | \b(should|do|must|shall)\s+(i|we)\s+(need\s+to\s+)?(re-?)?(run|test)\b
        | \b(i|we)\s+(need\s+to|should|must|have\s+to)\s+(re-?)?(run|test)\b
        | \bmerging\s+(this|it)\b",
    )
    .expect("valid regex")
});

/// Topic words, checked in this order: the first that appears decides.
static TOPICS: LazyLock<Vec<(ChangeTopic, Regex)>> = LazyLock::new(|| {
    let topic = |topic, pattern: &str| (topic, Regex::new(pattern).expect("valid regex"));
    vec![
        topic(ChangeTopic::Tests, r"(?i)\b(tests?|pytest|test\s+(suite|modules?|files?))\b"),
        topic(ChangeTopic::Cycles, r"(?i)\b(cycles?|cyclic|circular)\b"),
        topic(ChangeTopic::Breaking, r"(?i)\b(break|breaks|broke|broken|breaking)\b"),
        topic(
            ChangeTopic::NewImports,
            r"(?i)\bnew\s+(imports?|dependenc\w*|edges?)\b|\b(adds?|introduces?|removes?|drops?)\s+(any\s+|an?\s+|new\s+)*(imports?|dependenc\w*|edges?)\b|\bimports?\s+(were\s+|are\s+|get\s+)?(added|removed|introduced|dropped)\b",
        ),
        topic(ChangeTopic::Importers, r"(?i)\b(imports?|imported|importing|uses?|used|using|callers?)\b"),
        topic(
            ChangeTopic::Affected,
            r"(?i)\b(affect\w*|impact\w*|depend\w*|reach\w*|downstream|ripple\w*|blast|consequences?|risk\w*)\b",
        ),
    ]
});

static YES_NO: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?i)^\s*(does|do|did|will|would|is|are|was|can|could|has|have|should)\b").expect("valid regex")
});

/// The topic of a question about the change, or `None` when the question does not point at a change.
pub fn change_topic(question: &str) -> Option<ChangeTopic> {
    let question = question.replace(['’', '‘'], "'");
    if !POINTS_AT_CHANGE.is_match(&question) {
        return None;
    }
    let topic = TOPICS.iter().find(|(_, pattern)| pattern.is_match(&question)).map(|(topic, _)| *topic);
    Some(topic.unwrap_or(ChangeTopic::Summary))
}

/// The modules a question names, linked in the head's bundle.
pub fn mentioned_modules(question: &str, head: &Bundle) -> Vec<String> {
    let linker = EntityLinker::new(head);
    let mut modules = Vec::new();
    for mention in strata_core::text::code_names(question) {
        if let Some(Linked::Module { id, .. }) = linker.link(&mention.text)
            && !modules.contains(&id)
        {
            modules.push(id);
        }
    }
    modules
}

/// The answer's Markdown, and the modules it cites (changed ones first).
pub fn answer_about_change(
    question: &str,
    topic: ChangeTopic,
    impact: &Impact,
    mentioned: &[String],
) -> (String, Vec<String>) {
    let yes_no = YES_NO.is_match(question);
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_question_is_about_the_change_only_when_it_points_at_one() {
        for question in [
            "what does this PR affect?",
            "Which tests should I run for my changes?",
            "does this pull request add an import cycle",
            "What imports the files I've changed?",
            "is anything broken by merging this?",
            "which modules use the changed files",
            "which tests do we need to run?",
        ] {
            assert!(change_topic(question).is_some(), "{question}");
        }
        for question in [
            "what does shop/cart.py import?",
            "how are payments retried?",
            "which tests cover the cart?",
            "what changed in the pricing rules over time",
        ] {
            assert_eq!(change_topic(question), None, "{question}");
        }
    }

    #[test]
    fn the_topic_comes_from_the_words_not_the_order() {
        let cases = [
            ("what does this PR affect?", ChangeTopic::Affected),
            ("which tests should I run for this change?", ChangeTopic::Tests),
            ("does this change add a cycle?", ChangeTopic::Cycles),
            ("will my changes break anything?", ChangeTopic::Breaking),
            ("what imports the files I changed?", ChangeTopic::Importers),
            ("does this PR add new imports?", ChangeTopic::NewImports),
            ("summarise this pull request", ChangeTopic::Summary),
        ];
        for (question, topic) in cases {
            assert_eq!(change_topic(question), Some(topic), "{question}");
        }
    }
}
