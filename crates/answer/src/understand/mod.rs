//! Query understanding: a question is parsed, not matched. Words are split with their spans
//! (`words`), the names in them linked to modules and symbols, the cue words found (`lexicon`), the
//! question cut into clauses, and each clause read for its relation, the direction of that relation
//! (active and passive voice, nouns such as "importers of"), and the modifiers that change the answer
//! (`clause`). A question is answered from the graph only when every part of it was understood;
//! otherwise [`Understanding::unsure`] says what was not, and the question goes to retrieval.

mod agree;
mod backoff;
pub mod change;
mod clause;
mod command;
mod constructions;
mod kinds;
pub mod lexicon;
pub mod words;

use std::collections::BTreeSet;

use serde::Serialize;
use strata_core::graph_view::Measure;

use self::clause::{Doubt, Mention, NothingFit, Outcome};
use self::constructions::Construction;
use self::lexicon::{Cue, Hit};
use self::words::Word;
use super::entities::{EntityLinker, Linked};
use super::structural::ExactResult;

/// What a part of a question asks for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Relation {
    /// The modules a module imports (one hop).
    Imports,
    /// The modules that import a module (one hop).
    Importers,
    /// Every module that reaches a module along imports: what a change to it can affect.
    Dependents,
    /// Every module a module reaches along imports.
    Dependencies,
    /// Whether the first module reaches the second (one hop when `direct`), with the chain.
    Reach,
    /// The import cycle a module is in.
    CycleOf,
    /// Whether two modules are in one import cycle together.
    SameCycle,
    /// All import cycles.
    Cycles,
    /// The largest import cycle.
    LargestCycle,
    /// Modules ranked by direct importers.
    MostImported,
    /// Modules ranked by transitive dependents.
    MostDependedOn,
    /// Modules ranked by the modules they import directly.
    MostImports,
    /// Modules ranked by every module they depend on.
    MostDependencies,
    /// Modules that import no other module of the repository.
    Leaves,
    /// Modules that no other module imports.
    Roots,
    /// Where a class or function is defined.
    DefinedIn,
    /// The names a module exports.
    Exports,
}

impl Relation {
    /// What a ranking counts, or `None` for a relation that is no ranking.
    pub fn measure(self) -> Option<Measure> {
        match self {
            Relation::MostImported => Some(Measure::ImportedBy),
            Relation::MostDependedOn => Some(Measure::DependedOn),
            Relation::MostImports => Some(Measure::Imports),
            Relation::MostDependencies => Some(Measure::DependsOn),
            _ => None,
        }
    }

    /// A ranking of modules by how many they import or are imported by.
    pub fn is_ranking(self) -> bool {
        self.measure().is_some()
    }
}

/// A module the question names, as written and as linked.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Entity {
    pub mention: String,
    pub id: String,
    /// Said when the link needs explaining: other modules with the same name, or the module of a symbol.
    #[serde(skip)]
    pub note: String,
}

impl Entity {
    /// The module a linked name stands for: the module it names (other modules of that name noted),
    /// else the module defining the class or function it names.
    pub fn of(mention: &str, linked: Linked) -> Option<Entity> {
        let (id, note) = match linked {
            Linked::Module { id, alternatives } if alternatives.is_empty() => (id, String::new()),
            Linked::Module { id, alternatives } => {
                let shown: Vec<String> = alternatives.iter().take(3).map(|a| format!("`{a}`")).collect();
                (id, format!(" (also matching: {})", shown.join(", ")))
            }
            Linked::Symbol { name, modules } => {
                let id = modules.first()?.clone();
                let note = format!(" (`{name}` is defined in `{id}`)");
                (id, note)
            }
        };
        Some(Entity { mention: mention.to_string(), id, note })
    }
}

/// One structural question inside the question, fully understood.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Part {
    pub relation: Relation,
    /// The modules it is about; for [`Relation::Reach`], `[from, to]`.
    pub modules: Vec<Entity>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub symbol: Option<String>,
    /// Leave out imports inside `if TYPE_CHECKING:`.
    pub runtime: bool,
    /// For [`Relation::Reach`]: through other modules too (false: one import).
    pub transitive: bool,
    /// The answer is a number.
    pub count: bool,
    /// The answer starts with yes or no.
    pub yes_no: bool,
    /// How many modules a ranking lists.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub top: Option<usize>,
    /// The folder the answer is limited to (`shop/payments/`), when the question names a package as
    /// where to look: "cycles in shop.payments", "the most imported modules inside the django package".
    /// Modules outside it neither count nor are listed. The project's own top-level package named bare
    /// ("cycles in httpx") is the whole repository: no folder.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub within: Option<String>,
    /// Test modules left out (as importers and as results).
    pub without_tests: bool,
    /// Only test modules in the result.
    pub only_tests: bool,
    /// The computed answer, once answered.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub result: Option<ExactResult>,
}

impl Part {
    pub fn new(relation: Relation) -> Part {
        Part {
            relation,
            modules: Vec::new(),
            symbol: None,
            runtime: false,
            transitive: false,
            count: false,
            yes_no: false,
            top: None,
            within: None,
            without_tests: false,
            only_tests: false,
            result: None,
        }
    }
}

