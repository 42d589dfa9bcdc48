//! One clause of a question read into a [`Part`]: which modules it names and in which role (the
//! importer or the imported, from the voice of the verb, the noun, "from … to …", or what changes),
//! which relation the cue words ask for, and the modifiers. Anything it cannot place — a word about
//! behaviour, an exclusion it cannot apply, a name that links to nothing, more than one unknown word —
//! makes the clause [`Outcome::Unsure`] rather than guessed.

use std::cell::RefCell;
use std::collections::BTreeSet;

use super::constructions::Construction;
use super::lexicon::{Cue, Family, Hit, covers, is_filler};
use super::words::{Word, number};
use super::{Entity, Part, Relation};
use crate::entities::Linked;

mod context;
mod leftover;
mod limits;
mod names;
mod restricted;
mod split;
mod tests_asked;

pub use self::context::DESCRIBED_MODULE;
use self::names::Role;
pub use self::split::split;

/// A word that may name a module or a symbol.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Mention {
    /// Position of the word in the question.
    pub index: usize,
    pub text: String,
    /// The module it names and others with the same name.
    pub module: Option<(String, Vec<String>)>,
    /// The class or function it names and the modules defining it.
    pub symbol: Option<(String, Vec<String>)>,
    /// Written as code or called a module: certainly a name, not English.
    pub strong: bool,
    pub possessive: bool,
    /// `Class.method` when the question also names the class ("the route() method of Scaffold").
    pub qualified: Option<String>,
    /// It names a top-level package (`flask`): the project itself when named bare as where to look.
    pub top_level: bool,
}

impl Mention {
    pub fn new(index: usize, word: &Word, linked: Option<Linked>, symbol: Option<Vec<String>>, strong: bool) -> Self {
        let mut module = None;
        let mut symbol = symbol.map(|modules| (word.text.clone(), modules));
        match linked {
            Some(Linked::Module { id, alternatives }) => module = Some((id, alternatives)),
            Some(Linked::Symbol { name, modules }) => symbol = symbol.or(Some((name, modules))),
            None => {}
        }
        Mention {
            index,
            text: word.text.clone(),
            module,
            symbol,
            strong,
            possessive: word.possessive,
            qualified: None,
            top_level: false,
        }
    }

    /// The module this mention stands for: the module it names, else the module defining its symbol.
    pub fn entity(&self) -> Option<Entity> {
        let linked = match (&self.module, &self.symbol) {
            (Some((id, alternatives)), _) => Linked::Module { id: id.clone(), alternatives: alternatives.clone() },
            (None, Some((name, modules))) => Linked::Symbol { name: name.clone(), modules: modules.clone() },
            (None, None) => return None,
        };
        Entity::of(&self.text, linked)
    }

    /// The path of the module it names, if it names one.
    pub fn module_id(&self) -> Option<&str> {
        self.module.as_ref().map(|(id, _)| id.as_str())
    }

    /// Whether it names a package (its `__init__.py`).
    pub(super) fn is_package(&self) -> bool {
        self.module_id().is_some_and(|id| id.ends_with("__init__.py"))
    }

    pub(super) fn unlinked(&self) -> bool {
        self.module.is_none() && self.symbol.is_none()
    }
}

/// What one clause says.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    Part(Part),
    /// Only framing ("Two questions:", "Answer both.").
    Empty,
    /// "If so, which ones?": the previous question again, as a list.
    FollowUp,
    /// Names and no question ("For A and for B:"); the next clause asks about them.
    EntitiesOnly(Vec<Entity>),
    /// A name written as code ("`shop/nonexistent.py`") that names nothing in the index.
    Unknown(String),
    /// A relation asked about no module, with nothing else in the clause ("what imports?", "who
    /// imports what?"): no search for the relation word, the asker is asked to name the module.
    /// `every_edge`: both ends are asked for and a package is named only as where to look ("what
    /// imports what in shop?"), so the names it links are no module of the question.
    NoModule {
        every_edge: bool,
    },
    Unsure(Doubt),
}

/// Why a clause or a question is not answered from the graph: the reason the reader gives, and whether
/// it is that nothing fit, which the back-off reader may then read (`backoff.rs`), rather than a
/// reading the rules made and declined on purpose.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Doubt {
    pub reason: String,
    pub nothing_fit: Option<NothingFit>,
}

/// The ways nothing the rules know fits a question.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NothingFit {
    /// Words no construction placed.
    Unplaced,
    /// Nothing in it asks about the graph.
    NoQuestion,
    /// "If so, which?" after nothing.
    FollowUpToNothing,
    /// Several names in roles the rules could not tell apart.
    RolesUnclear,
    /// Names, and nothing the rules saw asked about them.
    NamesOnly,
}

impl Doubt {
    /// A reason nothing fit.
    pub fn nothing_fit(why: NothingFit, reason: impl Into<String>) -> Doubt {
        Doubt { reason: reason.into(), nothing_fit: Some(why) }
    }
}

/// A reading the rules made and declined.
impl From<String> for Doubt {
    fn from(reason: String) -> Doubt {
        Doubt { reason, nothing_fit: None }
    }
}

impl From<&str> for Doubt {
    fn from(reason: &str) -> Doubt {
        reason.to_string().into()
    }
}

/// A clause: a range of the question's words with its cues and mentions.
#[derive(Debug, Clone)]
pub struct Clause<'w> {
    words: &'w [Word],
    start: usize,
    end: usize,
    hits: Vec<Hit>,
    pub mentions: Vec<Mention>,
    /// Words before this index frame the question ("Before merging,"): unknown ones are not held against it.
    lenient_until: usize,
    /// A first-person statement before the question ("I'm reviewing X.", "We noticed …"): scene, not a
    /// question, whatever its first word.
    pub scene: bool,
    /// Its names were said in an earlier clause and taken from there ([`Clause::adopt`]).
    adopted: bool,
    /// The question goes on in the next clause with the opposite relation ("X's importers | and its
    /// imports?"): it asks, whatever its own punctuation.
    asks_on: bool,
    /// The constructions recognised in it so far ([`Clause::saw`]).
    seen: RefCell<BTreeSet<Construction>>,
}

/// The doubt of a relation asked about no module ([`Outcome::NoModule`] when it is all the clause says).
pub(super) const NO_MODULE: &str = "asks about imports without naming a module I know";
const WH: &[&str] = &["what", "which", "who", "whom", "where"];
const AUX: &[&str] =
    &["is", "are", "does", "do", "did", "can", "could", "will", "would", "has", "have", "was", "were", "should"];
/// Verbs and adjectives of the asker's mind: a negation in front of one is about the asker, not about
/// an import ("which I didn't expect", "I don't know if", "not sure whether").
const ASKERS_MIND: &[&str] = &[
    "expect",
    "expected",
    "know",
    "think",
    "believe",
    "understand",
    "remember",
    "recall",
    "see",
    "sure",
    "mind",
    "care",
    "want",
];
const OPENERS: &[&str] =
    &["hey", "hi", "so", "ok", "okay", "and", "also", "then", "but", "quick", "q", "well", "or", "just"];
const STARTERS: &[&str] = &[
    "what", "which", "who", "whom", "where", "how", "why", "does", "do", "did", "is", "are", "can", "could", "would",
    "will", "list", "show", "give", "tell", "name", "find", "if", "and", "also", "then", "plus", "or", "count", "i",
    "please", "answer", "so",
];
/// The words before a package that make it where to look, and the words allowed between.
/// The nouns that stand for modules in a question ("every *module*", "which *ones*").
const MODULE_NOUNS: &[&str] = &["module", "modules", "file", "files", "package", "packages", "one", "ones"];
/// The negative words that can be a verb's subject ("nothing imports X", "no module imports X").
const NEGATIVE_SUBJECTS: &[&str] = &["no", "nothing", "none", "nobody"];
const SCOPE: &[&str] = &["in", "inside", "within", "across", "throughout"];
const SKIPPED: &[&str] = &["the", "whole", "entire", "all", "of"];
/// Words that ask: a question word, or "whether"/"if" after a verb of finding out.
const ASKING: &[&str] = &["which", "what", "who", "where", "whether", "if", "how"];
/// Forms of "be" that make a statement of what a module is.
pub(super) const COPULA: &[&str] = &["is", "are", "was", "were", "be", "being"];
/// The asker as subject ("I'm" and "I'd" come split: "i am", "i would").
const FIRST_PERSON: &[&str] = &["i", "we", "we're", "we'd", "i'll", "we'll", "i've", "we've"];
const PRONOUNS: &[&str] = &["it", "them", "they", "its", "their", "itself", "both", "each"];

