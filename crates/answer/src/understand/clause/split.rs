//! A question cut into clauses: at sentence boundaries, at commas before a new clause, and at "and",
//! "also" or "then" before a new question; then the clauses that only qualify ("Apart from tests,")
//! joined to the one they qualify, a clause referring to names listed after it joined to them, the
//! statements that set the scene marked, and a leading statement joined to the question after it.

use std::cell::RefCell;

use super::{ASKING, AUX, Clause, FIRST_PERSON, Mention, OPENERS, STARTERS, in_a_cycle_after, is_edge};
use crate::understand::constructions::Construction;
use crate::understand::lexicon::{Cue, Hit};
use crate::understand::words::Word;

/// Cuts the question into clauses at `?`, `;` and `:`, at commas before a new clause, and before "and",
/// "also" or "then" when a new question follows ("what imports a and what imports b").
pub fn split<'w>(question: &str, words: &'w [Word], hits: &[Hit], mentions: &[Mention]) -> Vec<Clause<'w>> {
    let named: Vec<usize> = mentions.iter().map(|m| m.index).collect();
    let cuts = cuts(words, hits, &named);
    let clause = |start: usize, end: usize| Clause {
        words,
        start,
        end,
        hits: hits.iter().filter(|h| start <= h.start && h.start < end).copied().collect(),
        mentions: mentions.iter().filter(|m| start <= m.index && m.index < end).cloned().collect(),
        lenient_until: start,
        scene: false,
        adopted: false,
        asks_on: end < words.len() && opposite_nouns(words, hits, end),
        seen: RefCell::default(),
    };
    let mut clauses: Vec<Clause<'w>> = cuts.windows(2).filter(|w| w[0] < w[1]).map(|w| clause(w[0], w[1])).collect();
    // "Release checklist: …": a heading is no part of any clause.
    let refers_back = clauses.iter().skip(1).any(|c| c.has_pronoun());
    let heading =
        clauses.len() > 1 && clauses[0].is_heading(question) && (clauses[0].mentions.is_empty() || !refers_back);
    if heading {
        clauses.remove(0);
    }
    for clause in &clauses {
        clause.saw(Construction::OppositeNouns, clause.asks_on);
    }
    merge_qualifiers(&mut clauses, hits, &clause);
    names_after_opposite_nouns(&mut clauses);
    // "What are the direct importers of each one: A, B?", "List the importers of the following: A and B.":
    // a clause that asks about modules it refers to without naming one, before a statement of names
    // alone, is about those names.
    let mut i = 0;
    while i + 1 < clauses.len() {
        let (asking, named) = (&clauses[i], &clauses[i + 1]);
        if asking.announces(named) {
            let merged = joined(asking, named, &clause);
            merged.saw(Construction::NamesAfter, true);
            clauses[i] = merged;
            clauses.remove(i + 1);
        }
        i += 1;
    }
    // "Before merging, which …", "Inside the django package, not counting tests, which …": a leading
    // statement that ends in a comma belongs to the question after it; its framing words are not
    // held against the question.
    mark_scenes(&mut clauses);
    for clause in &mut clauses {
        clause.frame_in_the_first_person();
        clause.purpose_first();
    }
    join_leading_statements(&mut clauses, words, &clause);
    // A merged clause is cut afresh from the question's cues: its purpose is marked again, and the
    // heading noted on the first clause left.
    for clause in &mut clauses {
        clause.purpose_first();
    }
    if let Some(first) = clauses.first() {
        first.saw(Construction::Heading, heading);
    }
    clauses
}

