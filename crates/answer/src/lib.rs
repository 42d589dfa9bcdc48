//! Answers: a question in, an [`Answer`] out (the `ask --format json` contract in `docs/ask.md`).
//!
//! Questions the query-understanding layer reads completely are answered exactly from the graph
//! (`understand` + `structural`); everything else goes to retrieval, with the graph facts of every
//! module the question names, then to an LLM grounded in the retrieved chunks when one is configured
//! (`generate`), else to an extractive answer (`extractive`). Every cited module is checked against the
//! bundle (`citations`); weak retrieval evidence gives an explicit decline instead of a guess.

pub mod abstain;
/// Linking names to modules and symbols lives with search, which ranks by it too.
pub use strata_search::entities;
pub mod change;
pub(crate) mod citations;
pub(crate) mod extractive;
pub mod generate;
pub mod loaded;
mod org;
mod org_search;

pub use org::under_repository;
pub use org_search::answer_in_organisation;

/// Whether a question asks about an organisation's repositories ("which repositories import X?",
/// "what in other repositories depends on Y?"): the bot answers those from an organisation's store.
pub fn asks_across_repositories(question: &str) -> bool {
    org::read(question).by_repository
}
pub mod render;
pub(crate) mod structural;
pub(crate) mod tools;
pub mod understand;

use serde::Serialize;

use abstain::{Decision, Evidence};

use strata_core::bundle::{Bundle, DeclineSettings, Manifest, RankingSettings, fitted_decline, fitted_ranking};
use strata_core::text::content_terms;
use strata_search::SearchIndex;
use strata_search::embed::Embedder;
use strata_search::entities::EntityLinker;
use strata_search::retrieve::{Prepared, Retrieval, prepare};

pub use generate::ChatSettings;

