//! The kinds of structural question the back-off reader's model knows: the paraphrase suite's types
//! (`eval/paraphrase/`), by the names its phrasing sets and the model file use. One table says what
//! each kind reads (its relation and the form of the answer) and which topics its words may carry, so
//! the back-off builds a reading from a kind and the dispute finds the kind of a reading from the same
//! entries: a new kind is one line here, and a misspelt name fails the model's parse.

use super::lexicon::Cue;
use super::{Part, Relation};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Kind {
    ImportsOf,
    CountImports,
    ImportersOf,
    ImportersOfRuntime,
    CountImporters,
    WhetherThenImporters,
    ImportersEach,
    Dependents,
    DependentsRuntime,
    CountDependents,
    Dependencies,
    Path,
    DependsOn,
    ImportsDirectly,
    InCycle,
    CycleMembers,
    CountCycles,
    LargestCycle,
    MostImported,
    MostImportedTop,
    MostImportedNoTests,
    Leaves,
    DefinedIn,
    Exports,
    /// A question the import graph does not answer (the suite's negative examples).
    NotStructural,
}

/// The form of a kind's answer, beside its relation.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Form {
    List,
    Count,
    /// Yes or no first (then the list, where there is one).
    YesNo,
    /// Whether one module imports the other directly.
    DirectYesNo,
    /// Only imports that run (not under `TYPE_CHECKING`).
    Runtime,
    /// A list for each of several modules.
    Each,
    /// The first of a ranking.
    First,
    /// The first of a ranking, test modules left out.
    FirstNotTests,
    /// The first N of a ranking.
    Top,
}

struct Entry {
    kind: Kind,
    name: &'static str,
    /// None for a question that is not structural.
    relation: Option<Relation>,
    form: Form,
    /// The topic cues (a cycle, a path, a ranking…) its words may carry.
    topics: &'static [Cue],
}

const fn entry(kind: Kind, name: &'static str, relation: Relation, form: Form, topics: &'static [Cue]) -> Entry {
    Entry { kind, name, relation: Some(relation), form, topics }
}

const RANKING: &[Cue] = &[Cue::Most, Cue::Top, Cue::Central];
const CYCLES: &[Cue] = &[Cue::Cycle, Cue::Most, Cue::Top];

#[rustfmt::skip]
const KINDS: [Entry; 25] = [
    entry(Kind::ImportsOf, "imports_of", Relation::Imports, Form::List, &[]),
    entry(Kind::CountImports, "count_imports", Relation::Imports, Form::Count, &[]),
    entry(Kind::ImportersOf, "importers_of", Relation::Importers, Form::List, &[]),
    entry(Kind::ImportersOfRuntime, "importers_of_runtime", Relation::Importers, Form::Runtime, &[]),
    entry(Kind::CountImporters, "count_importers", Relation::Importers, Form::Count, &[]),
    entry(Kind::WhetherThenImporters, "yn_then_list", Relation::Importers, Form::YesNo, &[]),
    entry(Kind::ImportersEach, "importers_each", Relation::Importers, Form::Each, &[]),
    entry(Kind::Dependents, "dependents", Relation::Dependents, Form::List, &[Cue::Impact]),
    entry(Kind::DependentsRuntime, "dependents_runtime", Relation::Dependents, Form::Runtime, &[Cue::Impact]),
    entry(Kind::CountDependents, "count_dependents", Relation::Dependents, Form::Count, &[Cue::Impact]),
    entry(Kind::Dependencies, "dependencies", Relation::Dependencies, Form::List, &[]),
    entry(Kind::Path, "path", Relation::Reach, Form::List, &[Cue::Path]),
    entry(Kind::DependsOn, "depends_on_yn", Relation::Reach, Form::YesNo, &[Cue::Path]),
    entry(Kind::ImportsDirectly, "imports_directly_yn", Relation::Reach, Form::DirectYesNo, &[]),
    entry(Kind::InCycle, "in_cycle_yn", Relation::CycleOf, Form::YesNo, &[Cue::Cycle]),
    entry(Kind::CycleMembers, "cycle_members", Relation::CycleOf, Form::List, &[Cue::Cycle]),
    entry(Kind::CountCycles, "count_cycles", Relation::Cycles, Form::Count, CYCLES),
    entry(Kind::LargestCycle, "largest_cycle", Relation::LargestCycle, Form::List, CYCLES),
    entry(Kind::MostImported, "most_imported", Relation::MostImported, Form::First, RANKING),
    entry(Kind::MostImportedTop, "most_imported_topk", Relation::MostImported, Form::Top, RANKING),
    entry(Kind::MostImportedNoTests, "most_imported_no_tests", Relation::MostImported, Form::FirstNotTests, RANKING),
    entry(Kind::Leaves, "leaves", Relation::Leaves, Form::List, &[Cue::Leaves]),
    entry(Kind::DefinedIn, "defined_in", Relation::DefinedIn, Form::List, &[Cue::Define]),
    entry(Kind::Exports, "exports", Relation::Exports, Form::List, &[Cue::Export]),
    Entry { kind: Kind::NotStructural, name: "not_structural", relation: None, form: Form::List, topics: &[] },
];

