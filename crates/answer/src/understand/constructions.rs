//! The constructions the reader knows, declared in one place. A construction is a way of saying
//! something that the cue words alone do not settle: a tag that makes a statement a question, a
//! package named as where to look, two names joined by "and", a pull request pointed at. Each one is
//! recognised by one check of the reader (`clause.rs`, `mod.rs`, `change.rs`), which notes it when it
//! sees it, and each is declared here with what it means and at least two examples. The examples are
//! the unit tests: each must be noted as that construction and read as written (`tests` below). A
//! construction without examples does not build.

/// A construction the reader recognises.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Construction {
    /// An auxiliary first ("does…", "is…"), "whether", or "…if" after a verb of finding out.
    YesNo,
    /// A statement with a question mark and no question word, with "any"/"at all" or a module said
    /// to have or be something ("X has importers?"): a yes or no.
    EllipticalYesNo,
    /// A statement turned into a question by a tag after a comma ("…, right?").
    TagQuestion,
    /// "in a lazy way": how code behaves, not which module imports which.
    InAManner,
    /// "Is the import of X in Y needed?", "which imports in X are unused?": whether an import statement
    /// is needed is how code uses names, not which module imports which.
    JudgesAnImport,
    /// "which database", "what arguments": the head noun after which/what is not something the graph holds.
    AsksForSomethingElse,
    /// "What does X do?", "What does X use Y for?": behaviour or purpose.
    WhatCodeDoes,
    /// A package right after "in"/"within"/"across", or after "the rest of": where to look.
    PackageScope,
    /// The project's own top-level package named bare as where to look: the whole repository.
    WholeProject,
    /// "What imports what in shop?": both ends of an import asked for, every edge; the asker is
    /// asked which module.
    EveryEdge,
    /// "in a cycle together", "with each other": two modules in one cycle.
    CycleTogether,
    /// "modules that only import the standard library": modules with no import of the repository.
    OnlyOutside,
    /// "importers of X, not counting Y": a module to leave out, which no answer does.
    ExcludesAModule,
    /// A negation left over ("which modules import nothing?"): modules without imports, or declined.
    Negated,
    /// "Does X import itself?": the reflexive object of a relation, a cycle question.
    Reflexive,
    /// "What can I import from X?": a person importing asks for the names X offers, its exports;
    /// which ones one *should* import is advice, declined.
    PersonImports,
    /// Names joined by "and", "or", commas or "for each": the same role each.
    Coordinated,
    /// The same module in two opposite relations at once: declined.
    BothDirections,
    /// A passive without "by" after a name a preposition governs: declined.
    PassiveWithoutAgent,
    /// "importers of X": a noun whose "of" names the module says the relation.
    NounOf,
    /// "Does importing A pull in B?": a gerund opening the clause makes A the subject of the verb
    /// between the names.
    GerundSubject,
    /// "…, and if so, which ones?": the previous question again, as a list.
    FollowUp,
    /// "And B?": the previous relation about other modules.
    SameForOthers,
    /// "the importers of each one: A, B": a clause that refers to modules it does not name, then the
    /// names alone.
    NamesAfter,
    /// "X's importers and its imports", "fan-in, fan-out": two nouns of the relation running opposite
    /// ways, joined, ask both of the same modules.
    OppositeNouns,
    /// "Is X imported by more than two modules?": a number compared, declined.
    ComparesANumber,
    /// "Is X only imported by Y?", "which modules only import X?", "…only indirectly?", "is Y the only
    /// importer of X?", "does only Y import X?": who imports, exclusively; declined.
    OnlyWho,
    /// "What does X import from Y?", "which functions of Y does X use?": the names, as in
    /// `from Y import …`; declined.
    NamesFromAModule,
    /// "What does the module that X imports import?", "the module X imports most, is it in a cycle?": a
    /// module described by a relation, not named, that the question asks about; declined.
    NestedRelative,
    /// "Which modules import X and are in a cycle?", "which of X's imports are in a cycle?": a cycle as
    /// a condition on a relation's modules; declined.
    CycleAsACondition,
    /// "Which importers of X are tests?", "is any importer of X a test?", "do tests import X?": tests
    /// said of the modules a relation gives, or its subject; those that are tests. "Are all importers
    /// of X tests?" is declined.
    TestsSaidOfThem,
    /// "Which modules imported by X import Y?", "what does X import that depends on Y?": the modules
    /// one relation gives restricted by a second; declined.
    TwoRelations,
    /// "modules that import nothing and are imported by nothing": neither leaves nor roots; declined.
    NeitherWay,
    /// "what imports the module that defines Cart?": "defines" in a relative clause describes the
    /// module the relation is about; not a definition question.
    DefinesInARelative,
    /// "Is there a cycle that does not include X?": a cycle said with a negation; declined.
    NegatedCycle,
    /// "Which modules import both X and Y?", "…imported by both X and Y?": the modules the two share;
    /// declined.
    Common,
    /// "Which imports which, A or B?", "is there a dependency between A and B?": which way, or either
    /// way; declined.
    EitherWay,
    /// "Does every module import X?", "is X imported by all other modules?", "do all tests import X?": a
    /// relation asked of every module, which a yes or no about any one does not answer; declined.
    EveryModule,
    /// "Does X reach Y in two hops?": a number of hops; declined.
    Hops,
    /// "Are there multiple paths from A to B?", "how many import chains lead from A to B?": paths
    /// counted; declined.
    ManyPaths,
    /// "Are there cycles of length 2?", "how many cycles include X?", "how many modules are in a
    /// cycle?": cycles chosen by their size, the cycles of a module or the modules in cycles counted;
    /// declined.
    CyclesRestricted,
    /// "Where was X defined before?", "when was X first imported?", "who last changed X?": another time;
    /// declined.
    AnotherTime,
    /// "Should X import Y?", "which modules ought to import X?": what should be; declined.
    Advice,
    /// "If X imported Y, would there be a cycle?": a supposed import; declined.
    Supposed,
    /// "Which modules does X import? Are they in a cycle?": "they" are an earlier answer's modules;
    /// declined.
    ResultsReferredTo,
    /// "it", "that module", "them" for a module named earlier in the question.
    Pronoun,
    /// A statement before the question ("We're splitting X.") that gives it names but asks nothing.
    Scene,
    /// "We're trying to kill circular imports. Is X in one?": a cycle a statement talks about, pointed
    /// back at by a question that says no relation of its own.
    CycleSaidBefore,
    /// "I see Y loaded whenever X is imported. Which chain causes that?": a chain between the two
    /// modules of a statement runs the way the statement said, whatever order the names came in.
    ChainAsStated,
    /// "When X is imported, which modules get loaded?": a name a conjunction of time opens and a passive
    /// import closes is loaded first, the importer of what the main clause says is loaded; so is the
    /// name a person imports after one ("when I import X, …").
    Condition,
    /// "For the circular import fix, list the importers of X": a piece of work named first, up to a
    /// comma, says what the question is for; its words are not the question's.
    PurposeFirst,
    /// "What imports X? I want to notify the owners before changing its interface.": a statement in
    /// the first person after the question, naming and asking nothing, says why; it is not read.
    PurposeAfter,
    /// "Before I rename X, does Y depend on it?": "it" in a question that names another module is
    /// the one module of the framing before it.
    FramedReferent,
    /// "Which modules does X rely on, including the ones it reaches through others?": the relation
    /// said again after "including" or "even", in the same role, widened; one relation.
    Widened,
    /// "Is X imported by anyone or by nobody?": a negation after "or" in a yes or no question offers
    /// the other answer; it negates nothing.
    OtherAnswer,
    /// "Is it true that nobody imports X?", "I think nobody imports X, can you check?": a negative
    /// subject of a verb whose object is named; the positive yes or no, whose answer states the fact.
    NobodyDoes,
    /// "How many modules import X — module count, not line count?": a negation after a break that
    /// says what kind of answer is wanted; it negates nothing.
    Contrast,
    /// "Release checklist: which module …": a few framing words before a colon label the question.
    Heading,
    /// "this PR", "the files I changed", "should we re-run tests": a question about a pull request.
    PointsAtChange,
    /// "How widely used is X? Specifically, how many modules import it?": a clause read instead of the
    /// one before it.
    Restatement,
    /// "/importers X", "/depends A B", "/imported? X --runtime": a question written as a command,
    /// read as the English it abbreviates (`command.rs`).
    Command,
    /// The rules read the question, and the back-off reader's model is sure it asks another relation
    /// or names the importer the other way round (`agree.rs`): declined.
    Disputed,
    /// No construction fits, and the wording resembles a kind of structural question closely enough
    /// for the back-off reader (`backoff.rs`) to answer it.
    Resembled,
}