/// What was understood of a question (`understood` in `ask --format json`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Understanding {
    /// Whether the whole question was understood and answered from the graph.
    pub complete: bool,
    /// The structural questions it asks, in order (empty when not understood).
    pub parts: Vec<Part>,
    /// Why it is not answered from the graph alone, when it is not.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub unsure: Option<String>,
    /// Whether it is unsure because nothing the rules know fit, and how: the back-off reader may read
    /// such a question, never one the rules read and declined.
    #[serde(skip)]
    pub(crate) nothing_fit: Option<NothingFit>,
    /// Every module the question names, understood or not: retrieval adds their graph facts.
    pub linked: Vec<Entity>,
    /// A name written as code in a structural question that names nothing in the index.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub unknown: Option<String>,
    /// The question uses words of the import graph (imports, cycles, defined, exports...), understood or not.
    #[serde(skip)]
    pub about_the_graph: bool,
    /// The byte span of words that refer to a module named before the question ("what imports *it*?",
    /// "is *that module* in a cycle?") when nothing in the question names one: a follow-up, which a
    /// reader that knows the conversation resolves ([`Understanding::resolved`]).
    #[serde(skip)]
    pub refers_back: Option<(usize, usize)>,
    /// It asks a relation and names no module at all, nor refers to one ("what imports?"): the asker
    /// is asked which module, not answered with code that mentions imports.
    #[serde(skip)]
    pub names_no_module: bool,
    /// What it asks about a pull request's change, when it points at one ("what does this PR
    /// affect?"); whether it is answered so depends on the rest (`Answerer::change_question`).
    #[serde(skip)]
    pub change: Option<change::ChangeQuestion>,
    /// The kind of structural question the back-off reader took it for (`backoff.rs`), when no
    /// construction fit and the wording resembled one closely enough.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub resembled: Option<String>,
    /// The constructions recognised in it (`constructions.rs`), for the tests of their examples.
    #[serde(skip)]
    pub(crate) constructions: BTreeSet<Construction>,
}

impl Understanding {
    /// The question with its reference to a module named before replaced by `subject` (that module's
    /// path), when it has one.
    pub fn resolved(&self, question: &str, subject: &str) -> Option<String> {
        let (start, end) = self.refers_back?;
        Some(format!("{}{subject}{}", question.get(..start)?, question.get(end..)?))
    }

    /// Whether the whole question was understood, so the graph answers it exactly.
    pub fn complete(&self) -> bool {
        self.complete
    }

    /// Why the rules' reading was disputed (`agree.rs`), when it was.
    pub(crate) fn disputed(&self) -> Option<&str> {
        self.constructions.contains(&Construction::Disputed).then_some(self.unsure.as_deref()).flatten()
    }
}

/// The note an answer carries when the rules' reading was disputed and retrieval answered instead.
pub(crate) fn disputed_note(reason: &str) -> String {
    format!(
        "not answered from the import graph: two readings of the question disagree ({reason}); name the relation \
         (imports, importers, cycle, path…) for an exact answer"
    )
}

/// The note an answer read by the back-off reader carries.
pub(crate) fn resembled_note(kind: &str) -> String {
    format!(
        "read by resemblance: no construction of the reader fit the wording, which is closest to a question \
         of the kind `{kind}`; if that is not what you asked, name the relation (imports, importers, cycle, path…)"
    )
}

/// Reads `question` against the modules and symbols `linker` knows: the rules' reading, disputed by
/// the back-off reader's model when it is sure of another (`agree.rs`), or, when nothing the rules
/// know fits, the model's reading when it is sure of one (`backoff.rs`).
pub fn understand(question: &str, linker: &EntityLinker<'_>) -> Understanding {
    let (mut understanding, words, hits, mentions) = read_by_rules(question, linker);
    // Two readers that disagree: the rules' exact answer would answer the wrong question.
    if understanding.complete
        && let Some(reason) = agree::dispute(&understanding, &words, &mentions)
    {
        understanding.complete = false;
        understanding.parts.clear();
        understanding.unsure = Some(reason);
        understanding.constructions.insert(Construction::Disputed);
    }
    if backoff::may_read(&understanding)
        && let Some((kind, parts)) = backoff::read(&understanding, &words, &hits, &mentions)
    {
        understanding.resembled = Some(kind);
        understanding.parts = parts;
        understanding.complete = true;
        understanding.unsure = None;
        understanding.nothing_fit = None;
        understanding.constructions.insert(Construction::Resembled);
    }
    understanding
}

