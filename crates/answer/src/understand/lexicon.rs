//! The words that carry meaning in a structural question, grouped by what they contribute: a relation
//! (verbs and nouns for importing, in active or passive voice), a direction marker, a modifier
//! (direct, transitive, runtime, count, superlative, tests), or a sign that the question is about
//! behaviour. Matching is longest phrase first over lower-cased words, each word used once.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::LazyLock;

use super::words::Word;

/// How a verb family reads when no "directly"/"transitively" is given: "imports" is one hop, "depends
/// on" reaches through other modules when asked about a pair or about what depends on something.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Family {
    Import,
    Use,
    Depend,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Cue {
    /// "X imports Y": the subject imports the object.
    Verb(Family),
    /// "Y is imported by X", "Y, a dependency of X": the agent imports the subject.
    Passive(Family),
    /// "X's imports", "dependencies of X": the owner imports the others.
    NounOut(Family),
    /// "X's importers", "dependents of X": the others import the owner.
    NounIn(Family),
    /// "what breaks", "affected", "blast radius": dependents of what changes.
    Impact,
    /// "if I change X", "X changes": the module that changes.
    Change,
    Upstream,
    Transitive,
    Direct,
    Runtime,
    TypeChecking,
    Exclude,
    /// The standard library or third-party packages: no edge of the graph reaches them, so leaving them
    /// out changes nothing, and a question about them is not answered from the graph.
    Outside,
    Tests,
    NonTest,
    Cycle,
    Path,
    Count,
    Most,
    Least,
    Top,
    Central,
    Leaves,
    Define,
    Export,
    Behaviour,
    Negation,
    Itself,
    YesNo,
    Have,
    /// "and so on", "in turn", "tree", "beyond", "what those import": the question reaches past one
    /// import in words that do not say how far, so no one-hop answer is given.
    Extent,
    /// "Specifically,", "in other words", "I mean": the clause says again, more exactly, what the one
    /// before it asked.
    Restate,
    /// Words that only carry the question's politeness or framing.
    Filler,
}

/// The lexicon: [`lexicon.txt`](lexicon.txt), data rather than code, read once.
struct Lexicon {
    phrases: Vec<(Vec<&'static str>, Cue)>,
    filler: BTreeSet<&'static str>,
}

static LEXICON: LazyLock<Lexicon> = LazyLock::new(|| match Lexicon::parse(include_str!("lexicon.txt")) {
    Ok(lexicon) => lexicon,
    // Built into the binary, and parsed by a test of every build: never user data.
    Err(error) => panic!("lexicon.txt: {error}"),
});

impl Lexicon {
    /// Reads the `[phrases]` and `[filler]` sections: comments start with `#`, and a line that starts
    /// with a space continues the entry above it (a phrase never runs across lines).
    fn parse(text: &'static str) -> Result<Lexicon, String> {
        let mut lexicon = Lexicon { phrases: Vec::new(), filler: BTreeSet::new() };
        let (mut section, mut cue) = ("", None);
        for (n, line) in text.lines().enumerate() {
            let (line_number, trimmed) = (n + 1, line.trim());
            if trimmed.is_empty() || trimmed.starts_with("# ") || trimmed == "#" {
                continue;
            }
            if trimmed.starts_with('[') {
                (section, cue) = (trimmed, None);
                continue;
            }
            let mut items = trimmed;
            if section == "[phrases]" && !line.starts_with(' ') {
                let (name, rest) = trimmed.split_once(':').ok_or(format!("line {line_number}: no `CUE:`"))?;
                cue = Some(Cue::named(name.trim()).ok_or(format!("line {line_number}: no cue `{}`", name.trim()))?);
                items = rest;
            }
            for item in items.split(',').map(str::trim).filter(|item| !item.is_empty()) {
                match (section, cue) {
                    ("[phrases]", Some(cue)) => lexicon.phrases.push((item.split_whitespace().collect(), cue)),
                    ("[phrases]", None) => return Err(format!("line {line_number}: nothing to continue")),
                    ("[filler]", _) if !lexicon.filler.insert(item) => {
                        return Err(format!("line {line_number}: filler `{item}` is listed twice"));
                    }
                    ("[filler]", _) => {}
                    (other, _) => {
                        return Err(format!("line {line_number}: outside [phrases] and [filler] (in `{other}`)"));
                    }
                }
            }
        }
        lexicon.check()?;
        Ok(lexicon)
    }