/// "Before merging, which …": a leading statement that ends in a comma is joined to the question
/// after it, its words framing (`lenient_until`).
fn join_leading_statements<'w>(
    clauses: &mut Vec<Clause<'w>>,
    words: &[Word],
    clause: &impl Fn(usize, usize) -> Clause<'w>,
) {
    let mut i = 0;
    while i + 1 < clauses.len() {
        // A condition ("If X breaks, …") stays a clause of its own: its names are context, its cues
        // are not the question's; but a module imported first ("If I import X, is Y loaded too?") is
        // read with the question, where it is the importer (`condition_of`). "If X imported Y, …"
        // supposes an import between two.
        let imported_first =
            clauses[i].mentions.len() == 1 && clauses[i].hits.iter().any(|h| clauses[i].condition_of(h).is_some());
        let leading = clauses[i].is_context()
            && !clauses[i + 1].gives_a_reason()
            && !clauses[i + 1].if_so()
            && (!clauses[i].is_condition() || imported_first)
            && clauses[i].end > 0
            && words[clauses[i].end - 1].comma_after;
        if leading {
            let lenient_until = clauses[i].end;
            let mut merged = joined(&clauses[i], &clauses[i + 1], clause);
            merged.lenient_until = lenient_until.max(clauses[i + 1].lenient_until);
            clauses[i] = merged;
            clauses.remove(i + 1);
            continue;
        }
        i += 1;
    }
}

/// Two neighbouring clauses as one, each with the cues it has (a qualifier merged into one of them
/// has left its import words as framing: "…? Indirect users excluded.").
fn joined<'w>(first: &Clause<'w>, second: &Clause<'w>, clause: &impl Fn(usize, usize) -> Clause<'w>) -> Clause<'w> {
    let mut merged = clause(first.start, second.end);
    merged.hits = first.hits.iter().chain(&second.hits).copied().collect();
    merged
}

/// "the imports and importers of X": the first of two opposite nouns is asked of the names after the
/// second; the verb's form that opens "Imports, importers of X?" is read as the noun it is.
fn names_after_opposite_nouns(clauses: &mut [Clause<'_>]) {
    for i in 0..clauses.len().saturating_sub(1) {
        if !clauses[i].asks_on {
            continue;
        }
        let end = clauses[i].end;
        for hit in clauses[i].hits.iter_mut().filter(|h| h.end == end) {
            if let Cue::Verb(family) = hit.cue {
                hit.cue = Cue::NounOut(family);
            }
        }
        if clauses[i].mentions.is_empty() && !clauses[i + 1].mentions.is_empty() {
            let names = clauses[i + 1].mentions.clone();
            clauses[i].adopt(names);
        }
    }
}

/// A clause that only qualifies ("Apart from tests,", "Leaving out TYPE_CHECKING imports,", "How many
/// exactly?") belongs to the clause before it, or to the next one when it comes first.
fn merge_qualifiers<'w>(clauses: &mut Vec<Clause<'w>>, hits: &[Hit], clause: &impl Fn(usize, usize) -> Clause<'w>) {
    let mut i = 0;
    while clauses.len() > 1 && i < clauses.len() {
        if !clauses[i].only_qualifies() {
            i += 1;
            continue;
        }
        // "Ignoring TYPE_CHECKING imports, who imports it?": a qualifier ending in a comma leads into
        // the next clause; one after the question ("…? Runtime only.") qualifies the one before.
        let words = clauses[i].words;
        let leads = clauses[i].end > 0 && words[clauses[i].end - 1].comma_after && i + 1 < clauses.len();
        let (into, from) = if i == 0 || leads { (i + 1, i) } else { (i - 1, i) };
        let (start, end) = (clauses[into].start.min(clauses[from].start), clauses[into].end.max(clauses[from].end));
        let mut merged = clause(start, end);
        merged.lenient_until = framed_until(&clauses[from], &clauses[into], hits);
        // The import words of "Leaving out TYPE_CHECKING imports" describe the exclusion only.
        let qualifier = &clauses[i];
        // "Indirect dependencies don't count.": the exclusion is said by the `Direct` it left behind
        // (`lexicon::postposed`), when it leaves out nothing else.
        let only_direct = qualifier.has(Cue::Direct)
            && !qualifier
                .hits
                .iter()
                .any(|h| matches!(h.cue, Cue::Tests | Cue::NonTest | Cue::TypeChecking | Cue::Runtime | Cue::Outside));
        for hit in &mut merged.hits {
            let inside = qualifier.start <= hit.start && hit.start < qualifier.end;
            if inside && (is_edge(hit.cue) || (only_direct && hit.cue == Cue::Exclude)) {
                hit.cue = Cue::Filler;
            }
        }
        clauses[into] = merged;
        clauses.remove(from);
        i = 0;
    }
}