/// The rules' reading of `question`, with the words, cues and names it was read from.
fn read_by_rules(question: &str, linker: &EntityLinker<'_>) -> (Understanding, Vec<Word>, Vec<Hit>, Vec<Mention>) {
    let mut words = words::words(question);
    lexicon::read_slips(&mut words, |text| {
        linker.link_word(text, false).is_some() || linker.class_or_function(text).is_some()
    });
    let hits = test_word_naming_a_module(&words, noun_or_verb(&words, lexicon::cues(&words)), linker);
    let mentions = mentions(&words, &hits, linker);
    let linked: Vec<Entity> = mentions.iter().filter_map(Mention::entity).collect();
    let clauses = clause::split(question, &words, &hits, &mentions);
    let clauses_len = clauses.len();
    let mut reading = Reading::default();
    if command::is_command(question) {
        reading.constructions.insert(Construction::Command);
    }
    let mut refers_back = None;
    // Statements around the question give it names to refer to ("We're splitting X. Who imports it?")
    // but ask nothing themselves.
    let has_question = clauses.iter().any(|c| !c.is_context());
    let mut asked_yet = false;
    for mut clause in clauses {
        // Statements before the question set the scene; after it ("Same question for B.") they ask.
        // "If X imported Y, would there be a cycle?": about an import that may not be there.
        if clause.supposes_an_import() {
            reading.constructions.extend(clause.constructions());
            reading.unsure = reading.unsure.or(Some("supposes an import, and asks what it would do".into()));
            continue;
        }
        if has_question && !asked_yet && clause.is_context() && clauses_len > 1 {
            reading.set_the_scene(clause);
            continue;
        }
        if std::mem::take(&mut reading.ranking_described) && clause.asks_more_of_it() {
            reading.refers_to_a_described_module();
            continue;
        }
        if asked_yet && clause.states_its_purpose() {
            reading.constructions.extend(clause.constructions());
            continue;
        }
        let topic_carried = reading.take_the_scene(&mut clause);
        asked_yet = true;
        clause.topicalize();
        clause.antecede();
        // A reference with no name said before it in the question refers to the conversation.
        if reading.previous_mentions.is_empty()
            && reading.pending_entities.is_empty()
            && let Some((first, last)) = clause.reference()
            && !clause.mentions.iter().any(|m| m.index <= last)
        {
            refers_back = refers_back.or(Some((words[first].start, words[last].end)));
        }
        // "Which modules does X import? Are they in a cycle?": "they" are the modules answered, not X.
        if reading.refers_to_results(&clause) {
            reading.constructions.insert(Construction::ResultsReferredTo);
            let reason = "refers to the modules an earlier part answers with, which I do not chain";
            reading.unsure = reading.unsure.or(Some(reason.into()));
            continue;
        }
        reading.resolve_references(&mut clause);
        let restates = reading.restating || clause.restates();
        let (clause, mut outcome) = reading.read(clause);
        // The cycle of a module, but no module placed to ask about: not the repository's cycles.
        if topic_carried && matches!(&outcome, Outcome::Part(part) if part.modules.is_empty()) {
            outcome = Outcome::Unsure("points back at a cycle without naming a module in it".into());
        }
        reading.constructions.extend(clause.constructions());
        reading.take_in(outcome, &clause, restates);
    }
    let understanding = conclude(reading, question, &hits, linked, refers_back);
    (understanding, words, hits, mentions)
}

/// The understanding once every clause is read: sure or not, with its parts merged.
fn conclude(
    reading: Reading,
    question: &str,
    hits: &[Hit],
    linked: Vec<Entity>,
    refers_back: Option<(usize, usize)>,
) -> Understanding {
    let Reading { parts, pending_entities, mut unsure, unknown, mut constructions, no_module, every_edge, .. } =
        reading;
    let change = change::read(question);
    if change.is_some() {
        constructions.insert(Construction::PointsAtChange);
    }
    if !pending_entities.is_empty() && unsure.is_none() {
        unsure = Some(Doubt::nothing_fit(NothingFit::NamesOnly, "names modules without asking anything about them"));
    }
    if parts.is_empty() && unsure.is_none() {
        unsure = Some(Doubt::nothing_fit(NothingFit::NoQuestion, "no structural question found"));
    }
    let parts = if unsure.is_some() { Vec::new() } else { merge(parts) };
    let about_the_graph = hits.iter().any(|h| is_about_the_graph(h.cue));
    Understanding {
        complete: unsure.is_none() && !parts.is_empty(),
        // A package named only as where to look ("what imports what in shop?") names no module.
        names_no_module: no_module && parts.is_empty() && refers_back.is_none() && (linked.is_empty() || every_edge),
        parts,
        nothing_fit: unsure.as_ref().and_then(|d| d.nothing_fit),
        unsure: unsure.map(|d| d.reason),
        linked,
        unknown,
        about_the_graph,
        refers_back,
        change,
        resembled: None,
        constructions,
    }
}

/// A cue that only a question about the import graph has (a relation, a cycle, a path, a ranking…).
fn is_about_the_graph(cue: Cue) -> bool {
    matches!(
        cue,
        Cue::Verb(_)
            | Cue::Passive(_)
            | Cue::NounOut(_)
            | Cue::NounIn(_)
            | Cue::Impact
            | Cue::Cycle
            | Cue::Path
            | Cue::Define
            | Cue::Export
            | Cue::Leaves
            | Cue::Most
            | Cue::Upstream
    )
}

/// The reading before one clause: how many parts, and the doubts.
struct Snapshot {
    parts: usize,
    unsure: Option<Doubt>,
    unknown: Option<String>,
}