/// "are (not) (also) in a cycle", "is part of an import loop": after the auxiliary at `aux`, a place in
/// a cycle. The splitter (such a predicate after "and" continues its clause) and the limits (a cycle
/// as a condition on a relation's modules) both read it here.
fn in_a_cycle_after(words: &[Word], hits: &[Hit], aux: usize) -> bool {
    let at = (aux + 1..words.len()).find(|&k| !matches!(words[k].lower.as_str(), "not" | "also" | "then" | "too"));
    at.is_some_and(|at| {
        matches!(words[at].lower.as_str(), "in" | "part")
            && hits.iter().any(|h| h.cue == Cue::Cycle && h.start > at && h.start <= at + 3)
    })
}

fn is_edge(cue: Cue) -> bool {
    matches!(cue, Cue::Verb(_) | Cue::Passive(_) | Cue::NounOut(_) | Cue::NounIn(_))
}

impl Clause<'_> {
    /// `present`, noting `construction` as recognised when it is.
    pub fn saw(&self, construction: Construction, present: bool) -> bool {
        if present {
            self.seen.borrow_mut().insert(construction);
        }
        present
    }

    /// The constructions recognised in the clause.
    pub fn constructions(&self) -> BTreeSet<Construction> {
        self.seen.borrow().clone()
    }

    /// Whether the clause has a cue that asks something on its own.
    pub fn asks(&self) -> bool {
        self.hits.iter().any(|h| {
            !matches!(
                h.cue,
                Cue::Filler
                    | Cue::YesNo
                    | Cue::Have
                    | Cue::Negation
                    | Cue::Direct
                    | Cue::Transitive
                    | Cue::Exclude
                    | Cue::Outside
            )
        })
    }

    fn range(&self) -> std::ops::Range<usize> {
        self.start..self.end
    }

    fn lower(&self, i: usize) -> &str {
        self.words.get(i).map_or("", |w| w.lower.as_str())
    }

    fn has(&self, cue: Cue) -> bool {
        self.hits.iter().any(|h| h.cue == cue)
    }

    fn find(&self, wanted: impl Fn(Cue) -> bool) -> Option<Hit> {
        self.hits.iter().copied().find(|h| wanted(h.cue))
    }

    /// Every name the clause is about was said in an earlier clause ("… Which sequence of imports
    /// causes that?"; see [`Clause::adopt`]).
    pub(super) fn names_said_before(&self) -> bool {
        self.adopted && !self.mentions.is_empty()
    }

    fn covered(&self, i: usize) -> bool {
        covers(&self.hits, i)
    }

    fn has_word(&self, words: &[&str]) -> bool {
        self.range().any(|i| words.contains(&self.lower(i)))
    }

    /// The first word after openers ("hey, quick q:") is an auxiliary: a yes/no question. "Can you list…"
    /// is a request, not a yes/no question.
    /// "check if", "let me know if": `if` after a verb of finding out asks a yes or no.
    pub(super) fn if_of_finding_out(&self, i: usize) -> bool {
        self.lower(i) == "if"
            && i > 0
            && matches!(
                self.lower(i - 1),
                "know" | "me" | "see" | "check" | "wondering" | "ask" | "sure" | "verify" | "confirm"
            )
    }

    fn yes_no(&self) -> bool {
        let first = Some(self.first_word()).filter(|&i| i < self.end && !OPENERS.contains(&self.lower(i)));
        // "(and) would like to know what …": an auxiliary with no subject after it is not inverted.
        let asks_yes_no = first.is_some_and(|i| {
            AUX.contains(&self.lower(i))
                && !(matches!(self.lower(i), "can" | "could" | "would" | "will") && self.lower(i + 1) == "you")
                && !matches!(self.lower(i + 1), "like" | "love" | "appreciate" | "prefer")
        });
        // "which modules rely on X, whether directly or via other imports?": a choice of manner, not a
        // yes or no.
        let of_manner = |i: usize| {
            self.lower(i) == "whether"
                && self.hits.iter().any(|h| h.start == i + 1 && matches!(h.cue, Cue::Direct | Cue::Transitive))
        };
        let yes_no_cue = self.hits.iter().any(|h| h.cue == Cue::YesNo && !of_manner(h.start));
        let whether = self.range().any(|i| (self.lower(i) == "whether" && !of_manner(i)) || self.if_of_finding_out(i));
        // "anything importing api?", "`x` -> imported anywhere?": no question word, a question mark.
        let elliptical = self.end > self.start
            && self.words[self.end - 1].boundary_after
            && self.asks_no_word()
            && (self.has_word(&[
                "anything",
                "anyone",
                "anywhere",
                "any",
                "anybody",
                "something",
                "someone",
                "somebody",
            ]) || self.range().any(|i| self.lower(i) == "at" && self.lower(i + 1) == "all"));
        self.saw(Construction::YesNo, asks_yes_no || whether || yes_no_cue)
            || self.saw(Construction::EllipticalYesNo, elliptical || self.declared_and_asked(first))
            || self.tag_question()
            // "I think nobody imports X, can you check?": a belief about a named module, to confirm.
            || self.hits.iter().any(|h| h.cue == Cue::Negation && self.nobody_does(h))
    }

    /// No question word, request or count: a question mark alone makes it a question.
    fn asks_no_word(&self) -> bool {
        !self.has_word(WH)
            && !self.has_word(&["how", "why", "list", "show", "give", "tell", "name", "find", "count"])
            && !self.has(Cue::Count)
    }

    /// "X has importers?", "`x` is in a cycle?": a statement that a module has or is something, asked
    /// with a question mark and no question word. "X is imported by?" still asks by what.
    fn declared_and_asked(&self, first: Option<usize>) -> bool {
        let Some(first) = first else { return false };
        let last = self.end.saturating_sub(1);
        self.end > first + 2
            && self.words[last].question_after
            && self.mentions.iter().any(|m| m.index == first)
            && (self.hits.iter().any(|h| h.start == first + 1 && h.cue == Cue::Have)
                || COPULA.contains(&self.lower(first + 1)))
            && self.asks_no_word()
            && !matches!(self.lower(last), "by" | "from" | "of" | "on" | "to" | "in")
    }

    /// A statement turned into a question by a tag after a comma ("…, right?", "…, correct?"), with no
    /// question word of its own.
    fn tag_question(&self) -> bool {
        let last = self.end.checked_sub(1).filter(|&i| i > self.start);
        let tagged = last.is_some_and(|i| {
            self.words[i].question_after
                && matches!(self.lower(i), "right" | "correct" | "true")
                && self.words[i - 1].comma_after
                && !self.has_word(WH)
        });
        self.saw(Construction::TagQuestion, tagged)
    }

    /// "in a thread-safe way", "in a lazy manner": how something is done, which is behaviour. Not "in
    /// any way" (at all) nor "in a way that runs at runtime" (said by the words after it): a word
    /// between the article and "way" must describe the manner.
    fn in_a_manner(&self) -> bool {
        let manner = self.range().any(|i| {
            let Some(noun) =
                (i + 3..(i + 6).min(self.end)).find(|&j| matches!(self.lower(j), "way" | "manner" | "fashion"))
            else {
                return false;
            };
            self.lower(i) == "in"
                && matches!(self.lower(i + 1), "a" | "an" | "the" | "what" | "which")
                && (i + 2..noun).all(|j| !self.covered(j) && !is_filler(self.lower(j)))
        });
        self.saw(Construction::InAManner, manner)
    }

    /// A count said in the clause ("give me the first 3"), not part of a name.
    pub fn stated_number(&self) -> Option<usize> {
        self.range()
            .filter(|&i| !self.mentions.iter().any(|m| m.index == i))
            // "each one", "which one": a pronoun, not a count ("one module" is one).
            .filter(|&i| self.lower(i) != "one" || matches!(self.lower(i + 1), "module" | "file" | "package"))
            .find_map(|i| number(self.lower(i)))
    }

    /// Every word accounted for: a statement read as the question behind a bare follow-up must be.
    pub fn fully_placed(&self) -> bool {
        self.unknown_words().is_empty()
    }

    /// "Is the import of X in Y needed?", "which imports in X are unused?": a judgement of an import
    /// statement (a noun after a determiner), not of a module; "which imports are needed *by* X" is
    /// X's imports.
    fn judges_an_import(&self) -> bool {
        const DETERMINERS: &[&str] = &["the", "an", "this", "that", "these", "those", "which", "what", "its", "their"];
        const JUDGEMENTS: &[&str] =
            &["needed", "necessary", "unnecessary", "unused", "redundant", "removable", "required", "superfluous"];
        let import_noun = self.range().find(|&i| {
            matches!(self.lower(i), "import" | "imports") && i > self.start && DETERMINERS.contains(&self.lower(i - 1))
        });
        import_noun.is_some_and(|i| {
            (i + 1..self.end).any(|j| JUDGEMENTS.contains(&self.lower(j)) && !matches!(self.lower(j + 1), "by" | "for"))
        })
    }

    /// The word right after "which"/"what" names what is asked for: modules, a count, a cycle… or
    /// something the graph does not hold ("which database", "what arguments").
    fn asks_for_something_else(&self) -> Option<&str> {
        let skip = ["other", "of", "the", "kind", "sort", "exactly", "single", "all", "are", "is", "s"];
        for i in self.range() {
            if !matches!(self.lower(i), "which" | "what") {
                continue;
            }
            let first = (i + 1..self.end).find(|&j| !skip.contains(&self.lower(j)))?;
            let known = |head: usize| {
                let word = &self.words[head];
                self.covered(head)
                    || self.mentions.iter().any(|m| m.index == head && !self.asked_kind(m))
                    || is_filler(&word.lower)
                    || AUX.contains(&word.lower.as_str())
                    || number(&word.lower).is_some()
            };
            // "which *python* version does …": a plain word before the head noun and the auxiliary
            // modifies it.
            let modifier = is_filler(self.lower(first))
                && !MODULE_NOUNS.contains(&self.lower(first))
                && AUX.contains(&self.lower(first + 2));
            let head = if modifier && first + 1 < self.end && !known(first + 1) { first + 1 } else { first };
            let word = &self.words[head];
            let known = known(head);
            if self.saw(Construction::AsksForSomethingElse, !known) {
                return Some(word.text.as_str());
            }
        }
        None
    }

    pub fn parse(&self) -> Outcome {
        let unknown = self.unknown_words();
        if self.mentions.is_empty() && !self.asks() {
            // "members?", "which ones?": a question of framing words alone asks for what came before.
            let bare_question = self.end > self.start && self.words[self.end - 1].question_after && unknown.is_empty();
            let follows_up =
                self.has_word(WH) || self.has_word(&["if", "name", "list", "show", "give"]) || bare_question;
            return if follows_up { Outcome::FollowUp } else { Outcome::Empty };
        }
        if let Some(outcome) = self.asks_beyond_the_graph(&unknown) {
            return outcome;
        }
        if let Some(m) = self.mentions.iter().find(|m| m.strong && m.unlinked()) {
            // An unknown name in a structural question is unknown; elsewhere it is for retrieval.
            if !self.asks() {
                return Outcome::Unsure(
                    format!("`{}` names nothing in the graph and no relation is asked", m.text).into(),
                );
            }
            return Outcome::Unknown(m.text.clone());
        }
        // "What imports what in shop?": both ends of the relation asked for, the package only where
        // to look; the asker is asked which module, as when no package is named.
        if unknown.is_empty() && self.asks_every_edge() && self.mentions.iter().all(|m| self.only_where_to_look(m)) {
            return Outcome::NoModule { every_edge: true };
        }
        let mut part = match self.relation() {
            Ok(Some(part)) => part,
            // "is X dead code?": with no relation word, a word left over may be the question's predicate.
            Ok(None) if !unknown.is_empty() => {
                let reason = format!("no relation, and a word I could not place: {}", unknown[0]);
                return Outcome::Unsure(Doubt::nothing_fit(NothingFit::Unplaced, reason));
            }
            Ok(None) => return self.without_relation(),
            Err(reason) if reason.reason == NO_MODULE && unknown.is_empty() && self.mentions.is_empty() => {
                return Outcome::NoModule { every_edge: false };
            }
            Err(reason) => return Outcome::Unsure(reason),
        };
        if let Err(reason) = self.modifiers(&mut part) {
            return Outcome::Unsure(reason);
        }
        if let Some(word) = unknown.first()
            && self.may_name_the_subject(word, &part)
        {
            let reason = format!("a word I could not place that may name what is asked about: {word}");
            return Outcome::Unsure(Doubt::nothing_fit(NothingFit::Unplaced, reason));
        }
        Outcome::Part(part)
    }

    /// Why the clause asks something the import graph does not hold, if it does: another time or
    /// advice, behaviour, another kind of thing, what code does, or words left over that the relation
    /// hangs on.
    fn asks_beyond_the_graph(&self, unknown: &[&str]) -> Option<Outcome> {
        if let Some(reason) = self.limit_of_question() {
            return Some(Outcome::Unsure(reason.into()));
        }
        // "For the lazy-loading work, list …": a word of behaviour in the framing says why, not what.
        let behaviour = self.hits.iter().any(|h| h.cue == Cue::Behaviour && h.start >= self.lenient_until);
        if behaviour || self.in_a_manner() {
            return Some(Outcome::Unsure("asks how the code behaves, not how modules import each other".into()));
        }
        if self.saw(Construction::JudgesAnImport, self.judges_an_import()) {
            return Some(Outcome::Unsure("asks whether an import is needed, which is how code uses names".into()));
        }
        if let Some(head) = self.asks_for_something_else() {
            return Some(Outcome::Unsure(format!("asks for a {head}, which the import graph does not hold").into()));
        }
        // "What does X do …?": "do" as the main verb, after the auxiliary and the subject.
        let main_do = self.range().any(|i| {
            // ("… don't count here": "do" before "not" is an auxiliary.)
            self.lower(i) == "do"
                && self.lower(i + 1) != "not"
                && self.mentions.iter().any(|m| m.index < i)
                && self.range().any(|j| j < i && matches!(self.lower(j), "does" | "did" | "do"))
        });
        // "What does X use Y for?": a purpose.
        let purpose = self.end > self.start
            && self.lower(self.end - 1) == "for"
            && self.hits.iter().any(|h| h.cue == Cue::Verb(Family::Use));
        if self.saw(Construction::WhatCodeDoes, main_do || purpose) {
            return Some(Outcome::Unsure("asks what code does or what it is for".into()));
        }
        if unknown.len() > 1 {
            let reason = format!("words I could not place: {}", unknown.join(", "));
            return Some(Outcome::Unsure(Doubt::nothing_fit(NothingFit::Unplaced, reason)));
        }
        // One plain word left over is tolerated (a typo, an aside), but not a word the relation word
        // hangs on ("a *circle* of imports", "*available* to importers").
        if let Some(word) = unknown.first()
            && self.governs_an_import_word(word)
        {
            let reason = format!("a word I could not place next to the relation: {word}");
            return Some(Outcome::Unsure(Doubt::nothing_fit(NothingFit::Unplaced, reason)));
        }
        if let Some(word) = unknown.first()
            && self.uses_an_activity(word)
        {
            return Some(Outcome::Unsure(format!("asks whether the code does {word}, which is behaviour").into()));
        }
        None
    }

    /// A clause with names and no relation: "Locate Flask:", "where is Blueprint?", "For A and for B:".
    fn without_relation(&self) -> Outcome {
        // "What module is PriceRule in?", "PriceRule is in which file?": which module a class or
        // function is in.
        let in_which = self.end > self.start && self.lower(self.end - 1) == "in"
            || self.range().any(|i| self.lower(i) == "in" && matches!(self.lower(i + 1), "which" | "what"));
        let which_module_in = self.has_word(&["which", "what"]) && self.has_word(&["module", "file"]) && in_which;
        // "module of PaymentGateway?", "the file for Cart": the module a class or function belongs to.
        let module_of = |m: &Mention| {
            m.index >= 2
                && matches!(self.lower(m.index - 1), "of" | "for")
                && matches!(self.lower(m.index - 2), "module" | "file" | "home")
        };
        if let Some(m) = self.mentions.iter().find(|m| m.symbol.is_some() && m.module.is_none())
            && (self.has_word(&["where", "find", "locate"]) || which_module_in || module_of(m))
        {
            return Outcome::Part(self.defined_in(m));
        }
        let mut entities: Vec<Entity> = self.mentions.iter().filter(|m| m.strong).filter_map(Mention::entity).collect();
        if entities.is_empty() {
            entities = self.mentions.iter().filter_map(Mention::entity).collect();
        }
        if entities.is_empty() {
            Outcome::Unsure(Doubt::nothing_fit(NothingFit::NoQuestion, "no structural question found"))
        } else {
            Outcome::EntitiesOnly(entities)
        }
    }

    fn defined_in(&self, mention: &Mention) -> Part {
        let mut part = Part::new(Relation::DefinedIn);
        part.symbol = mention.symbol.as_ref().map(|(name, _)| name.clone());
        if let Some(qualified) = &mention.qualified {
            part.symbol = Some(qualified.clone());
        }
        part
    }

    /// The relation, its modules and the modifiers that decide which relation it is.
    fn relation(&self) -> Result<Option<Part>, Doubt> {
        let names = self.names()?;
        let entities = |ms: &[&Mention]| ms.iter().filter_map(|m| m.entity()).collect::<Vec<_>>();
        let edge = self.find(|c| matches!(c, Cue::Verb(_) | Cue::Passive(_) | Cue::NounOut(_) | Cue::NounIn(_)));
        if self.has(Cue::Least) {
            return Err("asks for the fewest, which I do not rank".into());
        }
        if let Some(defined) = self.definition_part(edge) {
            return defined;
        }
        if self.has(Cue::Export) {
            if names.len() != 1 {
                return Err("asks for exports without naming one module".into());
            }
            let mut part = Part::new(Relation::Exports);
            part.modules = entities(&names);
            return Ok(Some(part));
        }
        let ranks = self.has(Cue::Most) || self.has(Cue::Top);
        // "X imports itself", "depends on itself": the reflexive object of a relation, not an emphasis.
        let reflexive = self
            .hits
            .iter()
            .any(|h| h.cue == Cue::Itself && self.hits.iter().any(|e| is_edge(e.cue) && e.end == h.start));
        let itself = self.saw(
            Construction::Reflexive,
            reflexive && self.yes_no() && names.len() == 1 && edge.is_some() && !self.has(Cue::Direct) && !ranks,
        );
        let (scope, within) = self.where_to_look(&names);
        let names: Vec<&Mention> = names.into_iter().filter(|m| scope.is_none_or(|s| s.index != m.index)).collect();
        // "X doesn't import Y, right?": the asker states a belief and asks to confirm it; the answer is
        // the positive question's, whose Yes or No follows the fact ("No: X does not import Y").
        let negated = self.saw(Construction::Negated, self.negation_left() && !self.tag_question());
        if self.negates_which_cycles(negated, &names) {
            return Err("asks about a cycle with a negation, which I do not answer exactly".into());
        }
        if self.saw(Construction::CycleAsACondition, self.cycle_as_a_condition()) {
            return Err("asks for the modules of a relation that are also in a cycle, which I do not filter".into());
        }
        if self.has(Cue::Cycle) || itself {
            return self.cycle_part(names, within).map(Some);
        }
        let strong_names = names.iter().any(|m| m.strong);
        if self.has(Cue::Most) || self.has(Cue::Top) {
            return self.ranking_part(&names, within, self.ranked_edge().or(edge)).map(Some);
        }
        // A negation needs a relation word to negate: "…, not the full tree" after a question only
        // qualifies it.
        let negated_relation = negated && edge.is_some();
        if !strong_names && (self.has(Cue::Leaves) || negated_relation || self.imports_only_outside()) {
            if self.neither_way() {
                return Err("asks for modules with neither imports nor importers, which I do not list".into());
            }
            let backward = matches!(edge.map(|h| h.cue), Some(Cue::Passive(_) | Cue::NounIn(_)))
                || (negated && self.negative_subject(edge));
            return Ok(Some(Part::new(if backward && !self.has(Cue::Leaves) {
                Relation::Roots
            } else {
                Relation::Leaves
            })));
        }
        if negated {
            return Err("asks about what is not imported, which I do not list".into());
        }
        let mut part = self.edge_relation(&names)?;
        if let Some(part) = &mut part
            && within.is_some()
        {
            if !matches!(
                part.relation,
                Relation::Imports | Relation::Importers | Relation::Dependents | Relation::Dependencies
            ) || part.modules.len() != 1
            {
                return Err("asks about a path and names a package as where to look".into());
            }
            part.within = within;
        }
        Ok(part)
    }

    /// "Where is X defined?", "find X": the module defining the class or function named; `None` when the
    /// question is not about a definition.
    fn definition_part(&self, edge: Option<Hit>) -> Option<Result<Option<Part>, Doubt>> {
        if self.defines_in_a_relative(edge) {
            return None;
        }
        let exports_of_module =
            self.has(Cue::Export) && !self.mentions.iter().any(|m| m.symbol.is_some() && m.module.is_none());
        let names_symbol = self.mentions.iter().any(|m| m.symbol.is_some());
        let looks_for = self.has_word(&["where", "find", "locate"])
            && edge.is_none()
            && names_symbol
            && self.unknown_words().is_empty()
            && self.mentions.len() == 1;
        if !exports_of_module && (self.has(Cue::Define) || looks_for) {
            // "Flask's codebase" is the repository, not the class `Flask`.
            let with_symbol = || self.mentions.iter().filter(|m| m.symbol.is_some() && !self.names_the_repository(m));
            let symbol = with_symbol()
                .find(|m| self.words.get(m.index).is_some_and(|w| w.code))
                .or_else(|| with_symbol().find(|m| m.strong))
                .or_else(|| with_symbol().next());
            // "Where are X and Y *hosted*?": a participle left over is what is asked, and it is not
            // where code is defined.
            let participle = self.unknown_words().into_iter().find(|w| w.len() > 4 && w.ends_with("ed"));
            // "Is X defined in a module that is in a cycle?": the module a definition is in, described
            // by a relative clause with a relation of its own, is what is asked about.
            let described = self.hits.iter().any(|d| {
                d.cue == Cue::Define
                    && (d.end..self.end).any(|k| {
                        matches!(self.lower(k), "module" | "file")
                            && matches!(self.lower(k + 1), "that" | "which")
                            && self.hits.iter().any(|h| h.start > k && (is_edge(h.cue) || h.cue == Cue::Cycle))
                    })
            });
            return Some(match symbol {
                Some(_) if let Some(word) = participle => {
                    Err(format!("asks where something is {word}, not where it is defined").into())
                }
                Some(_) if self.saw(Construction::NestedRelative, described) => {
                    Err("asks about the module a definition is in through a relative clause, which I do not follow"
                        .into())
                }
                Some(m) => Ok(Some(self.defined_in(m))),
                None if self.has(Cue::Define) => {
                    Err("asks where something is defined, but names no class or function I know".into())
                }
                None => Ok(None),
            });
        }
        None
    }

    /// A question about import cycles: all of them, the largest, one module's, or whether two are in one.
    fn cycle_part(&self, names: Vec<&Mention>, within: Option<String>) -> Result<Part, Doubt> {
        // "does a chain from X lead back to X?": one module, named twice.
        let mut ids: Vec<String> = names.iter().filter_map(|m| m.entity()).map(|e| e.id).collect();
        ids.dedup();
        let names: Vec<&Mention> = if ids.len() == 1 { names[..1].to_vec() } else { names };
        let relation = match names.len() {
            0 if self.has(Cue::Most) => Relation::LargestCycle,
            0 => Relation::Cycles,
            1 => Relation::CycleOf,
            2 if self.together() => Relation::SameCycle,
            _ => return Err("asks about a cycle and several modules".into()),
        };
        let mut part = Part::new(relation);
        part.modules = names.iter().filter_map(|m| m.entity()).collect();
        part.within = within;
        Ok(part)
    }

    /// The relation word a ranking ranks by: the one next to "most" ("the most imported", "imported
    /// the most"), not one the clause says for another reason ("not counting imports from tests,
    /// what is the most imported module?").
    fn ranked_edge(&self) -> Option<Hit> {
        let most: Vec<&Hit> = self.hits.iter().filter(|h| matches!(h.cue, Cue::Most | Cue::Top)).collect();
        self.hits.iter().copied().find(|h| {
            matches!(h.cue, Cue::Verb(_) | Cue::Passive(_) | Cue::NounOut(_) | Cue::NounIn(_))
                && most.iter().any(|m| h.start == m.end || h.end == m.start)
        })
    }

    /// A ranking: the most imported or most depended-on modules, within a package when one is named.
    fn ranking_part(&self, names: &[&Mention], within: Option<String>, edge: Option<Hit>) -> Result<Part, Doubt> {
        let strong_names = names.iter().any(|m| m.strong);
        // "Inside the django package, …", "the most imported in shop": a ranking within a package; any
        // other name is unsure.
        let within = match names {
            [] => within,
            [package] if within.is_none() && package.strong && package.is_package() => {
                package.module_id().map(|id| id.trim_end_matches("__init__.py").to_string())
            }
            _ if strong_names => return Err("asks for a ranking within part of the repository".into()),
            _ => within,
        };
        if edge.is_none() && !self.has(Cue::Central) && !self.has(Cue::Impact) {
            return Err("asks for the most of something other than imports".into());
        }
        // "Has the most dependencies": the modules it depends on, every one.
        let importer = self.ranks_the_importer(edge)?;
        let depends = matches!(
            edge.map(|h| h.cue),
            Some(Cue::Verb(Family::Depend) | Cue::Passive(Family::Depend) | Cue::NounIn(Family::Depend))
        ) || (importer && edge.is_some_and(|h| h.cue == Cue::NounOut(Family::Depend)));
        // "Depended on" counts every dependent, "imported by" direct importers (docs/graph.md):
        // "most depended-on" ranks transitively unless it says "direct". What breaks or is affected
        // ("the largest blast radius") is every dependent too.
        let impact = self.has(Cue::Impact);
        let transitive =
            self.has(Cue::Central) || (!self.has(Cue::Direct) && (self.has(Cue::Transitive) || depends || impact));
        let relation = match (importer, transitive) {
            (false, true) => Relation::MostDependedOn,
            (false, false) => Relation::MostImported,
            (true, true) => Relation::MostDependencies,
            (true, false) => Relation::MostImports,
        };
        let mut part = Part::new(relation);
        // "which module ranks first by how many modules import it": the first noun for what is
        // ranked says one or several.
        let plural = self
            .range()
            .map(|i| self.lower(i))
            .find(|w| matches!(*w, "module" | "file" | "one" | "package" | "modules" | "files" | "ones" | "packages"))
            .is_some_and(|w| w.ends_with('s'));
        part.top = Some(self.stated_number().unwrap_or(if plural { 10 } else { 1 }));
        part.within = within;
        Ok(part)
    }

    /// Whether a ranking is of the modules that import ("which module imports the most modules?", "has
    /// the most dependencies?"), not of the imported: the verb right after the module asked about, its
    /// subject, and before "most"; or "has the most dependencies". "Has the most imports" is said both
    /// ways (what it imports, how often it is imported): unsure, never guessed.
    fn ranks_the_importer(&self, edge: Option<Hit>) -> Result<bool, Doubt> {
        const ASKED: &str = "which what whats what's who the a single module modules file files one ones that";
        const NOUNS: &str = "module modules file files one ones";
        const BETWEEN: &str = "number of direct other internal";
        let (Some(edge), Some(most)) = (edge, self.find(|c| c == Cue::Most)) else {
            return Ok(false);
        };
        let had_noun = most.end <= edge.start
            && self.had(most)
            && (most.end..edge.start).all(|i| BETWEEN.split_whitespace().any(|w| w == self.lower(i)));
        match edge.cue {
            Cue::NounOut(Family::Depend) => Ok(had_noun),
            Cue::NounOut(_) | Cue::Verb(_) if had_noun => {
                Err("asks for the module with the most imports, which may mean either way".into())
            }
            // The verb right after the module asked about, its subject: "which module imports the most",
            // not "which module do we import the most", "the module that other modules import most".
            Cue::Verb(_) => {
                let before: Vec<&str> = (self.first_word()..edge.start).map(|i| self.lower(i)).collect();
                let nouns = before.iter().filter(|w| NOUNS.split_whitespace().any(|n| n == **w)).count();
                let asked = |w: &str| ASKED.split_whitespace().any(|a| a == w) || number(w).is_some();
                Ok(most.start >= edge.end && nouns <= 1 && before.iter().all(|w| asked(w)))
            }
            _ => Ok(false),
        }
    }

    /// Whether "most" is had: "has the most imports", "the module with most dependencies", not "shows
    /// up in the most imports".
    fn had(&self, most: Hit) -> bool {
        let mut i = most.start;
        while i > self.start && self.lower(i - 1) == "the" {
            i -= 1;
        }
        i > self.start && matches!(self.lower(i - 1), "has" | "have" | "having" | "with" | "makes" | "make")
    }

    /// "cycles in shop", "from the rest of scrapy": the name of a package named as where to look, not as
    /// a module the relation is about, and the folder it limits the answer to. The project's own
    /// top-level package named bare ("cycles in httpx", "the most imported module in flask") is the
    /// whole repository (no folder); "the django package" is its folder.
    fn where_to_look<'m>(&self, names: &[&'m Mention]) -> (Option<&'m Mention>, Option<String>) {
        let scope = self.scope(names);
        let whole_project = |m: &Mention| {
            m.top_level && !matches!(self.lower(m.index + 1), "package" | "folder" | "directory" | "subpackage")
        };
        self.saw(Construction::WholeProject, scope.is_some_and(whole_project));
        let within = scope
            .filter(|m| self.saw(Construction::PackageScope, !whole_project(m)))
            .and_then(|m| m.module_id())
            .map(|id| id.trim_end_matches("__init__.py").to_string());
        (scope, within)
    }

    /// "What imports what?", "which modules import which?": a wh-word on both sides of an import verb,
    /// every edge asked for.
    fn asks_every_edge(&self) -> bool {
        let wh = |i: usize| i >= self.start && i < self.end && WH.contains(&self.lower(i));
        let noun = |i: usize| matches!(self.lower(i), "module" | "modules" | "file" | "files");
        let every = self.hits.iter().any(|h| {
            matches!(h.cue, Cue::Verb(_))
                && h.start > self.start
                && (wh(h.start - 1) || (noun(h.start - 1) && h.start >= 2 && wh(h.start - 2)))
                && wh(h.end)
        });
        self.saw(Construction::EveryEdge, every)
    }

    /// A package named only as where to look: right after "in", "inside", "within", "across" or
    /// "throughout" (an article or "whole" between).
    fn only_where_to_look(&self, m: &Mention) -> bool {
        self.before_package(m).is_some_and(|(i, skipped_of)| !skipped_of && SCOPE.contains(&self.word_before(i)))
    }

    /// Where the words before a package mention start once "the", "whole", "of" … are skipped, and
    /// whether an "of" was among them; `None` for a module that is no package, or a possessive ("in
    /// shop's import cycle": the package owns what follows, it is not where to look).
    fn before_package(&self, m: &Mention) -> Option<(usize, bool)> {
        if !m.is_package() || m.possessive {
            return None;
        }
        let mut i = m.index;
        let mut skipped_of = false;
        while i > self.start && SKIPPED.contains(&self.lower(i - 1)) {
            skipped_of |= self.lower(i - 1) == "of";
            i -= 1;
        }
        Some((i, skipped_of))
    }

    /// The word before word `i`, "" at the clause's start.
    fn word_before(&self, i: usize) -> &str {
        if i > self.start { self.lower(i - 1) } else { "" }
    }

    /// The package a clause names as where to look: a package (its `__init__.py`) right after "in",
    /// "inside", "within", "across" or "throughout" ("cycles in shop", "across the shop package") or
    /// after "the rest of", when the clause also asks about something else: a list, not whether one
    /// module reaches another, or where the importers asked about are ("does anything in shop
    /// import X?"). "Is shop.api in shop?" and "Does X import anything in shop.payments?" keep their
    /// reading (the second is the reach question the sets ask).
    fn scope<'m>(&self, names: &[&'m Mention]) -> Option<&'m Mention> {
        const QUANTIFIED: &[&str] = &["anything", "something", "nothing", "module", "modules", "file", "files"];
        // A question about the whole repository (cycles, rankings) needs no other name to be about.
        let whole = self.has(Cue::Cycle) || self.has(Cue::Most) || self.has(Cue::Top);
        let lists = !self.yes_no() || whole;
        names.iter().copied().find(|m| {
            let Some((i, skipped_of)) = self.before_package(m) else {
                return false;
            };
            let before = self.word_before(i);
            let rest_of = skipped_of && before == "rest";
            // "pulls in shop/__init__.py": the "in" of a phrasal verb is no place.
            let phrasal =
                i > self.start && self.hits.iter().any(|h| is_edge(h.cue) && h.start < i - 1 && i - 1 < h.end);
            let in_scope = !skipped_of && SCOPE.contains(&before) && !phrasal;
            // "Does anything in requests import X?": the importers looked for in the whole project,
            // before the relation (after it, "import anything in P" asks about P).
            let quantified = in_scope
                && m.top_level
                && i >= self.start + 2
                && QUANTIFIED.contains(&self.lower(i - 2))
                && self.hits.iter().any(|h| is_edge(h.cue) && h.start > m.index);
            rest_of || quantified || (in_scope && lists && names.len() + usize::from(whole) >= 2)
        })
    }

    /// "A and B in a cycle together", "in the same cycle", "a cycle between A and B", "with each other":
    /// two modules in one cycle, not each in a cycle of its own.
    fn together(&self) -> bool {
        let together = self.has_word(&["together", "same", "between", "other", "another", "mutual", "mutually"]);
        self.saw(Construction::CycleTogether, together)
    }

    /// "modules that only import the standard library": modules that import no module of the
    /// repository.
    fn imports_only_outside(&self) -> bool {
        let only_outside = self.has(Cue::Outside)
            && self.has_word(&["only"])
            && !self.has(Cue::Exclude)
            && matches!(self.find(is_edge).map(|h| h.cue), Some(Cue::Verb(_)));
        self.saw(Construction::OnlyOutside, only_outside)
    }

    /// "importers of X, not counting Y": a name inside an exclusion (up to the next comma or clause
    /// start) is a module to leave out, which no answer here does.
    fn excludes_a_name(&self) -> bool {
        let excludes = self.hits.iter().filter(|h| h.cue == Cue::Exclude).any(|h| {
            let last = &self.words[h.end - 1];
            if last.comma_after || last.boundary_after {
                return false;
            }
            let mut at = h.end;
            let mut names = false;
            // "Leaving out tests and X,": "and" and "or" join what is left out; other starters begin
            // the question.
            let starts_clause = |w: &str| STARTERS.contains(&w) && !matches!(w, "and" | "or");
            while at < self.end && !starts_clause(self.lower(at)) {
                names |=
                    self.mentions.iter().any(|m| m.index == at && !m.unlinked() && (m.strong || !self.covered(at)));
                if self.words[at].comma_after || self.words[at].boundary_after {
                    break;
                }
                at += 1;
            }
            names
        });
        self.saw(Construction::ExcludesAModule, excludes)
    }

    /// "not", "no", "nothing" not already part of a phrase, not the "not" of "doesn't X import Y?", not
    /// one about the asker's mind ("which I didn't expect", "I'm not sure"), and not one that negates
    /// nothing of the question: a contrast, the other answer offered, a belief to confirm.
    fn negation_left(&self) -> bool {
        let negates_nothing = |h: &Hit| {
            (h.end < self.end && ASKERS_MIND.contains(&self.lower(h.end)))
                || (h.start > self.start && AUX.contains(&self.lower(h.start - 1)) && h.start - 1 == self.first_word())
                || self.contrast(h)
                || self.the_other_answer(h)
                || self.nobody_does(h)
        };
        !self.has(Cue::TypeChecking) && self.hits.iter().any(|h| h.cue == Cue::Negation && !negates_nothing(h))
    }

    /// "Is X imported by anyone or by nobody?", "does anything import X, or is it imported by nobody?":
    /// in a yes or no question, a negation after "or" offers the other answer; it negates nothing.
    fn the_other_answer(&self, negation: &Hit) -> bool {
        let offered = (self.start..negation.start).any(|i| self.lower(i) == "or") && self.yes_no();
        self.saw(Construction::OtherAnswer, offered)
    }

    /// "Is it true that nobody imports X?", "tell me if nothing uses X", "I think no module imports X.
    /// Right?": a negative subject of a verb whose object is named says what the asker believes of
    /// that module; the answer is the positive question's, which states the fact ("No: A imports X").
    fn nobody_does(&self, negation: &Hit) -> bool {
        let subject = NEGATIVE_SUBJECTS.contains(&self.lower(negation.start));
        let verb = self.hits.iter().find(|h| h.start >= negation.end && h.start <= negation.end + 1);
        let does = subject
            && verb.is_some_and(|v| {
                matches!(v.cue, Cue::Verb(_)) && self.mentions.iter().any(|m| m.strong && m.index >= v.end)
            });
        self.saw(Construction::NobodyDoes, does)
    }

    /// "How many modules import X — module count, not line count?": a negation after a comma or dash
    /// that sets what is asked against something else, with no relation word or name after it, says
    /// what kind of answer is wanted; it negates nothing of the question.
    fn contrast(&self, negation: &Hit) -> bool {
        let after_a_break = negation.start > self.start
            && (self.words[negation.start - 1].comma_after
                || matches!(self.lower(negation.start - 1), "—" | "–" | "-" | "--"));
        let contrast = after_a_break
            && negation.end < self.end
            && !self.hits.iter().any(|h| h.start >= negation.end && h.cue != Cue::Count && h.cue != Cue::Filler)
            && self.mentions.iter().all(|m| m.index < negation.start);
        self.saw(Construction::Contrast, contrast)
    }

    /// "Which modules does no module import?", "what does nothing import?", "modules that nothing
    /// imports", "modules nobody imports": the negative word is the subject, after the auxiliary, the
    /// relative pronoun or the noun it describes and before the verb, so the modules asked for are the
    /// imported ones. "Which modules don't import anything?" and "modules that import nothing" negate
    /// the verb or its object instead.
    fn negative_subject(&self, edge: Option<Hit>) -> bool {
        let Some(verb) = edge.filter(|h| matches!(h.cue, Cue::Verb(_))) else {
            return false;
        };
        self.hits.iter().any(|h| {
            h.cue == Cue::Negation
                && h.end <= verb.start
                && h.start > self.start
                && NEGATIVE_SUBJECTS.contains(&self.lower(h.start))
                && (matches!(self.lower(h.start - 1), "does" | "do" | "did" | "that" | "which")
                    || MODULE_NOUNS.contains(&self.lower(h.start - 1)))
                && self.hits.iter().all(|between| between.start >= verb.start || between.end <= h.start || between == h)
        })
    }

    /// "Specifically, how many…", "I mean, what imports it?": the clause opens by saying it restates
    /// the one before.
    pub fn restates(&self) -> bool {
        self.find(|c| c == Cue::Restate).is_some_and(|h| h.start <= self.first_word())
    }

    /// The first word past the openers ("so", "ok") and a restatement's cue ("i.e.", "specifically").
    fn first_word(&self) -> usize {
        let restating = |i: usize| self.hits.iter().any(|h| h.cue == Cue::Restate && h.start <= i && i < h.end);
        (self.lenient_until.max(self.start)..self.end)
            .find(|&i| !OPENERS.contains(&self.lower(i)) && !restating(i))
            .unwrap_or(self.start)
    }

    /// Imports, importers, dependents, dependencies, or a path between two modules.
    fn edge_relation(&self, names: &[&Mention]) -> Result<Option<Part>, Doubt> {
        let Some(primary) = self.primary_relation_word(names) else {
            return Ok(None);
        };
        if names.is_empty() {
            return Err(NO_MODULE.into());
        }
        let family = match primary.cue {
            Cue::Verb(f) | Cue::Passive(f) | Cue::NounOut(f) | Cue::NounIn(f) => f,
            _ => Family::Depend,
        };
        // "What can I import from X?": the names X offers, its exports. Which ones one should import
        // is advice.
        if self.a_person_imports(primary) {
            return match names {
                [only] if !self.has_word(&["should", "must", "ought"]) => {
                    let mut part = Part::new(Relation::Exports);
                    part.modules = only.entity().into_iter().collect();
                    Ok(Some(part))
                }
                _ => Err("asks what a person should import, which is advice about names".into()),
            };
        }
        self.refuse_unclear_relation(primary, names)?;
        if let Some(reason) = self.limit_of_relation(names) {
            return Err(reason.into());
        }
        let roles = self.roles(primary, names);
        let from: Vec<&Mention> =
            names.iter().zip(&roles).filter(|(_, r)| **r == Role::From).map(|(m, _)| *m).collect();
        let to: Vec<&Mention> = names.iter().zip(&roles).filter(|(_, r)| **r == Role::To).map(|(m, _)| *m).collect();
        // "How widely is X used?" asks how much, not how.
        const DEGREE: &[&str] = &["widely", "heavily", "often", "much", "commonly", "extensively", "frequently"];
        let asks_how = self.range().any(|i| {
            matches!(self.lower(i), "how" | "why") && !self.covered(i) && !DEGREE.contains(&self.lower(i + 1))
        });
        // "How does the cart use pricing?" asks about behaviour; only a path between two named modules
        // answers "how" or "why".
        // "How does importing A lead to B?" is a path; "how does X depend on the current context" with an
        // English-looking name is about behaviour.
        let path_verb = ["lead", "leads", "reach", "reaches", "get", "gets", "end", "ends", "come"]
            .contains(&self.lower(primary.start));
        let english_name = names.iter().any(|m| !m.strong);
        if asks_how && (family == Family::Use || (english_name && !path_verb && !self.has(Cue::Path))) {
            return Err("asks how code uses other code, which is behaviour".into());
        }
        // "Why does A import B?" asks the reason for an import statement, which its code gives; "why
        // does A depend on B?" may be answered by the chain between them.
        let why_an_import = self.has_word(&["why"]) && family == Family::Import && !self.has(Cue::Path);
        if why_an_import && !self.has(Cue::Transitive) {
            return Err("asks why code imports other code, which its code says".into());
        }
        if let ([from], [to]) = (from.as_slice(), to.as_slice()) {
            return self.pair_part(from, to, family, asks_how).map(Some);
        }
        if asks_how {
            return Err("asks how, which only a path between two modules answers".into());
        }
        self.one_sided_part(primary, family, from, to).map(Some)
    }

    /// The word that says the relation: a noun whose "of" names the module, a path between two names, a
    /// verb between them, else the first relation word of each kind in turn.
    fn primary_relation_word(&self, names: &[&Mention]) -> Option<Hit> {
        // "users of X via import", "importers of X through …": the noun whose "of" names the module
        // says the relation; a verb or noun after it only says how.
        let noun_of = self.hits.iter().copied().find(|h| {
            matches!(h.cue, Cue::NounOut(_) | Cue::NounIn(_))
                && self.lower(h.end) == "of"
                && names
                    .iter()
                    .any(|m| m.index == h.end + 1 || (m.index == h.end + 2 && self.lower(h.end + 1) == "the"))
        });
        let path_between = self
            .find(|c| c == Cue::Path)
            .filter(|_| self.has_word(&["from", "between"]) || !self.has(Cue::Impact))
            .filter(|_| names.len() == 2);
        let noun_of = noun_of.filter(|_| names.len() == 1);
        self.saw(Construction::NounOf, noun_of.is_some());
        noun_of
            .or(path_between)
            .or_else(|| self.verb_between(names))
            // "When X is imported, which modules get loaded?": the relation is the main clause's.
            .or_else(|| {
                let edge = |h: &&Hit| matches!(h.cue, Cue::Verb(_) | Cue::Passive(_));
                self.hits.iter().filter(edge).find(|h| self.condition_of(h).is_none()).copied()
            })
            .or_else(|| self.find(|c| matches!(c, Cue::Verb(_) | Cue::Passive(_))))
            .or_else(|| self.find(|c| c == Cue::Impact).filter(|_| self.has(Cue::Change)))
            .or_else(|| self.find(|c| matches!(c, Cue::NounOut(_) | Cue::NounIn(_))))
            .or_else(|| self.find(|c| matches!(c, Cue::Impact | Cue::Upstream | Cue::Change)))
            .or_else(|| self.find(|c| c == Cue::Path))
    }

    /// Readings where the relation word does not say one relation between the names: declined.
    fn refuse_unclear_relation(&self, primary: Hit, names: &[&Mention]) -> Result<(), Doubt> {
        // "which modules must come with it (directly or indirectly imported)?": a name governed by a
        // preposition cannot be the subject of a passive, and without "by" nothing says whose imports
        // the participle means.
        if matches!(primary.cue, Cue::Passive(_)) && !self.has_word(&["by"]) {
            let governed = names.iter().any(|m| {
                m.index < primary.start
                    && m.index > 0
                    && matches!(self.lower(m.index - 1), "with" | "for" | "into" | "onto" | "alongside")
            });
            if self.saw(Construction::PassiveWithoutAgent, governed) {
                return Err("a passive without its agent, after a name that cannot be its subject".into());
            }
        }
        // "modules that depend on X and are depended on by X": both directions at once is a cycle
        // question in other words, not one relation. The two relation words are coordinated ("and",
        // "or"); one that only says how ("through its imports", "with an import that is not guarded")
        // is not a second relation.
        if let [only] = names {
            // "…loaded, directly or indirectly, when X is imported": a condition is no second relation.
            let edges: Vec<Hit> = self
                .hits
                .iter()
                .copied()
                .filter(|h| matches!(h.cue, Cue::Verb(_) | Cue::Passive(_)) && self.condition_of(h).is_none())
                .collect();
            let roles: BTreeSet<bool> = edges.iter().map(|h| self.role(only, *h, names) == Role::From).collect();
            let coordinated = edges
                .windows(2)
                .any(|pair| (pair[0].end..pair[1].start).any(|i| matches!(self.lower(i), "and" | "or" | "nor")));
            if self.saw(Construction::BothDirections, roles.len() > 1 && coordinated) {
                return Err("asks about imports in both directions at once".into());
            }
            // "modules that both import X and are imported by it": the pronoun is X again, in the other
            // relation.
            // "Which modules does X rely on, including the ones it reaches through others?": the
            // relation again, widened, in the same role.
            let widened = roles.len() == 1
                && edges.windows(2).any(|pair| {
                    (pair[0].end..pair[1].start).any(|i| matches!(self.lower(i), "including" | "incl" | "even"))
                });
            if !self.saw(Construction::Widened, widened)
                && self.saw(
                    Construction::BothDirections,
                    edges.len() > 1 && self.pronoun_at().is_some_and(|p| p > only.index),
                )
            {
                return Err("names a module and refers to it again in a second relation".into());
            }
        }
        Ok(())
    }

    /// Each name's role in the relation `primary` says.
    fn roles(&self, primary: Hit, names: &[&Mention]) -> Vec<Role> {
        let same_module = names.len() == 2 && names[0].module_id() == names[1].module_id();
        if !same_module {
            return names.iter().map(|m| self.role(m, primary, names)).collect();
        }
        // "modules that depend on X and are depended on by X": each X by the relation word before it.
        names
            .iter()
            .map(|m| {
                let nearest = self
                    .hits
                    .iter()
                    .copied()
                    .rfind(|h| matches!(h.cue, Cue::Verb(_) | Cue::Passive(_)) && h.end <= m.index);
                self.role(m, nearest.unwrap_or(primary), names)
            })
            .collect()
    }

    /// One module importing and one imported: whether one reaches the other, or (the same module in
    /// both roles) its cycle.
    fn pair_part(&self, from: &Mention, to: &Mention, family: Family, asks_how: bool) -> Result<Part, Doubt> {
        let entity = |m: &Mention| m.entity().ok_or_else(|| format!("`{}` names no module", m.text));
        // "modules that depend on X and that X depends on": X's import cycle.
        if from.entity().map(|e| e.id) == to.entity().map(|e| e.id) {
            let mut part = Part::new(Relation::CycleOf);
            part.modules = vec![entity(from)?];
            return Ok(part);
        }
        let direct = self.has(Cue::Direct) && !self.has(Cue::Transitive);
        let explicit_transitive = self.has(Cue::Transitive) || self.has(Cue::Upstream);
        let mut part = Part::new(Relation::Reach);
        part.modules = vec![entity(from)?, entity(to)?];
        part.transitive = !direct
            && (explicit_transitive
                || asks_how
                || self.has(Cue::Path)
                || self.has(Cue::Impact)
                || family != Family::Import);
        Ok(part)
    }

    /// The modules on one side only: what they import, or what imports them, one hop or all the way.
    fn one_sided_part(
        &self,
        primary: Hit,
        family: Family,
        from: Vec<&Mention>,
        to: Vec<&Mention>,
    ) -> Result<Part, Doubt> {
        let direct = self.has(Cue::Direct) && !self.has(Cue::Transitive);
        let everything = self.has_word(&["all", "every", "everything", "entire", "whole", "full", "complete"]);
        // "…and what those import, and so on", "X's import tree", "which modules does X reach": past one
        // import, but not said how far.
        let extent =
            self.has(Cue::Extent) || self.has(Cue::Path) || matches!(self.lower(primary.start), "reach" | "reaches");
        // "reachable from X": everything X reaches, however far.
        // "the forward import closure of X": a closure is every level.
        let explicit_transitive = self.has(Cue::Transitive)
            || self.has(Cue::Upstream)
            || self.lower(primary.start) == "reachable"
            || (primary.start..primary.end).any(|i| self.lower(i) == "closure");
        let (relation, ms) = match (from.is_empty(), to.is_empty()) {
            // "the full reverse dep tree of X", "the entire import tree of X": all of a tree a noun
            // names is every level. ("X's import tree" does not say all of it: declined below.)
            (false, true) => {
                let noun_tree = everything && extent && matches!(primary.cue, Cue::NounOut(_));
                let transitive =
                    !direct && (explicit_transitive || noun_tree || (family == Family::Depend && everything));
                (if transitive { Relation::Dependencies } else { Relation::Imports }, from)
            }
            (true, false) => {
                let transitive = !direct
                    && (explicit_transitive
                        || self.has(Cue::Impact)
                        || (everything && extent && matches!(primary.cue, Cue::NounIn(_)))
                        || (family == Family::Depend && !matches!(primary.cue, Cue::Passive(_))));
                (if transitive { Relation::Dependents } else { Relation::Importers }, to)
            }
            _ => return Err("the roles of the modules named are unclear".into()),
        };
        if extent && matches!(relation, Relation::Imports | Relation::Importers) {
            return Err("reaches past one import in words that do not say how far".into());
        }
        // "What imports A and B?" asks about each; "is B in the dependency tree of A" or "a direct import
        // of B in A" puts them in roles this reading did not tell apart.
        let coordinated = self.coordinated(&ms);
        self.saw(Construction::Coordinated, coordinated && ms.len() > 1);
        if !coordinated {
            return Err(Doubt::nothing_fit(
                NothingFit::RolesUnclear,
                "names several modules in roles I could not tell apart",
            ));
        }
        let entity = |m: &Mention| m.entity().ok_or_else(|| format!("`{}` names no module", m.text));
        let mut part = Part::new(relation);
        part.modules = ms.into_iter().map(entity).collect::<Result<_, _>>()?;
        // A module named twice is asked about once.
        let mut seen = BTreeSet::new();
        part.modules.retain(|e| seen.insert(e.id.clone()));
        Ok(part)
    }

    /// Names joined only by "and", "or", commas, slashes or "for"/"both"/"each" ("A and B", "for A and
    /// for B", "A, B or C"): the same role each.
    /// The relation said again for the second name ("importers of A + importers of B", "modules
    /// importing A, modules importing B") coordinates too.
    fn coordinated(&self, names: &[&Mention]) -> bool {
        let joins = |w: &str| {
            matches!(
                w,
                "and" | "or" | "for" | "both" | "each" | "/" | "+" | "plus" | "as" | "well" | "vs" | "separately"
            )
        };
        names.windows(2).all(|pair| {
            // "the Scaffold module, src/flask/sansio/scaffold.py": one module named twice.
            if pair[0].module_id().is_some() && pair[0].module_id() == pair[1].module_id() {
                return true;
            }
            let (a, b) = (pair[0].index.min(pair[1].index), pair[0].index.max(pair[1].index));
            let repeated = self.hits.iter().any(|h| {
                is_edge(h.cue)
                    && h.start > a
                    && h.end <= b
                    && self.hits.iter().any(|g| g.end <= a && self.lower(g.start) == self.lower(h.start))
            });
            // "importers of A and of B": "of" again after the conjunction.
            (a + 1..b).all(|i| {
                joins(self.lower(i))
                    || (self.lower(i) == "of" && i > a + 1 && joins(self.lower(i - 1)))
                    || (repeated
                        && (self.covered(i)
                            || matches!(
                                self.lower(i),
                                "of" | "the" | "those" | "modules" | "in" | "a" | "separate" | "list" | "then" | "also"
                            )))
            })
        })
    }

    /// Runtime, tests, counts and yes/no: each either applied or a reason not to answer.
    fn modifiers(&self, part: &mut Part) -> Result<(), Doubt> {
        let type_checking = self.has(Cue::TypeChecking);
        part.runtime = self.has(Cue::Runtime)
            || (type_checking && (self.has(Cue::Exclude) || self.has(Cue::Negation) || self.has(Cue::NonTest)));
        if type_checking && !part.runtime {
            return Err("asks about type-checking imports alone".into());
        }
        let tests = self.has(Cue::Tests);
        part.without_tests = self.has(Cue::NonTest) || (tests && self.has(Cue::Exclude));
        part.only_tests = tests && !part.without_tests && self.asks_for_tests()?;
        // Leaving out the standard library or third-party packages changes nothing (the graph's edges
        // join the repository's own modules), and "only imports stdlib" is a module without repository
        // imports; any other mention of them is not answered from the graph.
        let outside = self.has(Cue::Outside);
        if outside && !self.has(Cue::Exclude) && !(self.imports_only_outside() && part.relation == Relation::Leaves) {
            return Err("asks about imports from outside the repository, which I do not answer from the graph".into());
        }
        if self.has(Cue::Exclude) && !tests && !type_checking && !outside {
            return Err("leaves something out that I cannot leave out".into());
        }
        if self.excludes_a_name() {
            return Err("leaves out a module, which I cannot do".into());
        }
        part.count = self.has(Cue::Count) && !part.relation.is_ranking();
        part.yes_no = self.yes_no();
        if part.only_tests
            && !matches!(
                part.relation,
                Relation::Importers | Relation::Dependents | Relation::Imports | Relation::Dependencies
            )
        {
            return Err("restricts to tests where I cannot".into());
        }
        Ok(())
    }
}