    /// Each phrase once; no word both a one-word cue and filler (the cue would cover it first, so the
    /// filler entry only misleads a reader); and phrases that differ only in inner articles or the
    /// words [`INSIDE_A_PHRASE`] have one cue, so that no order of the entries decides a tie.
    fn check(&self) -> Result<(), String> {
        let mut seen: BTreeMap<Vec<&str>, Cue> = BTreeMap::new();
        for (parts, cue) in &self.phrases {
            if seen.insert(parts.clone(), *cue).is_some() {
                return Err(format!("`{}` is listed twice", parts.join(" ")));
            }
        }
        let mut loose: BTreeMap<Vec<&str>, (&Vec<&str>, Cue)> = BTreeMap::new();
        for (parts, cue) in &self.phrases {
            let inner = |i: usize, w: &&str| {
                i == 0 || !(INSIDE_A_PHRASE.contains(w) || (i + 1 < parts.len() && matches!(*w, "the" | "a" | "an")))
            };
            let key: Vec<&str> = parts.iter().enumerate().filter(|(i, w)| inner(*i, w)).map(|(_, w)| *w).collect();
            if let Some((other, other_cue)) = loose.insert(key, (parts, *cue))
                && other_cue != *cue
            {
                return Err(format!(
                    "`{}` and `{}` read alike but have different cues",
                    parts.join(" "),
                    other.join(" ")
                ));
            }
        }
        if let Some(word) = self.filler.iter().find(|word| seen.contains_key(&vec![**word])) {
            return Err(format!("`{word}` is both a cue and filler"));
        }
        Ok(())
    }
}

impl Cue {
    /// The cue a name of `lexicon.txt` stands for (`verb import`, `noun-in depend`, `type-checking`).
    fn named(name: &str) -> Option<Cue> {
        let family = |word: &str| match word {
            "import" => Some(Family::Import),
            "use" => Some(Family::Use),
            "depend" => Some(Family::Depend),
            _ => None,
        };
        if let Some((kind, word)) = name.split_once(' ') {
            let family = family(word)?;
            return match kind {
                "verb" => Some(Cue::Verb(family)),
                "passive" => Some(Cue::Passive(family)),
                "noun-out" => Some(Cue::NounOut(family)),
                "noun-in" => Some(Cue::NounIn(family)),
                _ => None,
            };
        }
        Cue::PLAIN.iter().find(|(plain, _)| *plain == name).map(|(_, cue)| *cue)
    }

    /// The cues without a family, by their name in `lexicon.txt`.
    const PLAIN: &[(&str, Cue)] = &[
        ("impact", Cue::Impact),
        ("change", Cue::Change),
        ("upstream", Cue::Upstream),
        ("transitive", Cue::Transitive),
        ("direct", Cue::Direct),
        ("runtime", Cue::Runtime),
        ("type-checking", Cue::TypeChecking),
        ("exclude", Cue::Exclude),
        ("outside", Cue::Outside),
        ("tests", Cue::Tests),
        ("non-test", Cue::NonTest),
        ("cycle", Cue::Cycle),
        ("path", Cue::Path),
        ("count", Cue::Count),
        ("most", Cue::Most),
        ("least", Cue::Least),
        ("top", Cue::Top),
        ("central", Cue::Central),
        ("leaves", Cue::Leaves),
        ("define", Cue::Define),
        ("export", Cue::Export),
        ("behaviour", Cue::Behaviour),
        ("negation", Cue::Negation),
        ("itself", Cue::Itself),
        ("yes-no", Cue::YesNo),
        ("have", Cue::Have),
        ("extent", Cue::Extent),
        ("restate", Cue::Restate),
        ("filler", Cue::Filler),
    ];
}

/// Every word of the lexicon's phrases and filler.
static VOCABULARY: LazyLock<BTreeSet<&'static str>> = LazyLock::new(|| {
    let phrases = LEXICON.phrases.iter().flat_map(|(parts, _)| parts.iter().copied());
    phrases.chain(LEXICON.filler.iter().copied()).collect()
});