/// What the clauses read so far said: the parts, names waiting for a relation, the names of the last
/// clause (what a later "it" refers to), the last statement skipped as context, and the first doubt.
#[derive(Default)]
struct Reading {
    parts: Vec<Part>,
    pending_entities: Vec<Mention>,
    unsure: Option<Doubt>,
    unknown: Option<String>,
    previous_mentions: Vec<Mention>,
    /// What the last statement skipped as context says when read as a question (only when every
    /// word of it was placed), for a bare follow-up that points back at it.
    scene: Option<Part>,
    /// The constructions recognised in the clauses read so far.
    constructions: BTreeSet<Construction>,
    /// Qualifiers a statement before the question said ("We only care about runtime imports."), for
    /// the next clause.
    carried: Vec<Hit>,
    /// The cycle a statement before the question talks about, for a question that points back at it.
    topic: Vec<Hit>,
    /// What was read before the last clause that asked, and whether a bare "Specifically," followed it.
    before_last: Option<Snapshot>,
    restating: bool,
    /// A clause asked a relation about no module and said nothing else.
    no_module: bool,
    /// That clause asked for every edge, naming a package only as where to look.
    every_edge: bool,
    /// The statement before described a module by a ranking ("The one imported most by X."): a
    /// question of its cycle, a path or its exports is not what the ranking answers.
    ranking_described: bool,
}

impl Reading {
    /// A statement before the question: its names are what later pronouns stand for, its qualifiers
    /// and its cycle are carried to the next clause, and it is kept in case a bare follow-up needs it
    /// ("`models`'s cycle: which modules?", "X pulls in Y somehow. Through what exactly?").
    /// A question about a module the statement before it described by the graph (`NestedRelative`).
    fn refers_to_a_described_module(&mut self) {
        self.constructions.insert(Construction::NestedRelative);
        self.unsure = self.unsure.take().or(Some(clause::DESCRIBED_MODULE.into()));
    }

    fn set_the_scene(&mut self, clause: clause::Clause<'_>) {
        let described = clause.describes_a_module_only();
        self.ranking_described = described == Some(true);
        if described == Some(false) {
            self.constructions.extend(clause.constructions());
            self.refers_to_a_described_module();
            return;
        }
        if !clause.mentions.is_empty() {
            self.previous_mentions = clause.mentions.clone();
        }
        // "We only care about imports that run, not those under TYPE_CHECKING." still qualifies.
        self.carried.extend(clause.qualifiers());
        self.topic = clause.cycle_topic();
        self.constructions.insert(Construction::Scene);
        // Read strictly: a statement was not written as a question, so every word must be placed.
        self.scene = None;
        if clause.fully_placed() {
            let mut statement = clause;
            statement.topicalize();
            if let Outcome::Part(part) = statement.parse() {
                self.scene = Some(part);
            }
        }
    }

    /// Gives the question what the statements before it carried; whether that included their cycle
    /// ("We're trying to kill circular imports. Is X in one?").
    fn take_the_scene(&mut self, clause: &mut clause::Clause<'_>) -> bool {
        clause.add_hits(std::mem::take(&mut self.carried));
        let topic = std::mem::take(&mut self.topic);
        let carried = !topic.is_empty() && clause.points_back_at_a_topic();
        if carried {
            self.constructions.insert(Construction::CycleSaidBefore);
            clause.add_hits(topic);
        }
        carried
    }

    /// Records what a clause that asked says. A clause that restates the one before ("How widely used
    /// is X? Specifically, how many modules import it?") is read instead of it; a bare "Specifically,"
    /// passes that on to the next clause.
    fn take_in(&mut self, outcome: Outcome, clause: &clause::Clause<'_>, restates: bool) {
        self.restating = restates && outcome == Outcome::Empty;
        if self.restating {
            return;
        }
        if restates
            && matches!(outcome, Outcome::Part(_))
            && let Some(earlier) = self.before_last.take()
        {
            self.constructions.insert(Construction::Restatement);
            self.restore(earlier);
        }
        self.before_last = Some(self.snapshot());
        self.record(outcome, clause);
    }

    /// What has been read so far, to go back to when a clause restates the one before it.
    fn snapshot(&self) -> Snapshot {
        Snapshot { parts: self.parts.len(), unsure: self.unsure.clone(), unknown: self.unknown.clone() }
    }

    fn restore(&mut self, snapshot: Snapshot) {
        self.parts.truncate(snapshot.parts);
        self.unsure = snapshot.unsure;
        self.unknown = snapshot.unknown;
    }

    /// Whether `clause` asks about the modules an earlier part answers with: it names none, says
    /// "they"/"them", and the part before lists modules about one named module, which "they" cannot be.
    fn refers_to_results(&self, clause: &clause::Clause<'_>) -> bool {
        let lists = self.parts.last().is_some_and(|part| {
            !part.yes_no
                && part.modules.len() == 1
                && !matches!(part.relation, Relation::Reach | Relation::DefinedIn | Relation::Exports)
        });
        let named: BTreeSet<Option<&str>> = self.previous_mentions.iter().map(Mention::module_id).collect();
        lists && named.len() == 1 && clause.mentions.is_empty() && clause.asks() && clause.plural_pronoun()
    }

