//! Unit tests of query understanding over a small hand-made bundle: each relation in active and passive
//! voice and as a noun, each modifier, each composition, and the questions that must not be answered
//! from the graph. The module names are invented for these tests.

use super::*;
use strata_core::bundle::Bundle;

const CART: &str = "shop/cart.py";
const PRICING: &str = "shop/pricing.py";
const MODELS: &str = "shop/models.py";
const API: &str = "shop/api.py";

fn bundle() -> Bundle {
    bundle_of(&[
        ("shop/__init__.py", &[]),
        (CART, &["Cart", "add_item"]),
        (PRICING, &["PriceRule"]),
        (MODELS, &["Product"]),
        (API, &["create_app"]),
        ("tests/test_cart.py", &["test_total"]),
    ])
}

/// A bundle of `modules`, each with its classes, and no imports.
pub(super) fn bundle_of(modules: &[(&str, &[&str])]) -> Bundle {
    let mut bundle: Bundle = serde_json::from_str(
        r#"{"schema_version":"x","meta":{"generator":{"name":"s","version":"0"},"language":"python","edge_direction":"x","commit":null,"source":"git","source_roots":[],"conventions":{},"skipped_files":[]},"nodes":{},"edges":[],"cycles":[],"folder_index":{},"counts":{"modules":0,"edges":0,"type_checking_edges":0,"cycles":0,"cycles_runtime":0,"largest_cycle":0,"largest_cycle_runtime":0,"folders":0,"symbols":0,"partial_files":0,"skipped_files":0}}"#,
    )
    .expect("bundle skeleton");
    for &(id, symbols) in modules {
        let symbols: Vec<serde_json::Value> = symbols
            .iter()
            .map(|name| serde_json::json!({"name": name, "kind": "class", "line_start": 1, "line_end": 2}))
            .collect();
        let module = id.trim_end_matches(".py").trim_end_matches("/__init__").replace('/', ".");
        let node = serde_json::json!({
            "id": id, "module": module, "folder": "", "is_package": false,
            "docstring": null, "imports": [], "imports_count": 0, "importers_count": 0, "direct_importers_count": 0,
            "scc_size": 1, "scc_size_runtime": 1, "pagerank": 0.1, "exports": [], "exports_source": "public_names",
            "exports_fallback": [], "symbols": symbols, "entry_points": [],
            "external_imports": {"stdlib": [], "third_party": []}, "unresolved_imports": [], "n_lines": 2,
            "parse_status": "ok", "warnings": []
        });
        bundle.nodes.insert(id.to_string(), serde_json::from_value(node).expect("node"));
    }
    bundle
}

fn parse(question: &str) -> Understanding {
    let bundle = bundle();
    let linker = EntityLinker::new(&bundle);
    understand(question, &linker)
}

/// The one part of a completely understood question.
fn part(question: &str) -> Part {
    let understood = parse(question);
    assert!(understood.complete(), "{question}: {:?}", understood.unsure);
    assert_eq!(understood.parts.len(), 1, "{question}: {:?}", understood.parts);
    understood.parts[0].clone()
}

fn ids(part: &Part) -> Vec<&str> {
    part.modules.iter().map(|m| m.id.as_str()).collect()
}

#[test]
fn direction_comes_from_voice_and_nouns() {
    for (question, relation) in [
        ("what does shop.cart import", Relation::Imports),
        ("shop/cart.py imports what?", Relation::Imports),
        ("list everything imported by shop.cart", Relation::Imports),
        ("shop.cart's imports", Relation::Imports),
        ("what pulls in shop.cart?", Relation::Importers),
        ("Where is shop.cart imported?", Relation::Importers),
        ("shop.cart is used by which modules", Relation::Importers),
        ("importers of `shop/cart.py`", Relation::Importers),
        ("Which modules have shop.cart as a dependency?", Relation::Importers),
        ("Which modules is shop.cart a dependency of?", Relation::Importers),
        ("What imports does shop.cart have?", Relation::Imports),
        ("Which imports are used by shop.cart?", Relation::Imports),
        ("What imports shop.cart?", Relation::Importers),
        ("How many imports does shop.cart have?", Relation::Imports),
        ("How many imports come out of shop.cart?", Relation::Imports),
        ("how many imports in shop.cart", Relation::Imports),
        ("imports inside shop.cart?", Relation::Imports),
        ("List the modules whose import statements mention shop.cart directly.", Relation::Importers),
        ("modules whose imports include shop.cart", Relation::Importers),
        ("shop.cart is import by who?", Relation::Importers),
        ("shop.cart import by which modules?", Relation::Importers),
        ("is shop.cart use by anything?", Relation::Importers),
        ("what does shop.cart import by default?", Relation::Imports),
        ("shop.cart: imported by which modules?", Relation::Importers),
        ("shop.cart: who imports?", Relation::Importers),
    ] {
        let part = part(question);
        assert_eq!((part.relation, ids(&part)), (relation, vec![CART]), "{question}");
    }
}

#[test]
fn transitive_and_direct() {
    assert_eq!(part("What depends on shop.pricing?").relation, Relation::Dependents);
    assert_eq!(part("what directly depends on shop.pricing").relation, Relation::Importers);
    assert_eq!(part("which modules import shop.pricing, directly or indirectly?").relation, Relation::Dependents);
    assert_eq!(part("What could break if someone edits shop/pricing.py?").relation, Relation::Dependents);
    assert_eq!(part("everything shop.api pulls in, recursively").relation, Relation::Dependencies);
    assert_eq!(part("what's upstream of shop.api").relation, Relation::Dependencies);
    assert_eq!(part("what does shop.api ultimately import?").relation, Relation::Dependencies);
    assert_eq!(part("Which modules end up importing shop.pricing deep down the chain?").relation, Relation::Dependents);
}

#[test]
fn leaving_the_indirect_ones_out_is_direct() {
    for question in [
        "Which modules import shop.pricing, not counting indirect usage?",
        "which modules depend on shop.pricing, ignoring transitive ones",
        "What depends on shop.pricing without going through another module?",
        // Chat's "w/o" is "without".
        "what depends on shop.pricing w/o going through another module",
    ] {
        assert_eq!(part(question).relation, Relation::Importers, "{question}");
    }
    // Leaving the direct ones out asks for something the graph's answers do not give alone.
    assert_ne!(
        parse("Which modules depend on shop.pricing, ignoring direct importers?").parts.first().map(|p| p.relation),
        Some(Relation::Importers)
    );
}

#[test]
fn a_phrase_holds_through_an_adverb_or_a_missing_article() {
    for question in [
        "Which modules import shop.models when the code actually runs?",
        "which modules import shop.models when program runs",
        "Which modules import shop.models when the code runs?",
    ] {
        assert!(part(question).runtime, "{question}");
    }
}

#[test]
fn pairs_are_paths_with_their_direction() {
    let reach = part("Does shop.api rely on shop.models?");
    assert_eq!(
        (reach.relation, ids(&reach), reach.transitive, reach.yes_no),
        (Relation::Reach, vec![API, MODELS], true, true)
    );
    let passive = part("is shop.models imported by shop.api directly?");
    assert_eq!((ids(&passive), passive.transitive), (vec![API, MODELS], false));
    let path = part("show the chain of imports from shop.api to shop.models");
    assert_eq!((path.relation, ids(&path), path.transitive), (Relation::Reach, vec![API, MODELS], true));
    let started = part("Which modules lie on an import chain that starts at shop.api and ends at shop.models?");
    assert_eq!((started.relation, ids(&started), started.transitive), (Relation::Reach, vec![API, MODELS], true));
    let until = part("Trace the imports from shop.api until you reach shop.models.");
    assert_eq!(ids(&until), vec![API, MODELS]);
    let reversed = part("Is there an import path to shop.models from shop.api?");
    assert_eq!(ids(&reversed), vec![API, MODELS]);
    let changed = part("Would shop.api be affected if shop.models changed?");
    assert_eq!(ids(&changed), vec![API, MODELS]);
}

