//! Words of a clause that nothing accounts for, and when one of them is too many: a name the answer
//! does not use, the word a relation word hangs on, or a word that may narrow a question about the
//! whole repository. One plain word is tolerated (a typo, an aside); more go to retrieval.

use super::{ASKERS_MIND, AUX, Clause, Mention, PRONOUNS, Part, Relation, is_edge, is_filler};
use crate::understand::lexicon::{Cue, Family};
use crate::understand::words::number;

/// Whether a mention written `word` (moved to a pronoun or not) names a module the part is about.
fn used_by_text(mentions: &[Mention], word: &str, part: &Part) -> bool {
    mentions
        .iter()
        .any(|m| m.text.to_lowercase() == word && m.entity().is_some_and(|e| part.modules.iter().any(|p| p.id == e.id)))
}

impl Clause<'_> {
    /// "Which *flask* modules does templating.py import?": a package named before "modules" or "files"
    /// that holds every module asked about describes them rather than narrowing the answer.
    fn names_the_home_package(&self, word: &str, part: &Part) -> bool {
        self.mentions.iter().any(|m| {
            let before_modules = self
                .words
                .get(m.index + 1)
                .is_some_and(|w| matches!(w.lower.as_str(), "module" | "modules" | "file" | "files"));
            let folder = m.module_id().and_then(|id| id.strip_suffix("__init__.py"));
            m.text.to_lowercase() == word
                && before_modules
                && folder.is_some_and(|f| !part.modules.is_empty() && part.modules.iter().all(|p| p.id.starts_with(f)))
        })
    }

    /// Words the lexicon, the names and the framing do not account for.
    pub(super) fn unknown_words(&self) -> Vec<&str> {
        self.range()
            .filter(|&i| {
                let word = &self.words[i];
                i >= self.lenient_until
                    && !self.covered(i)
                    // A plain English word that happens to name a module or a function ("cache",
                    // "errors", "log") counts as a name only where a name is expected; written as code
                    // it always does.
                    && !self.mentions.iter().any(|m| {
                        m.index == i && (m.strong || self.placed(m) || self.names_the_repository(m))
                    })
                    && !is_filler(&word.lower)
                    && !AUX.contains(&word.lower.as_str())
                    && !PRONOUNS.contains(&word.lower.as_str())
                    && !ASKERS_MIND.contains(&word.lower.as_str())
                    && !matches!(word.lower.as_str(), "how" | "why")
                    && number(&word.lower).is_none()
            })
            .map(|i| self.words[i].lower.as_str())
            .collect()
    }

    /// Whether `word` stands right before a relation word or a preposition and a relation word ("a
    /// *circle* of imports"), or right after a relation word used as a noun that modifies it ("the
    /// import *distance* between A and B", "dependency *depth*"): then the question asks for that word.
    pub(super) fn governs_an_import_word(&self, word: &str) -> bool {
        self.range().filter(|&i| self.words[i].lower == word).any(|i| {
            self.hits.iter().any(|h| {
                is_edge(h.cue)
                    && (h.start == i + 1
                        || (h.start == i + 2 && matches!(self.lower(i + 1), "of" | "to" | "for" | "from" | "with"))
                        || (h.end == i && self.heads_a_noun_phrase(i))
                        || (h.end == i && self.asks_of_an_object(h.cue, i)))
            })
        })
    }

    /// The word at `i` after a relation word heads the phrase the relation word modifies when two
    /// modules are its own ("the import *distance* between A and B"): no relation runs both ways. With
    /// "of" one module's may be a measure of the relation ("the import *frequency* of X") or not ("the
    /// import *time* of X"), which this position alone does not tell (the measures that are not, such
    /// as "import time of", are behaviour phrases of the lexicon); in a ranking it names what is ranked.
    fn heads_a_noun_phrase(&self, i: usize) -> bool {
        let between = i + 1 < self.end && self.lower(i + 1) == "between";
        !self.has(Cue::Most) && !self.has(Cue::Top) && between
    }

    /// "Does X import *yaml*?": a yes or no about one module, whose verb's object is the word at `i`
    /// after it, not a module. With two modules named, both ends are; a word with a name after it is an
    /// adverb ("import *straight* from X"); "import *fewer* than 3 modules" compares.
    fn asks_of_an_object(&self, cue: Cue, i: usize) -> bool {
        matches!(cue, Cue::Verb(_))
            && self.mentions.len() == 1
            && self.lower(i + 1) != "than"
            && !self.mentions.iter().any(|m| m.index > i)
            && self.yes_no()
    }

    /// "Does X use caching?": an activity (a word in -ing that names nothing) right after "use", where
    /// the module used would stand, asks what the code does.
    pub(super) fn uses_an_activity(&self, word: &str) -> bool {
        word.ends_with("ing")
            && self.range().any(|i| {
                self.words[i].lower == word && self.hits.iter().any(|h| h.cue == Cue::Verb(Family::Use) && h.end == i)
            })
    }

    /// A name left over that the answer does not use may be the module the question is about ("ctx ->
    /// *tasks* dependency?"); a word before every cue of a question about the whole repository may
    /// narrow it to a part ("*db* circular dep y/n").
    pub(super) fn may_name_the_subject(&self, word: &str, part: &Part) -> bool {
        let name = word.contains(['.', '/', '_'])
            // A module's name, or any name written as one; an English word that is only some
            // function's name ("put", "save") is not.
            || self.mentions.iter().any(|m| m.text.to_lowercase() == word && (m.module.is_some() || m.strong))
            || self.range().any(|i| self.words[i].code && self.lower(i) == word);
        let unused_name = name && !used_by_text(&self.mentions, word, part) && !self.names_the_home_package(word, part);
        let global = part.modules.is_empty() && part.relation != Relation::DefinedIn;
        let first_cue = self.hits.iter().map(|h| h.start).min().unwrap_or(self.end);
        let topic = self.range().take_while(|&i| i < first_cue).any(|i| self.lower(i) == word);
        unused_name || (global && topic)
    }
}