    /// The modules `clause` refers to without naming them: "it", "that module", or names said before
    /// that a clause of its own did not ask about ("For A and for B: what imports them?").
    fn resolve_references(&mut self, clause: &mut clause::Clause<'_>) {
        let mut pronoun = false;
        if clause.mentions.is_empty() && clause.refers_back() && self.pending_entities.is_empty() {
            clause.adopt(self.previous_mentions.clone());
            pronoun = !self.previous_mentions.is_empty();
        } else if !clause.mentions.is_empty() && clause.pronoun_at().is_some() && !self.previous_mentions.is_empty() {
            clause.resolve_it(&self.previous_mentions);
            pronoun = true;
        }
        if clause.mentions.is_empty() && !self.pending_entities.is_empty() {
            clause.adopt(std::mem::take(&mut self.pending_entities));
        } else if clause.mentions.is_empty() && clause.has_pronoun() && clause.asks() {
            clause.adopt(self.previous_mentions.clone());
            pronoun = !self.previous_mentions.is_empty();
        }
        if pronoun {
            self.constructions.insert(Construction::Pronoun);
        }
    }

    /// What `clause` says, read on its own and, when that fails, against what came before.
    fn read<'a>(&mut self, clause: clause::Clause<'a>) -> (clause::Clause<'a>, Outcome) {
        let mut outcome = clause.parse();
        if let Outcome::Part(part) = &mut outcome
            && clause.names_said_before()
        {
            self.run_as_the_scene(part);
        }
        // "…the most imported module, and how many modules import it?": the ranking says how many,
        // also when the ranking was said as a statement first ("most imported 3 modules and how many
        // import each").
        let after_ranking = self.parts.last().or(self.scene.as_ref()).is_some_and(|p| p.relation.is_ranking());
        let unsure = matches!(outcome, Outcome::Unsure(_) | Outcome::NoModule { .. });
        if after_ranking && clause.mentions.is_empty() && clause.has_pronoun() && unsure {
            outcome = Outcome::FollowUp;
        }
        // "…what do I need to retest?" after "If I modify X,": the names of the clause before.
        if unsure && clause.mentions.is_empty() && !self.previous_mentions.is_empty() {
            let mut again = clause.clone();
            again.adopt(self.previous_mentions.clone());
            if let Outcome::Part(mut part) = again.parse() {
                self.run_as_the_scene(&mut part);
                // "X dead or imported? if imported, by which modules": the clause before was yes or no.
                if clause.if_so()
                    && let Some(last) = self.parts.last_mut()
                {
                    last.yes_no = true;
                    self.constructions.insert(Construction::FollowUp);
                }
                return (again, Outcome::Part(part));
            }
        }
        (clause, outcome)
    }

    /// "I'm seeing utils loaded whenever pricing is imported. Which sequence of imports causes that?":
    /// a chain between the two modules of the statement, asked with its names said there, runs the
    /// way the statement said.
    fn run_as_the_scene(&mut self, part: &mut Part) {
        if let Some(scene) = self.scene.as_ref()
            && part.relation == Relation::Reach
            && scene.relation == Relation::Reach
            && scene.modules.iter().rev().eq(part.modules.iter())
        {
            part.modules.clone_from(&scene.modules);
            self.constructions.insert(Construction::ChainAsStated);
        }
    }

    /// A follow-up with no part before it: the statement before it held the question's content. Tried
    /// and not kept: a follow-up with no statement before it as framing ("Please give me two lists:
    /// …"), ignored; it answered more held-out phrasings and got more of them wrong.
    fn follow_up_a_statement(&mut self, clause: &clause::Clause<'_>) {
        match self.scene.take() {
            Some(mut part) => {
                self.constructions.insert(Construction::FollowUp);
                // "X used by any module, if so who": the statement was asked yes or no, then as a list.
                part.yes_no = clause.if_so();
                if let Some(k) = how_many_of_the_ranking(&part, clause) {
                    part.top = Some(k);
                }
                if part.yes_no {
                    self.parts.push(Part { yes_no: false, ..part.clone() });
                }
                self.parts.push(part);
            }
            None => {
                let doubt = Doubt::nothing_fit(NothingFit::FollowUpToNothing, "a follow-up to nothing");
                self.unsure = self.unsure.take().or(Some(doubt));
            }
        }
    }

    /// Takes in what one clause was read to say.
    fn record(&mut self, outcome: Outcome, clause: &clause::Clause<'_>) {
        match outcome {
            Outcome::Part(part) => {
                self.previous_mentions = clause.mentions.clone();
                self.parts.push(part);
            }
            Outcome::Empty => {}
            // "…, and if so, which modules?": the previous part again, as a list.
            Outcome::FollowUp => match self.parts.last_mut() {
                Some(last) if how_many_of_the_ranking(last, clause).is_some() => {
                    self.constructions.insert(Construction::FollowUp);
                    last.top = how_many_of_the_ranking(last, clause);
                }
                Some(last) => {
                    self.constructions.insert(Construction::FollowUp);
                    last.yes_no |= clause.if_so();
                    let mut again = last.clone();
                    again.yes_no = false;
                    self.parts.push(again);
                }
                // "X's cycle: which modules?": the statement before held the question's content.
                None => self.follow_up_a_statement(clause),
            },
            // "…? And B?": the previous relation about other modules.
            Outcome::EntitiesOnly(entities) => match self.parts.last() {
                Some(last) if last.modules.len() == entities.len() && last.relation != Relation::Reach => {
                    self.constructions.insert(Construction::SameForOthers);
                    let mut again = last.clone();
                    again.modules = entities;
                    self.parts.push(again);
                }
                _ => self.pending_entities = clause.mentions.clone(),
            },
            Outcome::Unknown(name) => {
                let reason = format!("`{name}` names no module, file or symbol of the index");
                self.unsure = self.unsure.take().or(Some(reason.into()));
                self.unknown = self.unknown.take().or(Some(name));
            }
            Outcome::NoModule { every_edge } => {
                self.no_module = true;
                self.every_edge |= every_edge;
                self.unsure = self.unsure.take().or(Some(clause::NO_MODULE.into()));
            }
            Outcome::Unsure(reason) => {
                // A clause that restates this one may say "it" for the names it gave.
                if !clause.mentions.is_empty() {
                    self.previous_mentions = clause.mentions.clone();
                }
                self.unsure = self.unsure.take().or(Some(reason));
            }
        }
    }
}