#[test]
fn a_reference_to_a_module_named_before_the_question_is_left_to_the_conversation() {
    let resolve = |q: &str| parse(q).resolved(q, CART);
    assert_eq!(resolve("what imports it?").as_deref(), Some("what imports shop/cart.py?"));
    assert_eq!(resolve("Is that module part of a cycle?").as_deref(), Some("Is shop/cart.py part of a cycle?"));
    assert_eq!(
        resolve("Does the same file import shop.models?").as_deref(),
        Some("Does shop/cart.py import shop.models?")
    );
    assert_eq!(
        resolve("And does it import shop.models?").as_deref(),
        Some("And does shop/cart.py import shop.models?")
    );
    // The question names what it refers to, or refers to nothing.
    for question in [
        "what imports shop/api.py?",
        "We are splitting shop.api. Who imports it?",
        "shop.api: who imports it?",
        "Does shop.api import shop.models, and is it in a cycle?",
        "What are the most imported modules?",
    ] {
        assert_eq!(resolve(question), None, "{question}");
    }
}

#[test]
fn a_ranking_of_the_modules_that_import_is_not_the_most_imported() {
    // "Depends on" counts every module reached, "imports" one import (docs/graph.md).
    for (question, relation) in [
        ("Which module imports the most modules?", Relation::MostImports),
        ("Which module has the most dependencies?", Relation::MostDependencies),
        ("Which module depends on the most other modules?", Relation::MostDependencies),
        ("Which module has the largest number of dependencies?", Relation::MostDependencies),
        ("Which module has the most direct dependencies?", Relation::MostImports),
        ("Which 3 modules import the most other modules, not counting tests?", Relation::MostImports),
    ] {
        assert_eq!(part(question).relation, relation, "{question}");
    }
    // Said both ways: not guessed.
    for question in ["What module has the most imports?", "Which module has the most direct imports?"] {
        assert!(!parse(question).complete(), "{question}");
    }
    for question in [
        "Which module do the most modules import?",
        "Which module do we import the most?",
        "What module everyone imports most",
        "What's the module that other modules import the most?",
        "Which module in the repository do modules import most?",
        "Which module has the most importers?",
        "Which module is a direct dependency of the most modules?",
        "Which module is imported the most?",
        "Which module shows up in the most imports?",
    ] {
        assert_eq!(part(question).relation, Relation::MostImported, "{question}");
    }
}

#[test]
fn a_relation_asked_about_no_module_at_all_asks_which_module() {
    for question in ["what imports?", "Who imports what?", "imports", "What depends on?", "What imports what in shop?"]
    {
        let understood = parse(question);
        assert!(understood.names_no_module && !understood.complete(), "{question}: {understood:?}");
    }
    // A module named, a word that may say what is asked about, a reference, or a question about the
    // whole graph: not that.
    for question in [
        "what imports shop.cart?",
        "what imports the checkout flow?",
        "what imports it?",
        "which modules import nothing?",
        "What are the most imported modules?",
    ] {
        assert!(!parse(question).names_no_module, "{question}");
    }
}

#[test]
fn anything_in_the_project_is_where_the_importers_are_looked_for() {
    // "Anything in shop" before the relation is where the importers are looked for: the whole project.
    for question in ["Does anything in shop import shop.cart?", "Does any module in shop import shop.cart?"] {
        let understood = parse(question);
        assert!(understood.complete(), "{question}: {:?}", understood.unsure);
        let part = &understood.parts[0];
        let read = (part.relation, part.yes_no, part.modules[0].id.as_str(), part.within.as_deref());
        assert_eq!(read, (Relation::Importers, true, CART, None), "{question}");
    }
    // After the relation, it is what is imported.
    let reach = parse("Does shop.api import anything in shop?");
    assert_eq!(reach.parts[0].relation, Relation::Reach, "{:?}", reach.parts);
}

#[test]
fn a_package_named_as_where_to_look_limits_the_answer() {
    // The package is where to look, not a module the relation is about. The project's own top-level
    // package named bare is the whole repository; "the shop package" is its folder.
    for (question, within) in [
        ("Are there any import cycles in shop?", None),
        ("List the import cycles within shop.", None),
        ("Which cycles are there across the whole shop package?", Some("shop/")),
    ] {
        let cycles = part(question);
        assert_eq!((cycles.relation, cycles.within.as_deref()), (Relation::Cycles, within), "{question}");
        assert!(cycles.modules.is_empty(), "{question}");
    }
    let rest = part("What does shop.api depend on, directly or indirectly, in the rest of shop?");
    assert_eq!((rest.relation, ids(&rest), rest.within.as_deref()), (Relation::Dependencies, vec![API], None));
    let listed = part("Which modules in the shop package import shop.models?");
    assert_eq!(
        (listed.relation, ids(&listed), listed.within.as_deref()),
        (Relation::Importers, vec![MODELS], Some("shop/"))
    );
    let ranked = part("What are the most imported modules in the shop package?");
    assert_eq!((ranked.relation, ranked.within.as_deref()), (Relation::MostImported, Some("shop/")));
    assert!(ranked.modules.is_empty());
    assert_eq!(part("What is the most imported module in shop?").within, None);
    // A package that is the subject or the object keeps its reading.
    let cycle_of = part("Is shop part of an import cycle?");
    assert_eq!(
        (cycle_of.relation, ids(&cycle_of), cycle_of.within.clone()),
        (Relation::CycleOf, vec!["shop/__init__.py"], None)
    );
    let reach = part("Does shop.api import anything in shop?");
    assert_eq!((reach.relation, reach.within), (Relation::Reach, None));
    assert_eq!(part("Which modules import shop?").within, None);
}

#[test]
fn modifiers_change_the_part() {
    let runtime = part("Which modules import shop.models, ignoring TYPE_CHECKING imports?");
    assert!(runtime.runtime && runtime.relation == Relation::Importers);
    assert!(part("who imports shop.models at run-time").runtime);
    let count = part("How many modules depend on shop.models?");
    assert!(count.count && count.relation == Relation::Dependents);
    // What breaks, ranked, is every dependent; said "direct", the importers.
    assert_eq!(part("which module has the biggest blast radius").relation, Relation::MostDependedOn);
    assert_eq!(part("changing which module breaks the most other modules directly?").relation, Relation::MostImported);
    let top = part("top 3 most imported modules excluding tests");
    assert_eq!((top.relation, top.top, top.without_tests), (Relation::MostImported, Some(3), true));
    assert_eq!(part("which module is imported the most?").top, Some(1));
    assert_eq!(part("what are the most imported modules").top, Some(10));
    let tests = part("which tests import shop.cart?");
    assert!(tests.only_tests && !tests.without_tests);
    // Tests as where the importers are looked for restrict the answer too, rather than being dropped.
    for question in [
        "what imports shop.cart in tests?",
        "is shop.pricing imported by tests at all",
        "how many tests import shop.models?",
        "does any test depend on shop.pricing?",
    ] {
        assert!(part(question).only_tests, "{question}");
    }
    assert!(part("which modules import shop.cart, tests excluded").without_tests);
}

#[test]
fn a_participle_left_over_is_not_a_definition() {
    // "Live" (here part of a product's name) reads as where code lives; "hosted", left over, says the
    // question asks something else.
    let understood = parse("Where are Product Live and Cart hosted now?");
    assert!(!understood.complete(), "{:?}", understood.parts);
    assert!(understood.unsure.as_deref().is_some_and(|why| why.contains("hosted")), "{:?}", understood.unsure);
    assert_eq!(part("Where does Product live?").relation, Relation::DefinedIn);
}