/// The one word of the lexicon one typing slip away from `word` (a letter missing, added, replaced,
/// or two swapped: "cyle", "mnay", "imprts"), when `word` is not itself a word of the lexicon. Only
/// words of at least four letters: shorter ones are too close to too many.
fn slip_of(word: &str) -> Option<&'static str> {
    if word.len() < 4 || VOCABULARY.contains(word) {
        return None;
    }
    let mut near = VOCABULARY.iter().filter(|v| v.len() >= 4 && strsim::osa_distance(v, word) == 1);
    match (near.next(), near.next()) {
        (Some(only), None) => Some(only),
        _ => None,
    }
}

/// A word that is in no English dictionary, names nothing (`names`, given its written form) and is one
/// typing slip from a word of the lexicon is read as that word ("show the *cyle* containing X", "how
/// *mnay* modules import X"): the writer's slip, not a word the reader does not know. Its written
/// form stays. The back-off reader's training reads its templates the same way.
pub(super) fn read_slips(words: &mut [Word], names: impl Fn(&str) -> bool) {
    for word in words.iter_mut().filter(|w| !w.code && w.lower.bytes().all(|b| b.is_ascii_lowercase())) {
        if strata_core::text::is_dictionary_word(&word.lower) {
            continue;
        }
        if let Some(meant) = slip_of(&word.lower)
            && !names(&word.text)
        {
            word.lower = meant.to_string();
        }
    }
}

/// Whether `word` only frames a question (the `[filler]` words of `lexicon.txt`).
pub fn is_filler(word: &str) -> bool {
    LEXICON.filler.contains(word)
}

/// One matched phrase: its cue and the words it covers (`start..end`, indices into the words).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Hit {
    pub cue: Cue,
    pub start: usize,
    pub end: usize,
}

/// Whether one of `hits` covers the word at `i`: a word inside a matched phrase is taken.
pub(super) fn covers(hits: &[Hit], i: usize) -> bool {
    hits.iter().any(|h| h.start <= i && i < h.end)
}

/// Words a phrase may hold anywhere after its first word without changing it: "when the code
/// *actually* runs" is "when the code runs".
/// Words for the repository itself ("the flask repository", "modules that live in this repo").
pub(super) const REPOSITORY: &[&str] = &["repository", "repo", "project", "codebase", "code", "source"];

/// Words of wholeness before a relation noun ("the full reverse deps", "cart full import list").
pub(super) const WHOLE: &[&str] = &["full", "complete", "entire", "whole"];

const INSIDE_A_PHRASE: &[&str] = &["actually", "really", "truly", "ever", "even", "currently", "own"];

/// The cues of `words`, longest phrase first at each position; code words match only code cues
/// (`__all__`, `TYPE_CHECKING`), because everything else written as code is a name.
pub fn cues(words: &[Word]) -> Vec<Hit> {
    let mut hits = Vec::new();
    let mut at = 0;
    while at < words.len() {
        // The phrase that covers the most words here, an exact one before one with words left out.
        let best = LEXICON
            .phrases
            .iter()
            .filter_map(|(parts, cue)| phrase_at(words, at, parts).map(|(end, loose)| (end, loose, *cue)))
            .fold(None, |best: Option<(usize, bool, Cue)>, found| match best {
                Some(b) if (b.0, !b.1) >= (found.0, !found.1) => Some(b),
                _ => Some(found),
            });
        match best {
            Some((end, _, cue)) => {
                hits.push(Hit { cue, start: at, end });
                at = end;
            }
            None => at += 1,
        }
    }
    negated_scope(words, &mut hits);
    not_through_what(words, &mut hits);
    through_imports(words, &mut hits);
    without_imports(words, &mut hits);
    whole_relation(words, &mut hits);
    whenever_imported(words, &mut hits);
    not_the_other_way(words, &mut hits);
    imported_somewhere(words, &mut hits);
    living_in_the_repository(words, &mut hits);
    hits
}