/// The same question asked twice ("does anything import X, and if so which?") is one part with both
/// forms: a yes or no, then the list.
fn merge(parts: Vec<Part>) -> Vec<Part> {
    // "What imports A and B?" asks about each.
    let each = parts.into_iter().flat_map(|part| {
        if matches!(part.relation, Relation::Reach | Relation::SameCycle) || part.modules.len() < 2 {
            vec![part]
        } else {
            part.modules.iter().map(|m| Part { modules: vec![m.clone()], ..part.clone() }).collect()
        }
    });
    let mut merged: Vec<Part> = Vec::new();
    for part in each {
        let same = merged.iter_mut().find(|p| {
            p.relation == part.relation
                && p.modules == part.modules
                && p.runtime == part.runtime
                && p.transitive == part.transitive
        });
        match same {
            Some(existing) => {
                existing.yes_no |= part.yes_no;
                existing.count |= part.count;
                existing.without_tests |= part.without_tests;
            }
            None => merged.push(part),
        }
    }
    merged
}

/// "Rank modules by importers; give me the first 3.", "What are the most imported modules? Give me
/// the first 2.": a follow-up of a ranking that states a number says how many.
fn how_many_of_the_ranking(part: &Part, clause: &clause::Clause<'_>) -> Option<usize> {
    part.top.and(clause.stated_number())
}

/// "imports" is a verb ("what imports x") or a noun ("its imports", "x's direct imports").
fn noun_or_verb(words: &[Word], mut hits: Vec<Hit>) -> Vec<Hit> {
    qualifying_imports(words, &mut hits);
    imports_as_a_noun(words, &mut hits);
    passive_in_the_base_form(words, &mut hits);
    a_particular_import(words, &mut hits);
    need_first(words, &mut hits);
    hits
}

/// "need full dep tree of X", "Need the importers of X.": "need" that opens a sentence, with no
/// subject, is the asker's (as "I need"), not what the code needs.
fn need_first(words: &[Word], hits: &mut [Hit]) {
    for hit in hits.iter_mut() {
        let opens = hit.start == 0 || words[hit.start - 1].boundary_after;
        if opens && hit.end == hit.start + 1 && words[hit.start].lower == "need" {
            hit.cue = Cue::Filler;
        }
    }
}

/// "Before I delete this import, …", "is that import needed?": "import" after "this", or after "that"
/// with no object ("modules that import X" is a relative clause), is one import statement the asker
/// has in mind, not the relation asked about.
fn a_particular_import(words: &[Word], hits: &mut [Hit]) {
    for hit in hits.iter_mut() {
        let word = &words[hit.start];
        let no_object = word.boundary_after
            || word.comma_after
            || words.get(hit.end).is_some_and(|w| matches!(w.lower.as_str(), "is" | "was" | "line" | "statement"));
        let demonstrative = hit.start > 0
            && (words[hit.start - 1].lower == "this" || (words[hit.start - 1].lower == "that" && no_object));
        let of_follows = words.get(hit.end).is_some_and(|w| matches!(w.lower.as_str(), "of" | "from"));
        if hit.cue == Cue::Verb(lexicon::Family::Import)
            && hit.end == hit.start + 1
            && words[hit.start].lower == "import"
            && demonstrative
            && !of_follows
        {
            hit.cue = Cue::Filler;
        }
    }
}