#[test]
fn cycles_leaves_definitions_exports() {
    assert_eq!(part("Are there circular imports?").relation, Relation::Cycles);
    assert!(part("how many import cycles are there").count);
    assert_eq!(part("What's the biggest import loop?").relation, Relation::LargestCycle);
    // One cycle named is counted by its modules; "a cycle" is any of them (declined, `CyclesRestricted`).
    let largest = part("How many modules are in the largest import cycle?");
    assert_eq!((largest.relation, largest.count), (Relation::LargestCycle, true));
    assert!(part("how many modules are in shop.cart's cycle?").count);
    let of = part("Is shop/cart.py part of a cycle?");
    assert_eq!((of.relation, of.yes_no), (Relation::CycleOf, true));
    assert_eq!(part("Does shop.cart end up importing itself?").relation, Relation::CycleOf);
    // Two modules in one cycle, when the question says so; "each in a cycle" is not read.
    for question in [
        "Are shop.cart and shop.models in an import cycle together?",
        "Is there a cycle between shop.cart and shop.models?",
        "Do shop.cart and shop.models import each other?",
    ] {
        let same = parse(question);
        let got: Vec<(Relation, Vec<&str>)> = same.parts.iter().map(|p| (p.relation, ids(p))).collect();
        assert_eq!(got, [(Relation::SameCycle, vec![CART, MODELS])], "{question}: {:?}", same.unsure);
    }
    assert!(!parse("Are shop.cart and shop.models in import cycles?").complete());
    assert_eq!(part("which modules don't import anything?").relation, Relation::Leaves);
    // "through its imports" is the manner when the question says "directly".
    assert_eq!(
        part("which modules does shop.cart directly depend on through its imports?").relation,
        Relation::Imports
    );
    // "them" after the verb is every name before it.
    let each = parse("for shop.cart and for shop.models, the modules that import them directly");
    assert!(each.complete(), "{:?}", each.unsure);
    assert!(each.parts.iter().all(|p| p.relation == Relation::Importers), "{:?}", each.parts);
    // An arrow between two names goes from the one to the other.
    assert_eq!(part("trace imports shop.cart -> shop.models").relation, Relation::Reach);
    // Chat drops the apostrophe: "dont" is "don't", but "lets" is not "let's".
    assert_eq!(part("which modules dont import anything").relation, Relation::Leaves);
    assert_eq!(part("whats the most imported module if tests dont count").relation, Relation::MostImported);
    assert_eq!(part("Which modules are imported by nothing?").relation, Relation::Roots);
    // A negative subject in a relative clause: the modules asked for are the imported ones. Its object
    // negated, they are the importers of nothing.
    for (question, relation) in [
        ("list the modules that nothing imports", Relation::Roots),
        ("are there modules which no other module imports?", Relation::Roots),
        ("list the modules that import nothing", Relation::Leaves),
        ("which modules that no module imports", Relation::Roots),
    ] {
        assert_eq!(part(question).relation, relation, "{question}");
    }
    let defined = part("Where's PriceRule declared?");
    assert_eq!((defined.relation, defined.symbol.as_deref()), (Relation::DefinedIn, Some("PriceRule")));
    assert_eq!(part("find the definition of add_item").symbol.as_deref(), Some("add_item"));
    assert_eq!(part("what is the public API of shop.api").relation, Relation::Exports);
}

#[test]
fn compositions_answer_every_part() {
    let both = parse("Who imports shop.cart, and who imports shop.models?");
    let got: Vec<(Relation, Vec<&str>)> = both.parts.iter().map(|p| (p.relation, ids(p))).collect();
    assert_eq!(got, [(Relation::Importers, vec![CART]), (Relation::Importers, vec![MODELS])]);
    let follow = part("Is shop.models imported anywhere? If so, by which modules?");
    assert_eq!((follow.relation, follow.yes_no), (Relation::Importers, true));
    let shared = parse("For shop.cart and for shop.api: what imports each of them?");
    assert_eq!(shared.parts.len(), 2, "{shared:?}");
    let again = parse("What imports shop.cart? And shop.api?");
    assert_eq!(again.parts.iter().map(|p| ids(p)[0]).collect::<Vec<_>>(), [CART, API]);
}

#[test]
fn names_are_linked_tolerantly() {
    assert_eq!(ids(&part("what imports the cart module")), [CART]);
    assert_eq!(ids(&part("what imports the pricng module")), [PRICING], "a typo next to 'module'");
    assert_eq!(ids(&part("what imports shop/cart")), [CART]);
    assert_eq!(ids(&part("what imports src/shop/cart.py?")), [CART]);
    assert_eq!(ids(&part("What's importing `cart`?")), [CART]);
}

#[test]
fn not_sure_goes_to_retrieval() {
    for question in [
        "How does the cart use pricing?",
        "Which database does shop.models use?",
        "Why does shop.cart import shop.pricing lazily?",
        "What does shop.cart do when shop.pricing fails to import?",
        "Which modules other than shop.api import shop.models?",
        "Which modules don't import shop.models?",
        "What imports shop.nothing_here?",
        "What is the least imported module?",
        "Which modules import shop.models only for type checking?",
        "how many modules import shop.models just for type hints?",
        "which modules import shop.cart conditionally?",
        "what does shop.api import at module level?",
        "does shop.api import requests?",
        "which python version does shop.api require?",
        "are there unused imports in shop.api?",
        "which modules import shop.models under an alias?",
        "does shop.api import shop.cart with an absolute import?",
        "who imports shop.models inside a try block?",
        "Explain the checkout flow",
    ] {
        let understood = parse(question);
        assert!(!understood.complete(), "{question}: {:?}", understood.parts);
        assert!(understood.unsure.is_some(), "{question}");
    }
    assert_eq!(parse("How does shop.api use shop.models?").linked.len(), 2, "names are kept for the context");
}

#[test]
fn a_module_imported_first_is_the_importer() {
    // A person importing it, or the gerund as a subject: what the rest says is loaded, it imports.
    assert_eq!(part("When we import shop.api, which other modules get loaded?").relation, Relation::Imports);
    // The second opinion finds this wording closer to importers and declines rather than read it so.
    let gerund = parse("Importing shop.api pulls in which modules?");
    assert!(gerund.parts.iter().all(|p| p.relation == Relation::Imports), "{:?}", gerund.parts);
    assert_eq!(part("what does importing shop.cart load?").relation, Relation::Imports);
    // A participle and a progressive are not gerunds: the modules importing X are its importers.
    assert_eq!(part("Which modules importing shop.api are there?").relation, Relation::Importers);
    assert_eq!(part("which modules are importing shop.api?").relation, Relation::Importers);
}

#[test]
fn never_panics_on_odd_input() {
    // Every development phrasing with odd slot values, then pseudo-random text: understanding must
    // return, whatever the words.
    let fills = ["shop.cart", "`", "it", "", "and", "?", "shop.cart's", "()", "é", "src/", "TYPE_CHECKING", "top 0"];
    let phrasings = [
        include_str!("../../../../eval/paraphrase/phrasings-dev.jsonl"),
        include_str!("../../../../eval/paraphrase/phrasings-dev2.jsonl"),
    ];
    let mut questions: Vec<String> = Vec::new();
    for line in phrasings.iter().flat_map(|file| file.lines()) {
        let template = serde_json::from_str::<serde_json::Value>(line).expect("phrasing line")["template"]
            .as_str()
            .expect("template")
            .to_string();
        for fill in fills {
            questions
                .push(template.replace("{A}", fill).replace("{B}", fill).replace("{S}", fill).replace("{K}", fill));
        }
    }
    let alphabet: Vec<char> = "ab.`/_ ,?:'()-Éé\u{200b}0123 whatimportsdoes".chars().collect();
    let mut state: u64 = 12;
    for _ in 0..2_000 {
        let length = (state % 40) as usize;
        let text: String = (0..length)
            .map(|_| {
                state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                alphabet[(state >> 33) as usize % alphabet.len()]
            })
            .collect();
        questions.push(text);
    }
    let bundle = bundle();
    let linker = EntityLinker::new(&bundle);
    for question in &questions {
        let understood = understand(question, &linker);
        let mut parts = understood.parts;
        let _ = crate::structural::answer_parts(&bundle, &mut parts);
    }
}