/// What a construction does to the reading of a question it is seen in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Effect {
    /// It helps read the question.
    Reads,
    /// It reads a relation other than the words alone suggest ("what depends on the file which
    /// *defines* X?" asks for dependents): the back-off reader's model, which reads words, is expected
    /// to disagree, and does not dispute the reading (`agree.rs`).
    Rereads,
    /// A question it is seen in is declined on purpose when the rules are unsure of it: the back-off
    /// reader (`backoff.rs`) never answers what the rules chose not to.
    Declines,
}

/// A construction with what it means and the examples that test it.
pub struct Declared {
    pub construction: Construction,
    /// What it does to a reading.
    pub effect: Effect,
    /// Each example and how it reads over the test bundle of `tests` (see `reading` there).
    pub examples: &'static [(&'static str, &'static str)],
}

/// Every construction, in the order of [`Construction`], each with its examples.
pub const DECLARED: &[Declared] = &[
    Declared {
        construction: Construction::YesNo,
        effect: Effect::Reads,
        examples: &[
            ("does shop.cart import shop.pricing?", "reach shop/cart.py shop/pricing.py yes-no"),
            ("Can you check whether shop.api imports shop.models?", "reach shop/api.py shop/models.py yes-no"),
        ],
    },
    Declared {
        construction: Construction::EllipticalYesNo,
        effect: Effect::Reads,
        examples: &[
            ("anything importing shop.pricing?", "importers shop/pricing.py yes-no"),
            ("shop.models imported at all?", "importers shop/models.py yes-no"),
            ("shop.cart has importers?", "importers shop/cart.py yes-no"),
            ("`shop.cart` is in a cycle?", "cycle-of shop/cart.py yes-no"),
        ],
    },
    Declared {
        construction: Construction::TagQuestion,
        effect: Effect::Reads,
        examples: &[
            ("shop.cart imports shop.pricing, right?", "reach shop/cart.py shop/pricing.py yes-no"),
            ("shop.api doesn't import shop.cart, correct?", "reach shop/api.py shop/cart.py yes-no"),
        ],
    },
    Declared {
        construction: Construction::InAManner,
        effect: Effect::Declines,
        examples: &[
            ("does shop.cart load shop.pricing in a lazy way?", "unsure"),
            ("Is shop.models imported in a thread-safe manner?", "unsure"),
        ],
    },
    Declared {
        construction: Construction::JudgesAnImport,
        effect: Effect::Declines,
        examples: &[
            ("Is the import of shop.models in shop.cart needed?", "unsure"),
            ("which imports in shop.cart are unused?", "unsure"),
        ],
    },
    Declared {
        construction: Construction::AsksForSomethingElse,
        effect: Effect::Declines,
        examples: &[
            ("which database does shop.models import?", "unsure"),
            ("what arguments does shop.api take from shop.cart?", "unsure"),
        ],
    },
    Declared {
        construction: Construction::WhatCodeDoes,
        effect: Effect::Declines,
        examples: &[
            ("What does shop.cart do with shop.pricing?", "unsure"),
            ("What does shop.api use shop.models for?", "unsure"),
        ],
    },
    Declared {
        construction: Construction::PackageScope,
        effect: Effect::Declines,
        examples: &[
            ("which modules in shop.payments import shop.models?", "importers shop/models.py within shop/payments/"),
            (
                "what does shop/payments/card.py need from the rest of shop.payments?",
                "imports shop/payments/card.py within shop/payments/",
            ),
        ],
    },
    Declared {
        construction: Construction::WholeProject,
        effect: Effect::Reads,
        examples: &[
            ("Are there import cycles in shop?", "cycles yes-no"),
            ("what is the most imported module in shop?", "most-imported top 1"),
        ],
    },
    Declared {
        construction: Construction::EveryEdge,
        effect: Effect::Declines,
        examples: &[
            ("What imports what in shop?", "no-module"),
            ("which modules import which, inside the shop package?", "no-module"),
        ],
    },
    Declared {
        construction: Construction::CycleTogether,
        effect: Effect::Reads,
        examples: &[
            ("Are shop.cart and shop.pricing in a cycle together?", "same-cycle shop/cart.py shop/pricing.py yes-no"),
            ("is there a cycle between shop.api and shop.models", "same-cycle shop/api.py shop/models.py yes-no"),
        ],
    },
    Declared {
        construction: Construction::OnlyOutside,
        effect: Effect::Declines,
        examples: &[
            ("which modules only import the standard library?", "leaves"),
            ("list the modules that only import third-party packages", "leaves"),
        ],
    },
    Declared {
        construction: Construction::ExcludesAModule,
        effect: Effect::Declines,
        examples: &[
            ("Leaving out tests and shop.api, what imports shop.models?", "unsure"),
            ("Ignoring tests or shop.cart, which modules depend on shop.pricing?", "unsure"),
        ],
    },
    Declared {
        construction: Construction::Negated,
        effect: Effect::Declines,
        examples: &[
            ("which modules don't import anything?", "leaves"),
            ("which modules are not imported by any module?", "roots"),
            ("which modules does no module import?", "roots"),
            ("modules nothing imports?", "roots"),
            ("which files are imported by nobody?", "roots"),
        ],
    },
    Declared {
        construction: Construction::Reflexive,
        effect: Effect::Rereads,
        examples: &[
            ("does shop.cart import itself?", "cycle-of shop/cart.py yes-no"),
            ("Does shop.api depend on itself?", "cycle-of shop/api.py yes-no"),
        ],
    },
    Declared {
        construction: Construction::PersonImports,
        effect: Effect::Rereads,
        examples: &[
            ("What can be imported from the module shop.pricing?", "exports shop/pricing.py"),
            ("what can I import from shop.cart?", "exports shop/cart.py"),
            ("what could we import from shop.models?", "exports shop/models.py"),
            ("which things should we import from shop.models?", "unsure"),
        ],
    },
    Declared {
        construction: Construction::Coordinated,
        effect: Effect::Reads,
        examples: &[
            ("what imports shop.cart and shop.pricing?", "importers shop/cart.py | importers shop/pricing.py"),
            ("what depends on shop.api or shop.models?", "dependents shop/api.py | dependents shop/models.py"),
            (
                "which modules import shop.api, shop.cart, and shop.models?",
                "importers shop/api.py | importers shop/cart.py | importers shop/models.py",
            ),
        ],
    },
    Declared {
        construction: Construction::BothDirections,
        effect: Effect::Declines,
        examples: &[
            ("which modules import and are imported by shop.cart?", "unsure"),
            ("modules that both import shop.cart and are imported by it", "unsure"),
        ],
    },
    Declared {
        construction: Construction::PassiveWithoutAgent,
        effect: Effect::Declines,
        examples: &[
            ("which modules must come with shop.cart (directly or indirectly imported)?", "unsure"),
            ("what goes into shop.models (imported indirectly)?", "unsure"),
        ],
    },
    Declared {
        construction: Construction::NounOf,
        effect: Effect::Reads,
        examples: &[
            ("users of shop.pricing via import", "importers shop/pricing.py"),
            ("the importers of shop.models via imports", "importers shop/models.py"),
        ],
    },
    Declared {
        construction: Construction::GerundSubject,
        effect: Effect::Reads,
        examples: &[
            ("does importing shop.api pull in shop.models?", "reach shop/api.py shop/models.py yes-no"),
            (
                "would loading shop.cart bring in shop.pricing, directly or indirectly?",
                "reach shop/cart.py shop/pricing.py transitive yes-no",
            ),
        ],
    },
    Declared {
        construction: Construction::FollowUp,
        effect: Effect::Reads,
        examples: &[
            ("does anything import shop.pricing, and if so, which modules?", "importers shop/pricing.py yes-no"),
            ("Is shop.models imported? If yes, by which ones?", "importers shop/models.py yes-no"),
            ("What are the most imported modules? Give me the first 2.", "most-imported top 2"),
            ("shop.api dead or imported? if imported, by which modules", "importers shop/api.py yes-no"),
            ("shop.pricing used by any module, if so who", "importers shop/pricing.py yes-no"),
        ],
    },
    Declared {
        construction: Construction::SameForOthers,
        effect: Effect::Reads,
        examples: &[
            ("What imports shop.cart? And shop.pricing?", "importers shop/cart.py | importers shop/pricing.py"),
            ("what does shop.api import; what about shop.models?", "imports shop/api.py | imports shop/models.py"),
        ],
    },
    Declared {
        construction: Construction::NamesAfter,
        effect: Effect::Reads,
        examples: &[
            (
                "What are the direct importers of each one: shop.cart, shop.pricing?",
                "importers shop/cart.py | importers shop/pricing.py",
            ),
            (
                "List the importers of the following modules: shop.api and shop.models.",
                "importers shop/api.py | importers shop/models.py",
            ),
        ],
    },
    Declared {
        construction: Construction::OppositeNouns,
        effect: Effect::Reads,
        examples: &[
            ("give me shop.pricing's importers and imports", "importers shop/pricing.py | imports shop/pricing.py"),
            ("shop.models: deps, reverse deps?", "imports shop/models.py | importers shop/models.py"),
            ("What are the fan-out and fan-in of shop.api?", "imports shop/api.py | importers shop/api.py"),
            ("imports, importers of shop.cart?", "imports shop/cart.py | importers shop/cart.py"),
        ],
    },
    Declared {
        construction: Construction::ComparesANumber,
        effect: Effect::Declines,
        examples: &[
            ("Is shop.models imported by more than two modules?", "unsure"),
            ("does shop.api import fewer than 3 modules", "unsure"),
            ("Is shop.cart more imported than shop.pricing?", "unsure"),
            ("which gets imported less often, shop.api or shop.models?", "unsure"),
        ],
    },
    Declared {
        construction: Construction::OnlyWho,
        effect: Effect::Declines,
        examples: &[
            ("Is shop.cart only imported by shop.api?", "unsure"),
            ("which modules only import shop.pricing?", "unsure"),
            ("is shop.cart only imported by tests?", "unsure"),
            ("which modules depend on shop.models only indirectly?", "unsure"),
            ("is shop.models a transitive dependency of shop.api but not a direct one?", "unsure"),
            ("Is shop.cart the only importer of shop.pricing?", "unsure"),
            ("does only shop.cart import shop.pricing?", "unsure"),
        ],
    },
    Declared {
        construction: Construction::NamesFromAModule,
        effect: Effect::Declines,
        examples: &[
            ("What does shop.cart import from shop.pricing?", "unsure"),
            ("which classes does shop.api import from shop.models", "unsure"),
            ("Which functions of shop.models are used by shop.cart?", "unsure"),
        ],
    },
    Declared {
        construction: Construction::NestedRelative,
        effect: Effect::Declines,
        examples: &[
            ("What does the module that shop.api imports import?", "unsure"),
            ("list the importers of the modules which shop.api imports", "unsure"),
            ("is Cart defined in a file which shop.api imports?", "unsure"),
            ("the module shop.api imports most, is it in a cycle?", "unsure"),
            ("Is the module that shop.api imports in a cycle?", "unsure"),
            ("The one imported by shop.api. Who else imports it?", "unsure"),
            ("The most imported module. Is it in a cycle?", "unsure"),
        ],
    },
    Declared {
        construction: Construction::CycleAsACondition,
        effect: Effect::Declines,
        examples: &[
            ("Which modules import shop.cart but aren't in a cycle?", "unsure"),
            ("what does shop.api import and is also part of an import loop", "unsure"),
            ("modules importing shop.models and are part of a cycle", "unsure"),
            ("Which of shop.cart's imports are in a cycle?", "unsure"),
            ("Which modules in the import cycle are imported by shop.cart?", "unsure"),
        ],
    },
    Declared {
        construction: Construction::TestsSaidOfThem,
        effect: Effect::Rereads,
        examples: &[
            ("Which importers of shop.models are tests?", "importers shop/models.py only-tests"),
            ("Is any importer of shop.models a test?", "importers shop/models.py only-tests yes-no"),
            ("which of the modules shop.cart imports are test modules", "imports shop/cart.py only-tests"),
            ("do tests import shop.cart?", "importers shop/cart.py only-tests yes-no"),
            ("Are all importers of shop.models tests?", "unsure"),
        ],
    },
    Declared {
        construction: Construction::TwoRelations,
        effect: Effect::Declines,
        examples: &[
            ("Which modules imported by shop.api import shop.models?", "unsure"),
            ("What modules does shop.api import that depend on shop.models?", "unsure"),
            ("how many modules does shop.cart import that import shop.models", "unsure"),
            ("Which modules that import shop.models are imported by shop.api?", "unsure"),
            ("Does shop.api import any module that imports shop.models?", "unsure"),
            ("Which of shop/cart.py's imports import shop/models.py?", "unsure"),
        ],
    },
    Declared {
        construction: Construction::NeitherWay,
        effect: Effect::Declines,
        examples: &[
            ("How many modules import nothing and are imported by nothing?", "unsure"),
            ("modules that are not imported by any module and import nothing", "unsure"),
        ],
    },
    Declared {
        construction: Construction::DefinesInARelative,
        effect: Effect::Rereads,
        examples: &[
            ("What imports the module that defines Cart?", "importers shop/cart.py"),
            ("which modules depend on the file which defines PriceRule?", "dependents shop/pricing.py"),
            ("Is the file where Cart is defined in an import cycle?", "cycle-of shop/cart.py yes-no"),
        ],
    },
    Declared {
        construction: Construction::NegatedCycle,
        effect: Effect::Declines,
        examples: &[
            ("Is there a cycle that does not include shop.cart?", "unsure"),
            ("which cycles don't contain shop.models?", "unsure"),
        ],
    },
    Declared {
        construction: Construction::Common,
        effect: Effect::Declines,
        examples: &[
            ("Which modules import both shop.cart and shop.pricing?", "unsure"),
            ("what do shop.api and shop.cart both import", "unsure"),
            ("What imports do shop.cart and shop.api have in common?", "unsure"),
            ("Which modules are imported by both shop.cart and shop.api?", "unsure"),
            ("which module is imported by shop.cart and shop.api both", "unsure"),
        ],
    },
    Declared {
        construction: Construction::EitherWay,
        effect: Effect::Declines,
        examples: &[
            ("is there a dependency between shop.cart and shop.models?", "unsure"),
            ("which imports which, shop.cart or shop.models?", "unsure"),
            ("does shop.cart depend on shop.models or the other way round?", "unsure"),
        ],
    },
    Declared {
        construction: Construction::EveryModule,
        effect: Effect::Declines,
        examples: &[
            ("does every module import shop.models?", "unsure"),
            ("Is shop.models imported by all the other modules?", "unsure"),
            ("do all files depend on shop.pricing", "unsure"),
            ("Do all tests import shop.models?", "unsure"),
        ],
    },
    Declared {
        construction: Construction::Hops,
        effect: Effect::Declines,
        examples: &[
            ("Does shop.api reach shop.models in two hops?", "unsure"),
            ("which modules depend on shop.cart within 3 steps?", "unsure"),
        ],
    },
    Declared {
        construction: Construction::ManyPaths,
        effect: Effect::Declines,
        examples: &[
            ("are there multiple paths from shop.api to shop.models?", "unsure"),
            ("how many import chains lead from shop.api to shop.pricing", "unsure"),
        ],
    },
    Declared {
        construction: Construction::CyclesRestricted,
        effect: Effect::Declines,
        examples: &[
            ("are there cycles of length 2?", "unsure"),
            ("how many cycles include shop.models?", "unsure"),
            ("any import cycle with more than three modules?", "unsure"),
            ("how many modules are in a cycle?", "unsure"),
        ],
    },
    Declared {
        construction: Construction::AnotherTime,
        effect: Effect::Declines,
        examples: &[
            ("Where was Cart defined before?", "unsure"),
            ("When was shop.cart first imported by shop.api?", "unsure"),
            ("which modules used to import shop.pricing?", "unsure"),
            ("Who last changed shop/pricing.py, and why?", "unsure"),
        ],
    },
    Declared {
        construction: Construction::Advice,
        effect: Effect::Declines,
        examples: &[
            ("Should shop.api import shop.cart?", "unsure"),
            ("must shop.models depend on shop.pricing", "unsure"),
            ("Which modules ought to import shop.models?", "unsure"),
            ("Should anything depend on shop.pricing, and what does now?", "unsure"),
        ],
    },
    Declared {
        construction: Construction::Supposed,
        effect: Effect::Declines,
        examples: &[
            ("If shop.models imported shop.api, would there be a cycle?", "unsure"),
            ("if shop.pricing started importing shop.api, what would break?", "unsure"),
        ],
    },
    Declared {
        construction: Construction::ResultsReferredTo,
        effect: Effect::Declines,
        examples: &[
            ("Which modules does shop.api import? Are they in a cycle?", "unsure"),
            ("Which modules import shop.cart, and for each, what imports them?", "unsure"),
        ],
    },
    Declared {
        construction: Construction::Pronoun,
        effect: Effect::Reads,
        examples: &[
            ("shop.pricing looks unused. What imports it?", "importers shop/pricing.py"),
            ("I'm moving shop.models. Is it in a cycle?", "cycle-of shop/models.py yes-no"),
        ],
    },
    Declared {
        construction: Construction::Scene,
        effect: Effect::Reads,
        examples: &[
            ("We are splitting shop.cart into two files. Which modules import it?", "importers shop/cart.py"),
            ("I'm reviewing shop.api. What does it import?", "imports shop/api.py"),
        ],
    },
    Declared {
        construction: Construction::CycleSaidBefore,
        effect: Effect::Reads,
        examples: &[
            ("We are trying to kill circular imports. Is shop.cart in one?", "cycle-of shop/cart.py yes-no"),
            ("There is an import cycle around shop.api. Which modules are in it?", "cycle-of shop/api.py"),
        ],
    },
    Declared {
        construction: Construction::ChainAsStated,
        effect: Effect::Reads,
        examples: &[
            (
                "We see shop.models loaded whenever shop.api is imported. Which chain of imports does that?",
                "reach shop/api.py shop/models.py transitive",
            ),
            (
                "shop.pricing is loaded whenever shop.cart is imported. Show the path.",
                "reach shop/cart.py shop/pricing.py transitive",
            ),
        ],
    },
    Declared {
        construction: Construction::Condition,
        effect: Effect::Reads,
        examples: &[
            ("when shop.cart is imported, which modules get loaded, indirectly too?", "dependencies shop/cart.py"),
            ("is shop.models loaded whenever shop.api is imported?", "reach shop/api.py shop/models.py yes-no"),
            ("When I import shop.api, which modules get loaded transitively?", "dependencies shop/api.py"),
            ("If I import shop.cart, is shop.models imported too?", "reach shop/cart.py shop/models.py yes-no"),
            ("how does shop.models show up when importing shop.api?", "reach shop/api.py shop/models.py transitive"),
        ],
    },
    Declared {
        construction: Construction::PurposeFirst,
        effect: Effect::Reads,
        examples: &[
            ("For the circular import fix, list the direct importers of shop.cart.", "importers shop/cart.py"),
            ("During the cycle cleanup, what does shop.api import?", "imports shop/api.py"),
        ],
    },
    Declared {
        construction: Construction::PurposeAfter,
        effect: Effect::Reads,
        examples: &[
            (
                "Which modules import shop.pricing directly? I want to warn the owners before changing its interface.",
                "importers shop/pricing.py",
            ),
            ("What does shop.api import? We plan to split it next sprint.", "imports shop/api.py"),
            ("which module is imported the most, since it is the riskiest to move?", "most-imported top 1"),
            ("list the importers of shop.cart so we can warn their owners", "importers shop/cart.py"),
        ],
    },
    Declared {
        construction: Construction::FramedReferent,
        effect: Effect::Reads,
        examples: &[
            (
                "Before I rename shop.pricing, does shop.api depend on it?",
                "reach shop/api.py shop/pricing.py transitive yes-no",
            ),
            ("After we split shop.cart, will shop.api still import it?", "reach shop/api.py shop/cart.py yes-no"),
        ],
    },
    Declared {
        construction: Construction::Widened,
        effect: Effect::Reads,
        examples: &[
            (
                "Which modules does shop.models rely on, including the ones it reaches through other modules?",
                "dependencies shop/models.py",
            ),
            ("what does shop.api import, even the modules it reaches indirectly", "dependencies shop/api.py"),
        ],
    },
    Declared {
        construction: Construction::OtherAnswer,
        effect: Effect::Reads,
        examples: &[
            ("Is shop.cart imported by anyone or by nobody?", "importers shop/cart.py yes-no"),
            ("Is shop.cart imported by anything, or is it imported by nobody?", "importers shop/cart.py yes-no"),
        ],
    },
    Declared {
        construction: Construction::NobodyDoes,
        effect: Effect::Reads,
        examples: &[
            ("Is it true that nobody imports shop.cart?", "importers shop/cart.py yes-no"),
            ("Tell me if nothing imports shop.pricing.", "importers shop/pricing.py yes-no"),
            ("I think nobody imports shop.cart, can you check?", "importers shop/cart.py yes-no"),
        ],
    },
    Declared {
        construction: Construction::Contrast,
        effect: Effect::Reads,
        examples: &[
            (
                "How many modules import shop.pricing directly — module count, not line count?",
                "importers shop/pricing.py count",
            ),
            ("how many modules import shop.pricing, not statements?", "importers shop/pricing.py count"),
        ],
    },
    Declared {
        construction: Construction::Heading,
        effect: Effect::Reads,
        examples: &[
            ("Release checklist: which modules import shop.pricing?", "importers shop/pricing.py"),
            ("Post-mortem metric: how many modules depend on shop.models?", "dependents shop/models.py count"),
            ("Pricing plan: which modules import shop.cart?", "importers shop/cart.py"),
            // The question after it merges with its qualifier: the heading is still noted.
            (
                "Release checklist: which module has the most importers? Not counting tests.",
                "most-imported without-tests top 1",
            ),
        ],
    },
    Declared {
        construction: Construction::PointsAtChange,
        effect: Effect::Declines,
        examples: &[
            ("which tests should I re-run for my changes?", "change tests"),
            ("does this pull request add an import cycle?", "change cycles yes-no"),
        ],
    },
    Declared {
        construction: Construction::Restatement,
        effect: Effect::Reads,
        examples: &[
            (
                "How widely used is shop.cart? Specifically, how many modules import it directly?",
                "importers shop/cart.py count",
            ),
            ("what is shop.api built on? I mean, which modules does it import?", "imports shop/api.py"),
            (
                "is shop.api one hop from shop.cart, i.e. does it import it directly?",
                "reach shop/api.py shop/cart.py yes-no",
            ),
        ],
    },
    Declared {
        construction: Construction::Command,
        effect: Effect::Reads,
        examples: &[
            ("/imports shop.api", "imports shop/api.py"),
            ("/importers shop.pricing --runtime", "importers shop/pricing.py runtime"),
            ("/depends shop.api shop.pricing", "reach shop/api.py shop/pricing.py transitive"),
            ("/imported? shop.api", "importers shop/api.py yes-no"),
            ("/count-cycles", "cycles count"),
        ],
    },
    Declared {
        construction: Construction::Disputed,
        effect: Effect::Declines,
        examples: &[
            // The rules read both as the imports of the module named.
            ("In how many modules does an import of shop.cart appear?", "unsure"),
            ("In how many modules does an import of shop.pricing appear?", "unsure"),
        ],
    },
    Declared {
        construction: Construction::Resembled,
        effect: Effect::Reads,
        examples: &[
            ("Which modules form a ring of imports with shop.cart?", "cycle-of shop/cart.py"),
            (
                "Moving shop.payments.card into a separate repo: what else has to come along, indirect included",
                "dependencies shop/payments/card.py",
            ),
            (
                "Please produce two lists: the importers of shop.cart, and then those of shop.models.",
                "importers shop/cart.py | importers shop/models.py",
            ),
        ],
    },
];