/// Longest question accepted, in characters.
pub const MAX_QUESTION_CHARS: usize = 2_000;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Mode {
    Structural,
    Retrieval,
    Generated,
    Declined,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Citation {
    pub id: String,
    pub module: String,
    pub path: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub lines: Option<[u32; 2]>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub url: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ContextItem {
    pub id: String,
    pub module: String,
    pub score: f32,
    pub kind: String,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct IndexInfo {
    pub commit: Option<String>,
    pub schema_version: String,
    pub embedder: String,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Answer {
    pub question: String,
    pub mode: Mode,
    pub answer: String,
    pub citations: Vec<Citation>,
    pub context: Vec<ContextItem>,
    pub index: IndexInfo,
    /// Things the reader should know: citations removed, a fallback taken, an ambiguous name.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<String>,
    /// What the question was understood to ask, with each part's computed result.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub understood: Option<understand::Understanding>,
    /// For answers from retrieval and their declines: the evidence weighed and the decision taken.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub evidence: Option<Evidence>,
    /// Details for the log, never shown to the asker: a model server's own error text can name internal
    /// hosts and say more than a public comment should.
    #[serde(skip)]
    pub diagnostics: Vec<String>,
    /// Chat requests sent to a language model for this answer (what the bot's limits count).
    #[serde(skip)]
    pub model_calls: usize,
}

/// The topic of a question about a pull request's change: it points at the change and names no module
/// the graph could answer about instead ("does this change add a cycle?" is about the change even
/// though "is there a cycle?" is understood; "we changed cart in this PR: what imports it?" is not).
fn about_the_change(understood: &understand::Understanding) -> Option<change::ChangeQuestion> {
    let asked = understood.change?;
    (!understood.complete() || understood.linked.is_empty()).then_some(asked)
}

/// A follow-up ("what imports it?") with no module said before it to refer to: on the command line,
/// or the first question of a thread.
pub const NOTHING_TO_REFER_TO: &str = "I don't know which module this refers to: nothing was named before it. Name the module, for example `what imports <module>?`.";

/// The reply to a question about imports that names no module ("what imports?"), with the most
/// imported module of the index as the example.
fn name_a_module(bundle: &Bundle) -> String {
    let example = bundle
        .nodes
        .values()
        .max_by(|a, b| a.direct_importers_count.cmp(&b.direct_importers_count).then_with(|| b.id.cmp(&a.id)))
        .map_or("<module>", |node| node.id.as_str());
    format!(
        "Which module? The question asks about imports without naming one. Name it, for example `what imports {example}?`, or ask about the whole repository: `which modules are imported the most?`, `are there import cycles?`."
    )
}

/// The reply to a question about a change where there is none (a terminal, an issue).
pub const NEEDS_A_PULL_REQUEST: &str = "This question is about a pull request's change, and there is none here. Ask it with `/ask` in a comment on the pull request, or run `strata impact --previous <default branch index>` on its branch.";

/// Why a search failed, for people: LanceDB's own text names its internal paths, so it is left out.
const SEARCH_DAMAGED: &str = "the search index is damaged (reading it failed)";

/// Everything needed to answer questions about one index.
pub struct Answerer<'a> {
    pub bundle: &'a Bundle,
    pub manifest: &'a Manifest,
    /// The chunk table and lexicon, or why there are none (structural questions are still answered),
    /// opened when a question first needs them.
    search: loaded::SearchSource<'a>,
    pub embedder: &'a dyn Embedder,
    pub chat: Option<&'a ChatSettings>,
}

impl Answerer<'_> {
    pub async fn answer(&self, question: &str) -> anyhow::Result<Answer> {
        // One linker for reading and searching: building it walks every symbol of the index.
        let linker = entities::EntityLinker::new(self.bundle);
        if self.is_organisation() {
            let asked = org::read(question.trim());
            let understood = understand::understand(&asked.text, &linker);
            let mut answer = self.answer_with(question, understood, &linker).await?;
            org::regroup(&mut answer, &asked, self.bundle);
            return Ok(answer);
        }
        let understood = understand::understand(question.trim(), &linker);
        self.answer_with(question, understood, &linker).await
    }

    /// The index is an organisation's joined graph (`ask --org`), not one repository's.
    fn is_organisation(&self) -> bool {
        self.bundle.meta.source == strata_core::org::ORGANISATION_SOURCE
    }

    /// How the one question reader understands `question` against this index.
    pub fn understand(&self, question: &str) -> understand::Understanding {
        understand::understand(question.trim(), &entities::EntityLinker::new(self.bundle))
    }

    /// The answer to `question`, already read by [`Answerer::understand`] (the bot reads a question
    /// once, for follow-ups and pull requests, then answers it).
    pub async fn answer_understood(
        &self,
        question: &str,
        understood: understand::Understanding,
    ) -> anyhow::Result<Answer> {
        self.answer_with(question, understood, &entities::EntityLinker::new(self.bundle)).await
    }

    async fn answer_with(
        &self,
        question: &str,
        understood: understand::Understanding,
        linker: &EntityLinker<'_>,
    ) -> anyhow::Result<Answer> {
        let question = question.trim();
        let (understood, mut notes) = match self.route_understood(question, understood).await {
            Route::Answered(answer) => return Ok(*answer),
            Route::Search { understood, notes } => (understood, notes),
        };
        // With a model, the graph tools may answer what the parser did not understand.
        let mut diagnostics = Vec::new();
        let mut model_calls = 0;
        if let Some(chat) = self.chat
            && (understood.about_the_graph || !understood.linked.is_empty())
        {
            let search = RetrievalSearch { answerer: self, linker };
            match tools::answer_with_tools(chat, question, self.bundle, &search, &mut model_calls).await {
                Ok(tools::ToolOutcome::Answered { text, grounded, calls }) => {
                    let checked = citations::check_tool_answer(self.bundle, self.manifest, &text, &grounded);
                    let (text, citations, mut tool_notes) = (checked.text, checked.citations, checked.notes);
                    let context = grounded
                        .iter()
                        .map(|id| ContextItem {
                            id: format!("tool:{id}"),
                            module: id.clone(),
                            score: 0.0,
                            kind: "tool".to_string(),
                        })
                        .collect();
                    let declined = text.to_lowercase().starts_with("i don't know");
                    tool_notes.insert(0, format!("answered with the graph tools: {}", calls.join(", ")));
                    let mode = if declined { Mode::Declined } else { Mode::Generated };
                    let mut answer = self.finish(question, mode, text, citations, context, tool_notes);
                    answer.understood = Some(*understood);
                    answer.model_calls = model_calls;
                    return Ok(answer);
                }
                Ok(tools::ToolOutcome::NotUsed(reason)) => {
                    notes.push(format!("{reason}; answered without the graph tools"))
                }
                Err(error) => {
                    notes.push(
                        "the graph tools could not be used (the language model failed; details in the log)".into(),
                    );
                    diagnostics.push(format!("graph tools: {error:#}"));
                }
            }
        }
        let mut answer = self.answer_by_retrieval(question, &understood, linker, &mut model_calls).await?;
        answer.notes.splice(0..0, notes);
        answer.diagnostics.splice(0..0, diagnostics);
        answer.understood = Some(*understood);
        answer.model_calls = model_calls;
        Ok(answer)
    }

    /// Everything a question goes through before the search: the checks, the understanding, exact
    /// answers from the graph, and names nothing holds. The fit (`strata eval fit`) routes questions
    /// the same way.
    pub async fn route(&self, question: &str, linker: &EntityLinker<'_>) -> Route {
        self.route_understood(question, understand::understand(question.trim(), linker)).await
    }

    async fn route_understood(&self, question: &str, understood: understand::Understanding) -> Route {
        let question = question.trim();
        let mut understood = understood;
        if question.is_empty() {
            return self.route_declined(question, "The question is empty. Ask about the code, for example `what imports <module>?` or `where is <class> defined?`.".to_string(), None);
        }
        if question.chars().count() > MAX_QUESTION_CHARS {
            let reason = format!("The question is longer than {MAX_QUESTION_CHARS} characters; ask something shorter.");
            return self.route_declined(question, reason, None);
        }
        // "What does this PR affect?": only the bot on a pull request knows the change.
        if about_the_change(&understood).is_some() {
            return self.route_declined(question, NEEDS_A_PULL_REQUEST.to_string(), Some(understood));
        }
        if understood.complete() {
            let exact = structural::answer_parts(self.bundle, &mut understood.parts);
            let citations = citations::cite(self.bundle, self.manifest, &exact.cited);
            // A reading by resemblance says so: the asker can tell a misreading from a fact.
            let notes = understood.resembled.iter().map(|kind| understand::resembled_note(kind)).collect();
            let mut answer = self.finish(question, Mode::Structural, exact.text, citations, Vec::new(), notes);
            answer.understood = Some(understood);
            return Route::Answered(Box::new(answer));
        }
        // "What imports it?" with nothing to refer to: a search would answer about whatever matches
        // "import". The bot has put the previous answer's module in place of the reference already.
        // ("How does it retry?" is about the project, and "what class does `app.test_client()` return,
        // and where is it defined?" names code: both are searched.)
        let names_nothing = understood.linked.is_empty() && strata_core::text::code_names(question).is_empty();
        if understood.refers_back.is_some() && names_nothing && understood.about_the_graph {
            return self.route_declined(question, NOTHING_TO_REFER_TO.to_string(), Some(understood));
        }
        // "What imports?": the same search for "imports", and no module to answer about.
        if understood.names_no_module && names_nothing {
            let reason = name_a_module(self.bundle);
            return self.route_declined(question, reason, Some(understood));
        }
        // A name the graph does not know may still be in the code (a variable, an imported class), or
        // the question may name other things that are there: then retrieval answers and weighs it. A
        // name no code holds, when it is all the question names, is declined with suggestions.
        // Two readings that disagree say so: an exact answer is one name of the relation away.
        let mut notes: Vec<String> = understood.disputed().map(understand::disputed_note).into_iter().collect();
        if let Some(name) = &understood.unknown {
            let in_code = self.search.get().await.is_ok_and(|search| mentioned_in_code(search, name));
            if in_code {
                notes.push(format!(
                    "`{name}` is not a module, file or symbol of the import graph; answered from the code that mentions it"
                ));
            } else if understood.linked.is_empty() {
                let suggestions: Vec<String> =
                    structural::suggestions(self.bundle, name).iter().map(|s| format!("`{s}`")).collect();
                let hint = if suggestions.is_empty() {
                    String::new()
                } else {
                    format!(" Did you mean {}?", suggestions.join(", "))
                };
                let reason = format!(
                    "I don't know which module `{name}` is: no module, file or symbol of the index matches it.{hint}"
                );
                return self.route_declined(question, reason, Some(understood));
            } else {
                notes.push(format!("`{name}` is not in the index; answered from the other names the question uses"));
            }
        }
        Route::Search { understood: Box::new(understood), notes }
    }

    fn route_declined(&self, question: &str, reason: String, understood: Option<understand::Understanding>) -> Route {
        let mut answer = self.declined(question, reason, Vec::new());
        answer.understood = understood;
        Route::Answered(Box::new(answer))
    }

    /// A question not understood completely: modules ranked from the lexical index and the chunk
    /// search, with what the graph says about every module the question names, then a model or the
    /// extractive answer, or a decline. `model_calls` counts the chat requests sent.
    async fn answer_by_retrieval(
        &self,
        question: &str,
        understood: &understand::Understanding,
        linker: &EntityLinker<'_>,
        model_calls: &mut usize,
    ) -> anyhow::Result<Answer> {
        let search = match self.search.get().await {
            Ok(search) => search,
            Err(problem) => return Ok(self.search_unavailable(question, problem)),
        };
        // With a model, it picks the folders to search first; a failure just means no folder boost.
        let mut notes = Vec::new();
        let mut diagnostics = Vec::new();
        let chosen_folders = match self.chat {
            Some(chat) => {
                *model_calls += 1;
                match generate::pick_folders_with_model(chat, question, self.bundle).await {
                    Ok(folders) => Some(folders),
                    Err(error) => {
                        notes.push("folder selection by the language model failed; searched every folder alike".into());
                        diagnostics.push(format!("folder selection: {error:#}"));
                        None
                    }
                }
            }
            None => None,
        };
        let ranking = self.ranking_settings();
        let mut retrieval = match prepare(search, self.embedder, self.bundle, linker, question, chosen_folders).await {
            Ok(prepared) => prepared.finish(self.bundle, &ranking),
            Err(_) => return Ok(self.search_unavailable(question, SEARCH_DAMAGED)),
        };
        if retrieval.read_texts(search).await.is_err() {
            return Ok(self.search_unavailable(question, SEARCH_DAMAGED));
        }
        let (retrieval, evidence, context) =
            match self.weigh(question, understood, retrieval, &ranking, &self.decline_settings()) {
                Weighed::Declined(answer) => return Ok(*answer),
                Weighed::Answer { retrieval, evidence, context } => (retrieval, evidence, context),
            };
        if let Some(chat) = self.chat {
            *model_calls += 1;
            match generate::generate(chat, question, &retrieval, self.bundle).await {
                Ok(generated) => {
                    let checked = citations::check_generated(self.bundle, self.manifest, &generated.text, &retrieval);
                    let mode = if generated.declined { Mode::Declined } else { Mode::Generated };
                    notes.extend(checked.notes);
                    let mut answer = self.finish(question, mode, checked.text, checked.citations, context, notes);
                    answer.diagnostics = diagnostics;
                    answer.evidence = Some(evidence);
                    return Ok(answer);
                }
                Err(error) => {
                    notes.push("the language model could not be reached; this is the offline answer".into());
                    diagnostics.push(format!("chat: {error:#}"));
                    let extract = extractive::answer(self.bundle, &retrieval);
                    let citations = citations::cite(self.bundle, self.manifest, &extract.cited);
                    let mut answer = self.finish(question, Mode::Retrieval, extract.text, citations, context, notes);
                    answer.diagnostics = diagnostics;
                    answer.evidence = Some(evidence);
                    return Ok(answer);
                }
            }
        }
        Ok(self.extractive(question, &retrieval, context, evidence))
    }

    /// A retrieval weighed: declined, or the retrieval with the graph facts of the modules the
    /// question names, its evidence and its context.
    fn weigh(
        &self,
        question: &str,
        understood: &understand::Understanding,
        mut retrieval: Retrieval,
        ranking: &RankingSettings,
        decline: &DeclineSettings,
    ) -> Weighed {
        retrieval.graph_facts = structural::graph_facts(self.bundle, &understood.linked);
        let context = context_items(&retrieval);
        let mut evidence = weigh_evidence(question, &retrieval, ranking, decline);
        // A question about the import graph that names modules of the index, not read completely
        // ("what is `django.urls.conf` exposing publicly?"): the named modules' graph facts answer
        // much of it whatever the words found, so weak word evidence does not decline it. Unless it
        // also names something no module of the context holds ("the TOTP step in
        // `django.contrib.auth`"): the graph facts of the module do not answer for that.
        let names_a_module = understood.linked.iter().any(|entity| {
            strata_core::text::is_code(&entity.mention)
                && self.bundle.nodes.contains_key(&entity.id)
                && !entities::is_top_level_package(self.bundle, &entity.id)
        });
        let names_the_absent = evidence.features.unseen_name > 0.0;
        if understood.about_the_graph
            && names_a_module
            && !names_the_absent
            && matches!(evidence.decision, Decision::WeakEvidence(_))
        {
            evidence.decision = Decision::Answer;
        }
        if evidence.decision != Decision::Answer {
            let reason = decline_reason(question, &evidence, &retrieval, self.bundle.nodes.len());
            let mut answer = self.declined(question, reason, context);
            answer.evidence = Some(evidence);
            return Weighed::Declined(Box::new(answer));
        }
        Weighed::Answer { retrieval: Box::new(retrieval), evidence, context }
    }

    fn extractive(
        &self,
        question: &str,
        retrieval: &Retrieval,
        context: Vec<ContextItem>,
        evidence: Evidence,
    ) -> Answer {
        let extract = extractive::answer(self.bundle, retrieval);
        let citations = citations::cite(self.bundle, self.manifest, &extract.cited);
        let mut answer = self.finish(question, Mode::Retrieval, extract.text, citations, context, Vec::new());
        answer.evidence = Some(evidence);
        answer
    }

    /// The offline answer to a routed question from a prepared search under the given settings: what
    /// `ask --offline` answers, for the fit to score settings without searching again.
    pub fn offline_answer(
        &self,
        question: &str,
        understood: &understand::Understanding,
        prepared: Prepared,
        ranking: &RankingSettings,
        decline: &DeclineSettings,
    ) -> Answer {
        let retrieval = prepared.finish(self.bundle, ranking);
        match self.weigh(question, understood, retrieval, ranking, decline) {
            Weighed::Declined(answer) => *answer,
            Weighed::Answer { retrieval, evidence, context } => {
                self.extractive(question, &retrieval, context, evidence)
            }
        }
    }

    /// The search for a routed question, done once (the fit ranks it many times).
    pub async fn prepare(&self, question: &str, linker: &EntityLinker<'_>) -> anyhow::Result<Prepared> {
        let search = self.search.get().await.map_err(|problem| anyhow::anyhow!("{problem}"))?;
        prepare(search, self.embedder, self.bundle, linker, question.trim(), None).await
    }

    /// The ranking settings recorded with the index, else this strata's.
    pub fn ranking_settings(&self) -> RankingSettings {
        self.manifest.answer.as_ref().and_then(|a| a.ranking.clone()).unwrap_or_else(fitted_ranking)
    }

    /// The decline settings recorded with the index, else this strata's.
    pub fn decline_settings(&self) -> DeclineSettings {
        self.manifest.answer.as_ref().and_then(|a| a.decline.clone()).unwrap_or_else(fitted_decline)
    }

    /// The decline for a question only the search index could answer, when it cannot be used.
    fn search_unavailable(&self, question: &str, problem: &str) -> Answer {
        let fix = if self.is_organisation() { "" } else { "; re-run `strata index` to rebuild it" };
        let reason = format!(
            "I can't search the code for this: {problem}{fix}. Structural questions (what imports or is imported by a module, cycles, paths, where something is defined, exports) still work."
        );
        self.declined(question, reason, Vec::new())
    }

    /// `question` with its reference to a module named before it ("what imports it?", "is that module
    /// in a cycle?") replaced by `subject`, the module the previous answer was about; `None` when it
    /// names what it is about or refers to nothing, or `subject` is not a module of the index.
    pub fn follow_up(&self, question: &str, understood: &understand::Understanding, subject: &str) -> Option<String> {
        if !self.bundle.nodes.contains_key(subject) {
            return None;
        }
        understood.resolved(question.trim(), subject)
    }

    /// What a question asks about a pull request's change, unless it names what it asks about well
    /// enough for the graph to answer it ("we changed cart in this PR: what imports it?").
    pub fn change_question(&self, understood: &understand::Understanding) -> Option<change::ChangeQuestion> {
        about_the_change(understood)
    }

    /// The exact answer to a question about a pull request's change (the bot computes the impact);
    /// citations are the modules it changed, as they are in the head's bundle.
    pub fn change_answer(
        &self,
        question: &str,
        head: &Bundle,
        text: String,
        cited: &[String],
        notes: Vec<String>,
    ) -> Answer {
        let cited: Vec<(String, Option<(u32, u32)>)> = cited.iter().map(|id| (id.clone(), None)).collect();
        let citations = citations::cite(head, self.manifest, &cited);
        self.finish(question, Mode::Structural, text, citations, Vec::new(), notes)
    }

    fn declined(&self, question: &str, reason: String, context: Vec<ContextItem>) -> Answer {
        self.finish(question, Mode::Declined, reason, Vec::new(), context, Vec::new())
    }

    fn finish(
        &self,
        question: &str,
        mode: Mode,
        answer: String,
        citations: Vec<Citation>,
        context: Vec<ContextItem>,
        notes: Vec<String>,
    ) -> Answer {
        Answer {
            question: question.to_string(),
            mode,
            answer,
            citations,
            context,
            index: IndexInfo {
                commit: self.manifest.commit.clone(),
                schema_version: self.manifest.bundle_schema_version.clone(),
                embedder: self.manifest.embedder.id.clone(),
            },
            notes,
            understood: None,
            evidence: None,
            diagnostics: Vec::new(),
            model_calls: 0,
        }
    }
}

/// Where a question goes before the search.
pub enum Route {
    /// Answered or declined without the search.
    Answered(Box<Answer>),
    /// To the search, with what was understood and notes for the answer.
    Search { understood: Box<understand::Understanding>, notes: Vec<String> },
}

enum Weighed {
    Declined(Box<Answer>),
    Answer { retrieval: Box<Retrieval>, evidence: Evidence, context: Vec<ContextItem> },
}

/// The `search_code` tool: the same hybrid retrieval as an offline answer, as text for the model.
struct RetrievalSearch<'a> {
    answerer: &'a Answerer<'a>,
    linker: &'a EntityLinker<'a>,
}

impl tools::CodeSearch for RetrievalSearch<'_> {
    async fn search(&self, query: &str) -> anyhow::Result<(String, Vec<String>)> {
        let answerer = self.answerer;
        let search = answerer.search.get().await.map_err(|problem| anyhow::anyhow!("{problem}"))?;
        let prepared = prepare(search, answerer.embedder, answerer.bundle, self.linker, query, None).await?;
        let mut found = prepared.finish(answerer.bundle, &answerer.ranking_settings());
        found.read_texts(search).await?;
        let mut text = String::new();
        let mut modules = Vec::new();
        for hit in found.hits.iter().take(6) {
            let snippet: String = hit.text.chars().take(600).collect();
            text.push_str(&format!("`{}` lines {}-{}:\n{snippet}\n\n", hit.module, hit.line_start, hit.line_end));
            modules.push(hit.module.clone());
        }
        if text.is_empty() {
            text = "no code matches".to_string();
        }
        Ok((text, modules))
    }
}

