//! Questions that read like a simpler one the graph answers, but ask something it does not: a number
//! compared ("imported by more than two modules?"), "only" about who imports ("is X only imported by
//! Y?"), the names one module imports from another, a relative clause inside the question ("what does
//! the module that X imports import?"), the modules one relation gives restricted by a second ("which
//! modules imported by X import Y?"), modules with neither imports nor importers, and a cycle said
//! with a negation ("a cycle that does not include X"), a comparison ("is X more imported than Y?"), the
//! modules common to two ("which modules import both X and Y?"), a number of hops, and questions about
//! another time or about what should be ("where was X defined before?", "should X import Y?"). Each is
//! noticed and declined with its reason, never answered as the simpler question, whose answer would
//! read as this one's.

use super::{AUX, Clause, Cue, Hit, MODULE_NOUNS, Mention, PRONOUNS, in_a_cycle_after, is_edge};
use crate::understand::constructions::Construction;
use crate::understand::words::number;

/// Words that say "only" about who imports.
const ONLY: &[&str] = &["only", "solely", "exclusively"];

impl Clause<'_> {
    /// "Is there a cycle that does not include X?", "which cycles don't contain X?": a negation after the
    /// cycle word is about which cycles, not X's ("X isn't in a cycle?" asks the positive question).
    pub(super) fn negates_which_cycles(&self, negated: bool, names: &[&Mention]) -> bool {
        let cycle_at = self.find(|c| c == Cue::Cycle).map(|h| h.start);
        let after_cycle = cycle_at.is_some_and(|at| self.hits.iter().any(|h| h.cue == Cue::Negation && h.start > at));
        self.saw(Construction::NegatedCycle, negated && after_cycle && !names.is_empty())
    }

    /// Why a relation between named modules cannot be answered as read, if it cannot.
    pub(super) fn limit_of_relation(&self, names: &[&Mention]) -> Option<String> {
        if self.saw(Construction::ComparesANumber, self.compares_a_number(names)) {
            return Some("compares numbers of modules, which a yes or no about one import does not answer".into());
        }
        if self.saw(Construction::Common, self.common_to_both(names)) {
            return Some("asks for the modules common to several, which I do not compute".into());
        }
        if self.saw(Construction::Hops, self.counts_hops()) {
            return Some("asks about a number of hops, which I do not count".into());
        }
        if self.saw(Construction::OnlyWho, self.only_who()) {
            return Some("asks whether only certain modules import another, which I do not answer exactly".into());
        }
        if self.saw(Construction::NamesFromAModule, self.names_from_a_module(names)) {
            return Some("asks which names one module imports from another, which the graph does not hold".into());
        }
        None
    }

    /// "more than two", "fewer than 3", "more imported than Y", "more imports than": numbers compared;
    /// so is a comparative asked of alternatives ("Which is imported more, A or B?"). "more than one
    /// hop" is a cue of its own (transitive).
    fn compares_a_number(&self, names: &[&Mention]) -> bool {
        let alternatives =
            names.windows(2).any(|pair| (pair[0].index + 1..pair[1].index).any(|i| self.lower(i) == "or"));
        self.range().any(|i| {
            matches!(self.lower(i), "more" | "less" | "fewer")
                && !self.covered(i)
                && (alternatives || (i + 1..(i + 4).min(self.end)).any(|j| self.lower(j) == "than" && !self.covered(j)))
        })
    }

    /// "which modules import both X and Y?", "what do X and Y both import?": "both" next to the verb
    /// asks for what the two share, as "share" and "in common" do, and so does "imported by both X and
    /// Y" or "…by X and Y both". "the importers for both X and Y" asks about each, and "modules that
    /// both depend on X and are depended on by X" names one module twice (its cycle).
    fn common_to_both(&self, names: &[&Mention]) -> bool {
        let mut modules: Vec<String> = names.iter().filter_map(|m| m.entity()).map(|e| e.id).collect();
        modules.sort();
        modules.dedup();
        // "What imports do A and B share?", "…have in common?": not said of a cycle ("share a cycle").
        let shared =
            self.range().any(|i| matches!(self.lower(i), "share" | "shared" | "common")) && !self.has(Cue::Cycle);
        let verb = |h: &Hit| matches!(h.cue, Cue::Verb(_) | Cue::Passive(_));
        // "imported by both X and Y", "imported by X and Y both": "both" after the agent's "by" or after
        // the last name, with a verb in the clause.
        let last = names.iter().map(|m| m.index).max();
        let both_of_the_agents = self.range().any(|i| {
            self.lower(i) == "both"
                && ((i > self.start
                    && self.lower(i - 1) == "by"
                    && self.hits.iter().any(|h| verb(h) && h.end + 1 == i))
                    || (last.is_some_and(|l| l + 1 == i) && self.hits.iter().any(verb)))
        });
        modules.len() >= 2
            && (shared
                || both_of_the_agents
                || self.range().any(|i| {
                    matches!(self.lower(i), "both" | "all")
                        && self.hits.iter().any(|h| verb(h) && (h.end == i || h.start == i + 1))
                }))
    }

    /// "Which modules import X and are in a cycle?", "…but aren't part of a cycle": the cycle is a
    /// condition on the modules a relation gives, in a predicate joined after it.
    /// So is "which of X's imports are in a cycle?": the modules a relation gives, asked for, then the
    /// cycle said of them; and "which modules in the cycle are imported by X?", the other way round.
    pub(super) fn cycle_as_a_condition(&self) -> bool {
        let joined = self.range().any(|i| {
            matches!(self.lower(i), "and" | "but")
                && (AUX.contains(&self.lower(i + 1)) || self.lower(i + 1) == "be")
                && in_a_cycle_after(self.words, &self.hits, i + 1)
                && self.hits.iter().any(|h| is_edge(h.cue) && h.end <= i)
        });
        // "which" or "what" before word `k`: the modules are asked for.
        let asked_before = |k: usize| self.range().any(|i| i < k && matches!(self.lower(i), "which" | "what"));
        let said_of_them = self.range().any(|k| {
            AUX.contains(&self.lower(k))
                && in_a_cycle_after(self.words, &self.hits, k)
                && self.hits.iter().any(|h| is_edge(h.cue) && h.end <= k && asked_before(h.start))
        });
        // "Which modules in the import cycle are imported by X?": the cycle said of the modules asked
        // for first, right after their noun, then a relation.
        let said_first = self.hits.iter().filter(|c| c.cue == Cue::Cycle).any(|c| {
            let noun = (c.start.saturating_sub(3).max(self.start + 1)..c.start)
                .find(|&k| matches!(self.lower(k), "in" | "of" | "from") && MODULE_NOUNS.contains(&self.lower(k - 1)));
            // The relation is of a module named after it: "which modules in the cycle import each
            // other?" asks for the cycle.
            let relation = self.hits.iter().find(|h| is_edge(h.cue) && h.start >= c.end);
            noun.is_some_and(asked_before) && relation.is_some_and(|h| self.mentions.iter().any(|m| m.index >= h.end))
        });
        joined || said_of_them || said_first
    }

    /// "in two hops", "3 steps away": a number of hops other than one (one hop is a cue: direct).
    fn counts_hops(&self) -> bool {
        self.range().any(|i| {
            !self.covered(i)
                && number(self.lower(i)).is_some_and(|n| n > 1)
                && matches!(self.lower(i + 1), "hops" | "hop" | "steps" | "step" | "levels" | "level")
        })
    }

    /// "Who last changed X?", "who modified X": a person who changed the code, which its history says.
    fn who_changed(&self) -> bool {
        self.range().any(|i| {
            let adverb = matches!(self.lower(i + 1), "last" | "recently" | "first" | "originally" | "just");
            let verb = if adverb { i + 2 } else { i + 1 };
            self.lower(i) == "who"
                && self.lower(verb).ends_with("ed")
                && self.hits.iter().any(|h| h.start == verb && h.cue == Cue::Change)
        })
    }

    /// Why a question cannot be answered from a snapshot of the graph, if it cannot: it asks about
    /// another time ("where was X defined before?", "when was X first imported?") or what should be
    /// ("should X import Y?"); it counts or restricts what the plainer reading answers
    /// ([`Clause::restriction`]); or it cannot be answered in one step: a relative clause or the words
    /// before a pronoun describe the module asked about ("the module X imports most, is it in a cycle?").
    pub(super) fn limit_of_question(&self) -> Option<String> {
        // Not "originally": "where is X originally defined?" asks where it is defined, not re-exported.
        const THEN: &[&str] = &["previously", "formerly", "ago", "yesterday", "historically"];
        let first = self.first_word();
        let last = self.end.checked_sub(1).filter(|&i| i >= self.start);
        let at_another_time = self.range().any(|i| THEN.contains(&self.lower(i)) && !self.covered(i))
            || self.range().any(|i| self.lower(i) == "used" && self.lower(i + 1) == "to")
            || self.range().any(|i| {
                self.lower(i) == "last"
                    && matches!(self.lower(i + 1), "week" | "month" | "year" | "release" | "version")
            })
            || last.is_some_and(|i| self.lower(i) == "before")
            || self.asks_when()
            || self.who_changed();
        if self.saw(Construction::AnotherTime, at_another_time) {
            return Some("asks about another time than the commit indexed".into());
        }
        let advice = matches!(self.lower(first), "should" | "shall" | "must" | "ought")
            && self.mentions.iter().any(|m| m.index == first + 1)
            || self.range().any(|i| self.modal_of_what_should_be(i));
        if self.saw(Construction::Advice, advice) {
            return Some("asks what should be, which the graph does not say".into());
        }
        if let Some(reason) = self.restriction() {
            return Some(reason.into());
        }
        if self.saw(Construction::NamesFromAModule, self.asks_for_names_used()) {
            return Some("asks which names one module uses of another, which the graph does not hold".into());
        }
        let names: Vec<&Mention> = self.mentions.iter().collect();
        if self.saw(Construction::NestedRelative, self.nested_relative(&names)) {
            return Some("asks about the modules a relative clause describes, which I do not follow".into());
        }
        if self.saw(Construction::NestedRelative, self.refers_to_a_described_module()) {
            return Some(super::context::DESCRIBED_MODULE.into());
        }
        if self.saw(Construction::TwoRelations, self.restricted_by_a_second_relation()) {
            return Some("asks for the modules two relations give at once, which I do not intersect".into());
        }
        None
    }

    /// "Which modules imported by X import Y?", "what does X import that depends on Y?", "which
    /// modules that import Y are imported by X?", "does X import any module that imports Y?": the
    /// modules one relation gives, restricted by a second one in a relative clause or a participle.
    /// Either relation alone would be answered as if it were the question. "Which modules import X and
    /// which import Y?" asks two questions ("and" before the pronoun), and "modules imported by X and
    /// modules importing X" lists two sets (a module noun before each).
    fn restricted_by_a_second_relation(&self) -> bool {
        let edges: Vec<&Hit> = self.hits.iter().filter(|h| is_edge(h.cue)).collect();
        // Each relation with a module of its own: two modules written as modules, each once, and no
        // pronoun. "Which modules import X at runtime, i.e. the ones that import it outside
        // TYPE_CHECKING?" says one relation twice; "lazy" in "the lazy-loading work" is a function's
        // name, not a module of a relation.
        let mut modules: Vec<&str> = self.mentions.iter().filter_map(|m| m.module_id()).collect();
        let named = modules.len();
        modules.sort_unstable();
        modules.dedup();
        if edges.len() < 2 || modules.len() < 2 || modules.len() < named || self.has_word(PRONOUNS) {
            return false;
        }
        // The word before a relation word, past "also" and the like.
        let before = |h: &Hit| {
            (self.start..h.start).rev().find(|&i| !matches!(self.lower(i), "also" | "directly" | "themselves"))
        };
        // A relative pronoun before the relation word, and the word before it.
        let pronoun =
            |h: &Hit| before(h).filter(|&p| p > self.start && matches!(self.lower(p), "that" | "which" | "who"));
        // Not the question's own "which" or "who", and not after a conjunction or a comma, which start
        // another question.
        let relative = |h: &Hit| {
            pronoun(h).is_some_and(|p| {
                (p > self.first_word() || self.lower(p) == "that")
                    && !matches!(self.lower(p - 1), "and" | "or" | "but")
                    && !self.words[p - 1].comma_after
            })
        };
        // A participle right after a module noun: "modules imported by X".
        let participle = |h: &Hit| {
            matches!(h.cue, Cue::Passive(_)) && h.start > self.start && MODULE_NOUNS.contains(&self.lower(h.start - 1))
        };
        // Describing a noun of its own, as a relative or a participle: "the modules that import X and
        // the modules that import Y" lists two sets.
        let of_its_own_noun =
            |h: &Hit| participle(h) || pronoun(h).is_some_and(|p| MODULE_NOUNS.contains(&self.lower(p - 1)));
        // "Which of X's imports import Y?", "how many of Y's importers are imported by X?": a partitive
        // over one relation's modules, restricted by a verb of another after it.
        let partitive = |n: &Hit| {
            matches!(n.cue, Cue::NounOut(_) | Cue::NounIn(_))
                && (n.start.saturating_sub(4).max(self.start + 1)..n.start).any(|i| {
                    self.lower(i) == "of"
                        && matches!(self.lower(i - 1), "which" | "what" | "any" | "many" | "none" | "some")
                })
                && edges.iter().any(|v| matches!(v.cue, Cue::Verb(_) | Cue::Passive(_)) && v.start >= n.end)
        };
        (edges.iter().any(|h| relative(h) || participle(h)) && edges.iter().any(|g| !of_its_own_noun(g)))
            || edges.iter().any(|n| partitive(n))
    }

    /// "which modules *ought to* import X?", "*should* anything depend on X?": a modal of what should be
    /// before a verb of the graph, a few words on, with no person between ("what should *I* retest if X
    /// changes?" asks what a change affects).
    fn modal_of_what_should_be(&self, i: usize) -> bool {
        const PEOPLE: &[&str] = &["i", "we", "you"];
        matches!(self.lower(i), "should" | "shall" | "ought")
            && self
                .hits
                .iter()
                .filter(|h| matches!(h.cue, Cue::Verb(_) | Cue::Passive(_)))
                .any(|h| h.start > i && h.start <= i + 4 && (i + 1..h.start).all(|j| !PEOPLE.contains(&self.lower(j))))
    }

    /// "If X imported Y, …": a condition that states an import between two named modules, which the
    /// question then asks about as if it were there.
    pub fn supposes_an_import(&self) -> bool {
        let supposes = self.is_condition()
            && self.mentions.len() >= 2
            && self.hits.iter().any(|h| matches!(h.cue, Cue::Verb(_) | Cue::Passive(_)));
        self.saw(Construction::Supposed, supposes)
    }

    /// "only" next to the relation word ("is X only imported by Y?", "which modules only import X?",
    /// "imported only by"), before its noun ("the only importer of X") or before its subject ("does
    /// only X import Y?"), in the same sentence: who imports. With a word of how in the clause
    /// ("only at runtime", "only inside TYPE_CHECKING", "only directly"), "only" says how.
    fn only_who(&self) -> bool {
        let how = self
            .hits
            .iter()
            .any(|h| matches!(h.cue, Cue::Runtime | Cue::TypeChecking | Cue::Direct | Cue::Transitive | Cue::Outside));
        // "which modules only import X in tests?" restricts to tests; "is X only imported by tests?", a
        // yes or no, asks whether no other module does.
        let by_tests = self.has(Cue::Tests) && !self.yes_no();
        // "Is X the only importer of Y?", "Y's only dependency": "only" after a determiner, before a
        // noun of the relation ("only importers of X, please" asks for just them). "Does only X import
        // Y?": "only" before the subject of the verb.
        let determined = |i: usize| {
            i > self.start && (matches!(self.lower(i - 1), "the" | "its" | "their") || self.words[i - 1].possessive)
        };
        let only_noun = |i: usize| {
            determined(i)
                && self.hits.iter().any(|h| matches!(h.cue, Cue::NounIn(_) | Cue::NounOut(_)) && h.start == i + 1)
        };
        let only_subject = |i: usize| {
            self.mentions.iter().any(|m| {
                m.index == i + 1 && self.hits.iter().any(|h| matches!(h.cue, Cue::Verb(_)) && h.start == m.index + 1)
            })
        };
        self.only_indirectly()
            || !(how || by_tests)
                && self.range().any(|i| {
                    ONLY.contains(&self.lower(i))
                        && (only_noun(i)
                            || only_subject(i)
                            || self.hits.iter().any(|h| {
                                let before = h.start == i + 1;
                                let after =
                                    h.end == i && !self.words[i - 1].boundary_after && !self.words[i - 1].comma_after;
                                matches!(h.cue, Cue::Verb(_) | Cue::Passive(_)) && (before || after)
                            }))
                })
    }

    /// "which modules depend on X only indirectly?", "…transitively but not directly": the dependents
    /// that do not import X.
    fn only_indirectly(&self) -> bool {
        // "…directly, or only through others?" offers a choice; "even if only indirectly" concedes it;
        // a negation before it ("not only", "not the ones it gets only through others") denies it.
        let negated_before = |i: usize| (self.start..i).any(|j| matches!(self.lower(j), "not" | "no" | "never"));
        let conceded = |i: usize| {
            (i.saturating_sub(2).max(self.start)..i)
                .any(|j| matches!(self.lower(j), "or" | "if" | "even" | "albeit" | "though"))
        };
        self.range().any(|i| {
            ONLY.contains(&self.lower(i))
                && !self.words[i].comma_after
                && !conceded(i)
                && !negated_before(i)
                && self.hits.iter().any(|h| h.cue == Cue::Transitive && h.start == i + 1)
        }) || self.range().any(|i| {
            // "not directly", "not a direct one" beside a word of reach ("transitively", "through"):
            // reached, but not by an import of its own ("even if not directly" concedes it).
            let negated = self.lower(i) == "not"
                && !conceded(i)
                && matches!(self.lower(self.next_after_an_article(i + 1)), "direct" | "directly");
            negated && self.hits.iter().any(|h| h.cue == Cue::Transitive && h.end <= i)
        })
    }

    /// The word at `i`, or after it when it is an article ("not *a* direct one").
    fn next_after_an_article(&self, i: usize) -> usize {
        if i < self.end && matches!(self.lower(i), "a" | "an" | "the") { i + 1 } else { i }
    }

    /// Python's `from Y import …` asked about: the names imported, not whether a module imports
    /// another. Two subjects say it: a person ([`Clause::a_person_imports`]) and a module (this).
    /// "What does X import from Y?", "which names does X import from Y?"; "Which modules does X import
    /// from Y?" asks for modules.
    fn names_from_a_module(&self, names: &[&Mention]) -> bool {
        let Some(verb) = self.find(|c| c == Cue::Verb(super::Family::Import)) else {
            return false;
        };
        let from_a_name = names.iter().any(|m| m.index > verb.end && m.index > 0 && self.lower(m.index - 1) == "from");
        let subject = names.iter().any(|m| m.index < verb.start);
        let asked = self.what_before(verb);
        let asks_for_modules = asked.is_some_and(|i| {
            matches!(self.lower(i + 1), "modules" | "module" | "files" | "file" | "packages" | "package")
        });
        from_a_name && subject && asked.is_some() && !asks_for_modules
    }

    /// "Which functions of X are used by Y?", "what classes does Y use?": names of code asked for with
    /// a relation of importing or using; the graph holds names only as what a module exports or
    /// defines.
    pub(super) fn asks_for_names_used(&self) -> bool {
        const CODE_NAMES: &[&str] =
            &["function", "functions", "class", "classes", "method", "methods", "names", "symbol", "symbols"];
        let asked = self.range().any(|i| {
            matches!(self.lower(i), "which" | "what")
                && (i + 1..(i + 3).min(self.end)).any(|j| CODE_NAMES.contains(&self.lower(j)))
        });
        asked && !self.hits.iter().any(|h| matches!(h.cue, Cue::Export | Cue::Define))
    }

    /// "What can I import from X?": a person importing asks for names, not for modules ("do we import X
    /// anywhere?" is the codebase importing). The twin of [`Clause::names_from_a_module`].
    pub(super) fn a_person_imports(&self, primary: Hit) -> bool {
        let modal = |w: &str| matches!(w, "can" | "could" | "should" | "may" | "might");
        let subject = (self.start..primary.start)
            .rev()
            .find(|&i| !(modal(self.lower(i)) || matches!(self.lower(i), "to" | "do" | "just")));
        let someone = match primary.cue {
            Cue::Verb(super::Family::Import) => subject.is_some_and(|i| matches!(self.lower(i), "i" | "we" | "you")),
            // "What can be imported from X?": the person left out.
            Cue::Passive(super::Family::Import) => {
                primary.start >= self.start + 2
                    && self.lower(primary.start - 1) == "be"
                    && modal(self.lower(primary.start - 2))
            }
            _ => false,
        };
        let from = self.range().any(|i| i >= primary.end && self.lower(i) == "from");
        let person = someone && self.what_before(primary).is_some() && from;
        self.saw(Construction::PersonImports, person)
    }

    /// The first "what" or "which" before `verb`.
    fn what_before(&self, verb: Hit) -> Option<usize> {
        (self.start..verb.start).find(|&i| matches!(self.lower(i), "what" | "which"))
    }

    /// "What does the module that X imports import?", "the importers of the modules which X imports",
    /// "is the module that X imports in a cycle?":
    /// a name inside a relative clause ("that X imports") whose noun is the subject of an auxiliary or
    /// the object of another relation word. "The list of all modules that X depends on" asks for them.
    fn nested_relative(&self, names: &[&Mention]) -> bool {
        let edge_ends_at = |k: usize| self.hits.iter().any(|h| is_edge(h.cue) && h.end == k + 1);
        names.iter().any(|m| {
            if m.index < 2
                || !matches!(self.lower(m.index - 1), "that" | "which")
                || !matches!(self.lower(m.index - 2), "module" | "modules" | "file" | "files" | "one" | "ones")
            {
                return false;
            }
            let mut i = m.index - 2;
            while i > self.start && matches!(self.lower(i - 1), "the" | "a" | "all" | "every" | "each" | "those") {
                i -= 1;
            }
            if i == self.start {
                return false;
            }
            let before = i - 1;
            // "Is the module that X imports in a cycle?": the subject of an auxiliary opening the question.
            let aux_first = before == self.first_word() && matches!(self.lower(before), "is" | "are" | "was" | "were");
            aux_first
                || matches!(self.lower(before), "does" | "do" | "did")
                || edge_ends_at(before)
                || (matches!(self.lower(before), "of" | "by" | "on" | "to" | "from")
                    && before > self.start
                    && edge_ends_at(before - 1))
        })
    }

    /// "modules that import nothing and are imported by nothing": both ways at once, which neither
    /// the leaves nor the roots are. (A verb whose subject is the negative word, "which modules does
    /// nothing import and import nothing?", is not counted as the imported way: on a held-out half it
    /// took four right answers about leaves.)
    pub(super) fn neither_way(&self) -> bool {
        let active = self.hits.iter().any(|h| matches!(h.cue, Cue::Verb(_) | Cue::Leaves));
        let passive = self.hits.iter().any(|h| matches!(h.cue, Cue::Passive(_) | Cue::NounIn(_)));
        self.saw(Construction::NeitherWay, active && passive)
    }

    /// "Where is X imported in the module that defines Cart?", "what imports the module that defines
    /// Cart?", "what imports the module where Cart is defined?", "what does the file defining Cart
    /// import?": "defines" in a relative clause or a participle after "module" or "file" describes a
    /// module the relation is about; the question is not where something is defined.
    pub(super) fn defines_in_a_relative(&self, edge: Option<Hit>) -> bool {
        let describes = |h: &Hit| {
            (self.start..h.start).any(|k| {
                matches!(self.lower(k), "module" | "file")
                    && (k + 1 == h.start || matches!(self.lower(k + 1), "that" | "which" | "where"))
            })
        };
        let relative = self.hits.iter().any(|h| {
            h.cue == Cue::Define
                && h.start > self.start
                && (edge.is_some_and(|e| {
                    is_edge(e.cue)
                        && ((e.end <= h.start && matches!(self.lower(h.start - 1), "that" | "which")) || describes(h))
                }) || (self.has(Cue::Cycle) && describes(h)))
        });
        self.saw(Construction::DefinesInARelative, relative)
    }
}
