//! Whether a question restricts the modules it asks about to tests, and how: the tests asked for
//! ("which tests import X?", "how many tests…"), where ("imported in tests", "by any test"), the
//! subject of a yes or no ("do tests import X?"), or said of the modules a relation gives ("which
//! importers of X are tests?", "is any importer of X a test?"). A tests word in none of these places
//! ("what must I re-run tests for if X changes?") restricts nothing.

use super::{AUX, COPULA, Clause, Cue, Doubt, Hit, MODULE_NOUNS, is_edge};
use crate::understand::constructions::Construction;

impl Clause<'_> {
    /// Whether the tests are what is asked for; an error when they are said of all the modules a
    /// relation gives ("are all importers of X tests?"), which no restriction of them answers.
    pub(super) fn asks_for_tests(&self) -> Result<bool, Doubt> {
        let tests: Vec<&Hit> = self.hits.iter().filter(|h| h.cue == Cue::Tests).collect();
        // "which tests", "the tests", "in tests", "among", "by", "how many", "any", "of", "are there tests":
        // the word before.
        let asked = tests.iter().any(|h| {
            self.before_the_tests(h).is_some_and(|i| {
                matches!(
                    self.lower(i),
                    "which" | "what" | "the" | "in" | "among" | "by" | "many" | "any" | "of" | "there"
                )
            })
        });
        let said_of_them = self.saw(Construction::TestsSaidOfThem, tests.iter().any(|h| self.said_of_them(h)));
        if said_of_them && self.range().any(|i| matches!(self.lower(i), "all" | "every" | "each" | "only")) {
            return Err("asks whether all of the modules are tests, which I do not check".into());
        }
        Ok(asked || said_of_them)
    }

    /// The word before the tests word, past an article ("imported by a test").
    fn before_the_tests(&self, tests: &Hit) -> Option<usize> {
        (self.start..tests.start).rev().find(|&i| !matches!(self.lower(i), "a" | "an"))
    }

    /// "which importers of X are tests?", "is any importer of X a test?", "do tests import X?".
    fn said_of_them(&self, tests: &Hit) -> bool {
        let Some(before) = self.before_the_tests(tests) else { return false };
        let first = self.first_word();
        let edge_between =
            |from: usize, to: usize| self.hits.iter().any(|e| is_edge(e.cue) && e.start >= from && e.end <= to);
        // After a copula that follows a relation word: the tests are what those modules are.
        let after_copula = COPULA.contains(&self.lower(before)) && edge_between(self.start, before);
        // A yes or no opened by a copula and closed by the tests word ("…a test?", "…test modules?").
        let closes = (tests.end..self.end).all(|i| MODULE_NOUNS.contains(&self.lower(i)) || self.lower(i) == "code");
        let closes_a_yes_no = COPULA.contains(&self.lower(first)) && closes && edge_between(first + 1, before + 1);
        // The subject right after the opening auxiliary: "do tests import X?", "are tests importing X?".
        let subject = before == first && AUX.contains(&self.lower(first)) && edge_between(tests.end, self.end);
        after_copula || closes_a_yes_no || subject
    }
}