#[test]
fn grammar_decides_how_clauses_combine() {
    // Two predicates on the same modules joined by "and" are one condition on them: X's cycle.
    assert_eq!(part("Which modules import shop.cart and are imported by shop.cart?").relation, Relation::CycleOf);
    assert_eq!(part("Which modules can reach `cart` and also be reached from `cart`?").relation, Relation::CycleOf);
    // A condition sets the scene; the question after it is what is asked.
    let conditional = part("If shop/pricing.py changes, does shop/api.py depend on it?");
    assert_eq!((conditional.relation, conditional.yes_no), (Relation::Reach, true));
    assert_eq!(ids(&conditional), [API, PRICING]);
    // So does a statement in the first person before the question.
    let scene = part("We're cleaning up shop.cart this week. Which modules import it?");
    assert_eq!((scene.relation, ids(&scene)), (Relation::Importers, vec![CART]));
    // A bare follow-up takes its question from the statement before it.
    assert_eq!(part("shop.models's importers: which are they?").relation, Relation::Importers);
    let ranked = part("Rank modules by direct importers; give me the first 2.");
    assert_eq!((ranked.relation, ranked.top), (Relation::MostImported, Some(2)));
    // A name put first as the topic is the name the bare question after it asks about.
    let topics = parse("shop.cart: importers? shop.models: importers?");
    assert!(topics.complete(), "{:?}", topics.unsure);
    assert_eq!(topics.parts.iter().map(|p| ids(p)[0]).collect::<Vec<_>>(), [CART, MODELS]);
    // "N of X via …": the noun says the relation, the rest says how.
    assert_eq!(part("Which modules are users of shop.cart through imports?").relation, Relation::Importers);
}

#[test]
fn each_says_every_one_and_the_pronoun_after_it_gives_the_role() {
    // Names put first, then "for each" and a clause whose "it" stands where each name does: "each"
    // only says the question is asked of every one, so it takes no role of its own.
    for (question, relation) in [
        ("shop.cart and shop.api, tell me for each who imports it", Relation::Importers),
        ("shop.cart and shop.api: for each, which modules use it?", Relation::Importers),
        ("shop.cart and shop.api. For each of those, what does it pull in?", Relation::Imports),
        ("for shop.cart and shop.api each, the modules that import it", Relation::Importers),
    ] {
        let understood = parse(question);
        assert!(understood.complete(), "{question}: {:?}", understood.unsure);
        let read: Vec<(Relation, Vec<&str>)> = understood.parts.iter().map(|p| (p.relation, ids(p))).collect();
        assert_eq!(read, [(relation, vec![CART]), (relation, vec![API])], "{question}");
    }
    // The rules place no word for "say"; the back-off's one kind about several modules is their
    // importers, which these words do not ask for when asked of one: not read as importers.
    for question in [
        "shop.cart and shop.api, for each, say what it imports",
        "shop.cart and shop.api, for each one say what it imports",
    ] {
        let understood = parse(question);
        assert!(
            understood.parts.iter().all(|p| p.relation != Relation::Importers),
            "{question}: {:?}",
            understood.parts
        );
    }
}

#[test]
fn a_module_described_by_what_it_defines_is_what_the_relation_is_about() {
    // The module is described by a definition in a relative clause or a participle after "module" or
    // "file"; the question asks the relation of that module, not where the class is.
    for (question, relation, module) in [
        ("which modules import the module where Product is defined?", Relation::Importers, MODELS),
        ("what does the file defining PriceRule pull in", Relation::Imports, PRICING),
        ("is the module where Product is defined part of an import cycle?", Relation::CycleOf, MODELS),
    ] {
        let read = part(question);
        assert_eq!((read.relation, ids(&read)), (relation, vec![module]), "{question}");
    }
    // The other way round, the definition is what is asked, and the module is described by a relation
    // of its own: not answered as a definition.
    let nested = parse("is Product defined in a module that is part of a cycle?");
    assert!(!nested.complete(), "{:?}", nested.parts);
}

#[test]
fn negation_flips_what_it_scopes_over() {
    // "every module X depends on" counts what X depends on through others too.
    assert_eq!(part("List every module shop.cart depends on").relation, Relation::Dependencies);
    assert_eq!(part("List what shop.cart depends on, not only its direct imports").relation, Relation::Dependencies);
    let direct = part("Does shop/api.py import shop.cart (not transitive ones)?");
    assert!(!direct.transitive, "{direct:?}");
}

#[test]
fn behaviour_and_unplaced_english_go_to_retrieval() {
    for question in [
        // A manner is behaviour; "in any way" and "in a way that runs at runtime" are not manners.
        "Does shop.api use shop.cart in a thread-safe way?",
        // A plain English word that names a symbol elsewhere is not a name where no name is expected.
        "Where does `shop.api` cache the results of add_item?",
        // A name governed by a preposition is not the subject of an agentless passive.
        "Which modules must ship with shop/cart.py (directly or indirectly imported)?",
        // A relation word used as a noun modifies the word after it, which is what is asked for.
        "what is the import distance between shop.cart and shop.models?",
    ] {
        let understood = parse(question);
        assert!(!understood.complete(), "{question}: {:?}", understood.parts);
    }
    assert_eq!(part("does shop.api depend on shop.cart in any way?").relation, Relation::Reach);
    // A word that narrows the noun ("the import count") or an aside after a bare noun is no head.
    assert_eq!(part("what is the importer count of shop.models?").relation, Relation::Importers);
    assert_eq!(part("what does shop.api import nowadays?").relation, Relation::Imports);
}

#[test]
fn a_written_y_n_marks_a_yes_no_question() {
    // The same as asking "does …?": the marker only says how to answer.
    let plain = part("does shop.api import shop.cart directly?");
    for question in ["shop/api.py imports shop.cart directly? y/n", "does shop.api import shop.cart directly (Y/N)"] {
        let asked = part(question);
        assert_eq!((asked.relation, ids(&asked), asked.yes_no), (plain.relation, ids(&plain), true), "{question}");
    }
}

#[test]
fn a_negation_about_the_asker_does_not_negate_the_import() {
    for question in [
        "shop.api imports shop.cart, which I did not expect. Does it import it directly?",
        "I'm not sure: does shop.api import shop.cart?",
    ] {
        let understood = parse(question);
        assert!(understood.complete(), "{question}: {:?}", understood.unsure);
    }
    // A negation of the import itself is still read as one.
    assert!(!parse("which modules do not import shop.cart?").complete());
}

#[test]
fn the_standard_library_and_third_party_are_outside_the_graph() {
    // Leaving them out changes nothing: the graph holds only the repository's modules.
    let count = part("How many modules of ours does shop.api import, leaving out the standard library?");
    assert_eq!((count.relation, count.count), (Relation::Imports, true));
    assert_eq!(part("Which modules import only stdlib packages?").relation, Relation::Leaves);
    // Asking about them is not an import graph question.
    assert!(!parse("Which third-party packages does shop.api import?").complete());
    assert!(!parse("What modules never import external libraries?").complete());
    assert!(!parse("Does shop.api only import stdlib modules?").complete());
}

#[test]
fn exclusions_apply_or_are_declined() {
    let ranked = part("Disregarding test files, what is the most imported module?");
    assert_eq!((ranked.relation, ranked.without_tests), (Relation::MostImported, true));
    // A statement whose subject is the tests says why they are left out: its words only frame.
    for question in [
        "Test modules distort the ranking. With them left out, what is the most imported module?",
        "The tests pad every count, so omit them: which module has the most importers?",
    ] {
        let ranked = part(question);
        assert_eq!((ranked.relation, ranked.without_tests), (Relation::MostImported, true), "{question}");
    }
    // Said after the question, it frames none of the question's words.
    let after = parse(
        "Which module has the most importers among the sprockets and gizmos? Tests pad every count, so omit them.",
    );
    assert!(!after.complete(), "{:?}", after.parts);
    let runtime = part("With TYPE_CHECKING imports omitted, what depends on shop.models?");
    assert_eq!((runtime.relation, runtime.runtime), (Relation::Dependents, true));
    // Leaving out a module is not something an answer here does: not answered as if unsaid.
    let understood = parse("Which modules import shop.models, not counting shop.api?");
    assert!(!understood.complete(), "{:?}", understood.parts);
    assert!(!parse("what does shop.api import, apart from shop.cart").complete());
}

