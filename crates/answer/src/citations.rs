//! Citations: only modules that exist in the bundle are ever cited. Generated text is scanned for the
//! module paths it names; a path that is not in the index is removed from the text and reported.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::LazyLock;

use regex::Regex;

use super::Citation;
use strata_core::bundle::{Bundle, Manifest};
use strata_search::retrieve::Retrieval;

/// Citations for module ids (with optional line ranges), deduplicated, unknown ids dropped; a module
/// cited with line ranges is not cited again as a whole.
pub fn cite(bundle: &Bundle, _manifest: &Manifest, cited: &[(String, Option<(u32, u32)>)]) -> Vec<Citation> {
    let with_lines: BTreeSet<&str> =
        cited.iter().filter(|(_, lines)| lines.is_some()).map(|(id, _)| id.as_str()).collect();
    let mut seen = BTreeSet::new();
    let mut citations = Vec::new();
    for (id, lines) in cited {
        let Some(node) = bundle.nodes.get(id) else { continue };
        if (lines.is_none() && with_lines.contains(id.as_str())) || !seen.insert((id.clone(), *lines)) {
            continue;
        }
        citations.push(Citation {
            id: id.clone(),
            module: node.module.clone(),
            path: id.clone(),
            lines: lines.map(|(start, end)| [start, end]),
            url: None,
        });
    }
    citations
}

/// Generated text after checking: unknown module paths removed, a note for each.
#[derive(Debug, Clone, PartialEq)]
pub struct Checked {
    pub text: String,
    pub citations: Vec<Citation>,
    pub notes: Vec<String>,
}

/// A backticked or bare `something.py` path, as a model writes citations.
static PATH_MENTION: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"`?((?:[A-Za-z0-9_.\-]+/)*[A-Za-z0-9_\-]+\.py)`?").expect("valid citation regex"));

/// The module paths `text` cites that are in the index and that `unverified` accepts; the others are
/// replaced in the text and each gets a note saying why.
fn verify_paths(bundle: &Bundle, text: &str, unverified: impl Fn(&str) -> Option<&'static str>) -> Verified {
    let mut cited = Vec::new();
    let mut removed = BTreeMap::new();
    for capture in PATH_MENTION.captures_iter(text) {
        let path = &capture[1];
        let why = if bundle.nodes.contains_key(path) { unverified(path) } else { Some("no such module in the index") };
        match why {
            None => cited.push((path.to_string(), None)),
            Some(why) => {
                removed.insert(capture[0].to_string(), why);
            }
        }
    }
    let mut checked_text = text.to_string();
    let mut notes = Vec::new();
    for (mention, why) in &removed {
        checked_text = checked_text.replace(mention.as_str(), "[unverified reference removed]");
        notes.push(format!("removed citation {}: {why}", mention.trim_matches('`')));
    }
    Verified { text: checked_text, cited, notes }
}

/// A text with its unverified citations removed.
struct Verified {
    text: String,
    cited: Vec<(String, Option<(u32, u32)>)>,
    notes: Vec<String>,
}

/// A model's answer from graph tools: only modules a tool result named may be cited.
pub fn check_tool_answer(bundle: &Bundle, manifest: &Manifest, text: &str, grounded: &BTreeSet<String>) -> Checked {
    let verified =
        verify_paths(bundle, text, |path| (!grounded.contains(path)).then_some("no graph tool result named it"));
    Checked { text: verified.text, citations: cite(bundle, manifest, &verified.cited), notes: verified.notes }
}

pub fn check_generated(bundle: &Bundle, manifest: &Manifest, text: &str, retrieval: &Retrieval) -> Checked {
    let Verified { text: checked_text, cited, mut notes } = verify_paths(bundle, text, |_| None);
    let retrieved: BTreeSet<&str> = retrieval
        .hits
        .iter()
        .map(|hit| hit.module.as_str())
        .chain(retrieval.central.iter().map(String::as_str))
        .collect();
    for (id, _) in &cited {
        if !retrieved.contains(id.as_str()) {
            notes.push(format!("{id} is cited but was not in the retrieved context"));
        }
    }
    notes.dedup();
    Checked { text: checked_text, citations: cite(bundle, manifest, &cited), notes }
}