/// "Counting only modules that live in this repo, …": living in the repository itself says which
/// modules count (the graph holds no others), not where something is defined.
fn living_in_the_repository(words: &[Word], hits: &mut [Hit]) {
    const BETWEEN: &[&str] = &["in", "inside", "within", "this", "the", "our", "your", "my"];
    for hit in hits.iter_mut().filter(|h| h.cue == Cue::Define) {
        if !matches!(words[hit.start].lower.as_str(), "live" | "lives") {
            continue;
        }
        let place = (hit.end..words.len()).find(|&i| !BETWEEN.contains(&words[i].lower.as_str()));
        let whole = |i: usize| REPOSITORY.contains(&words[i].lower.as_str()) || words[i].lower == "package";
        if place.is_some_and(|i| i > hit.end && whole(i)) {
            hit.cue = Cue::Filler;
        }
    }
}

/// "Is X imported somewhere?", "X used somewhere?": right after a passive with no agent, "somewhere"
/// is in some module, not through other modules ("does X depend on Y somewhere down the line?").
fn imported_somewhere(words: &[Word], hits: &mut [Hit]) {
    for k in 1..hits.len() {
        let passive = matches!(hits[k - 1].cue, Cue::Passive(_)) && hits[k - 1].end == hits[k].start;
        if passive && hits[k].cue == Cue::Transitive && words[hits[k].start].lower == "somewhere" {
            hits[k].cue = Cue::Filler;
        }
    }
}

/// "they import it directly and not only inside TYPE_CHECKING": "directly and" before "not" sets
/// one import against the alternative it rules out, it does not add indirect ones; and "they import
/// it" with a pronoun after it says the clause's relation again, it does not reach past it (the
/// extent "…and what they import").
fn not_the_other_way(words: &[Word], hits: &mut [Hit]) {
    let lower = |i: usize| words.get(i).map_or("", |w| w.lower.as_str());
    for hit in hits.iter_mut() {
        let first = lower(hit.start);
        if hit.cue == Cue::Transitive && matches!(first, "directly" | "direct") && lower(hit.end) == "not" {
            hit.cue = Cue::Direct;
        } else if hit.cue == Cue::Extent
            && matches!(first, "they" | "these" | "those")
            && matches!(lower(hit.end), "it" | "them")
            && !words[hit.end - 1].boundary_after
        {
            hit.cue = Cue::Filler;
        }
    }
}

/// "utils is loaded whenever pricing is imported": "whenever" before an import in the same clause
/// says when one module brings in another, a time, not behaviour ("what happens whenever…" keeps
/// its own word of behaviour).
fn whenever_imported(words: &[Word], hits: &mut [Hit]) {
    let import = |h: &Hit| matches!(h.cue, Cue::Passive(Family::Import) | Cue::Verb(Family::Import));
    let timing: Vec<usize> = (0..hits.len())
        .filter(|&k| hits[k].cue == Cue::Behaviour && words[hits[k].start].lower == "whenever")
        .filter(|&k| {
            let next = hits.get(k + 1);
            let same_clause =
                |end: usize| (hits[k].start..end).all(|i| !words[i].boundary_after && !words[i].comma_after);
            next.is_some_and(|h| import(h) && h.start <= hits[k].end + 4 && same_clause(h.start))
        })
        .collect();
    for k in timing {
        hits[k].cue = Cue::Filler;
    }
}