/// "X is import by who?", "X get use by which modules?", "X import by who?": a verb in its base form
/// before "by" is the passive its writer meant (a slip of non-native English) when a form of "be" or
/// "get" comes right before it or an asking word or quantifier right after "by". "What does X import
/// by default?" keeps its verb.
fn passive_in_the_base_form(words: &[Word], hits: &mut [Hit]) {
    let be = |w: &str| clause::COPULA.contains(&w) || matches!(w, "been" | "get" | "gets" | "got");
    const AGENT: &str = "who whom which what any anything anyone anybody some something someone other others another";
    let lower = |i: usize| words.get(i).map_or("", |w: &Word| w.lower.as_str());
    let one_of = |list: &str, word: &str| list.split_whitespace().any(|w| w == word);
    for hit in hits.iter_mut() {
        if let Cue::Verb(family) = hit.cue
            && lower(hit.end) == "by"
            && ((hit.start > 0 && be(lower(hit.start - 1))) || one_of(AGENT, lower(hit.end + 1)))
        {
            hit.cue = Cue::Passive(family);
        }
    }
}

/// The import words that qualify imports rather than ask about them become filler.
fn qualifying_imports(words: &[Word], hits: &mut [Hit]) {
    // "TYPE_CHECKING imports", "runtime imports", "imports under TYPE_CHECKING": the import word is
    // part of the qualifier, not the question's relation.
    let qualifiers: Vec<(usize, usize)> =
        hits.iter().filter(|h| matches!(h.cue, Cue::TypeChecking | Cue::Runtime)).map(|h| (h.start, h.end)).collect();
    let import_words = ["import", "imports", "importing"];
    // "imports under TYPE_CHECKING", "imports guarded by an if TYPE_CHECKING".
    const BETWEEN: &str = "under inside in within behind an a the if guarded by blocks";
    for hit in hits.iter_mut() {
        let is_import_word = hit.end == hit.start + 1 && import_words.contains(&words[hit.start].lower.as_str());
        let follows =
            qualifiers.iter().any(|&(_, end)| end == hit.start || (end + 1 == hit.start && words[end].lower == "only"));
        let precedes = qualifiers.iter().any(|&(start, _)| {
            start > hit.start + 1
                && start <= hit.start + 4
                && (hit.start + 1..start).all(|i| BETWEEN.split_whitespace().any(|w| w == words[i].lower))
        });
        if is_import_word && (follows || precedes) && matches!(hit.cue, Cue::Verb(_) | Cue::NounOut(_)) {
            hit.cue = Cue::Filler;
        }
    }
}

/// "imports" after a determiner, a possessive or a describing word, before "of" or "out of", or
/// between "which" and an auxiliary, is a noun.
fn imports_as_a_noun(words: &[Word], hits: &mut [Hit]) {
    // Words before a noun: a determiner, a possessive, a preposition or a describing word.
    const BEFORE_A_NOUN: &str = "through via by the its their his her our my your direct indirect transitive \
        runtime internal any all of whose outgoing own in with first party has have those these such";
    // "X's importers and imports": joined to a noun of the relation, it is one too…
    let nouns: Vec<(usize, usize)> =
        hits.iter().filter(|h| matches!(h.cue, Cue::NounIn(_) | Cue::NounOut(_))).map(|h| (h.start, h.end)).collect();
    let joins = |i: usize| words.get(i).is_some_and(|w| matches!(w.lower.as_str(), "and" | "plus"));
    // "the full import tree of X": "import" before a noun of extent modifies it.
    let extents: Vec<usize> = hits.iter().filter(|h| h.cue == Cue::Extent).map(|h| h.start).collect();
    for hit in hits.iter_mut() {
        let word = &words[hit.start];
        if hit.cue == Cue::Verb(lexicon::Family::Import) && word.lower == "import" && extents.contains(&hit.end) {
            hit.cue = Cue::NounOut(lexicon::Family::Import);
            continue;
        }
        if hit.cue == Cue::Verb(lexicon::Family::Import) && word.lower == "imports" && hit.end == hit.start + 1 {
            // …and "X imports and importers", "X: imports & importers", the other way round.
            let joined_to_a_noun =
                (hit.start >= 2 && joins(hit.start - 1) && nouns.iter().any(|&(_, end)| end == hit.start - 1))
                    || (joins(hit.end) && nouns.iter().any(|&(start, _)| start == hit.end + 1));
            let previous = hit.start.checked_sub(1).map(|i| &words[i]);
            let of_follows = words.get(hit.end).is_some_and(|w| w.lower == "of");
            // "via intermediate imports", "through its own imports": a preposition or determiner
            // two words back, with a word describing the imports between.
            let described = hit.start.checked_sub(2).is_some_and(|i| {
                matches!(words[i].lower.as_str(), "via" | "through" | "its" | "their" | "whose" | "with")
            });
            // "Which imports does X have?", "what imports are needed by X?", "how many imports does X
            // have?": the head noun of a question, with the auxiliary after it ("what imports will
            // break" keeps the verb: the importers' statements break).
            let asked = hit.start.checked_sub(1).is_some_and(|i| {
                matches!(words[i].lower.as_str(), "which" | "what")
                    || words[i].lower == "many" && i > 0 && words[i - 1].lower == "how"
            });
            let heads_a_question = asked
                && words
                    .get(hit.end)
                    .is_some_and(|w| matches!(w.lower.as_str(), "does" | "do" | "did" | "are" | "is" | "were"));
            // "How many imports in X?", "imports inside X?": the import statements written in X.
            let written_in = (asked || hit.start == 0)
                && words.get(hit.end).is_some_and(|w| matches!(w.lower.as_str(), "in" | "inside" | "within"));
            // "How many imports come out of X?", "imports going out of X": the ones X makes.
            let out_of = (hit.end..(hit.end + 3).min(words.len().saturating_sub(1)))
                .any(|i| words[i].lower == "out" && words[i + 1].lower == "of");
            if of_follows
                || heads_a_question
                || written_in
                || out_of
                || described
                || joined_to_a_noun
                || previous.is_some_and(|p| p.possessive || BEFORE_A_NOUN.split_whitespace().any(|w| w == p.lower))
            {
                hit.cue = Cue::NounOut(lexicon::Family::Import);
            }
        }
    }
}