impl Construction {
    /// What it does to a reading.
    pub fn effect(self) -> Effect {
        DECLARED[self as usize].effect
    }
}

/// Every construction is declared once, in order, with at least two examples: checked as the crate
/// builds, so a construction added without examples is a build error.
const _: () = {
    assert!(DECLARED.len() == Construction::Resembled as usize + 1, "declare every construction");
    let mut i = 0;
    while i < DECLARED.len() {
        assert!(DECLARED[i].construction as usize == i, "declare the constructions in the enum's order");
        assert!(DECLARED[i].examples.len() >= 2, "a construction needs at least two examples");
        i += 1;
    }
};

#[cfg(test)]
mod tests {
    use super::*;
    use crate::entities::EntityLinker;
    use crate::understand::{Part, Relation, Understanding, understand};

    /// The modules the examples name: `shop` with its `payments` package, and a test.
    fn bundle() -> strata_core::bundle::Bundle {
        crate::understand::tests::bundle_of(&[
            ("shop/__init__.py", &[]),
            ("shop/cart.py", &["Cart"]),
            ("shop/pricing.py", &["PriceRule"]),
            ("shop/models.py", &["Product"]),
            ("shop/api.py", &["create_app"]),
            ("shop/payments/__init__.py", &[]),
            ("shop/payments/card.py", &["charge"]),
            ("tests/test_cart.py", &["test_total"]),
        ])
    }