/// "full reverse deps", "the complete dependents of X": a word of wholeness right before a relation
/// noun reaches past one import. Not before a list ("the full import list", "the full list of
/// importers"): that is every direct one.
fn whole_relation(words: &[Word], hits: &mut Vec<Hit>) {
    const LISTS: &[&str] = &["list", "set", "statement", "statements", "line", "lines"];
    let wholes: Vec<usize> = hits
        .iter()
        .filter(|h| matches!(h.cue, Cue::NounOut(_) | Cue::NounIn(_)) && h.start > 0)
        .map(|h| (h.start - 1, h))
        .filter(|&(before, h)| {
            WHOLE.contains(&words[before].lower.as_str())
                && !words[before].boundary_after
                && !LISTS.contains(&words[h.end - 1].lower.as_str())
        })
        .map(|(before, _)| before)
        .filter(|&before| !covers(hits, before))
        .collect();
    for at in wholes {
        hits.push(Hit { cue: Cue::Transitive, start: at, end: at + 1 });
    }
    hits.sort_by_key(|h| h.start);
}

/// "modules without any imports", "w/o first-party imports", "modules without importers": "without"
/// before a word for imports is a negation (no imports, a leaf), not something left out of a list.
/// Only determiners and words saying which imports ("first-party", "internal") may stand between.
fn without_imports(words: &[Word], hits: &mut [Hit]) {
    const BETWEEN: &[&str] = &["any", "a", "single", "first", "party", "internal", "repo", "project", "local", "own"];
    for k in 0..hits.len() {
        if hits[k].cue != Cue::Exclude || words[hits[k].start].lower != "without" {
            continue;
        }
        let mut at = hits[k].end;
        loop {
            if let Some(filler) = hits.iter().find(|h| h.start == at && h.cue == Cue::Filler) {
                at = filler.end;
            } else if at < words.len() && BETWEEN.contains(&words[at].lower.as_str()) && !words[at - 1].boundary_after {
                at += 1;
            } else {
                break;
            }
        }
        let imports =
            hits.iter().any(|h| h.start == at && matches!(h.cue, Cue::Verb(_) | Cue::NounOut(_) | Cue::NounIn(_)));
        if imports {
            hits[k].cue = Cue::Negation;
        }
    }
}

/// Where `parts` matched from `words[at]` ends, and whether it matched loosely: after its first word a
/// phrase may pass over a word of [`INSIDE_A_PHRASE`] and may go without its articles ("when program
/// runs"). The words it covers are never split by a sentence end or a comma.
fn phrase_at(words: &[Word], at: usize, parts: &[&str]) -> Option<(usize, bool)> {
    let (mut next, mut loose) = (at, false);
    for (i, part) in parts.iter().enumerate() {
        if i > 0 {
            let joined = |k: usize| !(words[k - 1].boundary_after || words[k - 1].comma_after);
            while next < words.len()
                && INSIDE_A_PHRASE.contains(&words[next].lower.as_str())
                && !INSIDE_A_PHRASE.contains(part)
                && joined(next)
            {
                (next, loose) = (next + 1, true);
            }
            if next >= words.len() || !joined(next) {
                return None;
            }
        }
        let word = words.get(next)?;
        if cue_form(word) == *part {
            next += 1;
        } else if i > 0 && i + 1 < parts.len() && matches!(*part, "the" | "a" | "an") {
            loose = true;
        } else {
            return None;
        }
    }
    Some((next, loose))
}

/// "not through intermediate modules", "not via intermediaries": the word for what lies in between is
/// the object of the direct phrase that ends in "through" or "via"; it adds no reach of its own.
fn not_through_what(words: &[Word], hits: &mut [Hit]) {
    const BETWEEN: &[&str] = &["the", "an", "any", "other", "some"];
    for k in 1..hits.len() {
        let (direct, next) = (hits[k - 1], hits[k]);
        let ends_in_through = matches!(words[direct.end - 1].lower.as_str(), "through" | "via" | "thru");
        let object = (direct.end..next.start).all(|i| BETWEEN.contains(&words[i].lower.as_str()));
        if direct.cue == Cue::Direct && ends_in_through && object && next.cue == Cue::Transitive {
            hits[k].cue = Cue::Filler;
        }
    }
}

