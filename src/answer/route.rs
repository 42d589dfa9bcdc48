//! Routing: recognising the structural questions that the graph answers exactly, and cutting out the
//! module or symbol each one is about. Anything not recognised goes to retrieval.

use std::sync::LazyLock;

use regex::Regex;

/// A structural question, with the raw mentions still to be linked to modules.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Intent {
    ImportsOf(String),
    ImportersOf(String),
    /// Transitive dependents; `runtime` leaves out TYPE_CHECKING-only edges.
    Impact {
        mention: String,
        runtime: bool,
    },
    Cycles(Option<String>),
    /// The cycle a module is in when TYPE_CHECKING-only imports are left out.
    RuntimeCycleOf(String),
    /// The most depended-on modules. `direct` ranks by direct importers ("most imported"), otherwise by
    /// transitive dependents ("most central"); `runtime` leaves out TYPE_CHECKING-only edges and
    /// `without_tests` leaves out test modules, as importers and as candidates.
    Central {
        direct: bool,
        runtime: bool,
        without_tests: bool,
    },
    Leaves,
    Path(Reach),
    /// "Does A use B?": answered like [`Intent::Path`] when both sides are modules, but the same words
    /// also ask how code behaves ("how does atomic() use savepoints"), so unlinked ones go to retrieval.
    DependsOn(Reach),
    DefinedIn(String),
    Exports(String),
}

/// Whether module `from` reaches module `to` along imports: `runtime` leaves out TYPE_CHECKING-only
/// edges, `direct` asks about an import of `to` in `from` itself.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Reach {
    pub from: String,
    pub to: String,
    pub runtime: bool,
    pub direct: bool,
}

impl Reach {
    fn new(from: String, to: String, question: &str) -> Reach {
        let lower = question.to_lowercase();
        let direct = lower.split(|c: char| !c.is_alphanumeric()).any(|word| word == "directly")
            && !lower.contains("indirectly")
            && !lower.contains("directly or")
            && !lower.contains("or directly");
        Reach { from, to, runtime: is_runtime(question), direct }
    }
}