    /// A reading in a few words: each part's relation, modules and modifiers, `|` between parts;
    /// `unsure` when not understood; `change TOPIC` for a question about a pull request.
    fn reading(understood: &Understanding) -> String {
        if let Some(change) = understood.change {
            let topic = serde_json::to_value(change.topic).ok().and_then(|v| v.as_str().map(str::to_string));
            let yes_no = if change.yes_no { " yes-no" } else { "" };
            return format!("change {}{yes_no}", topic.unwrap_or_default());
        }
        if understood.names_no_module {
            return "no-module".into();
        }
        if !understood.complete() {
            return "unsure".into();
        }
        understood.parts.iter().map(part).collect::<Vec<_>>().join(" | ")
    }

    fn part(part: &Part) -> String {
        let relation = serde_json::to_value(part.relation).ok().and_then(|v| v.as_str().map(|s| s.replace('_', "-")));
        let mut words = vec![relation.unwrap_or_default()];
        words.extend(part.modules.iter().map(|m| m.id.clone()));
        let flags = [
            (part.relation == Relation::Reach && part.transitive, "transitive"),
            (part.runtime, "runtime"),
            (part.count, "count"),
            (part.without_tests, "without-tests"),
            (part.only_tests, "only-tests"),
        ];
        words.extend(flags.iter().filter(|(on, _)| *on).map(|(_, word)| word.to_string()));
        if let Some(within) = &part.within {
            words.push(format!("within {within}"));
        }
        if let Some(top) = part.top {
            words.push(format!("top {top}"));
        }
        if part.yes_no {
            words.push("yes-no".into());
        }
        words.join(" ")
    }

    #[test]
    fn every_example_is_noted_as_its_construction_and_read_as_declared() {
        let bundle = bundle();
        let linker = EntityLinker::new(&bundle);
        let mut failures = Vec::new();
        for declared in DECLARED {
            for (question, expected) in declared.examples {
                let understood = understand(question, &linker);
                let got = reading(&understood);
                let noted = understood.constructions.contains(&declared.construction);
                if got != *expected || !noted {
                    failures.push(format!(
                        "{:?}: {question:?}\n  expected {expected:?}, read {got:?}{}",
                        declared.construction,
                        if noted { "" } else { " (construction not noted)" }
                    ));
                }
            }
        }
        assert!(failures.is_empty(), "{}", failures.join("\n"));
    }
}