/// "pulled in through its imports", "via their dependencies": reaching through the imports of the
/// modules themselves is transitive. "through an import", "via imports" only say by what means one
/// module reaches another: a manner, not a second relation; and so does "through its imports" when
/// the question says "directly" ("which modules does X directly depend on through its imports?").
fn through_imports(words: &[Word], hits: &mut [Hit]) {
    let said_direct = hits.iter().any(|h| h.cue == Cue::Direct);
    for at in 0..words.len() {
        if !matches!(words[at].lower.as_str(), "through" | "via") || words[at].boundary_after || words[at].comma_after {
            continue;
        }
        if covers(hits, at) {
            continue;
        }
        let mut next = at + 1;
        let owned = words.get(next).is_some_and(|w| matches!(w.lower.as_str(), "its" | "their"));
        if owned || words.get(next).is_some_and(|w| matches!(w.lower.as_str(), "a" | "an" | "the")) {
            next += 1;
        }
        let Some(hit) = hits.iter_mut().find(|h| h.start == next) else { continue };
        if matches!(hit.cue, Cue::Verb(_) | Cue::NounOut(_) | Cue::Passive(Family::Import)) {
            hit.cue = if owned && !said_direct { Cue::Transitive } else { Cue::Filler };
        }
    }
}

/// Words that may stand between a negation or an exclusion and its scope.
const SCOPE_BETWEEN: &[&str] = &[
    "just",
    "only",
    "merely",
    "simply",
    "the",
    "its",
    "their",
    "a",
    "any",
    "going",
    "through",
    "via",
    "anything",
    "everything",
];

/// "not just its direct imports", "not only the first level": a negation in front of a word for
/// direct imports asks for more than them (transitive); in front of a word for indirect ones
/// ("not transitive ones") it asks for the direct ones; in front of other imports the graph can leave
/// out ("no stdlib", "not type-checking ones") it leaves them out. Leaving the indirect ones out ("not counting
/// indirect usage", "ignoring transitive ones", "without going through any intermediate module") asks
/// for the direct ones too. Only determiners, "just"/"only" and "going through" may stand between.
fn negated_scope(words: &[Word], hits: &mut [Hit]) {
    for k in 0..hits.len() {
        let excluded = hits[k].cue == Cue::Exclude;
        if hits[k].cue != Cue::Negation && !excluded {
            continue;
        }
        // Not across a comma: "…are ignored, all the way?" leaves out what came before.
        let apart = |at: usize| words[at - 1].boundary_after || words[at - 1].comma_after;
        let mut at = hits[k].end;
        // A phrase that starts on one of them ("via other modules") is the scope itself.
        let starts_a_hit = |at: usize| hits.iter().any(|h| h.start == at);
        while at < words.len() && SCOPE_BETWEEN.contains(&words[at].lower.as_str()) && !apart(at) && !starts_a_hit(at) {
            at += 1;
        }
        if excluded && leaves_out_what_it_follows(words, hits, k) {
            continue;
        }
        // (What follows is its scope, unless the sentence or the clause ends with it.)
        if apart(at) {
            continue;
        }
        let Some(mut next) = hits.iter().position(|h| h.start == at) else { continue };
        let flip = |cue: Cue| match cue {
            Cue::Direct if !excluded => Some(Cue::Transitive),
            Cue::Transitive => Some(Cue::Direct),
            _ => None,
        };
        // "ignore anything reached indirectly", "excluding everything pulled in transitively": the participle
        // only describes what is left out; the word after it says how far.
        let participle = matches!(hits[next].cue, Cue::Passive(_));
        if participle && hits.get(next + 1).is_some_and(|h| h.start == hits[next].end && flip(h.cue).is_some()) {
            hits[next].cue = Cue::Filler;
            next += 1;
        }
        if let Some(flipped) = flip(hits[next].cue) {
            hits[next].cue = flipped;
            hits[k].cue = Cue::Filler;
        } else if !excluded && matches!(hits[next].cue, Cue::Outside | Cue::TypeChecking | Cue::Tests) {
            // "no stdlib", "not the type-checking ones": a negation in front of imports the graph can
            // leave out leaves them out; it does not negate the relation.
            hits[k].cue = Cue::Exclude;
        }
        // "not counting third-party or transitive ones": the scope goes on along a list.
        loop {
            let joint = hits[next].end;
            let joined = joint + 1 < words.len() && matches!(words[joint].lower.as_str(), "or" | "and" | "nor");
            let Some(item) = hits.iter().position(|h| joined && !apart(joint + 1) && h.start == joint + 1) else {
                break;
            };
            next = item;
            if let Some(flipped) = flip(hits[next].cue) {
                hits[next].cue = flipped;
            }
        }
    }
}