/// "which modules import testing?", "runtime importers of testing": a word for tests that is the short
/// name of a module of the index, as the object of an import verb or after "of", ending its clause,
/// names that module ("which modules import tests under `tests/`" keeps the tests).
fn test_word_naming_a_module(words: &[Word], mut hits: Vec<Hit>, linker: &EntityLinker<'_>) -> Vec<Hit> {
    let names_a_module = |k: usize| {
        let hit = hits[k];
        let word = &words[hit.start];
        let object = hit.start > 0
            && (words[hit.start - 1].lower == "of"
                || (k > 0 && hits[k - 1].end == hit.start && matches!(hits[k - 1].cue, Cue::Verb(_))));
        let ends_the_clause = word.boundary_after || word.comma_after || hit.end == words.len();
        hit.cue == Cue::Tests
            && hit.end == hit.start + 1
            && object
            && ends_the_clause
            && matches!(linker.link_word(&word.text, true), Some(Linked::Module { .. }))
    };
    let named: Vec<usize> = (0..hits.len()).filter(|&k| names_a_module(k)).collect();
    for k in named.into_iter().rev() {
        hits.remove(k);
    }
    hits
}

/// Links the words that could name a module or symbol: every code word, and English-looking words
/// that name one exactly (strong when the question calls it a module or file).
fn mentions(words: &[Word], hits: &[Hit], linker: &EntityLinker<'_>) -> Vec<Mention> {
    let covered = |i: usize| lexicon::covers(hits, i);
    let module_noun = |i: Option<usize>| {
        i.and_then(|i| words.get(i)).is_some_and(|w| matches!(w.lower.as_str(), "module" | "file" | "package"))
    };
    let mut out: Vec<Mention> = Vec::new();
    for (i, word) in words.iter().enumerate() {
        if word.code {
            if covered(i) {
                continue;
            }
            let text = word.text.trim_end_matches(".py");
            let symbol = linker.symbol(&word.text).or_else(|| linker.symbol(text));
            let linked = linker.link(&word.text);
            // "The cycle keeps causing ImportErrors": Python's, not a name of this code.
            if linked.is_none() && symbol.is_none() && words::python_exception(&word.text) {
                continue;
            }
            let mut mention = Mention::new(i, word, linked, symbol, true);
            // `auth` is a module even when some function is also called `auth`.
            if mention.module.is_none()
                && let Some(super::entities::Linked::Module { id, alternatives }) = linker.link_word(&word.text, false)
            {
                mention.module = Some((id, alternatives));
            }
            out.push(mention);
            continue;
        }
        if covered(i) {
            continue;
        }
        // English words ("I", "In", "Order"?) are never names unless written as code; numbers neither.
        if lexicon::is_filler(&word.lower) || words::number(&word.lower).is_some() || word.text.len() < 2 {
            continue;
        }
        // A word not written as code names a class or function only as written (`Blueprint`,
        // `redirect`), never a method: "the request and response classes" are not `JSONProvider.response`.
        let symbol = linker.class_or_function(&word.text);
        let said_module = module_noun(i.checked_sub(1)) || module_noun(Some(i + 1));
        let linked = linker.link_word(&word.text, said_module);
        if linked.is_some() || symbol.is_some() {
            let strong = said_module || (symbol.is_some() && word.text.chars().next().is_some_and(char::is_uppercase));
            out.push(Mention::new(i, word, linked, symbol, strong));
        }
    }
    // "the route() method of Scaffold": a method named together with its class.
    let symbols: Vec<String> = out.iter().filter_map(|m| m.symbol.as_ref().map(|(name, _)| name.clone())).collect();
    for mention in &mut out {
        let Some((name, _)) = &mention.symbol else { continue };
        mention.qualified = symbols
            .iter()
            .filter(|class| *class != name)
            .map(|class| format!("{class}.{name}"))
            .find(|qualified| linker.symbol(qualified).is_some());
    }
    for mention in &mut out {
        mention.top_level = mention.module_id().is_some_and(|id| linker.is_top_level_package(id));
    }
    out
}

#[cfg(test)]
mod tests;
