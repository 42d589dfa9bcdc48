//! Questions about a pull request's change: whether a question points at one (this PR, my changes,
//! the files I changed), which part of the impact it wants from its topic words, read independently
//! (tests, cycles, breaking, new imports, importers, affected; anything else gets the summary), whether
//! it asks yes or no, and the modules it names in the pull request's head. Part of the one question
//! reader: `understand` reads these with everything else, once.
//!
//! Still patterns over the text, not cues of the lexicon: a pull request's wording ("the files I've
//! changed", "should we re-run") is phrases of its own, and these read them as before.

use std::sync::LazyLock;

use regex::Regex;
use serde::Serialize;

use crate::entities::{EntityLinker, Linked};
use strata_core::bundle::Bundle;

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

/// What a question about the change asks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct ChangeQuestion {
    pub topic: ChangeTopic,
    /// It asks yes or no ("does this PR add a cycle?"): the answer starts with Yes or No.
    pub yes_no: bool,
}

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

/// What a question about the change asks, or `None` when the question does not point at a change.
pub(super) fn read(question: &str) -> Option<ChangeQuestion> {
    let topic = change_topic(question)?;
    Some(ChangeQuestion { topic, yes_no: YES_NO.is_match(question) })
}

/// The topic of a question about the change, or `None` when the question does not point at a change.
fn change_topic(question: &str) -> Option<ChangeTopic> {
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