/// "Transitive users don't matter", "indirect imports are ignored": an exclusion said after what it
/// leaves out, in the same clause, makes the transitive word right before it (its subject, with the
/// noun it qualifies: "users") direct. Whether it did.
fn leaves_out_what_it_follows(words: &[Word], hits: &mut [Hit], k: usize) -> bool {
    let subject = hits[..k]
        .iter()
        .rposition(|h| !matches!(h.cue, Cue::NounIn(_) | Cue::NounOut(_) | Cue::Filler))
        .filter(|&b| hits[b].cue == Cue::Transitive);
    let Some(before) = subject else { return false };
    let apart = (hits[before].start..hits[k].start).any(|i| words[i].boundary_after || words[i].comma_after);
    if !postposed(words, hits[k]) || apart {
        return false;
    }
    hits[before].cue = Cue::Direct;
    true
}

/// An exclusion that follows what it leaves out: "… don't count", "… are ignored", "… irrelevant".
fn postposed(words: &[Word], hit: Hit) -> bool {
    const AFTER: &[&str] = &["irrelevant", "ignored", "excluded", "omitted", "dropped", "disregarded"];
    let first = words[hit.start].lower.as_str();
    let last = words[hit.end - 1].lower.as_str();
    (first == "not" && matches!(last, "count" | "counted" | "matter" | "considered")) || AFTER.contains(&last)
}

/// The form a word is matched in: code words only as the few code cues there are.
fn cue_form(word: &Word) -> &str {
    if !word.code {
        return &word.lower;
    }
    let bare = word.lower.trim_start_matches("if ").trim_end_matches(':');
    let bare = bare.strip_prefix("typing.").unwrap_or(bare);
    // `TYPE_CHECKING-only`, `TYPE_CHECKING-guarded`, `non-TYPE_CHECKING`.
    if bare.contains("type_checking") && bare.starts_with("non") {
        "runtime"
    } else if bare.split(['-', '.']).any(|part| part == "type_checking") {
        "type_checking"
    } else if bare == "__all__" {
        "__all__"
    } else {
        ""
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_lexicon_reads_and_passes_its_checks() {
        let lexicon = Lexicon::parse(include_str!("lexicon.txt")).unwrap();
        assert!(lexicon.phrases.contains(&(vec!["depends", "on"], Cue::Verb(Family::Depend))));
        assert!(lexicon.phrases.contains(&(vec!["type_checking"], Cue::TypeChecking)));
        assert!(lexicon.filler.contains("please"));
    }

    #[test]
    fn a_lexicon_that_fails_a_check_is_refused_with_its_reason() {
        let refused = |text: &'static str| Lexicon::parse(text).err().unwrap_or_default();
        assert!(refused("[phrases]\nverb import: import, pull in,\n    import\n").contains("`import` is listed twice"));
        assert!(refused("[phrases]\ncycle: loop\n[filler]\nplease, loop\n").contains("`loop` is both"));
        assert!(refused("[filler]\nplease, kindly,\n please\n").contains("`please` is listed twice"));
        assert!(refused("[phrases]\ndirect: not the indirect\ntransitive: not indirect\n").contains("read alike"));
        assert!(refused("[phrases]\nverb borrow: take\n").contains("no cue `verb borrow`"));
        assert!(refused("[phrases]\n  import\n").contains("line 2: nothing to continue"));
        assert!(refused("verb import: import\n").contains("outside [phrases]"));
    }
}
