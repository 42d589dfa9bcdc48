//! How a clause relates to the rest of the question: names it takes over from a statement or a clause
//! before it (pronouns, "that cycle", a topic put first), qualifiers it carries ("Leaving out
//! TYPE_CHECKING imports,"), and whether it is a statement that sets the scene rather than asks.

use super::{ASKING, AUX, Clause, FIRST_PERSON, Mention, OPENERS, PRONOUNS, STARTERS, WH, Word, is_edge};
use crate::understand::constructions::Construction;
use crate::understand::lexicon::{Cue, Hit};

/// Why a question about a module described by the graph, not named, is not answered.
pub const DESCRIBED_MODULE: &str = "refers to a module described by the graph, which only an answer would name";

/// A question of a module that a ranking describing it does not answer: its cycle, a path, its
/// exports.
fn beyond_a_ranking(hit: &Hit) -> bool {
    matches!(hit.cue, Cue::Cycle | Cue::Path | Cue::Export)
}

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
        // With no pronoun, "X: imported by which modules?" says X first, the passive's subject; "X: who
        // imports?" leaves the object out, and X stands there, after the verb.
        let passive_first = self
            .hits
            .iter()
            .filter(|h| is_edge(h.cue))
            .min_by_key(|h| h.start)
            .is_some_and(|h| matches!(h.cue, Cue::Passive(_)));
        let unsaid = if passive_first && self.start > 0 { self.start - 1 } else { self.end };
        let at = |k: usize| if each_its_own { pronouns[k] } else { pronouns.first().copied().unwrap_or(unsaid) };
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
        // "Leaving out TYPE_CHECKING imports", "Importers under tests shouldn't count": the import
        // words say which imports are left out.
        let about_imports_left_out = self.has(Cue::TypeChecking)
            || self.has(Cue::Runtime)
            || (self.has(Cue::Tests) && self.has(Cue::Exclude))
            // "Transitive users don't matter." (what it leaves out read as `Direct`, `lexicon::postposed`)
            || (self.has(Cue::Direct) && self.has(Cue::Exclude));
        self.mentions.is_empty()
            && !self.hits.is_empty()
            && self.hits.iter().any(|h| !matches!(h.cue, Cue::Filler | Cue::Have | Cue::Negation))
            && self.hits.iter().all(|h| qualifier(h.cue) || (about_imports_left_out && is_edge(h.cue)))
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
        // "…dead or imported? if imported, by which modules": the answer it goes on from, said again.
        let said_again = self.hits.iter().any(|h| h.start == first + 1 && matches!(h.cue, Cue::Passive(_)));
        // "…, list if so", "…, and if so which": "if so" that opens or ends the clause.
        let so_at = |i: usize| self.lower(i) == "if" && matches!(self.lower(i + 1), "so" | "yes");
        let ends_so = self.end >= 2 && self.end - 2 >= first && so_at(self.end - 2);
        (self.lower(first) == "if" && (matches!(self.lower(first + 1), "so" | "yes") || said_again)) || ends_so
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
            // "Before I rename X, does Y depend on it?": the question names another module, so "it"
            // (not "itself") is the one module of the framing.
            let framing: Vec<usize> = (0..self.mentions.len())
                .filter(|&k| self.mentions[k].index < self.lenient_until && self.mentions[k].module.is_some())
                .collect();
            let framed_referent =
                matches!(framing[..], [only] if at >= self.lenient_until && !self.placed(&self.mentions[only]));
            if self.saw(Construction::FramedReferent, framed_referent)
                && let [only] = framing[..]
            {
                self.mentions[only].index = at;
                self.mentions.sort_by_key(|m| m.index);
            }
            return;
        }
        let before: Vec<usize> = (0..self.mentions.len())
            .filter(|&k| self.mentions[k].index < at && self.mentions[k].module.is_some())
            .collect();
        if let [only] = before[..] {
            self.mentions[only].index = at;
        }
    }

    /// "Release checklist: which module …", "Post-mortem metric: …": a few words before a colon that
    /// open the question, saying nothing of the graph, only label it. A plain word in it that happens
    /// to name a module ("*Migration* plan: …") names nothing when a noun follows it there; a label that
    /// is a name ("pricing: who imports it?") is the question's topic.
    pub fn is_heading(&self, question: &str) -> bool {
        let colon = |w: &Word| question.get(w.end..).is_some_and(|rest| rest.trim_start().starts_with(':'));
        self.start == 0
            && self.end > self.start
            && self.end - self.start <= 4
            && self.end < self.words.len()
            && colon(&self.words[self.end - 1])
            && self.mentions.iter().all(|m| !m.strong && m.index + 1 < self.end)
            && self.hits.iter().all(|h| h.cue == Cue::Filler)
    }

    /// "since it is the riskiest to move", "so we can warn the owners": a clause opened by a
    /// conjunction of reason or purpose (where `split` cuts one off).
    pub(super) fn gives_a_reason(&self) -> bool {
        super::split::opens_a_reason(self.words, &self.hits, self.start)
    }

    /// "…? I want to notify the owners before changing its interface.": a statement in the first
    /// person after the question, naming nothing, asking nothing and qualifying nothing of the graph,
    /// says why the question is asked ("We only care about runtime imports." still qualifies).
    pub fn states_its_purpose(&self) -> bool {
        let question_mark = self.end > self.start && self.words[self.end - 1].question_after;
        // "…, since it is the riskiest to move?": a reason is no question, whatever ends the sentence.
        let first = self.first_word();
        let reason = self.gives_a_reason();
        self.saw(
            Construction::PurposeAfter,
            (reason || (FIRST_PERSON.contains(&self.lower(first)) && !question_mark))
                // "so we can spot API changes": a reason's plain words may happen to name a module.
                && self.mentions.iter().all(|m| reason && !m.strong)
                && !self.range().any(|i| ASKING.contains(&self.lower(i)))
                && self.hits.iter().all(|h| matches!(h.cue, Cue::Filler | Cue::Change | Cue::Behaviour)),
        )
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

    /// "The module that X imports, is it in a cycle?", "the most imported module, …", "the file X
    /// imports most, …": words before `until` that describe a module by the graph without naming it.
    /// A pronoun after them stands for that module, which only an answer would name, not for the
    /// names inside the description. "The module X, …" names X (an apposition). `Some(true)` when a
    /// ranking describes it ("the most imported module").
    fn describes_a_module(&self, until: usize) -> Option<bool> {
        const HEADS: &[&str] = &["module", "file", "thing", "one", "package"];
        let first = (self.start..until).find(|&i| !OPENERS.contains(&self.lower(i)))?;
        let head = (first..(first + 4).min(until)).find(|&i| HEADS.contains(&self.lower(i)))?;
        let hits: Vec<&Hit> = self.hits.iter().filter(|h| h.start < until).collect();
        let graph_word = |h: &Hit| is_edge(h.cue) || matches!(h.cue, Cue::Most | Cue::Least | Cue::Central);
        // Before the head only an article and words of the graph ("the most imported module").
        let framed = matches!(self.lower(first), "the" | "a" | "an")
            && (first + 1..head).all(|i| hits.iter().any(|h| graph_word(h) && h.start <= i && i < h.end));
        if !framed {
            return None;
        }
        let described_before = head > first + 1;
        // "the most imported module", "the one imported by the most modules".
        let ranked = hits.iter().any(|h| matches!(h.cue, Cue::Most | Cue::Least | Cue::Central | Cue::Top));
        let relative =
            matches!(self.lower(head + 1), "that" | "which") && hits.iter().any(|h| is_edge(h.cue) && h.start > head);
        let participle = hits.iter().any(|h| is_edge(h.cue) && h.start == head + 1);
        // "the module X imports (most)": a name, then its verb with no object after it.
        let reduced = self.mentions.iter().any(|m| m.index == head + 1)
            && hits.iter().any(|h| matches!(h.cue, Cue::Verb(_)) && h.start == head + 2)
            && !self.mentions.iter().any(|m| m.index > head + 2 && m.index < until);
        (described_before || relative || participle || reduced).then_some(ranked)
    }

    /// A statement that describes a module by the graph without naming it ("The one imported by X.",
    /// "The most imported module."): `Some(true)` for a ranking.
    pub fn describes_a_module_only(&self) -> Option<bool> {
        self.describes_a_module(self.end)
    }

    /// "…: is it in a cycle?": a pronoun, and a question of a module that a ranking does not answer
    /// (its cycle, a path, its exports).
    pub fn asks_more_of_it(&self) -> bool {
        self.has_pronoun() && self.hits.iter().any(beyond_a_ranking)
    }

    /// "The module that X imports, is it in a cycle?", "the thing X imports most -- is it in one?": a
    /// module described by the words before a pronoun, and a question of the graph about it after.
    /// "The most imported module, what is it?" and "…where does it live?" ask for the module, and
    /// "…how many modules import it?" is what the ranking answers.
    pub(super) fn refers_to_a_described_module(&self) -> bool {
        let Some(pronoun) =
            (self.start..self.end).find(|&i| matches!(self.lower(i), "it" | "its" | "they" | "them" | "their"))
        else {
            return false;
        };
        let rest = if self.lenient_until > self.start { self.lenient_until.min(pronoun) } else { pronoun };
        let asked = |h: &&Hit| h.start >= rest;
        let of_a_module = self.hits.iter().filter(asked).any(beyond_a_ranking);
        let edge = self.hits.iter().filter(asked).any(|h| is_edge(h.cue));
        match self.describes_a_module(pronoun) {
            Some(true) => of_a_module,
            Some(false) => of_a_module || edge,
            None => false,
        }
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