impl Kind {
    fn entry(self) -> &'static Entry {
        KINDS.iter().find(|e| e.kind == self).expect("every kind has an entry")
    }

    /// The kind of a name of the model file and the phrasing sets.
    pub(super) fn named(name: &str) -> Option<Kind> {
        KINDS.iter().find(|e| e.name == name).map(|e| e.kind)
    }

    pub(super) fn name(self) -> &'static str {
        self.entry().name
    }

    /// The relation it reads; none for a question that is not structural.
    pub(super) fn relation(self) -> Option<Relation> {
        self.entry().relation
    }

    /// What the kind asks where a wrong reading matters: its relation, the largest cycle and how many
    /// cycles both being about the cycles of the whole repository. Kinds of one relation differ in form
    /// (a list, a number, a yes or no first), which the answer shows either way.
    pub(super) fn asks(self) -> Option<Relation> {
        match self.relation()? {
            Relation::LargestCycle => Some(Relation::Cycles),
            relation => Some(relation),
        }
    }

    pub(super) fn topics(self) -> &'static [Cue] {
        self.entry().topics
    }

    /// Only imports that run.
    pub(super) fn runtime(self) -> bool {
        self.entry().form == Form::Runtime
    }

    /// Test modules left out.
    pub(super) fn without_tests(self) -> bool {
        self.entry().form == Form::FirstNotTests
    }

    /// Gives `part` (of the kind's relation) the kind's form.
    pub(super) fn shape(self, part: &mut Part) {
        let form = self.entry().form;
        part.count = form == Form::Count;
        part.yes_no = matches!(form, Form::YesNo | Form::DirectYesNo);
        part.runtime = form == Form::Runtime;
        if part.relation == Relation::Reach {
            part.transitive = form != Form::DirectYesNo;
        }
        if matches!(form, Form::First | Form::FirstNotTests) {
            part.top = Some(1);
        }
        part.without_tests = form == Form::FirstNotTests;
    }

    /// The kind a reading of the rules answers, when it is one the model knows: one relation in a
    /// form a kind has (a list, a number, a yes or no, runtime only where a kind is), with no folder to
    /// look in and no test filter but the one the kinds know. A reading of no kind (a runtime ranking,
    /// only tests) is one the model cannot judge.
    pub(super) fn of(parts: &[Part]) -> Option<Kind> {
        let [part] = parts else {
            // "What imports A and B?": the importers of each. No kind asks another relation of each
            // module ("what do A and B import?").
            let each = parts.len() > 1
                && parts.iter().all(|p| {
                    p.modules.len() == 1 && Kind::ImportersOf.entry().reads(p) && Kind::ImportersOf.answers(p)
                });
            return each.then_some(Kind::ImportersEach);
        };
        KINDS.iter().find(|e| e.form != Form::Each && e.reads(part) && e.kind.answers(part)).map(|e| e.kind)
    }

    /// Whether `part` has nothing the kind cannot say: no folder to look in, and no filter of tests
    /// but a ranking's.
    fn answers(self, part: &Part) -> bool {
        let tests = part.only_tests || (part.without_tests && self != Kind::MostImportedNoTests);
        part.within.is_none() && !tests
    }
}

impl Entry {
    /// Whether `part` is of this entry's relation and form.
    fn reads(&self, part: &Part) -> bool {
        let list = !part.count && !part.yes_no && !part.runtime;
        let form = match self.form {
            Form::List | Form::Each => list,
            Form::Count => part.count && !part.yes_no && !part.runtime,
            Form::YesNo => {
                !part.count && part.yes_no && !part.runtime && (part.transitive || part.relation != Relation::Reach)
            }
            Form::DirectYesNo => !part.count && part.yes_no && !part.runtime && !part.transitive,
            Form::Runtime => !part.count && !part.yes_no && part.runtime,
            Form::First => list && !part.without_tests && part.top == Some(1),
            Form::FirstNotTests => list && part.without_tests,
            Form::Top => list && !part.without_tests && part.top != Some(1),
        };
        self.relation == Some(part.relation) && form
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::understand::Entity;

    fn module(id: &str) -> Entity {
        Entity { mention: id.to_string(), id: id.to_string(), note: String::new() }
    }

    #[test]
    fn every_kind_reads_back_as_itself() {
        for entry in &KINDS {
            assert_eq!(Kind::named(entry.name), Some(entry.kind), "{}", entry.name);
            assert_eq!(entry.kind.entry().name, entry.name, "one entry for each kind");
            let Some(relation) = entry.relation else {
                assert_eq!(entry.kind, Kind::NotStructural);
                continue;
            };
            let mut part = Part::new(relation);
            entry.kind.shape(&mut part);
            if entry.form == Form::Top {
                part.top = Some(3);
            }
            let parts = if entry.form == Form::Each {
                ["a.py", "b.py"].map(|id| Part { modules: vec![module(id)], ..part.clone() }).to_vec()
            } else {
                vec![part]
            };
            assert_eq!(Kind::of(&parts), Some(entry.kind), "{}", entry.name);
        }
    }

    #[test]
    fn a_reading_in_a_form_no_kind_has_is_of_no_kind() {
        let mut ranking = Part::new(Relation::MostImported);
        ranking.runtime = true;
        let mut counted = Part::new(Relation::Dependencies);
        counted.count = true;
        let mut within = Part::new(Relation::Importers);
        within.within = Some("shop".to_string());
        let imports_each =
            ["a.py", "b.py"].map(|id| Part { modules: vec![module(id)], ..Part::new(Relation::Imports) });
        for parts in [vec![ranking], vec![counted], vec![within], imports_each.to_vec()] {
            assert_eq!(Kind::of(&parts), None, "{parts:?}");
        }
    }
}