struct Pattern {
    regex: Regex,
    build: fn(&regex::Captures<'_>, &str) -> Intent,
}

fn capture(captures: &regex::Captures<'_>, name: &str) -> String {
    captures.name(name).map_or(String::new(), |m| m.as_str().trim().to_string())
}

fn pattern(regex: &str, build: fn(&regex::Captures<'_>, &str) -> Intent) -> Pattern {
    Pattern { regex: Regex::new(&format!("(?i)^(?:{regex})$")).expect("valid routing regex"), build }
}

static PATTERNS: LazyLock<Vec<Pattern>> = LazyLock::new(|| {
    // Order matters: the first pattern that matches wins (impact before importers, central before both).
    vec![
        pattern(
            r".*?\bpath (?:from|between) (?P<a>.+?) (?:to|and) (?P<b>.+?)(?: at run-?time| at run time)?",
            |c, q| Intent::Path(Reach::new(capture(c, "a"), capture(c, "b"), q)),
        ),
        pattern(
            r"(?:how )?does (?P<a>.+?) (?:transitively |indirectly |directly )?(?:depend on|import|reach|use) (?P<b>.+?)(?: transitively| indirectly| directly| at all| at run-?time| at run time)*",
            |c, q| Intent::DependsOn(Reach::new(capture(c, "a"), capture(c, "b"), q)),
        ),
        pattern(
            r"(?:what|which)(?: other)?(?: modules?| files?| code| parts?)?(?: of the code(?:base)?)? (?:is |are |would be |will be |gets? |might be )?(?:affected|impacted|broken|break|need retesting)(?: at runtime)?(?: if| when| by)?(?: i| we| you| someone)?(?: change| changed| changing| modify| modified| modifying| edit| edited| editing| touch| touched| touching| a change to| changes to| changes in)? (?P<x>.+?)(?: changes| is changed| is modified| at runtime)*",
            |c, q| Intent::Impact { mention: capture(c, "x"), runtime: is_runtime(q) },
        ),
        pattern(
            r".*?\b(?:impact|blast radius|effect|consequences?) of (?:changing |modifying |editing )?(?P<x>.+?)(?: at runtime)?",
            |c, q| Intent::Impact { mention: capture(c, "x"), runtime: is_runtime(q) },
        ),
        pattern(
            r"(?:what|which)(?: other)?(?: modules?| files?)? (?:transitively |indirectly )?depends?,?(?: (?:directly or indirectly|directly and indirectly|transitively|indirectly),?)? on (?P<x>.+?)(?: at runtime)?",
            |c, q| Intent::Impact { mention: capture(c, "x"), runtime: is_runtime(q) },
        ),
        pattern(
            r"if (?:i|we|you|someone) (?:change|modify|edit|touch|update) (?P<x>.+?),? (?:what|which)\b.*?\b(?:breaks?|affected|impacted|retest(?:ed|ing)?)\b.*",
            |c, q| Intent::Impact { mention: capture(c, "x"), runtime: is_runtime(q) },
        ),
        pattern(
            r"(?:what are |list |show |are there |is there |find )?(?:the |any )?(?:import )?(?:cycles?|circular (?:imports?|dependenc(?:y|ies)))(?: in the (?:code(?:base)?|repo(?:sitory)?|project))?",
            |_, _| Intent::Cycles(None),
        ),
        pattern(
            r".*?\b(?:cycles?|circular (?:imports?|dependenc(?:y|ies)))\b.*? (?:involving|involves|with|containing|contains|including|includes|through) (?P<x>.+)",
            |c, q| cycle_of(capture(c, "x"), q),
        ),
        pattern(
            r"(?:.*?, )?(?:is|are) (?P<x>.+?) (?:in|part of|involved in) (?:an? |any )?(?:import )?(?:cycles?|circular imports?)(?: at runtime)?",
            |c, q| cycle_of(capture(c, "x"), q),
        ),
        pattern(
            r".*?\b(?:how many|number of|largest|biggest|longest|smallest)\b.*?\b(?:cycles?|circular (?:imports?|dependenc(?:y|ies)))\b.*",
            |_, _| Intent::Cycles(None),
        ),
        pattern(
            r".*?\b(?:most (?:imported|central|important|depended[ -]on|used|connected|referenced)|(?:imported|used|depended on) by the most|the most (?:direct )?importers|central modules|hub modules|core modules|key modules)\b.*",
            |_, question| central(question),
        ),
        pattern(
            r".*?\b(?:leaf modules?|leaves|imports? nothing|no (?:internal )?imports|(?:do not|don't|doesn't|does not) import anything)\b.*",
            |_, _| Intent::Leaves,
        ),
        pattern(
            r"where (?:is|are) (?:the )?(?:class |function |method |def )?(?P<x>\S+?)(?: class| function)? (?:defined|declared|implemented|located)",
            |c, _| Intent::DefinedIn(capture(c, "x")),
        ),
        pattern(
            r"(?:which|what) (?:module|file)s? (?:defines?|declares?|contains?|has|implements?) (?:the )?(?:class |function )?(?P<x>.+)",
            |c, _| Intent::DefinedIn(capture(c, "x")),
        ),
        pattern(r"where (?:is|are) (?:the )?(?:class|function) (?P<x>.+)", |c, _| Intent::DefinedIn(capture(c, "x"))),
        pattern(
            r"(?:in )?(?:which|what) (?:module|file)s? (?:is|are) (?:the )?(?:class |function |method )?(?P<x>\S+?)(?: class| function| method)? (?:defined|declared|implemented|located)(?: in)?",
            |c, _| Intent::DefinedIn(capture(c, "x")),
        ),
        pattern(r"(?:what is the )?definition of (?P<x>.+)", |c, _| Intent::DefinedIn(capture(c, "x"))),
        pattern(r"what (?:names )?(?:does|do) (?P<x>.+?) (?:re-?)?export", |c, _| Intent::Exports(capture(c, "x"))),
        pattern(
            r"(?:what are |list |show )?(?:the )?(?:exports|public api|public names|__all__) (?:of|from|in) (?P<x>.+)",
            |c, _| Intent::Exports(capture(c, "x")),
        ),
        pattern(
            r"(?:what|which)(?: \w+)?(?: modules?| files?)? (?:does|do) (?P<x>.+?) (?:import|depend on|use)(?: directly)?(?: from .*)?",
            |c, _| Intent::ImportsOf(capture(c, "x")),
        ),
        pattern(
            r"how many (?:other )?(?:modules?|files?) (?:does|do) (?P<x>.+?) (?:import|depend on|use)\b.*",
            |c, _| Intent::ImportsOf(capture(c, "x")),
        ),
        pattern(
            r"(?:what are |list |show )?(?:the )?(?:internal |direct )?(?:imports|dependencies) of (?P<x>.+)",
            |c, _| Intent::ImportsOf(capture(c, "x")),
        ),
        pattern(r"what (?:modules? )?(?:is|are) imported (?:by|in) (?P<x>.+)", |c, _| {
            Intent::ImportsOf(capture(c, "x"))
        }),
        pattern(
            r"(?:(?:list|show|name|give)(?: me)? )?(?:the |all )*(?:internal )?(?:modules?|files?) (?:that are |that get )?imported (?:by|in|from) (?P<x>.+)",
            |c, _| Intent::ImportsOf(capture(c, "x")),
        ),
        pattern(
            r"(?:what|which|who)(?: other)?(?: modules?| files?)? (?:directly )?(?:imports?|uses?) (?P<x>.+?)(?: directly)?",
            |c, _| Intent::ImportersOf(capture(c, "x")),
        ),
        pattern(
            r"(?:what|which|who|how many)(?: other)?(?: modules?| files?)? (?:directly depends?|depends? directly) on (?P<x>.+)",
            |c, _| Intent::ImportersOf(capture(c, "x")),
        ),
        pattern(
            r"how many (?:other )?(?:modules?|files?) (?:directly )?(?:import|use) (?P<x>.+?)(?: directly)?",
            |c, _| Intent::ImportersOf(capture(c, "x")),
        ),
        pattern(r"(?:what are |list |show )?(?:the )?importers of (?P<x>.+)", |c, _| {
            Intent::ImportersOf(capture(c, "x"))
        }),
        pattern(r"(?:where|by whom|by which modules?|by what) (?:is|are) (?P<x>.+?) (?:imported|used)", |c, _| {
            Intent::ImportersOf(capture(c, "x"))
        }),
    ]
});

/// "at runtime", or TYPE_CHECKING imports explicitly left out ("ignoring", "without", "not counting"...).
fn is_runtime(question: &str) -> bool {
    let lower = question.to_lowercase();
    let leaves_out_type_checking = (lower.contains("type_checking") || lower.contains("type checking"))
        && ["ignor", "without", "not count", "exclud", "leav", "except"].iter().any(|word| lower.contains(word));
    lower.contains("runtime") || lower.contains("run time") || lower.contains("run-time") || leaves_out_type_checking
}

fn central(question: &str) -> Intent {
    let lower = question.to_lowercase();
    let direct =
        ["imported by the most", "most imported", "direct importer", "most importers", "how many modules import"]
            .iter()
            .any(|phrase| lower.contains(phrase));
    let without_tests =
        ["not counting test", "excluding test", "without test", "ignoring test", "except test", "outside test"]
            .iter()
            .any(|phrase| lower.contains(phrase));
    Intent::Central { direct, runtime: is_runtime(question), without_tests }
}

fn cycle_of(mention: String, question: &str) -> Intent {
    if is_runtime(question) { Intent::RuntimeCycleOf(mention) } else { Intent::Cycles(Some(mention)) }
}

/// The structural intent of a question, if it has one.
pub fn route(question: &str) -> Option<Intent> {
    let question = question.trim().trim_end_matches(['?', '.', '!']).trim();
    let question = collapse_whitespace(question);
    PATTERNS.iter().find_map(|p| p.regex.captures(&question).map(|c| (p.build)(&c, &question)))
}

fn collapse_whitespace(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_structural_question_type() {
        let cases = [
            ("What does scrapy/core/engine.py import?", Intent::ImportsOf("scrapy/core/engine.py".into())),
            ("what are the dependencies of flask.app", Intent::ImportsOf("flask.app".into())),
            ("What imports `flask.globals`?", Intent::ImportersOf("`flask.globals`".into())),
            ("Which modules use the engine module?", Intent::ImportersOf("the engine module".into())),
            ("Where is django.db.models.query imported?", Intent::ImportersOf("django.db.models.query".into())),
            (
                "What is affected if I change flask/ctx.py?",
                Intent::Impact { mention: "flask/ctx.py".into(), runtime: false },
            ),
            (
                "What depends on flask.wrappers at runtime?",
                Intent::Impact { mention: "flask.wrappers".into(), runtime: true },
            ),
            ("Impact of changing scrapy.http", Intent::Impact { mention: "scrapy.http".into(), runtime: false }),
            ("Are there any import cycles?", Intent::Cycles(None)),
            ("How many modules are in the largest import cycle?", Intent::Cycles(None)),
            (
                "Which modules are imported by the most other modules?",
                Intent::Central { direct: true, runtime: false, without_tests: false },
            ),
            (
                "Not counting tests, which modules have the most direct importers at runtime?",
                Intent::Central { direct: true, runtime: true, without_tests: true },
            ),
            (
                "What are the most central modules?",
                Intent::Central { direct: false, runtime: false, without_tests: false },
            ),
            ("Who depends directly on src/a/b.py?", Intent::ImportersOf("src/a/b.py".into())),
            ("How many modules import a.b directly?", Intent::ImportersOf("a.b".into())),
            ("Which flask modules does templating.py depend on directly?", Intent::ImportsOf("templating.py".into())),
            ("What does a.sessions import from the rest of the repository?", Intent::ImportsOf("a.sessions".into())),
            ("List the internal imports of src/a/app.py.", Intent::ImportsOf("src/a/app.py".into())),
            (
                "Ignoring TYPE_CHECKING imports, is a/ctx.py part of an import cycle?",
                Intent::RuntimeCycleOf("a/ctx.py".into()),
            ),
            ("Is a/views.py involved in any circular import?", Intent::Cycles(Some("a/views.py".into()))),
            ("In which file is Model.save implemented?", Intent::DefinedIn("Model.save".into())),
            ("Is a/app.py part of an import cycle at runtime?", Intent::RuntimeCycleOf("a/app.py".into())),
            ("Which cycle involves flask.app?", Intent::Cycles(Some("flask.app".into()))),
            ("Is flask/app.py in a cycle?", Intent::Cycles(Some("flask/app.py".into()))),
            (
                "What are the most imported modules?",
                Intent::Central { direct: true, runtime: false, without_tests: false },
            ),
            ("Which modules import nothing?", Intent::Leaves),
            (
                "Is there an import path from flask.cli to flask.app?",
                Intent::Path(Reach { from: "flask.cli".into(), to: "flask.app".into(), runtime: false, direct: false }),
            ),
            (
                "If I modify examples/flaskr/db.py, which modules are impacted transitively?",
                Intent::Impact { mention: "examples/flaskr/db.py".into(), runtime: false },
            ),
            (
                "What depends, directly or indirectly, on app/tasks.py?",
                Intent::Impact { mention: "app/tasks.py".into(), runtime: false },
            ),
            (
                "Does flask.cli depend on flask.sessions?",
                Intent::DependsOn(Reach {
                    from: "flask.cli".into(),
                    to: "flask.sessions".into(),
                    runtime: false,
                    direct: false,
                }),
            ),
            (
                "Does a.json depend on a.app at runtime?",
                Intent::DependsOn(Reach { from: "a.json".into(), to: "a.app".into(), runtime: true, direct: false }),
            ),
            (
                "Does a/x.py import a/y.py directly?",
                Intent::DependsOn(Reach { from: "a/x.py".into(), to: "a/y.py".into(), runtime: false, direct: true }),
            ),
            (
                "List the modules imported by django/middleware/gzip.py",
                Intent::ImportsOf("django/middleware/gzip.py".into()),
            ),
            ("Show me all the files imported by app.py", Intent::ImportsOf("app.py".into())),
            ("Where is the class ExecutionEngine defined?", Intent::DefinedIn("ExecutionEngine".into())),
            ("Which module defines url_for?", Intent::DefinedIn("url_for".into())),
            ("What does flask/__init__.py export?", Intent::Exports("flask/__init__.py".into())),
        ];
        for (question, expected) in cases {
            assert_eq!(route(question), Some(expected), "{question}");
        }
    }

    #[test]
    fn behavioural_questions_go_to_retrieval() {
        for question in
            ["How are retries handled for failed downloads?", "Where is the request throttled?", "Explain sessions"]
        {
            assert_eq!(route(question), None, "{question}");
        }
    }
}