/// Where the framing of a qualifier merged into a clause ends. "Tests inflate the numbers, so leave
/// them out: …": a statement whose subject is the tests says why they are left out, and the words of
/// its predicate only frame the question. Framing said before the question stays framing; a
/// qualifier said after it ("…? Tests skew the numbers, so leave them out.") frames nothing of it.
fn framed_until(qualifier: &Clause<'_>, into: &Clause<'_>, hits: &[Hit]) -> usize {
    let start = qualifier.start.min(into.start);
    let raised = |c: &Clause<'_>| if c.lenient_until > c.start { c.lenient_until } else { start };
    if qualifier.start > into.start {
        return raised(into);
    }
    let first = qualifier.first_word();
    let about_tests = hits.iter().any(|h| h.start == first && h.cue == Cue::Tests);
    let framing = if about_tests { qualifier.end } else { raised(qualifier) };
    framing.max(raised(into))
}

impl Clause<'_> {
    /// "For the circular import fix, list …", "During the cycle cleanup, what imports X?": a piece of
    /// work named first, up to a comma and before any name, says what the question is for; its cue
    /// words ("circular import") only frame it.
    fn purpose_first(&mut self) {
        const OPENS: &[&str] = &["for", "during", "after", "before", "in"];
        const DETERMINERS: &[&str] = &["the", "this", "that", "our", "my", "your", "a", "an"];
        // From the clause's start: a leading clause merged into this one has already moved its
        // first word past the comma.
        let Some(first) = (self.start..self.end).find(|&i| !OPENERS.contains(&self.lower(i))) else {
            return;
        };
        // "Before we enable the cycle check in CI, …": the asker's own next step, said first.
        let own_step = matches!(self.lower(first), "before" | "after" | "once" | "while" | "until")
            && FIRST_PERSON.contains(&self.lower(first + 1));
        if !OPENS.contains(&self.lower(first)) || !(own_step || DETERMINERS.contains(&self.lower(first + 1))) {
            return;
        }
        let Some(end) = (first + 2..self.end.min(first + 10)).find(|&i| self.words[i].comma_after) else {
            return;
        };
        let qualifies = self.hits.iter().any(|h| {
            first <= h.start
                && h.start <= end
                && matches!(
                    h.cue,
                    Cue::Runtime
                        | Cue::TypeChecking
                        | Cue::Exclude
                        | Cue::Tests
                        | Cue::NonTest
                        | Cue::Direct
                        | Cue::Transitive
                )
        });
        let framed = (own_step && !qualifies || WORK.split_whitespace().any(|w| w == self.lower(end)))
            && self.mentions.iter().all(|m| m.index > end);
        if !self.saw(Construction::PurposeFirst, framed) {
            return;
        }
        for hit in self.hits.iter_mut().filter(|h| first <= h.start && h.start <= end) {
            hit.cue = Cue::Filler;
        }
        self.lenient_until = self.lenient_until.max(end + 1);
    }

    /// "I'm reviewing this PR and want to know which of our modules X pulls in": in a clause opened
    /// in the first person, the words before a verb of finding out and the question word after it
    /// only say why the question is asked; unknown ones there are not held against it.
    fn frame_in_the_first_person(&mut self) {
        const FIND_OUT: &[&str] =
            &["know", "wonder", "wondering", "ask", "asking", "understand", "learn", "see", "check", "confirm", "out"];
        // "For the architecture doc I need …": the purpose before the asker only says why.
        let first = self.first_word();
        if self.lower(first) == "for"
            && let Some(asker) = (first + 1..self.end).find(|&i| FIRST_PERSON.contains(&self.lower(i)))
            && !self.hits.iter().any(|h| first < h.start && h.start < asker && h.cue != Cue::Filler)
            && self.mentions.iter().all(|m| m.index > asker)
        {
            self.lenient_until = self.lenient_until.max(asker);
        }
        if !FIRST_PERSON.contains(&self.lower(self.first_word())) {
            return;
        }
        let question = (self.start + 1..self.end)
            .find(|&i| ASKING.contains(&self.lower(i)) && FIND_OUT.contains(&self.lower(i - 1)));
        if let Some(at) = question {
            self.lenient_until = self.lenient_until.max(at);
        }
        // "I was surprised to see X loaded when …", "we just spotted X being imported by …": the words
        // up to a verb of seeing with a name right after it say how the asker came to it.
        const SEEN: &[&str] =
            &["see", "saw", "seen", "seeing", "notice", "noticed", "spot", "spotted", "observe", "observed", "found"];
        let seen = (self.start + 1..self.end)
            .find(|&i| SEEN.contains(&self.lower(i - 1)) && self.mentions.iter().any(|m| m.index == i));
        if let Some(at) = seen {
            self.lenient_until = self.lenient_until.max(at);
        }
    }
}