/// The evidence of a retrieval and the decision on it.
pub fn weigh_evidence(
    question: &str,
    retrieval: &Retrieval,
    ranking: &RankingSettings,
    decline: &DeclineSettings,
) -> Evidence {
    let (terms, features) = abstain::evidence(question, retrieval, ranking);
    let (score, mut decision) = abstain::decide(&features, !retrieval.ranked.is_empty(), decline);
    if let Some((module, part)) = retrieval.missing.first()
        && decision != Decision::NoResults
    {
        decision = Decision::NoSuchName(format!("{module}: {part}"));
    }
    Evidence { terms, features, score, decision }
}

/// Whether the code holds `name` at all: an identifier of that name (the last part of a dotted
/// name), in code or written as code in prose. A path names a file, which no code holds.
fn mentioned_in_code(search: &SearchIndex, name: &str) -> bool {
    if name.contains('/') || name.ends_with(".py") {
        return false;
    }
    let last = name.rsplit('.').next().unwrap_or(name);
    !search.lexicon.identifier_users(last).is_empty()
}

/// The decline's text: what was searched and the evidence that weighed most against answering.
fn decline_reason(question: &str, evidence: &Evidence, retrieval: &Retrieval, n_modules: usize) -> String {
    let quoted = |words: &[&str]| {
        let quoted: Vec<String> = words.iter().map(|word| format!("`{word}`")).collect();
        match quoted.split_last() {
            Some((last, rest)) if !rest.is_empty() => format!("{} or {last}", rest.join(", ")),
            _ => quoted.join(""),
        }
    };
    if let Some(what) = abstain::beyond_the_code(question) {
        return format!(
            "I don't know: this asks about {what}, which the code does not record. Ask about what the code does, for example where or how something is done."
        );
    }
    if let (Decision::NoSuchName(_), Some((module, part))) = (&evidence.decision, retrieval.missing.first()) {
        return format!(
            "I don't know: this code has no `{part}` under `{module}`, and no module, folder, class or function anywhere is called `{part}`."
        );
    }
    if retrieval.query_words.is_empty() && retrieval.names.is_empty() {
        return "I don't know: the question has no words to search the code for. Ask about the code, for example where or how something is done, or `what imports <module>?`.".to_string();
    }
    let searched = if retrieval.query_words.is_empty() {
        retrieval.names.iter().map(|(name, _)| name.as_str()).collect::<Vec<_>>().join(", ")
    } else {
        retrieval.query_words.join(", ")
    };
    // The terms are stems (`defin`): people read the word the question wrote (`defined`).
    let as_written = |term: &str| -> String {
        let written = retrieval.query_words.iter().find(|word| {
            content_terms(word).iter().chain(&strata_core::text::versioned_names(word)).any(|t| t == term)
        });
        written.map_or_else(|| term.to_string(), |word| word.to_lowercase())
    };
    let unseen: Vec<String> =
        evidence.terms.iter().filter(|t| t.modules == 0 && !t.discourse).map(|t| as_written(&t.word)).collect();
    let unseen: Vec<&str> = distinct(&unseen);
    let unknown: Vec<&str> = retrieval.unknown_names.iter().map(String::as_str).collect();
    let why = if !unknown.is_empty() {
        format!(" No code in the index defines or uses {}.", quoted(&unknown))
    } else if !unseen.is_empty() {
        format!(" No module mentions {}.", quoted(&unseen))
    } else {
        let missing: Vec<String> =
            evidence.terms.iter().filter(|t| !t.in_context && !t.discourse).map(|t| as_written(&t.word)).collect();
        let missing: Vec<&str> = distinct(&missing);
        if missing.is_empty() {
            " The best matches hold the words but not together in one place.".to_string()
        } else {
            format!(" None of the best matches mentions {}.", quoted(&missing))
        }
    };
    format!(
        "I don't know: the index has no code that clearly answers this. I searched the code of {n_modules} modules for: {searched}.{why}"
    )
}

/// Each word once, in the order first seen (two stems of `max_retries` name one word).
fn distinct(words: &[String]) -> Vec<&str> {
    let mut seen = std::collections::BTreeSet::new();
    words.iter().map(String::as_str).filter(|word| seen.insert(*word)).collect()
}

fn context_items(retrieval: &Retrieval) -> Vec<ContextItem> {
    let mut items: Vec<ContextItem> = retrieval
        .hits
        .iter()
        .map(|hit| ContextItem {
            id: hit.id.clone(),
            module: hit.module.clone(),
            score: hit.score,
            kind: hit.kind.clone(),
        })
        .collect();
    for (id, _) in &retrieval.graph_facts {
        items.push(ContextItem {
            id: format!("graph:{id}"),
            module: id.clone(),
            score: 0.0,
            kind: "graph".to_string(),
        });
    }
    for central in &retrieval.central {
        items.push(ContextItem {
            id: format!("module:{central}"),
            module: central.clone(),
            score: 0.0,
            kind: "central".to_string(),
        });
    }
    items
}