#[test]
fn through_their_imports_is_transitive_through_an_import_is_a_manner() {
    assert_eq!(part("list what shop.api brings in, also through its imports").relation, Relation::Dependencies);
    let direct = part("which modules depend directly on shop.pricing via an import statement?");
    assert_eq!((direct.relation, ids(&direct)), (Relation::Importers, vec![PRICING]));
}

#[test]
fn a_chain_that_comes_back_is_a_cycle() {
    let back = part("Can an import chain from shop.cart circle back to shop.cart?");
    assert_eq!((back.relation, ids(&back), back.yes_no), (Relation::CycleOf, vec![CART], true));
    assert_eq!(part("Which modules come back around to shop.cart?").relation, Relation::CycleOf);
    // Two different modules and a cycle word: not one cycle question.
    assert!(!parse("Does shop.api lead back to shop.cart?").complete());
}

#[test]
fn framing_around_the_question() {
    // A bare question of framing words asks for the statement before it.
    assert_eq!(part("Import cycles in this repo. Which ones?").relation, Relation::Cycles);
    // The first noun for what is ranked says one or several.
    assert_eq!(part("Which module ranks highest by the number of modules importing it?").top, Some(1));
    assert_eq!(part("Which modules rank highest by importers?").top, Some(10));
}

#[test]
fn a_negative_statement_with_a_tag_asks_the_positive_question() {
    // The reply's Yes or No follows the fact, as in English replies to negative questions.
    let direct = part("`shop.api` doesn't import shop.models directly, right?");
    assert_eq!(
        (direct.relation, ids(&direct), direct.transitive, direct.yes_no),
        (Relation::Reach, vec![API, MODELS], false, true)
    );
    let nothing = part("Nothing imports shop/pricing.py, correct?");
    assert_eq!((nothing.relation, ids(&nothing), nothing.yes_no), (Relation::Importers, vec![PRICING], true));
    // Without the tag, or with a question word, a negation still asks for what is not imported.
    assert!(!parse("Which modules don't import shop.cart, right?").complete());
    assert!(!parse("shop.api does not import shop.models.").complete());
}

#[test]
fn a_bare_module_name_is_placed_before_a_cycle_noun_after_includes_and_before_an_arrow() {
    for question in ["pricing import loop? yes/no", "Which modules are in the cycle that contains pricing?"] {
        let read = part(question);
        assert_eq!((read.relation, ids(&read)), (Relation::CycleOf, vec![PRICING]), "{question}");
    }
    let arrow = part("cart -> models dependency?");
    assert_eq!((arrow.relation, ids(&arrow)), (Relation::Reach, vec![CART, MODELS]));
    // A package before a cycle noun may say where to look instead: not guessed.
    assert!(!parse("shop circular import? y/n").complete());
}

#[test]
fn a_plain_name_after_a_comma_and_a_name_goes_on_with_the_list() {
    let read = parse("the direct importers of each of these: shop.cart, pricing");
    assert!(read.complete(), "{:?}", read.unsure);
    assert_eq!(read.parts.iter().map(|p| ids(p)).collect::<Vec<_>>(), [vec![CART], vec![PRICING]]);
    // Chat's relation noun right before the name it is of.
    let read = part("count dependents pricing incl indirect");
    assert_eq!((read.relation, ids(&read)), (Relation::Dependents, vec![PRICING]));
}

#[test]
fn a_fan_out_of_zero_is_a_module_without_imports() {
    for question in ["which modules have a fan-out of 0?", "list the zero fan-out modules"] {
        assert_eq!(part(question).relation, Relation::Leaves, "{question}");
    }
}

#[test]
fn a_word_of_behaviour_in_the_framing_says_why() {
    let read = part("For the caching work, list the modules that import shop.models directly.");
    assert_eq!((read.relation, ids(&read)), (Relation::Importers, vec![MODELS]));
    assert!(!parse("How does shop.models handle caching?").complete());
    // A purpose before the asker only says why.
    let read = part("For the migration plan we need every module that shop.api depends on, indirect ones too.");
    assert_eq!((read.relation, ids(&read)), (Relation::Dependencies, vec![API]));
}

#[test]
fn the_module_of_a_class_is_where_it_is_defined() {
    for question in ["module of PriceRule?", "Point me to the file that declares PriceRule."] {
        let read = part(question);
        assert_eq!((read.relation, read.symbol.as_deref()), (Relation::DefinedIn, Some("PriceRule")), "{question}");
    }
}

#[test]
fn a_name_or_a_scope_left_over_is_not_answered_around() {
    // A name left over may be what the question is about; a word left over in a question about the
    // whole repository may narrow it.
    for question in [
        "warehouse circular import? y/n",
        "how many cycles does shop_core have",
        "shop.api -> `fancy_module` dependency at any depth, yes or no?",
        // A word the relation word hangs on.
        "Which classes does shop.api hand to importers?",
        // With no relation word, the word left over may be the predicate.
        "Is shop.utils orphaned, or does anything import it?",
    ] {
        assert!(!parse(question).complete(), "{question}: {:?}", parse(question).parts);
    }
}

#[test]
fn several_names_share_a_role_only_when_coordinated() {
    // Joined by "and", "or", "for": each is asked about.
    let both = parse("What imports shop.cart and shop.models?");
    assert!(both.complete());
    assert_eq!(both.parts.len(), 2);
    assert_eq!(parse("For shop.cart and for shop.models, which modules import them?").parts.len(), 2);
    assert_eq!(parse("The importers of shop.cart and, separately, the importers of shop.models.").parts.len(), 2);
    // One module named twice, in apposition.
    let twice = part("Which modules import the Cart module, shop/cart.py?");
    assert_eq!((twice.relation, ids(&twice)), (Relation::Importers, vec![CART]));
    // The package the module is in, before "modules", describes; another package would narrow.
    assert_eq!(ids(&part("Which shop modules does shop.api import?")), [API]);
    assert!(!parse("Which cart modules does shop.api import?").complete());
    // Anything else between them gives them roles this reading does not tell apart.
    let tree = parse("Is shop.models anywhere in the dependency tree of shop.api?");
    assert!(!tree.complete(), "{:?}", tree.parts);
    // An import of A in B, an import statement for A that B has: B imports A.
    for (question, importer, imported) in [
        ("Is there an import of shop.models in shop.cart?", CART, MODELS),
        ("Does shop.api contain an import statement for shop.cart?", API, CART),
        ("Is there an import statement for shop.cart in shop.api?", API, CART),
    ] {
        let reach = part(question);
        assert_eq!((reach.relation, ids(&reach)), (Relation::Reach, vec![importer, imported]), "{question}");
    }
}

#[test]
fn a_request_opens_the_question_like_a_question_word() {
    // The names put first stand where "each one" is: they are what is imported.
    let understood = parse("For shop.cart and for shop.pricing, list the modules that import each one.");
    assert!(understood.complete(), "{:?}", understood.unsure);
    assert!(understood.parts.iter().all(|p| p.relation == Relation::Importers), "{:?}", understood.parts);
    let object = part("Is shop.pricing obsolete or does anything import it?");
    assert_eq!((object.relation, ids(&object)), (Relation::Importers, vec![PRICING]));
    let kept = parse("check whether shop.pricing is used by any module, and list them if so");
    assert!(kept.parts.iter().all(|p| p.relation == Relation::Importers), "{:?}", kept.parts);
    assert!(part("`shop.cart` imported at all?").yes_no);
    let in_use = part("Is shop.pricing in use by any module?");
    assert_eq!((in_use.relation, ids(&in_use)), (Relation::Importers, vec![PRICING]));
}

#[test]
fn both_directions_with_a_pronoun_are_not_one_relation() {
    assert!(!parse("Which modules both import shop.cart and are imported by it?").complete());
}

