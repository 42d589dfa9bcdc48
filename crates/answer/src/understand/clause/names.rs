//! Which words of a clause are the modules it is about, and the role of each in the relation: the
//! importer or the imported, read from the voice of the verb, the noun and its owner, "from … to …",
//! "have X as a dependency", "among the modules Y imports", or what changes and what it affects.

use super::{AUX, Clause, Mention};
use crate::understand::constructions::Construction;
use crate::understand::lexicon::{Cue, Family, Hit, REPOSITORY, WHOLE};

/// Words before the place a relation happens in ("an import of A in B").
const PLACE: &[&str] = &["in", "inside", "within"];

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Role {
    /// The importer.
    From,
    /// The imported.
    To,
}

impl Clause<'_> {
    /// The names the relation is about: those surely names, else the English-looking ones.
    pub(super) fn names(&self) -> Result<Vec<&Mention>, String> {
        let strong: Vec<&Mention> = self
            .mentions
            .iter()
            .filter(|m| (m.strong || self.placed(m)) && self.names_a_module(m) && !self.names_the_repository(m))
            .collect();
        if !strong.is_empty() {
            return Ok(strong);
        }
        let weak: Vec<&Mention> = self.mentions.iter().filter(|m| m.module.is_some()).collect();
        let weak: Vec<&Mention> =
            weak.into_iter().filter(|m| !self.asked_kind(m) && !self.names_the_repository(m)).collect();
        // A question about the whole repository (cycles, rankings, leaves) names no module unless it
        // says so clearly.
        if self.has(Cue::Cycle) || self.has(Cue::Most) || self.has(Cue::Top) || self.has(Cue::Leaves) {
            return Ok(Vec::new());
        }
        // An English-looking word nowhere a module is expected ("an empty list") is not taken as one.
        let _ = weak;
        Ok(Vec::new())
    }

    /// "the flask repository", "this django project": a name describing the repository itself. Not a
    /// dotted name or a path ("count imports of flask.cli (repo modules)"), nor across a comma.
    pub(super) fn names_the_repository(&self, mention: &Mention) -> bool {
        !mention.text.contains(['.', '/'])
            && !self.words.get(mention.index).is_some_and(|w| w.comma_after)
            && REPOSITORY.contains(&self.lower(mention.index + 1))
    }

    /// A module, or a class or function defined in exactly one module (standing for that module).
    pub(super) fn names_a_module(&self, mention: &Mention) -> bool {
        mention.module.is_some()
            || (mention.strong && mention.symbol.as_ref().is_some_and(|(_, modules)| modules.len() == 1))
    }

    /// The noun right after "which"/"what" that is not followed by "module(s)": the kind of thing
    /// asked for ("which database …"), even when a module happens to have that name.
    pub(super) fn asked_kind(&self, mention: &Mention) -> bool {
        let after_wh = mention.index > self.start && matches!(self.lower(mention.index - 1), "which" | "what");
        let module_follows =
            matches!(self.lower(mention.index + 1), "module" | "modules" | "file" | "files" | "package" | "packages");
        // "what services imports": the name is the subject of the relation that follows.
        let relation_follows = self.hits.iter().any(|h| {
            h.start == mention.index + 1
                && matches!(h.cue, Cue::Verb(_) | Cue::Passive(_) | Cue::Export | Cue::Define | Cue::Impact)
        });
        after_wh && !module_follows && !relation_follows && !mention.strong
    }

    /// An English-looking name where a module is expected: after a preposition or a relation word
    /// ("from models", "importers of tasks", "breaking conf"), or as the subject of one ("models depends on").
    pub(super) fn placed(&self, mention: &Mention) -> bool {
        const BEFORE: &[&str] = &[
            "from",
            "to",
            "between",
            "and",
            "of",
            "for",
            "by",
            "both",
            "on",
            "upon",
            "in",
            "does",
            "do",
            "did",
            "is",
            "are",
            "can",
            "could",
            "with",
            "as",
            "whether",
            "through",
            "via",
            "like",
            "at",
            "within",
            "inside",
            "across",
            "throughout",
            "thru",
            "around",
            "containing",
            "involving",
            "including",
            "contains",
            "involves",
            "includes",
        ];
        let relation_word = |i: usize| {
            self.hits.iter().any(|h| {
                h.start <= i
                    && i < h.end
                    && matches!(h.cue, Cue::Verb(_) | Cue::Passive(_) | Cue::Change | Cue::Impact | Cue::Path)
            })
        };
        const AFTER: &[&str] = &["is", "are", "was", "has", "have", "belongs", "belong", "sits", "lies"];
        let previous = mention.index.checked_sub(1);
        mention.possessive
            || previous.is_some_and(|p| BEFORE.contains(&self.lower(p)) || relation_word(p))
            || relation_word(self.past_modifiers(mention.index + 1))
            || AFTER.contains(&self.lower(mention.index + 1))
            || self.owns_the_noun_after(mention)
            || self.marks_start(mention)
            || previous.is_some_and(|p| self.listed_after(p))
            || self.follows_its_noun(mention)
    }

    /// "dependents templating", "importers cart": chat's relation noun right before the name it is of.
    fn follows_its_noun(&self, mention: &Mention) -> bool {
        self.hits.iter().any(|h| h.end == mention.index && matches!(h.cue, Cue::NounIn(_) | Cue::NounOut(_)))
    }

    /// "the importers of each one: shop.cart, pricing": a word after a comma that follows a name
    /// written as one goes on with the list.
    fn listed_after(&self, previous: usize) -> bool {
        self.words[previous].comma_after && self.mentions.iter().any(|m| m.index == previous && m.strong)
    }

    /// "models importers", "cart direct deps", "cart circular import?": a name right before the
    /// relation noun it owns, a word of reach or of run time between. A package before a cycle noun
    /// may say where to look ("db circular dep") rather than which module is in one.
    fn owns_the_noun_after(&self, mention: &Mention) -> bool {
        let at = self.past_modifiers(mention.index + 1);
        self.hits.iter().find(|h| h.start == at).is_some_and(|h| {
            matches!(h.cue, Cue::NounIn(_) | Cue::NounOut(_) | Cue::Upstream | Cue::Export)
                || (h.cue == Cue::Cycle && !mention.is_package())
        })
    }

    /// The first word from `at` past words of reach, run time, count or wholeness ("cart *direct*
    /// deps", "models *total* dependents", "payments *full* dependency tree", "templating *directly*
    /// uses").
    fn past_modifiers(&self, mut at: usize) -> usize {
        loop {
            let modifier = self
                .hits
                .iter()
                .find(|h| h.start == at && matches!(h.cue, Cue::Direct | Cue::Transitive | Cue::Runtime | Cue::Count));
            match modifier {
                Some(h) => at = h.end,
                None if at < self.end && !self.covered(at) && WHOLE.contains(&self.lower(at)) => at += 1,
                None => return at,
            }
        }
    }

    /// "from A", "starts at A", "starting at A", "A -> B": where a chain begins.
    fn marks_start(&self, mention: &Mention) -> bool {
        let before = |back: usize| mention.index.checked_sub(back).map_or("", |i| self.lower(i));
        // "A -> B": an arrow (read as "to") right after the name.
        let arrow_after = self.words.get(mention.index + 1).is_some_and(|w| w.lower == "to" && w.text != w.lower);
        arrow_after
            || before(1) == "from"
            || (before(1) == "at" && matches!(before(2), "starts" | "starting" | "start"))
    }

    /// "to B", "ends at B", "until I hit B": where a chain ends.
    fn marks_end(&self, mention: &Mention) -> bool {
        let before = |back: usize| mention.index.checked_sub(back).map_or("", |i| self.lower(i));
        before(1) == "to"
            || (before(1) == "at" && matches!(before(2), "ends" | "ending" | "end"))
            || (1..=3).any(|back| matches!(before(back), "until" | "till"))
    }

    /// With two names, the verb between them ("importing A leads to B being imported": "leads to").
    pub(super) fn verb_between(&self, names: &[&Mention]) -> Option<Hit> {
        let [first, second] = names else { return None };
        let verb = |h: &&Hit| matches!(h.cue, Cue::Verb(_) | Cue::Passive(_));
        // "modules importing A, modules importing B": A is already the object of a verb. Not so in
        // "does importing A pull in B?": a gerund that opens the clause (after an auxiliary) makes A the
        // subject of the verb between the names.
        let gerund_subject = |h: &Hit| {
            let opener = |w: &str| AUX.contains(&w) || matches!(w, "might" | "when" | "whether" | "if");
            h.end == first.index
                && self.lower(h.start).ends_with("ing")
                && (h.start == self.first_word() || h.start > 0 && opener(self.lower(h.start - 1)))
        };
        let subject = self.hits.iter().filter(verb).find(|h| gerund_subject(h));
        if self.saw(Construction::GerundSubject, subject.is_some()) {
            return self.hits.iter().filter(verb).copied().find(|h| first.index < h.start && h.start < second.index);
        }
        if self.hits.iter().filter(verb).any(|h| h.end <= first.index) {
            return None;
        }
        self.hits.iter().filter(verb).copied().find(|h| first.index < h.start && h.start < second.index)
    }

    /// The passive import that closes a condition ("when X is imported", "whenever X gets loaded"), or
    /// the active one of a person or a gerund ("when I import X", "importing X …"): the index of X,
    /// which is loaded first and brings in what the rest of the clause says.
    pub(super) fn condition_of(&self, hit: &Hit) -> Option<usize> {
        const OPENS: &[&str] = &["when", "whenever", "once", "after", "if"];
        const BETWEEN: &[&str] = &["is", "are", "was", "gets", "get", "got", "being", "itself", "first"];
        if hit.cue == Cue::Verb(Family::Import) {
            return self.imported_first(hit, OPENS);
        }
        if !matches!(hit.cue, Cue::Passive(Family::Import)) {
            return None;
        }
        let name = self.mentions.iter().find(|m| {
            m.index < hit.start
                && m.index > 0
                && OPENS.contains(&self.lower(m.index - 1))
                && (m.index + 1..hit.start).all(|i| BETWEEN.contains(&self.lower(i)))
        })?;
        Some(name.index)
    }

    /// "When I import X, which modules get loaded?", "importing X pulls in which modules?", "what does
    /// importing X load?", "Y shows up when importing X": a person importing X, or the gerund as a
    /// subject or after a condition word; the mention of X.
    fn imported_first(&self, hit: &Hit, opens: &[&str]) -> Option<usize> {
        let person = matches!(self.word_before(hit.start), "i" | "we" | "you")
            && hit.start > self.start
            && opens.contains(&self.word_before(hit.start - 1));
        let gerund = self.lower(hit.start) == "importing"
            && (hit.start == self.first_word()
                || opens.contains(&self.word_before(hit.start))
                || matches!(self.word_before(hit.start), "does" | "do" | "did" | "will" | "would" | "can" | "could"));
        if !(person || gerund) {
            return None;
        }
        let object = if self.lower(hit.end) == "the" { hit.end + 1 } else { hit.end };
        self.mentions.iter().find(|m| m.index == object).map(|m| m.index)
    }

    /// "When X is imported, which modules get loaded?", "Y is loaded whenever X is imported": X,
    /// loaded first, is the importer of what the clause's other passive says is loaded.
    fn loaded_first(&self, mention: &Mention, primary: Hit) -> bool {
        let first = self.hits.iter().any(|h| h.start != primary.start && self.condition_of(h) == Some(mention.index));
        self.saw(Construction::Condition, first)
    }

    /// The role of one of two names that their order or prepositions give, whatever the cue.
    fn role_between_two(&self, mention: &Mention, primary: Hit, names: &[&Mention]) -> Option<Role> {
        let [first, second] = names else { return None };
        let from = |start: &Mention| if std::ptr::eq(start, mention) { Role::From } else { Role::To };
        // "How does A reach B? Show the chain in between.", "… the chain between them?": a chain asked
        // of two names taken from before runs from the first said to the second.
        if self.adopted && primary.cue == Cue::Path {
            return Some(from(first));
        }
        // "an import from A to B", "a chain that starts at A and ends at B", "from A until I hit B":
        // the prepositions say it.
        if self.marks_start(first) && self.marks_end(second) {
            Some(from(first))
        } else if self.marks_start(second) && self.marks_end(first) {
            Some(from(second))
        } else {
            None
        }
    }

    /// Whether `mention` is the importer or the imported, from the primary cue.
    pub(super) fn role(&self, mention: &Mention, primary: Hit, names: &[&Mention]) -> Role {
        if let Some(role) = self.role_between_two(mention, primary, names) {
            return role;
        }
        // "is B among the modules A imports", "is B one of the modules A depends on": B is imported.
        if let [first, second] = names
            && matches!(primary.cue, Cue::Verb(_))
            && second.index < primary.start
            && (first.index..second.index)
                .any(|i| self.lower(i) == "among" || (self.lower(i) == "one" && self.lower(i + 1) == "of"))
        {
            return if std::ptr::eq(*first, mention) { Role::To } else { Role::From };
        }
        let before = mention.index < primary.start;
        let preceded_by = |words: &[&str]| self.preceded_by(mention, words);
        // "modules that have X as a dependency": X is what they import. "X has importers" is not that.
        // "Has api any importer?" is the auxiliary, not that construction.
        // "which modules execute an import of X", "modules doing an import of X": a verb of doing
        // before "an import of X" has it, like "contain".
        let does = (self.start + 1..primary.start.saturating_sub(1)).find(|&i| {
            matches!(self.lower(i + 1), "a" | "an")
                && i + 2 == primary.start
                && (self.lower(i).starts_with("execut") || (self.lower(i).ends_with("ing") && !self.covered(i)))
        });
        let doing = does.map(|i| Hit { cue: Cue::Have, start: i, end: i + 1 });
        let have = self.hits.iter().copied().find(|h| h.cue == Cue::Have).or(doing).filter(|h| {
            h.start < primary.start
                && h.start != self.first_word()
                && ((h.end..primary.start).any(|i| self.lower(i) == "as")
                    || matches!(primary.cue, Cue::Passive(_) | Cue::NounOut(_)))
        });
        match primary.cue {
            Cue::Verb(_) => self.verb_role(mention, primary, names),
            Cue::Passive(_) => match have {
                Some(h) if mention.index < h.start => Role::From,
                Some(_) => Role::To,
                None if self.loaded_first(mention, primary) => Role::From,
                // "In X, which modules are imported?": the place named is the importer.
                None if before && preceded_by(PLACE) && !self.has_word(&["by"]) => Role::From,
                None if before => Role::To,
                // "an import of A in B", "an import statement for A in B": the place imports.
                None if names.iter().any(|m| m.index > primary.start && self.preceded_by(m, PLACE)) => {
                    if preceded_by(PLACE) { Role::From } else { Role::To }
                }
                None => Role::From,
            },
            Cue::NounOut(_) | Cue::NounIn(_) => {
                // "the modules whose import statements mention X": the noun is the asked modules'.
                let whose = (primary.start.saturating_sub(3)..primary.start).any(|i| self.lower(i) == "whose")
                    && mention.index >= primary.end;
                let owner = !whose && self.owns_the_noun(mention, have, names);
                let owner_imports = matches!(primary.cue, Cue::NounOut(_));
                if owner == owner_imports { Role::From } else { Role::To }
            }
            Cue::Path => self.path_role(mention, names),
            Cue::Upstream => Role::From,
            _ => {
                // Impact: the module that changes is imported by the ones affected.
                let changed = self.changes(mention) || preceded_by(&["of", "to"]);
                if changed || names.len() == 1 { Role::To } else { Role::From }
            }
        }
    }

    /// The role of `mention` when the cue is a verb ("A imports B"): before it the importer, after it
    /// the imported, but for an object pronoun and a person as the subject.
    fn verb_role(&self, mention: &Mention, primary: Hit, names: &[&Mention]) -> Role {
        let before = mention.index < primary.start;
        // "Y shows up when importing X": the module imported in the condition is the importer.
        if let Some(first) = self.condition_of(&primary) {
            self.saw(Construction::Condition, true);
            return if mention.index == first { Role::From } else { Role::To };
        }
        // "Would a change in A reach B?", "how many modules would a change to A reach?": what the
        // change reaches depends on A.
        let changed = |m: &Mention| m.index < primary.start && self.changes(m);
        if self.lower(primary.start).starts_with("reach") && names.iter().any(|m| changed(m)) {
            return if changed(mention) { Role::To } else { Role::From };
        }
        // "Is X dead code, or does something import it?": the pronoun after the verb is X; "for A
        // and for B, the modules that import them", "for A and B each, the modules that import it":
        // the pronoun is every one.
        let pronoun = if primary.end < self.end { self.lower(primary.end) } else { "" };
        let each = self.has_word(&["each", "respectively"]);
        let object_pronoun = (pronoun == "them" || ((names.len() == 1 || each) && pronoun == "it")) && before;
        // "Do we import A inside B?": with a person as the subject, the module the import is
        // written in imports. ("Does X import anything in P?" keeps P as what is imported.)
        let person_subject =
            (1..=2).any(|back| primary.start >= back && matches!(self.lower(primary.start - back), "we" | "i" | "you"));
        if person_subject && names.len() == 2 && !before && self.preceded_by(mention, &["in", "inside", "within"]) {
            Role::From
        } else if object_pronoun {
            Role::To
        } else if before {
            Role::From
        } else {
            Role::To
        }
    }

    /// Whether `mention` is the module a change word is said of: "a change to X", "editing X", "X
    /// changes".
    fn changes(&self, mention: &Mention) -> bool {
        self.hits.iter().any(|h| {
            h.cue == Cue::Change
                && (h.end == mention.index || h.end + 1 == mention.index || h.start == mention.index + 1)
        })
    }

    /// One of `words` right before `mention`, or before "the", "a", "file" or "module" before it.
    fn preceded_by(&self, mention: &Mention, words: &[&str]) -> bool {
        mention.index > 0 && words.contains(&self.lower(mention.index - 1))
            || mention.index > 1
                && words.contains(&self.lower(mention.index - 2))
                && matches!(self.lower(mention.index - 1), "the" | "a" | "file" | "module")
    }

    /// Whether `mention` owns the relation noun: "X's importers", "imports of X", "importers for X";
    /// when no name is marked as one, every name is ("importers for both A and B").
    fn owns_the_noun(&self, mention: &Mention, have: Option<Hit>, names: &[&Mention]) -> bool {
        if let Some(h) = have
            && mention.index > h.start
        {
            // "modules that have X as a dependency": X is what they import.
            false
        } else {
            let marked = |m: &Mention, words: &[&str]| {
                let before = |k: usize| m.index >= k && words.contains(&self.lower(m.index - k));
                before(1) || (before(2) && matches!(self.lower(m.index - 1), "the" | "a" | "file" | "module" | "both"))
            };
            // "for both A and B", "of A and for B": B shares A's mark.
            let coordinated = |m: &Mention| {
                let joined = matches!(self.lower(m.index.wrapping_sub(1)), "and" | "or")
                    || (matches!(self.lower(m.index.wrapping_sub(1)), "for" | "of")
                        && matches!(self.lower(m.index.wrapping_sub(2)), "and" | "or"));
                joined && names.iter().any(|other| other.index < m.index)
            };
            let mention = names
                .iter()
                .rfind(|other| other.index < mention.index)
                .filter(|_| coordinated(mention))
                .copied()
                .unwrap_or(mention);
            let strongly = |m: &Mention| m.possessive || marked(m, &["of", "in"]);
            if names.iter().any(|m| strongly(m)) {
                strongly(mention)
            } else if names.iter().any(|m| marked(m, &["for"])) {
                marked(mention, &["for"])
            } else {
                true
            }
        }
    }

    /// The role a path question gives `mention`: "from", "to" and "between" mark the ends; without
    /// them the import words say which way the chain runs.
    fn path_role(&self, mention: &Mention, names: &[&Mention]) -> Role {
        let preceded_by = |words: &[&str]| self.preceded_by(mention, words);
        // "Trace how B gets pulled in when A is loaded": without "from" or "to", the import
        // words say which way the chain runs, not the order of the names.
        let marked = names
            .iter()
            .any(|m| m.index > 0 && matches!(self.lower(m.index - 1), "to" | "reaches" | "reach" | "from" | "between"));
        if !marked && let Some(edge) = self.find(|c| matches!(c, Cue::Verb(_) | Cue::Passive(_))) {
            return self.role(mention, edge, names);
        }
        let had =
            self.find(|c| c == Cue::Have).is_some_and(|h| h.start != self.first_word() && h.start < mention.index);
        if preceded_by(&["to", "reaches", "reach"]) || (names.len() == 1 && had) {
            Role::To
        } else if preceded_by(&["from", "between"]) || names.first().is_some_and(|m| std::ptr::eq(*m, mention)) {
            Role::From
        } else {
            Role::To
        }
    }
}
