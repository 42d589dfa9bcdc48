//! Rendering an [`Answer`] as plain text, as the Markdown the bot posts (short answer first, sources in
//! `<details>`), or as the JSON contract.

use std::fmt::Write;

use super::{Answer, Mode};

pub fn to_text(answer: &Answer) -> String {
    let mut out = format!("{}\n", answer.answer);
    if !answer.citations.is_empty() {
        out.push_str("\nSources:\n");
        for citation in &answer.citations {
            let _ = writeln!(out, "  {}{}", citation.path, lines_suffix(citation.lines));
        }
    }
    for note in &answer.notes {
        let _ = writeln!(out, "note: {note}");
    }
    out
}

pub fn to_markdown(answer: &Answer) -> String {
    let mut out = format!("{}\n", answer.answer);
    for note in &answer.notes {
        let _ = writeln!(out, "\n> {note}");
    }
    if !answer.citations.is_empty() || !answer.context.is_empty() {
        let _ = writeln!(
            out,
            "\n<details><summary>Sources ({} cited, {} retrieved)</summary>\n",
            answer.citations.len(),
            answer.context.len()
        );
        for citation in &answer.citations {
            let target = match &citation.url {
                Some(url) => format!("[`{}`]({url})", citation.path),
                None => format!("`{}`", citation.path),
            };
            let _ = writeln!(out, "- {target}{}", lines_suffix(citation.lines));
        }
        if !answer.context.is_empty() {
            let retrieved: Vec<String> = answer.context.iter().map(|c| format!("`{}` ({})", c.id, c.kind)).collect();
            let _ = writeln!(out, "\nRetrieved: {}", retrieved.join(", "));
        }
        out.push_str("\n</details>\n");
    }
    let mode = match answer.mode {
        Mode::Structural => "exact answer from the import graph",
        Mode::Retrieval => "retrieved from the index, no language model",
        Mode::Generated => "generated from retrieved code",
        Mode::Declined => "declined",
    };
    let commit = answer
        .index
        .commit
        .as_deref()
        .map_or("a working tree".to_string(), |c| format!("commit `{}`", &c[..c.len().min(12)]));
    let _ = writeln!(out, "\n<sub>strata: {mode}; index of {commit}</sub>");
    out
}

pub fn to_json(answer: &Answer) -> anyhow::Result<String> {
    Ok(serde_json::to_string_pretty(answer)?)
}

fn lines_suffix(lines: Option<[u32; 2]>) -> String {
    lines.map_or(String::new(), |[start, end]| format!(" (lines {start}-{end})"))
}