#[test]
fn the_words_of_a_chain_say_its_direction() {
    // Without "from" or "to", the import words say which way the chain runs.
    let chain = part("Trace how shop.models gets loaded when shop.api is imported.");
    assert_eq!(chain.relation, Relation::Reach);
    // "In X, … imported": the place named imports.
    let inside = part("In shop.api, which modules are imported?");
    assert_eq!((inside.relation, ids(&inside)), (Relation::Imports, vec![API]));
    // A person importing asks about names: the ones the module offers.
    assert_eq!(part("What could we import from shop.cart?").relation, Relation::Exports);
    // "we" as the codebase: "do we import X anywhere?" asks about importers.
    assert_eq!(part("Do we import shop.cart anywhere?").relation, Relation::Importers);
}

#[test]
fn past_one_import_without_saying_how_far_is_not_one_hop() {
    for question in [
        "What does shop.api import, and what do those import, and so on?",
        "Show shop.api's import tree.",
        "Which modules does shop.api reach?",
        "List what shop.api imports, first level and beyond.",
        "What does shop.api import, following the chain?",
        "Everything shop.api uses, and what its imports need as well",
    ] {
        let understood = parse(question);
        assert!(
            understood.parts.iter().all(|p| !matches!(p.relation, Relation::Imports | Relation::Importers)),
            "{question}: {:?}",
            understood.parts
        );
    }
}

#[test]
fn declined_constructions_leave_their_near_misses_answered() {
    // "only" saying how, a relative clause that is what is asked for, a negation before the cycle word.
    assert_eq!(part("List the modules that shop.cart imports. Only the direct ones.").relation, Relation::Imports);
    assert_eq!(part("which modules import shop.models only at runtime?").relation, Relation::Importers);
    assert_eq!(part("the list of all modules that shop.api depends on").relation, Relation::Dependencies);
    assert_eq!(part("check that shop.cart isn't in an import cycle").relation, Relation::CycleOf);
    assert_eq!(part("Is shop.pricing imported by at least one module?").relation, Relation::Importers);
    // Two relations asked as two questions, or two sets listed, not one restricting the other.
    assert_eq!(parse("Which modules import shop.cart and which import shop.models?").parts.len(), 2);
    assert_eq!(parse("list the importers of both shop.cart and shop.models").parts.len(), 2);
    assert_eq!(part("only importers of shop.models, please").relation, Relation::Importers);
    assert_eq!(
        parse("two lists: the modules that import shop.cart, the modules that import shop.models").parts.len(),
        2
    );
    assert_eq!(part("Which are the modules that import shop.models?").relation, Relation::Importers);
}

#[test]
fn a_relation_word_that_only_says_how_is_not_a_second_relation() {
    // Both directions are declined only when the two relation words are coordinated.
    let runtime =
        part("Which modules import shop/models.py directly, with an import that is not behind TYPE_CHECKING?");
    assert_eq!((runtime.relation, runtime.runtime), (Relation::Importers, true));
    assert!(!parse("which modules import and are imported by shop.cart?").complete());
}

#[test]
fn reachable_exposing_loading_and_mypy_are_words_of_the_graph() {
    assert_eq!(part("Which modules are reachable from shop.api?").relation, Relation::Dependencies);
    assert_eq!(part("which modules is shop.models reachable from?").relation, Relation::Dependents);
    assert_eq!(part("What is shop.pricing exposing publicly?").relation, Relation::Exports);
    let runtime = part("Who imports shop.models at runtime, not for mypy?");
    assert_eq!((runtime.relation, runtime.runtime), (Relation::Importers, true));
    let reach = part("Can shop.api end up loading shop.models transitively?");
    assert_eq!((reach.relation, reach.transitive), (Relation::Reach, true));
}

#[test]
fn non_type_checking_nothing_in_between_and_of_again() {
    let runtime = part("List the modules with a non-TYPE_CHECKING import of `shop/models.py`.");
    assert_eq!((runtime.relation, runtime.runtime), (Relation::Importers, true));
    let direct = part("Does shop.api import shop.cart with nothing in between?");
    assert_eq!((direct.relation, direct.transitive), (Relation::Reach, false));
    let each = parse("importers of shop.cart and of shop.models, listed separately");
    assert!(each.complete(), "{:?}", each.unsure);
    assert_eq!(each.parts.len(), 2);
    assert_eq!(part("reverse dep of shop/models.py?").relation, Relation::Importers);
    assert_eq!(part("What's the current number of import cycles?").relation, Relation::Cycles);
}

#[test]
fn which_module_a_class_is_in_is_where_it_is_defined() {
    assert_eq!(part("what module is PriceRule in?").relation, Relation::DefinedIn);
    assert!(!parse("which module are we in?").complete());
}

#[test]
fn a_package_that_owns_what_follows_is_not_where_to_look() {
    let bundle = bundle_of(&[("shop/__init__.py", &[]), ("shop/payments/__init__.py", &[]), (CART, &[])]);
    let linker = EntityLinker::new(&bundle);
    let read = |question: &str| {
        let understood = understand(question, &linker);
        assert!(understood.complete(), "{question}: {:?}", understood.unsure);
        understood.parts[0].clone()
    };
    // "in X's import cycle": X's cycle, not the cycles inside X.
    for question in
        ["Which modules are in shop.payments's import cycle?", "list everything in shop/payments/__init__.py's cycle"]
    {
        let part = read(question);
        assert_eq!((part.relation, part.within), (Relation::CycleOf, None), "{question}");
    }
    // Without the possessive the package is where to look.
    assert_eq!(read("Are there import cycles in shop.payments?").within.as_deref(), Some("shop/payments/"));
}

#[test]
fn whether_before_a_manner_is_not_a_yes_or_no() {
    // "whether directly or …" offers a choice of manner; the question still asks for a list.
    let read = part("Which modules rely on shop.cart, whether directly or via intermediate imports?");
    assert_eq!((read.relation, read.yes_no, ids(&read)), (Relation::Dependents, false, vec![CART]));
    assert!(part("Can you check whether shop.api imports shop.cart?").yes_no);
}

#[test]
fn a_symbol_then_in_which_file_asks_where_it_is_defined() {
    let read = part("PriceRule is in which file?");
    assert_eq!((read.relation, read.symbol.as_deref()), (Relation::DefinedIn, Some("PriceRule")));
}

#[test]
fn chat_shapes_of_pairs_lists_and_leaves() {
    // An arrow between two names runs from the first to the second, whatever noun follows.
    let arrow = part("shop.api -> shop.cart dependency, yes or no?");
    assert_eq!((arrow.relation, ids(&arrow), arrow.yes_no), (Relation::Reach, vec![API, CART], true));
    // "without" before a word for imports is a negation: leaves, or modules nothing imports.
    assert_eq!(part("list modules w/o any first-party imports").relation, Relation::Leaves);
    assert_eq!(part("modules without importers").relation, Relation::Roots);
    // "vs" joins two lists asked for alike; "break it down" only frames.
    let both = parse("Break it down: importers of shop.cart vs importers of shop.models.");
    assert!(both.complete(), "{:?}", both.unsure);
    assert_eq!(both.parts.len(), 2);
}

#[test]
fn a_person_importing_inside_a_module_makes_it_the_importer() {
    let read = part("Do we import shop.cart directly inside shop.api?");
    assert_eq!((read.relation, ids(&read), read.transitive), (Relation::Reach, vec![API, CART], false));
    // Without a person as the subject, the place after "in" is what is imported.
    assert_eq!(ids(&part("Does shop.api import anything in shop.cart?")), [API, CART]);
}

#[test]
fn the_whole_tree_a_noun_names_is_every_level() {
    assert_eq!(part("full reverse dep tree of shop.cart pls").relation, Relation::Dependents);
    // The import tree of a module, like its dependency tree, grows from it: what it imports, all the way.
    assert_eq!(part("the full import tree of shop.cart").relation, Relation::Dependencies);
    // Annotation-only imports are the TYPE_CHECKING ones; a circle of imports is a cycle.
    assert!(part("Which modules import shop.cart at runtime (annotation-only imports excluded)?").runtime);
    assert_eq!(part("Which modules make a circle of imports with shop.cart?").relation, Relation::CycleOf);
}

