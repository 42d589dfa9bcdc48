//! Questions that read like a simpler one the graph answers, but ask something it does not: a number
//! compared ("imported by more than two modules?"), "only" about who imports ("is X only imported by
//! Y?"), the names one module imports from another, a relative clause inside the question ("what does
//! the module that X imports import?"), modules with neither imports nor importers, and a cycle said
//! with a negation ("a cycle that does not include X"). Each is noticed and declined with its reason,
//! never answered as the simpler question, whose answer would read as this one's.

use super::{Clause, Cue, Hit, Mention, is_edge};
use crate::understand::constructions::Construction;

/// Words that say "only" about who imports.
const ONLY: &[&str] = &["only", "solely", "exclusively"];

impl Clause<'_> {
    /// Why a relation between named modules cannot be answered as read, if it cannot.
    pub(super) fn limit_of_relation(&self, names: &[&Mention]) -> Option<String> {
        if self.saw(Construction::ComparesANumber, self.compares_a_number()) {
            return Some("compares a number of modules, which a yes or no about one import does not answer".into());
        }
        if self.saw(Construction::OnlyWho, self.only_who()) {
            return Some("asks whether only certain modules import another, which I do not answer exactly".into());
        }
        if self.saw(Construction::NamesFromAModule, self.names_from_a_module(names)) {
            return Some("asks which names one module imports from another, which the graph does not hold".into());
        }
        if self.saw(Construction::NestedRelative, self.nested_relative(names)) {
            return Some("asks about the modules a relative clause describes, which I do not follow".into());
        }
        None
    }

    /// "more than two", "fewer than 3": a number compared.
    fn compares_a_number(&self) -> bool {
        self.range().any(|i| matches!(self.lower(i), "more" | "less" | "fewer") && self.lower(i + 1) == "than")
    }

    /// "only" next to the relation word ("is X only imported by Y?", "which modules only import X?",
    /// "imported only by"), in the same sentence: who imports. With a word of how in the clause
    /// ("only at runtime", "only inside TYPE_CHECKING", "only directly"), "only" says how.
    fn only_who(&self) -> bool {
        let how = self.hits.iter().any(|h| {
            matches!(
                h.cue,
                Cue::Runtime | Cue::TypeChecking | Cue::Direct | Cue::Transitive | Cue::Outside | Cue::Tests
            )
        });
        !how && self.range().any(|i| {
            ONLY.contains(&self.lower(i))
                && self.hits.iter().any(|h| {
                    let before = h.start == i + 1;
                    let after = h.end == i && !self.words[i - 1].boundary_after && !self.words[i - 1].comma_after;
                    matches!(h.cue, Cue::Verb(_) | Cue::Passive(_)) && (before || after)
                })
        })
    }

    /// "What does X import from Y?", "which names does X import from Y?": Python's `from Y import …`,
    /// the names, not whether X imports Y. "Which modules does X import from Y?" asks for modules.
    fn names_from_a_module(&self, names: &[&Mention]) -> bool {
        let Some(verb) = self.find(|c| c == Cue::Verb(super::Family::Import)) else {
            return false;
        };
        let from_a_name = names.iter().any(|m| m.index > verb.end && m.index > 0 && self.lower(m.index - 1) == "from");
        let subject = names.iter().any(|m| m.index < verb.start);
        let asked = (self.start..verb.start).find(|&i| matches!(self.lower(i), "what" | "which"));
        let asks_for_modules = asked.is_some_and(|i| {
            matches!(self.lower(i + 1), "modules" | "module" | "files" | "file" | "packages" | "package")
        });
        from_a_name && subject && asked.is_some() && !asks_for_modules
    }

    /// "What does the module that X imports import?", "the importers of the modules which X imports":
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
            matches!(self.lower(before), "does" | "do" | "did")
                || edge_ends_at(before)
                || (matches!(self.lower(before), "of" | "by" | "on" | "to" | "from")
                    && before > self.start
                    && edge_ends_at(before - 1))
        })
    }

    /// "modules that import nothing and are imported by nothing": both ways at once, which neither
    /// the leaves nor the roots are.
    pub(super) fn neither_way(&self) -> bool {
        let active = self.hits.iter().any(|h| matches!(h.cue, Cue::Verb(_) | Cue::Leaves));
        let passive = self.hits.iter().any(|h| matches!(h.cue, Cue::Passive(_) | Cue::NounIn(_)));
        self.saw(Construction::NeitherWay, active && passive)
    }

    /// "Where is X imported in the module that defines Cart?" and "what imports the module that
    /// defines Cart?": "defines" inside a relative clause after the relation word describes a module;
    /// the question is not where something is defined.
    pub(super) fn defines_in_a_relative(&self, edge: Option<Hit>) -> bool {
        let relative = self.hits.iter().any(|h| {
            h.cue == Cue::Define
                && h.start > self.start
                && matches!(self.lower(h.start - 1), "that" | "which")
                && edge.is_some_and(|e| is_edge(e.cue) && e.end <= h.start)
        });
        self.saw(Construction::DefinesInARelative, relative)
    }
}