/// Nouns for a piece of work ("the circular import *fix*", "the cycle *cleanup*"), which a question
/// can be said to be for.
const WORK: &str = "fix fixes refactor refactoring cleanup review migration pr release incident postmortem audit \
    upgrade rewrite work ticket task investigation effort proposal rfc doc docs writeup sprint patch redesign \
    change split";

/// "I'm trying to untangle X. Which modules …?": a statement in the first person, without a question
/// mark, before a clause with one, tells why the question is asked.
fn mark_scenes(clauses: &mut [Clause<'_>]) {
    let asks = |c: &Clause<'_>| c.end > c.start && c.words[c.end - 1].question_after;
    let asked_later: Vec<bool> = (0..clauses.len()).map(|i| clauses[i + 1..].iter().any(asks)).collect();
    for (clause, asked_later) in clauses.iter_mut().zip(asked_later) {
        let first = clause.first_word();
        let first_person = FIRST_PERSON.contains(&clause.lower(first));
        clause.scene = first_person && !asks(clause) && asked_later;
    }
}

/// Where clauses start, and the end: after a sentence boundary, at a comma before a word that starts
/// a clause, and at "and"/"also"/"then"/"plus" before one (not inside a coordinated predicate). A
/// comma before "and" or "or" and a name goes on with a list ("A, B, and C"), not a new clause.
fn cuts(words: &[Word], hits: &[Hit], named: &[usize]) -> Vec<usize> {
    // "…, but in which file is it defined?": a preposition before the question word starts it too.
    let starts_clause = |i: usize| {
        let lower = |i: usize| words.get(i).map_or("", |w| w.lower.as_str());
        STARTERS.contains(&lower(i))
            || (matches!(lower(i), "in" | "from" | "at" | "on") && matches!(lower(i + 1), "which" | "what" | "where"))
    };
    let mut cuts = vec![0];
    for i in 0..words.len() {
        let next = i + 1;
        if next >= words.len() {
            break;
        }
        let conjunction = matches!(words[next].lower.as_str(), "and" | "also" | "then" | "plus" | "but")
            && (starts_clause(next + 1) && !matches!(words[next + 1].lower.as_str(), "and" | "or"))
            && !coordinated_predicate(words, hits, next + 1);
        let list_goes_on = matches!(words[next].lower.as_str(), "and" | "or") && named.contains(&(next + 1));
        // "…, i.e. does it import it directly?", "…, in other words, …": a restatement starts a clause.
        // ("…, i.e. they import it directly" only qualifies.)
        let restates = hits.iter().any(|h| h.start == next && h.cue == Cue::Restate && starts_clause(h.end));
        let comma = words[i].comma_after && (starts_clause(next) || restates) && !list_goes_on;
        if words[i].boundary_after
            || comma
            || conjunction
            || opens_a_reason(words, hits, next)
            || opposite_nouns(words, hits, next)
        {
            cuts.push(next);
        }
    }
    cuts.dedup();
    cuts.push(words.len());
    cuts
}

/// "…, since it is the riskiest to move", "… so we can spot API changes": a subordinate clause that
/// gives the reason for asking starts at its conjunction (`Clause::states_its_purpose` leaves it unread).
/// A reason that says something of the graph ("…, because it depends on X somewhere down the chain")
/// is part of the question and no cut.
pub(super) fn opens_a_reason(words: &[Word], hits: &[Hit], at: usize) -> bool {
    let lower = |i: usize| words.get(i).map_or("", |w| w.lower.as_str());
    let end = (at..words.len()).find(|&i| words[i].boundary_after || words[i].comma_after).unwrap_or(words.len());
    let says_nothing_of_the_graph = hits
        .iter()
        .filter(|h| at <= h.start && h.start <= end)
        .all(|h| matches!(h.cue, Cue::Filler | Cue::Change | Cue::Behaviour));
    at > 0
        && says_nothing_of_the_graph
        && match lower(at) {
            "since" | "because" => !matches!(lower(at + 1), "when" | "then" | "of"),
            "so" => lower(at + 1) == "that" || FIRST_PERSON.contains(&lower(at + 1)),
            _ => false,
        }
}

/// "X's importers **and** imports", "its fan-in, fan-out", "deps and reverse deps": two nouns of the
/// relation that run opposite ways, joined by "and" or a comma, ask two questions of the same modules, so the second
/// starts a clause of its own (which takes the first one's names). Read as one clause, the second noun
/// was taken for the first's and half the question was answered as if it were all of it.
fn opposite_nouns(words: &[Word], hits: &[Hit], at: usize) -> bool {
    const BETWEEN: &[&str] = &["and", "plus", "its", "their", "the", "also", "then", "his", "her"];
    let joined = matches!(words[at].lower.as_str(), "and" | "plus") || (at > 0 && words[at - 1].comma_after);
    if !joined {
        return false;
    }
    let noun = |h: &&Hit| matches!(h.cue, Cue::NounIn(_) | Cue::NounOut(_));
    // "Imports, importers of X?": a verb's form opening the question and joined at once to another
    // word has no subject or object; it is the noun of what a module imports.
    let first = words.iter().position(|w| !OPENERS.contains(&w.lower.as_str())).unwrap_or(0);
    let before =
        hits.iter().filter(|h| noun(h) || matches!(h.cue, Cue::Verb(_))).find(|h| h.end == at).map(|h| match h.cue {
            Cue::Verb(family) if h.start == first => Cue::NounOut(family),
            cue => cue,
        });
    let Some(before) = before else { return false };
    let after = (at..words.len()).find(|&j| !BETWEEN.contains(&words[j].lower.as_str()));
    let Some(second) = after.and_then(|j| hits.iter().filter(noun).find(|h| h.start == j)) else { return false };
    matches!((before, second.cue), (Cue::NounIn(_), Cue::NounOut(_)) | (Cue::NounOut(_), Cue::NounIn(_)))
}

/// "modules that depend on X **and are depended on by** X", "can reach X **and also be reached** from
/// X": after the conjunction an auxiliary (or "be") goes straight on to an import verb, with no subject
/// of its own, so it continues the same clause (both conditions on the same modules) rather than
/// starting a question.
fn coordinated_predicate(words: &[Word], hits: &[Hit], after: usize) -> bool {
    let skip = |i: usize| (i..words.len()).find(|&j| !matches!(words[j].lower.as_str(), "also" | "then" | "too"));
    let Some(aux) = skip(after) else { return false };
    if !(AUX.contains(&words[aux].lower.as_str())
        || matches!(words[aux].lower.as_str(), "be" | "been" | "get" | "gets"))
    {
        return false;
    }
    let Some(verb) = skip(aux + 1) else { return false };
    // "…modules that import X but are not in a cycle": the predicate negated, or a cycle said with
    // "in", still has the same subject.
    let after_not = if words[verb].lower == "not" { verb + 1 } else { verb };
    in_a_cycle_after(words, hits, aux)
        || hits.iter().any(|h| (h.start == verb || h.start == after_not) && is_edge(h.cue))
}