#[test]
fn a_module_before_repo_is_not_the_repository() {
    // "repo modules" after a dotted name or a comma says which imports count, not which repository.
    for question in ["count imports of shop.cart (repo modules)", "count imports of shop.cart, repo modules only"] {
        let read = part(question);
        assert_eq!((read.relation, ids(&read), read.count), (Relation::Imports, vec![CART], true), "{question}");
    }
}

#[test]
fn the_project_named_in_a_definition_question_is_not_what_is_defined() {
    let bundle = bundle_of(&[("shop/__init__.py", &[]), ("shop/app.py", &["Shop"]), (PRICING, &["PriceRule"])]);
    let linker = EntityLinker::new(&bundle);
    // "Shop's codebase" is the repository, though a class is called `Shop`.
    let read = understand("Where in Shop's codebase is PriceRule defined?", &linker);
    assert!(read.complete(), "{:?}", read.unsure);
    assert_eq!((read.parts[0].relation, read.parts[0].symbol.as_deref()), (Relation::DefinedIn, Some("PriceRule")));
}

#[test]
fn a_plain_word_is_no_method_name() {
    let mut bundle = bundle();
    let rule = bundle.nodes.get_mut(PRICING).and_then(|node| node.symbols.first_mut()).expect("PriceRule");
    let mut method = rule.clone();
    method.name = "discount".into();
    rule.methods.push(method);
    let linker = EntityLinker::new(&bundle);
    // Written as code, a method is named; as an English word it is not ("the discount classes").
    assert_eq!(understand("Where is `discount` defined?", &linker).parts[0].relation, Relation::DefinedIn);
    let plain = understand("Where are the discount classes defined?", &linker);
    assert!(!plain.complete(), "{:?}", plain.parts);
}

#[test]
fn a_qualifier_after_a_comma_does_not_flip_the_exclusion_before_it() {
    // "ignored, all the way": the exclusion is of type-checking imports, and the reach is transitive.
    let runtime = part("dependents of shop.models when type checking imports are ignored, all the way?");
    assert_eq!((runtime.relation, runtime.runtime), (Relation::Dependents, true));
    // Without the comma, "ignoring transitive ones" still asks for the direct ones.
    let direct = part("which modules import shop.models, ignoring transitive ones?");
    assert_eq!(direct.relation, Relation::Importers);
}

#[test]
fn using_an_activity_is_behaviour_and_two_its_around_a_verb_are_the_two_names() {
    assert!(!parse("does shop.cart use caching? why").complete());
    assert_eq!(part("does shop.cart use shop.pricing?").relation, Relation::Reach);
    let both = part("I want shop/pricing.py to stay apart from shop.models. Does it import it, directly or not?");
    let ids: Vec<&str> = both.modules.iter().map(|m| m.id.as_str()).collect();
    assert_eq!((both.relation, ids), (Relation::Reach, vec!["shop/pricing.py", "shop/models.py"]));
}

#[test]
fn the_words_around_a_relation_decide_which_one_is_asked() {
    // The ranking ranks by the relation word next to "most", not one said for another reason.
    let ranked = part("Not counting imports from tests, what is the most imported module in the project?");
    assert_eq!((ranked.relation, ranked.without_tests), (Relation::MostImported, true));
    // "full" before a relation noun reaches past one import; before a list it does not.
    assert_eq!(part("full reverse deps of shop.cart").relation, Relation::Dependents);
    assert_eq!(part("give me the full import list of shop.cart").relation, Relation::Imports);
    assert_eq!(part("the entire import tree of shop.cart").relation, Relation::Dependencies);
    assert_eq!(
        part("Could you list the full transitive import closure of shop.cart?").relation,
        Relation::Dependencies
    );
    // A name in the framing is what a later "it" stands for, even written as code.
    let framed =
        part("Before deprecating `shop.cart`, I'd like to see every module that has an import statement for it.");
    assert_eq!((framed.relation, ids(&framed)), (Relation::Importers, vec![CART]));
    // "if so" after a clause makes it a yes/no question, whatever its form.
    let elliptical = parse("somebody imports shop.cart? if so, who");
    assert!(elliptical.complete() && elliptical.parts.iter().any(|p| p.yes_no), "{:?}", elliptical.parts);
    // "When was …" asks about another time, also before another clause.
    assert!(!parse("when was `shop.cart` last changed, who did it").complete());
    // Common misspellings of question words are the words.
    assert_eq!(part("wich modules import shop.cart").relation, Relation::Importers);
    // "directly and not …" rules the alternative out; "they import it" says the relation again.
    let direct = part("list what uses shop.cart at runtime, i.e. they import it directly and not under TYPE_CHECKING");
    assert_eq!((direct.relation, direct.runtime), (Relation::Importers, true));
    // "along with" is no "with" of having, nor is "have to": what must come along with a module is
    // what it needs.
    let along = part("which modules have to come along with shop.cart, indirect dependencies included?");
    assert_eq!((along.relation, ids(&along)), (Relation::Dependencies, vec![CART]));
    // "through some import chain", "without going through any other module" say how far.
    assert_eq!(part("what uses shop.models through some import chain?").relation, Relation::Dependents);
    let direct = part("check whether shop.api imports shop.cart without going through any other module");
    assert!(direct.yes_no && !direct.transitive, "{direct:?}");
    let direct = part("does shop.api use shop.cart without going via intermediate modules?");
    assert!(direct.yes_no && !direct.transitive, "{direct:?}");
    // "following the imports" only says how, its "imports" is not the relation.
    assert_eq!(
        part("how many modules are downstream of shop.cart, following the imports?").relation,
        Relation::Dependents
    );
}

#[test]
fn a_question_after_a_statement_keeps_the_way_the_statement_said_it_runs() {
    // "whenever" before an import is a time, not behaviour; the chain asked for after the statement
    // runs from the module imported to the one it brings in, whatever order the names came in.
    let chain = part("`shop.models` gets loaded whenever shop.pricing is imported. Show me the chain behind that.");
    assert_eq!((chain.relation, ids(&chain)), (Relation::Reach, vec![PRICING, MODELS]));
    assert!(!parse("What happens whenever shop.pricing is imported?").complete());
    // A name opened by "when" and closed by a passive import is loaded first: the importer of what
    // the main clause says gets loaded.
    let loaded = part("once shop.cart gets imported, what else is loaded along the way, indirectly too?");
    assert_eq!((loaded.relation, ids(&loaded)), (Relation::Dependencies, vec![CART]));
    // A condition is no second relation, also with "directly or indirectly" between.
    let loaded = part("what gets loaded, directly or indirectly, once shop.api is imported?");
    assert_eq!((loaded.relation, ids(&loaded)), (Relation::Dependencies, vec![API]));
}

#[test]
fn a_first_person_frame_says_why_the_question_is_asked() {
    // Words before "know which…" in a clause opened by "I" or "we" only frame it; "would like to"
    // has no subject after the auxiliary, so it asks no yes or no.
    let framed = part("We're cleaning up the checkout flow and would like to know which modules shop.cart imports");
    assert_eq!((framed.relation, framed.yes_no), (Relation::Imports, false));
    let framed = part("I am auditing vendored code, so I want to know what depends on shop.pricing");
    assert_eq!(framed.relation, Relation::Dependents);
}

#[test]
fn the_back_off_leaves_questions_about_what_code_does_to_retrieval() {
    // Named modules and unfamiliar words, but nothing the graph answers: no kind is resembled enough.
    for question in [
        "How does shop.cart compute totals when a discount applies?",
        "Why is shop.pricing so slow on big carts?",
        "Who wrote shop.api, and when was it last released?",
        "What happens in shop.payments.card when a charge is declined?",
        "Explain the retry logic around shop.payments.card for a newcomer.",
        // English words that happen to name modules ("cart", "pricing", "models") are no names to it.
        "can the cart hold pricing rules for finite elements? yes or no",
        "Show me the code in Shop that fits the pricing models to a CSV of data points.",
        // A second ask of another kind ("would … break"): not only a question about importers.
        "Is shop.models orphaned, or does something import it, and would deleting it break the build?",
    ] {
        let read = parse(question);
        assert!(!read.complete(), "{question}: {:?}", read.parts);
    }
}

