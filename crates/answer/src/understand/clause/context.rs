//! How a clause relates to the rest of the question: names it takes over from a statement or a clause
//! before it (pronouns, "that cycle", a topic put first), qualifiers it carries ("Leaving out
//! TYPE_CHECKING imports,"), and whether it is a statement that sets the scene rather than asks.

use super::{AUX, Clause, Mention, PRONOUNS, STARTERS, WH, is_edge};
use crate::understand::lexicon::{Cue, Hit};

impl Clause<'_> {
    /// Takes over names from another clause, placed where a pronoun stands ("each of them"), else at the
    /// end. A name taken over was said as a name before ("services: importers?"), so it counts as one
    /// here even where a plain word would not.
    pub fn adopt(&mut self, mentions: Vec<Mention>) {
        let pronouns: Vec<usize> = self.pronouns_by_role(self.start);
        // "A must stay apart from B. Does it import it?": one "it" for each name, in order, when a
        // relation word stands between them ("is it a direct import, or does it only come in" is one).
        let each_its_own = mentions.len() == 2
            && matches!(pronouns[..], [a, b] if b <= a + 4
                && self.words[a].lower == "it"
                && self.words[b].lower == "it"
                && self.hits.iter().any(|h| is_edge(h.cue) && h.start > a && h.end <= b));
        let at = |k: usize| if each_its_own { pronouns[k] } else { pronouns.first().copied().unwrap_or(self.end) };
        self.mentions =
            mentions.into_iter().enumerate().map(|(k, m)| Mention { index: at(k), strong: true, ..m }).collect();
        self.adopted = true;
    }

    /// The pronouns from `from` on, those that stand where a name would ("it", "them", "their") before
    /// the quantifiers "each" and "both": in "A and B, for each, who imports it?" the names stand where
    /// "it" is, the object, while "each" only says the question is asked of every one of them.
    fn pronouns_by_role(&self, from: usize) -> Vec<usize> {
        let (quantifiers, roles): (Vec<usize>, Vec<usize>) = (from..self.end)
            .filter(|&i| PRONOUNS.contains(&self.lower(i)))
            .partition(|&i| matches!(self.lower(i), "each" | "both"));
        roles.into_iter().chain(quantifiers).collect()
    }

    /// No names, and only words that qualify a question (tests, runtime, counts, ranks): the import
    /// words of a clause are allowed only next to "TYPE_CHECKING" or "runtime".
    pub(super) fn only_qualifies(&self) -> bool {
        let qualifier = |c: Cue| {
            matches!(
                c,
                Cue::Exclude
                    | Cue::Tests
                    | Cue::NonTest
                    | Cue::TypeChecking
                    | Cue::Runtime
                    | Cue::Direct
                    | Cue::Transitive
                    | Cue::Count
                    | Cue::Top
                    | Cue::Most
                    | Cue::YesNo
                    | Cue::Filler
                    | Cue::Have
                    | Cue::Negation
            )
        };
        let about_type_checking = self.has(Cue::TypeChecking) || self.has(Cue::Runtime);
        self.mentions.is_empty()
            && !self.hits.is_empty()
            && self.hits.iter().any(|h| !matches!(h.cue, Cue::Filler | Cue::Have | Cue::Negation))
            && self.hits.iter().all(|h| qualifier(h.cue) || (about_type_checking && is_edge(h.cue)))
            && !self.has_word(WH)
    }

    /// "that cycle", "this module": a reference back to names said before.
    pub fn refers_back(&self) -> bool {
        self.range().any(|i| {
            matches!(self.lower(i), "that" | "this" | "those")
                && matches!(self.lower(i + 1), "cycle" | "module" | "file" | "package" | "one" | "loop")
        })
    }

    /// The words that refer to a module named before ("it", "that module", "this file"): their first
    /// and last word, for a reader that knows what came before the question.
    pub fn reference(&self) -> Option<(usize, usize)> {
        const NOUNS: &[&str] = &["module", "file", "one", "package"];
        for i in self.range() {
            let next = |k: usize| if i + k < self.end { self.lower(i + k) } else { "" };
            match self.lower(i) {
                "the" if next(1) == "same" && NOUNS.contains(&next(2)) => return Some((i, i + 2)),
                "that" | "this" if NOUNS.contains(&next(1)) => return Some((i, i + 1)),
                "it" => return Some((i, i)),
                _ => {}
            }
        }
        None
    }

    /// The position of "it" or "them", where a name said before stands.
    pub fn pronoun_at(&self) -> Option<usize> {
        self.range().find(|&i| matches!(self.lower(i), "it" | "them"))
    }

    /// Adds a name said before where "it" stands ("Does it depend on ctx?" after "We want tasks to …").
    pub fn resolve_it(&mut self, said_before: &[Mention]) {
        let Some(at) = self.pronoun_at() else { return };
        let named: Vec<Option<&str>> = self.mentions.iter().map(|m| m.module_id()).collect();
        if let Some(other) = said_before.iter().find(|m| !named.contains(&m.module_id())) {
            self.mentions.push(Mention { index: at, ..other.clone() });
            self.mentions.sort_by_key(|m| m.index);
        }
    }

    /// "`a` -> who imports it?": a name put first as the topic stands where its pronoun is.
    /// "For A and for B, list the modules that import each one": a request opens the question the same way.
    pub fn topicalize(&mut self) {
        let request = |w: &str| matches!(w, "list" | "show" | "give" | "tell" | "name");
        let Some(wh) = self.range().find(|&i| {
            let w = self.lower(i);
            // A request only when no relation word comes before it ("check whether X is used, and list
            // them" keeps X where it stands).
            WH.contains(&w) || w == "how" || (request(w) && !self.hits.iter().any(|h| is_edge(h.cue) && h.end <= i))
        }) else {
            return;
        };
        let mut pronouns = self.pronouns_by_role(wh).into_iter();
        let Some(pronoun) = pronouns.find(|&i| matches!(self.lower(i), "it" | "them" | "each")) else { return };
        if self.mentions.iter().any(|m| m.index > wh) {
            return;
        }
        for mention in &mut self.mentions {
            mention.index = pronoun;
        }
    }

    /// A statement around the question ("We're untangling the payments code.", "Before merging,"):
    /// no question mark, and it starts neither like a question nor like a request ("check if X has
    /// importers" is one).
    pub fn is_context(&self) -> bool {
        let first = self.first_word();
        let opens_a_question = STARTERS.contains(&self.lower(first))
            || AUX.contains(&self.lower(first))
            || self.asks_when()
            || (first..(first + 3).min(self.end)).any(|i| self.if_of_finding_out(i));
        let question_mark = self.end > self.start && self.words[self.end - 1].question_after;
        (!question_mark && !opens_a_question && !self.asks_on) || self.is_condition() || self.scene
    }

    /// "…? If so, which ones?": the clause before asked yes or no, whatever its form ("somebody imports
    /// X? if so, who").
    pub fn if_so(&self) -> bool {
        let first = self.first_word();
        self.lower(first) == "if" && matches!(self.lower(first + 1), "so" | "yes")
    }

    /// "When was X first imported?" asks (about another time); "When we ignore TYPE_CHECKING, …" is a
    /// condition.
    pub(super) fn asks_when(&self) -> bool {
        let first = self.first_word();
        self.lower(first) == "when" && AUX.contains(&self.lower(first + 1))
    }

    /// "Before I split api into two files, can you list the modules it imports?": when no name is
    /// placed in the clause, the one module named before "it" is what "it" stands for, so it takes the
    /// pronoun's place (its role comes from there).
    pub fn antecede(&mut self) {
        let Some(at) = self.pronoun_at() else { return };
        // A name in the framing ("Before deprecating `X`, …") is not where the question puts it, even
        // when written as code.
        if self.mentions.iter().any(|m| (m.strong && m.index >= self.lenient_until) || self.placed(m)) {
            return;
        }
        let before: Vec<usize> = (0..self.mentions.len())
            .filter(|&k| self.mentions[k].index < at && self.mentions[k].module.is_some())
            .collect();
        if let [only] = before[..] {
            self.mentions[only].index = at;
        }
    }

    /// "If X breaks, …", "If I copy X somewhere, …": a condition that sets the scene for the question
    /// after the comma (its names are what "it" refers to), not a question of its own. "If so, …"
    /// is a follow-up, not a condition.
    pub fn is_condition(&self) -> bool {
        let first = self.first_word();
        self.lower(first) == "if"
            && !matches!(self.lower(first + 1), "so" | "yes" | "not")
            && self.end > self.start
            && self.words[self.end - 1].comma_after
            && !self.words[self.end - 1].question_after
    }

    /// The cues that qualify a question (runtime only, tests left out), to carry into the next clause.
    pub fn qualifiers(&self) -> Vec<Hit> {
        let type_checking = self.has(Cue::TypeChecking);
        let tests_out = self.has(Cue::Exclude) || self.has(Cue::NonTest);
        self.hits
            .iter()
            .copied()
            .filter(|h| match h.cue {
                Cue::Runtime | Cue::TypeChecking | Cue::NonTest => true,
                Cue::Exclude => type_checking || self.has(Cue::Tests),
                Cue::Tests => tests_out,
                Cue::Negation => type_checking,
                _ => false,
            })
            .collect()
    }

    /// The cycle a statement talks about ("We're trying to kill circular imports."), for a question
    /// after it that points back at it ([`Clause::points_back_at_a_topic`]).
    pub fn cycle_topic(&self) -> Vec<Hit> {
        self.hits.iter().copied().filter(|h| h.cue == Cue::Cycle).collect()
    }

    /// "Is X in one?", "Which modules are in it?": a question that says nothing about the graph of its
    /// own and points back with "one" or "it" at what a statement before it said.
    pub fn points_back_at_a_topic(&self) -> bool {
        !self.hits.iter().any(|h| super::super::is_about_the_graph(h.cue))
            && self.range().any(|i| matches!(self.lower(i), "one" | "it"))
    }

    /// Cues said in a statement before this clause.
    pub fn add_hits(&mut self, hits: Vec<Hit>) {
        self.hits.extend(hits);
    }

    /// "What are the direct importers of each one: A, B?": this clause asks about modules it refers to
    /// without naming one, and `named` is a statement of names alone that it is about.
    pub(super) fn announces(&self, named: &Clause<'_>) -> bool {
        let referring = self.has_pronoun() || self.has_word(&["these", "those", "following"]);
        self.mentions.is_empty()
            && self.asks()
            && self.end > self.start
            && !self.words[self.end - 1].question_after
            && referring
            && !named.mentions.is_empty()
            && !named.asks()
    }

    /// "they", "them", "their", "those": several modules referred to.
    pub fn plural_pronoun(&self) -> bool {
        self.has_word(&["they", "them", "their", "those"])
    }

    pub fn has_pronoun(&self) -> bool {
        self.range().any(|i| PRONOUNS.contains(&self.words[i].lower.as_str()))
    }
}
