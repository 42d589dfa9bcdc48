//! Questions that count or restrict what a reading of theirs would answer, in a way the answer does
//! not: several paths between two modules, cycles of a size, the cycles holding a module counted, a
//! relation asked of every module, and which way two modules depend. Read without these checks they
//! were answered as the plainer question ("are there multiple paths from A to B?" as whether A reaches
//! B, "how many cycles include X?" as the size of X's cycle), stated as facts about what was asked.

use super::{Clause, Cue, Hit, MODULE_NOUNS, SCOPE};
use crate::understand::constructions::Construction;
use crate::understand::words::number;

impl Clause<'_> {
    /// Why the question counts or restricts its answer in a way no reading answers, if it does.
    pub(super) fn restriction(&self) -> Option<&'static str> {
        if self.saw(Construction::ManyPaths, self.counts_paths()) {
            return Some("asks how many paths there are, which I do not count");
        }
        let restricted = self.cycles_of_a_size() || self.counts_cycles_of_a_module() || self.counts_modules_in_cycles();
        if self.saw(Construction::CyclesRestricted, restricted) {
            return Some(
                "asks about cycles of a size, or counts cycles or the modules in them, which I do not compute",
            );
        }
        if self.saw(Construction::EitherWay, self.either_way()) {
            return Some("asks which way two modules depend on each other, or either way, which I do not compare");
        }
        if self.saw(Construction::EveryModule, self.of_every_module() && self.yes_no()) {
            return Some("asks whether every module does, which a yes or no about any one does not answer");
        }
        None
    }

    /// "Are there multiple paths from A to B?", "how many import chains lead from A to B?".
    fn counts_paths(&self) -> bool {
        const MANY: &[&str] = &["multiple", "several", "many", "different", "alternative", "other", "more", "distinct"];
        self.hits.iter().filter(|h| h.cue == Cue::Path).any(|path| {
            let before = (self.start..path.start)
                .rev()
                .find(|&i| !matches!(self.lower(i), "import" | "imports" | "dependency" | "possible"));
            before.is_some_and(|i| {
                MANY.contains(&self.lower(i)) || self.hits.iter().any(|c| c.cue == Cue::Count && c.end == i + 1)
            })
        })
    }

    /// "Are there cycles of length 2?", "any cycle longer than 3 modules?", "cycles with more than
    /// three modules": cycles chosen by their size ("the largest cycle's size" asks for one).
    fn cycles_of_a_size(&self) -> bool {
        self.hits.iter().filter(|h| h.cue == Cue::Cycle).any(|cycle| {
            let last = cycle.end - 1;
            let indefinite = self.indefinite(cycle);
            let after = cycle.end;
            if self.words[last].comma_after || self.words[last].boundary_after || after >= self.end {
                return false;
            }
            let sized = match self.lower(after) {
                "of" if matches!(self.lower(after + 1), "length" | "size") => true,
                "longer" | "shorter" | "bigger" | "smaller" | "larger" => self.lower(after + 1) == "than",
                "of" | "with" => self.restricts_a_size(after + 1),
                _ => false,
            };
            indefinite && sized
        })
    }

    /// "cycles", "a cycle", "any cycle": not one cycle named ("the largest cycle", "X's cycle").
    fn indefinite(&self, cycle: &Hit) -> bool {
        let last = cycle.end - 1;
        (self.lower(last).ends_with('s') && !self.words[last].possessive)
            || (cycle.start > self.start && matches!(self.lower(cycle.start - 1), "a" | "an" | "any"))
    }

    /// "2 modules", "more than three", "exactly 4": a size the words from `i` on set. "More than one"
    /// and "at least two" hold for every cycle (a cycle has two modules at least).
    fn restricts_a_size(&self, i: usize) -> bool {
        let (every_up_to, at) = match (self.lower(i), self.lower(i + 1)) {
            ("more" | "over", "than") => (1, i + 2),
            ("at", "least") => (2, i + 2),
            ("fewer" | "less", "than") | ("at", "most") => (0, i + 2),
            ("exactly", _) => (0, i + 1),
            _ => (0, i),
        };
        number(self.lower(at)).is_some_and(|n| n > every_up_to)
    }

    /// "How many cycles include X?": a module is in one cycle at most (its strongly connected
    /// component), and "how many modules are in X's cycle" asks for that one's size.
    fn counts_cycles_of_a_module(&self) -> bool {
        let counted = self.hits.iter().filter(|h| h.cue == Cue::Count).any(|count| {
            let next = (count.end..self.end).find(|&i| !matches!(self.lower(i), "import" | "distinct" | "different"));
            next.is_some_and(|i| self.hits.iter().any(|h| h.cue == Cue::Cycle && h.start == i))
        });
        let scoped =
            |index: usize| (index.saturating_sub(2)..index).any(|i| i >= self.start && SCOPE.contains(&self.lower(i)));
        counted && self.mentions.iter().any(|m| m.module.is_some() && !self.names_the_repository(m) && !scoped(m.index))
    }

    /// "How many modules are in a cycle?": the modules in any cycle counted, not the cycles ("how many
    /// modules are in X's cycle" and "…in the largest cycle" name the one).
    fn counts_modules_in_cycles(&self) -> bool {
        const SKIPPED: &[&str] = &["of", "the", "our", "distinct", "different"];
        let modules_counted = self.hits.iter().filter(|h| h.cue == Cue::Count).any(|count| {
            let next = (count.end..self.end).find(|&i| !SKIPPED.contains(&self.lower(i)));
            next.is_some_and(|i| matches!(self.lower(i), "modules" | "files"))
        });
        // "which cycle involves the greatest number of modules?" ranks them.
        modules_counted
            && !self.has(Cue::Most)
            && self.hits.iter().any(|h| h.cue == Cue::Cycle && self.indefinite(h))
            && !self.mentions.iter().any(|m| m.module.is_some() && !self.names_the_repository(m))
    }

    /// "Which imports which, A or B?", "does A depend on B or the other way round?", "is there a
    /// dependency between A and B?": the direction is asked, or either is enough; a reading goes one
    /// way ("a path between A and B" runs from A).
    fn either_way(&self) -> bool {
        let said = |phrase: &[&str]| {
            self.range().any(|i| phrase.iter().enumerate().all(|(k, w)| i + k < self.end && self.lower(i + k) == *w))
        };
        let other_way = [
            &["other", "way"][..],
            &["vice", "versa"],
            &["either", "way"],
            &["either", "direction"],
            &["both", "directions"],
            &["which", "way"],
            &["which", "direction"],
        ]
        .iter()
        .any(|phrase| said(phrase));
        let names: Vec<usize> = self.mentions.iter().filter(|m| m.module.is_some()).map(|m| m.index).collect();
        // "which modules import which" without names asks for every edge.
        let which_which = names.len() == 2 && self.range().filter(|&i| self.lower(i) == "which").count() >= 2;
        // "a cycle between A and B" is the same either way.
        let between = self.yes_no()
            && !self.has(Cue::Path)
            && !self.has(Cue::Cycle)
            && matches!(names[..], [a, b] if a > self.start && self.lower(a - 1) == "between" && (a + 1..b).any(|i| self.lower(i) == "and"));
        (other_way || which_which) && self.hits.iter().any(|h| super::is_edge(h.cue)) || between
    }

    /// "Does every module import X?", "is X imported by all other modules?", "…used everywhere?": a
    /// universal quantifier over modules ("at all" is not one).
    fn of_every_module(&self) -> bool {
        const BETWEEN: &[&str] = &["the", "other", "of", "our", "its", "their", "these", "those", "remaining"];
        // The subject after the opening auxiliary ("does every module …") or the agent after "by";
        // "can you find every module that …" asks for them.
        let first = self.first_word();
        let subject_or_agent = |i: usize| i == first + 1 || (i > self.start && self.lower(i - 1) == "by");
        self.range().any(|i| match self.lower(i) {
            "everywhere" => !self.covered(i),
            "everything" | "everyone" | "everybody" => subject_or_agent(i) && !self.covered(i),
            "every" | "all" | "each" => {
                let noun = (i + 1..self.end).find(|&j| !BETWEEN.contains(&self.lower(j)));
                // "do all tests import X?": the tests are modules too.
                let tests = |j: usize| self.hits.iter().any(|h| h.cue == Cue::Tests && h.start == j);
                subject_or_agent(i) && noun.is_some_and(|j| MODULE_NOUNS.contains(&self.lower(j)) || tests(j))
            }
            _ => false,
        })
    }
}