#[test]
fn a_question_the_back_off_reads_says_which_kind_it_resembled() {
    let read = parse("Which modules form a ring of imports with shop.cart?");
    assert_eq!(read.resembled.as_deref(), Some("cycle_members"));
    // A question the rules read is theirs: the back-off is not asked.
    assert_eq!(parse("Which modules import shop.cart?").resembled, None);
    // Nor is one they declined on purpose (advice, a supposition), however structural it sounds.
    for question in ["Should shop.api import shop.cart?", "If shop.models imported shop.api, would there be a cycle?"] {
        let read = parse(question);
        assert!(!read.complete() && read.resembled.is_none(), "{question}: {:?}", read.parts);
    }
}

#[test]
fn should_asks_what_should_be_only_of_a_relation() {
    // A modal of what should be before a verb of the graph: advice, declined.
    assert!(!parse("Which modules ought to import shop.models?").complete());
    assert!(!parse("should anything depend on shop.pricing?").complete());
    // A person's "should" is about what to do: what a change affects.
    assert_eq!(part("what should I retest if shop.pricing changes?").relation, Relation::Dependents);
    assert_eq!(part("which modules should we expect to break if shop.models changes?").relation, Relation::Dependents);
}

#[test]
fn a_change_reaches_what_depends_on_the_changed_module() {
    let reached = part("which modules would a change to shop.cart reach?");
    assert_eq!((reached.relation, ids(&reached)), (Relation::Dependents, vec![CART]));
    let yes_no = part("would a change in shop.models reach shop.api?");
    assert_eq!((yes_no.relation, ids(&yes_no), yes_no.yes_no), (Relation::Reach, vec![API, MODELS], true));
}

#[test]
fn the_test_folder_written_as_a_path_is_the_tests() {
    for question in ["ignoring tests/, which module is imported most?", "which module is imported most outside tests/?"]
    {
        let part = part(question);
        assert_eq!((part.relation, part.without_tests), (Relation::MostImported, true), "{question}");
    }
}

#[test]
fn a_label_before_a_colon_frames_but_a_name_there_is_the_topic() {
    assert_eq!(ids(&part("Pricing plan: which modules import shop.cart?")), ["shop/cart.py"]);
    let topic = part("pricing: who imports it?");
    assert_eq!((topic.relation, ids(&topic)), (Relation::Importers, vec!["shop/pricing.py"]));
    let understood = parse("Cart rewrite: who imports it?");
    assert!(!understood.constructions.contains(&super::constructions::Construction::Heading));
}

#[test]
fn an_exclusion_said_after_what_it_leaves_out() {
    let direct = part("Which modules import shop.cart? Transitive users don't matter for this.");
    assert_eq!((direct.relation, ids(&direct)), (Relation::Importers, vec!["shop/cart.py"]));
    // What "don't count" leaves out here is TYPE_CHECKING, not the indirect importers.
    let runtime = part("which mods need shop.models at runtime even indirect? TYPE_CHECKING dont count");
    assert_eq!((runtime.relation, runtime.runtime), (Relation::Dependents, true));
}

#[test]
fn a_reason_after_the_question_is_not_read() {
    for question in [
        "which modules import shop.models, since we are splitting it?",
        "list what shop.api imports so that I can mock it",
        "what imports shop.pricing because we want to move it",
    ] {
        assert!(parse(question).complete(), "{question}: {:?}", parse(question).unsure);
    }
}

#[test]
fn a_typing_slip_of_a_word_the_reader_knows_is_read_as_that_word() {
    let cycle = part("show the cyle containing shop/models.py");
    assert_eq!((cycle.relation, ids(&cycle)), (Relation::CycleOf, vec![MODELS]));
    let count = part("how mnay modules imprt shop.cart directly?");
    assert_eq!((count.relation, count.count, ids(&count)), (Relation::Importers, true, vec![CART]));
    // An English word one slip from a word of the lexicon is the word written ("must" is not "most"),
    // and so is a name of the index.
    let mut read = crate::understand::words::words("the most cyle must mnay pricng");
    crate::understand::lexicon::read_slips(&mut read, |text| text == "pricng");
    let read: Vec<&str> = read.iter().map(|w| w.lower.as_str()).collect();
    assert_eq!(read, ["the", "most", "cycle", "must", "many", "pricng"]);
    assert_eq!(ids(&part("what imports the pricng module")), [PRICING]);
}

#[test]
fn a_negation_of_what_the_graph_can_leave_out_leaves_it_out() {
    for question in [
        "modules importing `shop/models.py` directly, real imports only (no type-check-only)",
        "What does shop/cart.py import, no type checking stuff",
    ] {
        assert!(part(question).runtime, "{question}");
    }
    let tests_out = part("Which modules import shop/models.py? Not the tests.");
    assert_eq!((tests_out.relation, tests_out.without_tests), (Relation::Importers, true));
    // What lies in between, negated or left out, makes the relation direct.
    for question in [
        "Please list every module that imports shop.pricing itself, not through intermediate modules.",
        "Please list every module that imports shop.pricing itself, not via intermediaries.",
        "Which modules import shop.pricing without intermediaries?",
    ] {
        let direct = part(question);
        assert_eq!((direct.relation, ids(&direct)), (Relation::Importers, vec![PRICING]), "{question}");
    }
}

#[test]
fn words_that_name_no_part_do_not_narrow_a_question_about_the_whole_repository() {
    let ranked = part("Setting test files aside, which module has the highest fan-in?");
    assert_eq!((ranked.relation, ranked.without_tests), (Relation::MostImported, true));
    // A word after a word of place may name the part asked about.
    assert!(!parse("Which module has the most importers among the sprockets and gizmos?").complete());
}

#[test]
fn an_exclusion_that_ends_the_sentence_still_leaves_out_what_it_follows() {
    for question in [
        "How many files import shop.api explicitly? Just the number, indirect users excluded.",
        "Before I touch shop.api, tell me how many files import it explicitly. Indirect users excluded.",
    ] {
        let count = part(question);
        assert_eq!((count.relation, count.count, ids(&count)), (Relation::Importers, true, vec![API]), "{question}");
    }
}

#[test]
fn a_heading_that_asks_for_a_number_counts_the_list_after_it() {
    let count =
        part("Give me a single number: the modules that import shop/cart.py without going through another module.");
    assert_eq!((count.relation, count.count, ids(&count)), (Relation::Importers, true, vec![CART]));
}

#[test]
fn what_an_exclusion_describes_and_why_an_import_is_there() {
    let direct = part(
        "Tell me what shop.api imports from inside the repository. Direct imports only, ignore anything reached indirectly.",
    );
    assert_eq!((direct.relation, ids(&direct)), (Relation::Imports, vec![API]));
    let tree = part("need full dep tree of `shop/api.py` (internal modules only)");
    assert_eq!((tree.relation, ids(&tree)), (Relation::Dependencies, vec![API]));
    // A reason for an import statement, or its speed, is in the code, not the graph.
    assert!(!parse("why does shop/cart.py import shop/pricing.py").complete());
    assert!(!parse("Is importing shop/cart.py slow? I'm seeing a noticeable startup delay.").complete());
}

#[test]
fn whether_then_the_list_however_it_is_asked() {
    for question in ["shop.api used by any module, list if so", "check shop/cart.py is imported or not, and by who"] {
        let understood = parse(question);
        assert!(understood.complete(), "{question}: {:?}", understood.unsure);
        assert!(
            understood.parts.iter().any(|p| p.yes_no && p.relation == Relation::Importers),
            "{question}: {:?}",
            understood.parts
        );
    }
}
