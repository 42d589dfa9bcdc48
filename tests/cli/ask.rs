//! `strata ask` over the `shop` fixture: every structural question type, retrieval, declines, output
//! formats, and the LLM and embedding paths against an OpenAI-compatible server faked on loopback.

use std::sync::OnceLock;

use serde_json::{Value, json};
use wiremock::matchers::{body_string_contains, method, path};
use wiremock::{Mock, MockServer, Request, Respond, ResponseTemplate};

use crate::support::{Index, Repo, chat_reply, index, strata, strata_with_env};

/// One index of the shop fixture shared by the offline tests (indexing is the slow part).
fn shop_index() -> &'static Index {
    static INDEX: OnceLock<(Repo, Index)> = OnceLock::new();
    let (_, index) = INDEX.get_or_init(|| {
        let repo = Repo::git("shop");
        let index = index(repo.path(), &[]);
        (repo, index)
    });
    index
}

fn ask_json(index: &Index, question: &str, env: &[(&str, &str)]) -> Value {
    let output = strata_with_env(&["ask", "--index", index.dir.to_str().unwrap(), "--format", "json", question], env);
    assert!(output.status.success(), "ask failed: {}", String::from_utf8_lossy(&output.stderr));
    serde_json::from_slice(&output.stdout).expect("ask --format json prints JSON")
}

fn ask(question: &str) -> Value {
    ask_json(shop_index(), question, &[])
}

fn cited(answer: &Value) -> Vec<String> {
    answer["citations"].as_array().unwrap().iter().map(|c| c["path"].as_str().unwrap().to_string()).collect()
}

fn text(answer: &Value) -> &str {
    answer["answer"].as_str().unwrap()
}

#[test]
fn imports_of_a_module() {
    let answer = ask("What does shop/cart.py import?");
    assert_eq!(answer["mode"], "structural");
    assert!(text(&answer).contains("`shop/pricing.py`"), "{}", text(&answer));
    assert!(text(&answer).contains("`shop/models.py` (`if TYPE_CHECKING:` only)"), "{}", text(&answer));
    assert_eq!(cited(&answer), ["shop/cart.py", "shop/models.py", "shop/pricing.py"]);
}

#[test]
fn a_question_read_by_resemblance_says_so() {
    // No construction places "ring": the back-off reader takes it for a question about a cycle.
    let answer = ask("Which modules form a ring of imports with shop.cart?");
    assert_eq!(answer["mode"], "structural", "{answer:#}");
    assert_eq!(answer["understood"]["resembled"], "cycle_members", "{answer:#}");
    assert!(text(&answer).contains("cycle of 2 modules"), "{}", text(&answer));
    let notes = answer["notes"].as_array().unwrap();
    assert!(notes.iter().any(|n| n.as_str().unwrap().starts_with("read by resemblance")), "{answer:#}");
    // A question the rules read carries neither.
    let ruled = ask("Which modules import shop.cart?");
    assert!(ruled["understood"].get("resembled").is_none() && ruled.get("notes").is_none(), "{ruled:#}");
}

#[test]
fn a_reading_the_model_disputes_goes_to_retrieval_and_says_so() {
    // The rules read "an import of X appear" as X's imports; the back-off's model is all but sure it
    // asks how many modules import X.
    let answer = ask("In how many modules does an import of shop.cart appear?");
    assert_ne!(answer["mode"], "structural", "{answer:#}");
    let unsure = answer["understood"]["unsure"].as_str().unwrap();
    assert!(unsure.starts_with("read as a question of the kind `count_imports`"), "{answer:#}");
    assert!(answer["notes"].to_string().contains("two readings of the question disagree"), "{answer:#}");
}

#[test]
fn importers_of_a_module_by_dotted_name() {
    let answer = ask("Which modules import shop.cart?");
    assert_eq!(answer["mode"], "structural");
    assert!(text(&answer).starts_with("3 module(s) import `shop/cart.py`"), "{}", text(&answer));
    assert_eq!(cited(&answer), ["shop/cart.py", "shop/__init__.py", "shop/api.py", "shop/models.py"]);
}

#[test]
fn impact_counts_all_edges_or_runtime_only() {
    let all = ask("What is affected if I change shop/utils.py?");
    assert!(text(&all).starts_with("5 module(s) depend on `shop/utils.py` counting every import"), "{}", text(&all));
    // Transitive dependents are cited too, not only the direct importer shop/pricing.py.
    assert_eq!(cited(&all).len(), 6, "{all:#}");
    assert!(cited(&all).contains(&"shop/api.py".to_string()), "{all:#}");
    let runtime = ask("What depends on shop.models at runtime?");
    assert!(text(&runtime).contains("Nothing in the repository depends on `shop/models.py`"), "{}", text(&runtime));
}

#[test]
fn cycles_everywhere_and_for_one_module() {
    let all = ask("Are there any import cycles?");
    assert!(text(&all).contains("there is 1 import cycle (0 at runtime)"), "{}", text(&all));
    let one = ask("Is shop/models.py in a cycle?");
    assert!(text(&one).contains("cycle of 2 modules"), "{}", text(&one));
    assert!(text(&one).contains("no cycle at runtime"), "{}", text(&one));
    let runtime = ask("Ignoring TYPE_CHECKING imports, is shop/cart.py part of an import cycle?");
    assert!(
        text(&runtime).starts_with("No: `shop/cart.py` is not part of any import cycle at runtime"),
        "{}",
        text(&runtime)
    );
    assert!(text(&runtime).contains("in a cycle of 2 modules"), "{}", text(&runtime));
    // Read as about the package's `__init__.py`, which is in no cycle: the project's cycles are said too.
    let package = ask("Does shop have any import cycles?");
    assert!(
        text(&package).starts_with("No: `shop/__init__.py` is not part of any import cycle."),
        "{}",
        text(&package)
    );
    assert!(
        text(&package).contains("Elsewhere in the repository there is 1 import cycle; the largest has 2 modules"),
        "{}",
        text(&package)
    );
}

#[test]
fn two_modules_in_one_cycle_and_cycles_inside_a_package() {
    let together = ask("Are shop.cart and shop.models in an import cycle together?");
    assert!(
        text(&together).starts_with("Yes: `shop/cart.py` and `shop/models.py` are in one import cycle, of 2 modules"),
        "{}",
        text(&together)
    );
    assert_eq!(together["understood"]["parts"][0]["result"]["yes"], true, "{together:#}");
    let apart = ask("Are shop.cart and shop.api in the same cycle?");
    assert!(
        text(&apart).starts_with("No: `shop/cart.py` is in an import cycle of 2 modules, and `shop/api.py` is not")
    );
    let runtime = ask("Is there a cycle between shop.cart and shop.models at runtime?");
    assert!(text(&runtime).starts_with("No: `shop/cart.py` is not part of any import cycle at runtime"));
    assert!(text(&runtime).contains("in a cycle of 2 modules with `shop/models.py`"), "{}", text(&runtime));
    // The package as where to look: the cycles inside it, not the cycle of its `__init__.py`; the
    // project's own package named bare is the whole repository.
    let inside = ask("Are there any import cycles in the shop package?");
    assert!(text(&inside).starts_with("Yes: there is 1 import cycle inside `shop/`"), "{}", text(&inside));
    let project = ask("Are there any import cycles in shop?");
    assert!(text(&project).starts_with("Yes: there is 1 import cycle (0 at runtime)"), "{}", text(&project));
}

#[test]
fn central_and_leaf_modules() {
    let central = ask("What are the most central modules?");
    assert!(
        text(&central).starts_with("Most depended-on modules: `shop/utils.py` (5 modules depending on it)"),
        "{}",
        text(&central)
    );
    let imported = ask("What are the most imported modules?");
    assert!(
        text(&imported).starts_with("Most imported modules: `shop/cart.py` (3 direct importers)"),
        "{}",
        text(&imported)
    );
    assert!(text(&imported).contains("`shop/models.py` (1 direct importer)"), "{}", text(&imported));
    let runtime = ask("At runtime, which modules are imported by the most other modules?");
    assert!(
        text(&runtime).starts_with(
            "Most imported modules (at runtime (leaving out `if TYPE_CHECKING:` imports and imports in `__main__` blocks)): `shop/cart.py`"
        ),
        "{}",
        text(&runtime)
    );
    assert!(!text(&runtime).contains("`shop/models.py`"), "a TYPE_CHECKING-only importer counts: {}", text(&runtime));
    // The other way: the modules that import the most, not the most imported.
    let importing = ask("Which module imports the most modules?");
    assert_eq!(importing["mode"], "structural", "{importing:#}");
    assert!(
        text(&importing)
            .starts_with("The module importing the most modules is `shop/api.py`, with 2 modules it imports."),
        "{}",
        text(&importing)
    );
    let depending = ask("Which modules have the most dependencies?");
    assert!(
        text(&depending).starts_with("Modules depending on the most modules: `shop/api.py` (5 modules it depends on)"),
        "{}",
        text(&depending)
    );
    let leaves = ask("Which modules import nothing?");
    assert!(
        text(&leaves).contains("`shop/utils.py`") && !text(&leaves).contains("`shop/cart.py`"),
        "{}",
        text(&leaves)
    );
}

#[test]
fn paths_between_modules() {
    let yes = ask("Does shop/api.py depend on shop/utils.py?");
    assert!(
        text(&yes).contains("`shop/api.py` → `shop/cart.py` → `shop/pricing.py` → `shop/utils.py`"),
        "{}",
        text(&yes)
    );
    let no = ask("Does shop/utils.py depend on shop/api.py?");
    assert!(text(&no).starts_with("No: there is no import path"), "{}", text(&no));
}

#[test]
fn where_a_symbol_is_defined_with_lines() {
    let answer = ask("Where is PaymentGateway defined?");
    assert_eq!(answer["mode"], "structural");
    assert_eq!(answer["citations"][0]["path"], "shop/payments/gateway.py");
    assert_eq!(answer["citations"][0]["lines"], json!([9, 22]));
    let method = ask("Which module defines charge_with_retry?");
    assert!(text(&method).contains("method of PaymentGateway"), "{}", text(&method));
}

#[test]
fn exports_use_dunder_all() {
    let answer = ask("What does shop/__init__.py export?");
    assert!(text(&answer).contains("from its `__all__`: `Cart`"), "{}", text(&answer));
}

#[test]
fn misspelled_module_and_symbol_names_are_linked() {
    let misspelled = ask("What imports shop/pricng.py?");
    assert!(text(&misspelled).contains("`shop/pricing.py`"), "{}", text(&misspelled));
    let by_symbol = ask("What imports Cart?");
    assert!(text(&by_symbol).contains("import `shop/cart.py`"), "{}", text(&by_symbol));
}

#[test]
fn an_unknown_module_is_declined_with_suggestions() {
    let answer = ask("What imports shop/nonexistent_thing.py?");
    assert_eq!(answer["mode"], "declined");
    assert!(text(&answer).contains("I don't know which module"), "{}", text(&answer));
    assert!(text(&answer).contains("Did you mean"), "{}", text(&answer));
}

#[test]
fn behavioural_question_is_answered_from_retrieval() {
    let answer = ask("How are failed payment charges retried?");
    assert_eq!(answer["mode"], "retrieval");
    assert_eq!(cited(&answer)[0], "shop/payments/gateway.py", "{answer:#}");
    assert!(answer["context"].as_array().unwrap().iter().any(|c| c["kind"] == "central"));
    assert_eq!(answer["index"]["embedder"], "builtin-hash-v2-512");
}

#[test]
fn does_a_use_b_about_behaviour_goes_to_retrieval() {
    // Phrased like a path question, but "exponential backoff when charges fail" is no module.
    let answer = ask("How does charge_with_retry() use exponential backoff when charges fail?");
    assert_eq!(answer["mode"], "retrieval", "{answer:#}");
    assert_eq!(cited(&answer)[0], "shop/payments/gateway.py", "{answer:#}");
}

#[test]
fn unanswerable_questions_are_declined_saying_what_was_searched() {
    let answer = ask("What is the airspeed velocity of an unladen swallow?");
    assert_eq!(answer["mode"], "declined", "{answer:#}");
    assert!(text(&answer).contains("I searched"), "{}", text(&answer));
    assert!(answer["citations"].as_array().unwrap().is_empty());
    // The words it names are the question's, not the index's stems (`airspe`, `veloc`, `unladen`).
    assert!(text(&answer).contains("`velocity`") && !text(&answer).contains("`veloc`"), "{}", text(&answer));
}

#[test]
fn a_question_naming_what_the_code_lacks_is_declined() {
    // "payment" and "handled" match; "WebSocket" is nowhere in the shop.
    let answer = ask("How are payment WebSocket connections handled?");
    assert_eq!(answer["mode"], "declined", "{answer:#}");
    assert!(text(&answer).contains("No code in the index defines or uses `WebSocket`."), "{}", text(&answer));
    // Plain English words absent from code are phrasing, not a missing component: not declined.
    let answer = ask("How does the gateway turn failed charges into retries?");
    assert_eq!(answer["mode"], "retrieval", "{answer:#}");
    let answer = ask("What is the relationship between the cart and the pricing rules, architecturally?");
    assert_eq!(answer["mode"], "retrieval", "{answer:#}");
}

#[test]
fn a_name_with_a_version_is_known_by_its_number() {
    // `HTTP/2` and `HTTP/3` split into words are both `http`: the code writes the one it has as
    // `http2`, inside identifiers.
    let files = [
        ("net/__init__.py", ""),
        (
            "net/transport.py",
            "\"\"\"Transports.\"\"\"\n\n\nclass HTTPTransport:\n    def __init__(self, http2=False, retries=0):\n        self.http2 = http2\n\n    def handle_request(self, request):\n        \"\"\"Send the request over HTTP.\"\"\"\n        return request\n",
        ),
        (
            "net/client.py",
            "from net.transport import HTTPTransport\n\n\nclass Client:\n    def send(self, request):\n        return HTTPTransport().handle_request(request)\n",
        ),
    ];
    let answer = ask_repo(&files, "Which transport speaks HTTP/2?");
    assert_eq!(answer["mode"], "retrieval", "{answer:#}");
    assert_eq!(cited(&answer)[0], "net/transport.py", "{answer:#}");
    let answer = ask_repo(&files, "Which transport speaks HTTP/3?");
    assert_eq!(answer["mode"], "declined", "{answer:#}");
    assert!(text(&answer).contains("`HTTP/3`"), "{}", text(&answer));
}

#[test]
fn a_dotted_name_into_the_project_that_names_nothing_is_declined() {
    // `shop.payments` is a package; nothing in the shop is called `refunds`, whatever the words find.
    let answer = ask("How does shop.payments.refunds.issue_refund() retry failed charges?");
    assert_eq!(answer["mode"], "declined", "{answer:#}");
    assert_eq!(answer["evidence"]["decision"]["kind"], "no_such_name", "{answer:#}");
    assert_eq!(answer["evidence"]["decision"]["detail"], "shop/payments/__init__.py: refunds", "{answer:#}");
    assert!(
        text(&answer).contains("this code has no `refunds` under `shop/payments/__init__.py`"),
        "{}",
        text(&answer)
    );
    // A part that names something (a class, however it is reached) or a constant the code holds is not
    // missing: searched as before.
    for question in [
        "How does shop.payments.PaymentGateway.charge_later() retry failed charges?",
        "How does shop.payments.gateway.MAX_RETRIES.limit bound the retries of failed charges?",
    ] {
        let answer = ask(question);
        assert_ne!(answer["evidence"]["decision"]["kind"], "no_such_name", "{question}: {answer:#}");
    }
}

#[test]
fn a_name_the_graph_lacks_but_the_code_has_is_searched_for() {
    // `MAX_RETRIES` is a constant, not a module or symbol of the graph: retrieval finds it.
    let answer = ask("Where is MAX_RETRIES used?");
    assert_eq!(answer["mode"], "retrieval", "{answer:#}");
    assert_eq!(cited(&answer)[0], "shop/payments/gateway.py", "{answer:#}");
    assert!(answer["notes"][0].as_str().unwrap().contains("not a module, file or symbol"), "{answer:#}");
    // A name no code contains is still a typo or a missing module: declined with suggestions.
    let answer = ask("What does shop/checkout.py import?");
    assert_eq!(answer["mode"], "declined", "{answer:#}");
}

#[test]
fn questions_about_the_projects_people_are_declined() {
    let answer = ask("Why did the maintainers choose FastAPI?");
    assert_eq!(answer["mode"], "declined", "{answer:#}");
    assert_eq!(answer["evidence"]["decision"]["kind"], "beyond_the_code", "{answer:#}");
    // "Why does the code …" is about the code, and FastAPI is in it (tokenised differently).
    let answer = ask("Why does the api module use FastAPI?");
    assert_ne!(answer["mode"], "declined", "{answer:#}");
}

#[test]
fn ask_weighs_evidence_with_the_settings_the_index_records() {
    let repo = Repo::git("shop");
    let index = index(repo.path(), &[]);
    let manifest_path = index.dir.join("manifest.json");
    let mut manifest: Value = serde_json::from_slice(&std::fs::read(&manifest_path).unwrap()).unwrap();
    let recorded = &manifest["answer"]["decline"];
    assert!(recorded["fitted_on"].as_str().unwrap().contains("strata fit"), "{recorded:#}");
    assert!(manifest["answer"]["ranking"]["fitted_on"].as_str().unwrap().contains("strata fit"));
    let question = "How does the gateway retry failed charges?";
    let answer = ask_json(&index, question, &[]);
    assert_eq!(answer["mode"], "retrieval", "{answer:#}");
    assert_eq!(answer["evidence"]["decision"]["kind"], "answer");
    // The same index with a threshold no evidence meets declines the same question.
    manifest["answer"]["decline"]["threshold"] = json!(1e9);
    std::fs::write(&manifest_path, serde_json::to_vec(&manifest).unwrap()).unwrap();
    let answer = ask_json(&index, question, &[]);
    assert_eq!(answer["mode"], "declined", "{answer:#}");
    assert_eq!(answer["evidence"]["decision"]["kind"], "weak_evidence");
    // A question about the graph that names a module as code, not read completely, is answered with
    // that module's graph facts however weak the word evidence; the project's own name is no module.
    let answer = ask_json(
        &index,
        "Is shop.models orphaned, or does something import it, and would deleting it break the build?",
        &[],
    );
    assert_eq!(answer["mode"], "retrieval", "{answer:#}");
    assert!(text(&answer).contains("imported directly by 1 (`shop/cart.py`)"), "{}", text(&answer));
    let answer = ask_json(&index, "Which module of shop sends invoices by fax?", &[]);
    assert_eq!(answer["mode"], "declined", "{answer:#}");
}

#[test]
fn an_empty_question_gets_a_helpful_reply() {
    let answer = ask("   ");
    assert_eq!(answer["mode"], "declined");
    assert!(text(&answer).contains("The question is empty"));
}

#[test]
fn a_question_without_words_or_a_module_gets_a_helpful_reply() {
    for question in ["?", "the of and"] {
        let answer = ask(question);
        assert_eq!(answer["mode"], "declined", "{answer:#}");
        assert!(text(&answer).contains("no words to search the code for"), "{}", text(&answer));
    }
    // A follow-up about the graph with nothing named before it: no search for "imports".
    for question in ["what imports it?", "Who uses this module?"] {
        let answer = ask(question);
        assert_eq!(answer["mode"], "declined", "{answer:#}");
        assert!(text(&answer).contains("nothing was named before it"), "{}", text(&answer));
    }
    // A relation about no module at all: the asker is asked which, with a module of the index.
    for question in ["what imports?", "Who imports what?"] {
        let answer = ask(question);
        assert_eq!(answer["mode"], "declined", "{answer:#}");
        assert!(text(&answer).starts_with("Which module?"), "{}", text(&answer));
        assert!(text(&answer).contains("for example `what imports "), "{}", text(&answer));
    }
    // "it" as the project, in a question about behaviour, is searched as before.
    let answer = ask("How does it apply discounts?");
    assert!(!text(&answer).contains("nothing was named before it"), "{answer:#}");
}

#[test]
fn markdown_keeps_sources_in_details() {
    let output = strata(&[
        "ask",
        "--index",
        shop_index().dir.to_str().unwrap(),
        "--format",
        "markdown",
        "What imports shop.pricing?",
    ]);
    let markdown = String::from_utf8(output.stdout).unwrap();
    assert!(markdown.contains("<details><summary>Sources"), "{markdown}");
    assert!(markdown.contains("<sub>strata: exact answer from the import graph"), "{markdown}");
}

#[test]
fn asking_without_an_index_is_a_clear_error() {
    let missing = tempfile::TempDir::new().unwrap();
    let output = strata(&["ask", "--index", missing.path().to_str().unwrap(), "anything"]);
    assert_eq!(output.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&output.stderr).contains("is not a strata index"));
}

#[test]
fn the_manifest_records_the_embedder_and_chunk_hashes() {
    let manifest: Value = serde_json::from_slice(&shop_index().read("manifest.json")).unwrap();
    assert_eq!(manifest["embedder"], json!({"id": "builtin-hash-v2-512", "dimension": 512}));
    assert_eq!(manifest["schema_version"], 2);
    assert!(manifest.get("chunks").is_none(), "the chunk hashes are in chunks.json, not in every question's read");
    let hashes: Value = serde_json::from_slice(&shop_index().read("chunks.json")).unwrap();
    assert_eq!(hashes["schema_version"], 1);
    let chunks = hashes["chunks"].as_object().unwrap();
    assert!(chunks.contains_key("module:shop/cart.py"));
    assert!(chunks.keys().any(|id| id.starts_with("code:shop/payments/gateway.py:")));
    assert_eq!(shop_index().report["n_chunks"].as_u64().unwrap() as usize, chunks.len());
}

/// A fake OpenAI-compatible `/embeddings`: one deterministic 8-dimensional vector per input text.
struct FakeEmbeddings;

impl Respond for FakeEmbeddings {
    fn respond(&self, request: &Request) -> ResponseTemplate {
        let body: Value = serde_json::from_slice(&request.body).unwrap();
        let inputs: Vec<String> = match &body["input"] {
            Value::String(text) => vec![text.clone()],
            Value::Array(items) => items.iter().map(|item| item.as_str().unwrap_or_default().to_string()).collect(),
            _ => Vec::new(),
        };
        let data: Vec<Value> = inputs
            .iter()
            .enumerate()
            .map(|(index, text)| {
                let mut vector = [0.0f32; 8];
                for word in text.split_whitespace() {
                    vector[word.len() % 8] += 1.0;
                }
                json!({"object": "embedding", "index": index, "embedding": vector})
            })
            .collect();
        ResponseTemplate::new(200).set_body_json(json!({
            "object": "list", "data": data, "model": body["model"], "usage": {"prompt_tokens": 1, "total_tokens": 1}
        }))
    }
}

/// Asks the retry question with `server` as the OpenAI-compatible endpoint. The binary runs on a
/// blocking thread so the mock server keeps answering on the runtime's other worker.
async fn ask_about_retries_with(server: &MockServer) -> Value {
    let base_url = format!("{}/v1", server.uri());
    tokio::task::spawn_blocking(move || {
        ask_json(
            shop_index(),
            "How are failed payment charges retried?",
            &[("OPENAI_BASE_URL", &base_url), ("OPENAI_API_KEY", "test-key")],
        )
    })
    .await
    .unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn generated_answer_keeps_real_citations_and_removes_hallucinated_ones() {
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .and(path("/v1/chat/completions"))
        .and(body_string_contains("FOLDERS"))
        .respond_with(chat_reply("shop/payments\nnot/a/folder"))
        .expect(1)
        .mount(&server)
        .await;
    Mock::given(method("POST"))
        .and(path("/v1/chat/completions"))
        .respond_with(chat_reply(
            "Charges are retried in `shop/payments/gateway.py` with exponential backoff; see also `shop/ghost.py`.",
        ))
        .expect(1)
        .mount(&server)
        .await;
    let answer = ask_about_retries_with(&server).await;
    assert_eq!(answer["mode"], "generated", "{answer:#}");
    assert_eq!(cited(&answer), ["shop/payments/gateway.py"]);
    assert!(!text(&answer).contains("ghost"), "{}", text(&answer));
    assert!(answer["notes"][0].as_str().unwrap().contains("removed citation shop/ghost.py"), "{answer:#}");
    let requests = server.received_requests().await.unwrap();
    let prompt: Value = serde_json::from_slice(&requests[1].body).unwrap();
    assert_eq!(prompt["temperature"], 0.0);
    assert_eq!(
        answer["context"][0]["module"].as_str().unwrap().rsplit_once('/').unwrap().0,
        "shop/payments",
        "the model's folder is searched first"
    );
    assert!(prompt["messages"][1]["content"].as_str().unwrap().contains("<DATA id=\"code:shop/payments/gateway.py:"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_chat_server_error_falls_back_to_the_offline_answer() {
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .and(path("/v1/chat/completions"))
        .respond_with(
            ResponseTemplate::new(500).set_body_json(
                json!({"error": {"message": "boom", "type": "server_error", "param": null, "code": null}}),
            ),
        )
        .mount(&server)
        .await;
    let answer = ask_about_retries_with(&server).await;
    assert_eq!(answer["mode"], "retrieval");
    assert_eq!(cited(&answer)[0], "shop/payments/gateway.py");
    let notes: Vec<&str> = answer["notes"].as_array().unwrap().iter().map(|n| n.as_str().unwrap()).collect();
    assert!(notes.iter().any(|n| n.contains("folder selection by the language model failed")), "{notes:?}");
    assert!(notes.iter().any(|n| n.contains("could not be reached")), "{notes:?}");
    // The server's own text ("boom") and address stay out of the answer, which a bot posts publicly.
    let shown = answer.to_string();
    assert!(!shown.contains("boom") && !shown.contains("127.0.0.1"), "{shown}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn openai_embeddings_index_and_query_through_the_same_server() {
    let server = MockServer::start().await;
    Mock::given(method("POST")).and(path("/v1/embeddings")).respond_with(FakeEmbeddings).mount(&server).await;
    let base_url = format!("{}/v1", server.uri());
    let (indexed, answer, without_server, located) = tokio::task::spawn_blocking(move || {
        let repo = Repo::git("shop");
        let env = [("OPENAI_BASE_URL", base_url.as_str()), ("STRATA_EMBEDDING_MODEL", "fake-embed")];
        let indexed = crate::support::index_with_env(repo.path(), &["--embedder", "openai"], &env);
        let answer = ask_json(&indexed, "How are failed payment charges retried?", &env);
        let without_server = strata(&["ask", "--index", indexed.dir.to_str().unwrap(), "retries"]);
        // A find-the-code eval answers offline but still embeds its questions on the index's server.
        let questions = indexed.dir.join("locate.jsonl");
        std::fs::write(
            &questions,
            "{\"id\": \"l1\", \"question\": \"How are failed charges retried?\", \"gold_files\": [\"shop/payments/gateway.py\"], \"category\": \"how\"}\n",
        )
        .unwrap();
        let out = indexed.dir.join("locate-eval");
        let located = crate::support::strata_with_env(
            &["eval", "--offline", "--index", indexed.dir.to_str().unwrap(), "--questions", questions.to_str().unwrap(), "--out", out.to_str().unwrap()],
            &env,
        );
        (indexed.report.clone(), answer, without_server, located)
    })
    .await
    .unwrap();
    assert_eq!(indexed["embedder"], "openai:fake-embed");
    assert_eq!(answer["index"]["embedder"], "openai:fake-embed");
    assert_eq!(answer["mode"], "retrieval");
    assert_eq!(without_server.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&without_server.stderr).contains("set OPENAI_BASE_URL"));
    assert!(located.status.success(), "{}", String::from_utf8_lossy(&located.stderr));
    let requests = server.received_requests().await.unwrap();
    assert!(requests.len() >= 3, "probe, chunks and the question are embedded");
}

/// A chat server that asks for one graph tool, then answers (or keeps asking when `forever`).
struct ToolCallingModel {
    tool: &'static str,
    arguments: Value,
    answer: &'static str,
    forever: bool,
}

impl Respond for ToolCallingModel {
    fn respond(&self, request: &Request) -> ResponseTemplate {
        let body: Value = serde_json::from_slice(&request.body).unwrap();
        let has_tool_result = body["messages"].as_array().unwrap().iter().any(|m| m["role"] == "tool");
        let message = if has_tool_result && !self.forever {
            json!({"role": "assistant", "content": self.answer, "refusal": null})
        } else {
            json!({"role": "assistant", "content": null, "refusal": null, "tool_calls": [{
                "id": "call_1", "type": "function",
                "function": {"name": self.tool, "arguments": self.arguments.to_string()}
            }]})
        };
        ResponseTemplate::new(200).set_body_json(json!({
            "id": "chatcmpl-2", "object": "chat.completion", "created": 1767225600, "model": "fake-chat",
            "choices": [{"index": 0, "finish_reason": "tool_calls", "logprobs": null, "message": message}],
            "usage": {"prompt_tokens": 10, "completion_tokens": 10, "total_tokens": 20}
        }))
    }
}

/// Asks `question` of the shop index with `model` behind an OpenAI-compatible server on loopback.
async fn ask_with_model(question: &'static str, model: ToolCallingModel) -> (Value, Vec<Value>) {
    let server = MockServer::start().await;
    Mock::given(method("POST")).and(path("/v1/chat/completions")).respond_with(model).mount(&server).await;
    let base_url = format!("{}/v1", server.uri());
    let answer = tokio::task::spawn_blocking(move || {
        ask_json(shop_index(), question, &[("OPENAI_BASE_URL", &base_url), ("OPENAI_API_KEY", "test-key")])
    })
    .await
    .unwrap();
    let requests = server.received_requests().await.unwrap();
    let bodies = requests.iter().map(|r| serde_json::from_slice(&r.body).unwrap()).collect();
    (answer, bodies)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn graph_tools_answer_what_the_parser_did_not_understand() {
    // "other than" leaves a module out, which the parser does not do: the model asks the graph instead.
    let model = ToolCallingModel {
        tool: "importers_of",
        arguments: json!({"module": "shop.cart"}),
        answer: "`shop/models.py` and `shop/__init__.py` import it, and so does `shop/utils.py`.",
        forever: false,
    };
    let (answer, requests) = ask_with_model("Which modules other than shop/api.py import shop.cart?", model).await;
    assert_eq!(answer["mode"], "generated", "{answer:#}");
    assert_eq!(cited(&answer), ["shop/models.py", "shop/__init__.py"], "{answer:#}");
    assert!(!text(&answer).contains("shop/utils.py"), "no tool result named it: {}", text(&answer));
    let notes = answer["notes"].to_string();
    assert!(notes.contains("answered with the graph tools: importers_of"), "{notes}");
    assert!(notes.contains("removed citation shop/utils.py"), "{notes}");
    assert_eq!(requests.len(), 2);
    assert!(requests[0]["tools"].as_array().unwrap().iter().any(|t| t["function"]["name"] == "path_between"));
    let tool_result = &requests[1]["messages"].as_array().unwrap().last().unwrap()["content"];
    assert!(tool_result.as_str().unwrap().contains("`shop/models.py`"), "{tool_result}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_model_that_keeps_calling_tools_is_stopped() {
    let model =
        ToolCallingModel { tool: "imports_of", arguments: json!({"module": "shop.cart"}), answer: "", forever: true };
    let (answer, requests) = ask_with_model("Which modules other than shop/api.py import shop.cart?", model).await;
    let with_tools = requests.iter().filter(|r| r.get("tools").is_some()).count();
    assert_eq!(with_tools, 4, "the loop stops after four turns");
    assert_ne!(answer["mode"], "generated", "{answer:#}");
    assert!(answer["notes"].to_string().contains("still calling tools after 4 turns"), "{answer:#}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_unknown_tool_falls_back_to_the_offline_answer() {
    let model = ToolCallingModel { tool: "delete_everything", arguments: json!({}), answer: "", forever: false };
    let (answer, _) = ask_with_model("Which modules other than shop/api.py import shop.cart?", model).await;
    assert_ne!(answer["mode"], "generated", "{answer:#}");
    assert!(answer["notes"].to_string().contains("a tool strata does not have"), "{answer:#}");
}

/// A chat server that asks for `calls` tool calls in every turn.
struct ManyToolCalls {
    calls: usize,
}

impl Respond for ManyToolCalls {
    fn respond(&self, _: &Request) -> ResponseTemplate {
        let calls: Vec<Value> = (0..self.calls)
            .map(|n| {
                json!({"id": format!("call_{n}"), "type": "function",
                       "function": {"name": "search_code", "arguments": json!({"query": format!("retry {n}")}).to_string()}})
            })
            .collect();
        ResponseTemplate::new(200).set_body_json(json!({
            "id": "chatcmpl-3", "object": "chat.completion", "created": 1767225600, "model": "fake-chat",
            "choices": [{"index": 0, "finish_reason": "tool_calls", "logprobs": null,
                         "message": {"role": "assistant", "content": null, "refusal": null, "tool_calls": calls}}],
            "usage": {"prompt_tokens": 10, "completion_tokens": 10, "total_tokens": 20}
        }))
    }
}

/// Issue 30, Low 6: the tool calls of one turn were not capped, and each `search_code` is a retrieval.
/// A turn asking for more than eight is not run at all.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_turn_with_too_many_tool_calls_is_not_run() {
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .and(path("/v1/chat/completions"))
        .and(body_string_contains("\"tools\""))
        .respond_with(ManyToolCalls { calls: 9 })
        .mount(&server)
        .await;
    Mock::given(method("POST")).and(path("/v1/chat/completions")).respond_with(chat_reply("NONE")).mount(&server).await;
    let base_url = format!("{}/v1", server.uri());
    let answer = tokio::task::spawn_blocking(move || {
        ask_json(
            shop_index(),
            "Which modules other than shop/api.py import shop.cart?",
            &[("OPENAI_BASE_URL", &base_url), ("OPENAI_API_KEY", "test-key")],
        )
    })
    .await
    .unwrap();
    let notes = answer["notes"].to_string();
    assert!(notes.contains("asked for 9 tool calls in one turn"), "{answer:#}");
    assert!(!notes.contains("answered with the graph tools"), "{answer:#}");
    let requests = server.received_requests().await.unwrap();
    let with_tools = requests.iter().filter(|r| String::from_utf8_lossy(&r.body).contains("\"tools\"")).count();
    assert_eq!(with_tools, 1, "no second turn: none of the nine calls ran");
}

/// Indexes a repository written from `files` and asks it `question` (JSON).
fn ask_repo(files: &[(&str, &str)], question: &str) -> Value {
    let repo = Repo::empty_git();
    for (path, content) in files {
        repo.write(path, content);
    }
    repo.commit_all("files");
    ask_json(&index(repo.path(), &[]), question, &[])
}

/// httpx: "Does `_api` depend on `_transports/wsgi`?" answered a plain "Yes" through `default.py:36`,
/// an import under `if TYPE_CHECKING:`.
#[test]
fn a_yes_that_holds_only_through_type_checking_imports_says_so() {
    let files = [
        ("httpx/__init__.py", ""),
        ("httpx/_api.py", "from ._client import Client\n"),
        ("httpx/_client.py", "from ._transports.default import HTTPTransport\n"),
        ("httpx/_transports/__init__.py", ""),
        (
            "httpx/_transports/default.py",
            "import typing\nif typing.TYPE_CHECKING:\n    from .wsgi import WSGITransport\n",
        ),
        ("httpx/_transports/wsgi.py", ""),
    ];
    let answer = ask_repo(&files, "Does httpx/_api.py depend on httpx/_transports/wsgi.py?");
    let said = text(&answer);
    assert!(said.starts_with("Yes, but only through `if TYPE_CHECKING:` imports, which never run: "), "{said}");
    assert!(said.contains("`httpx/_transports/wsgi.py` (`if TYPE_CHECKING:` only, line 3)"), "{said}");
    let runtime = ask_repo(&files, "Does httpx/_api.py depend on httpx/_transports/wsgi.py at runtime?");
    assert!(text(&runtime).starts_with("No: "), "{}", text(&runtime));
    assert!(text(&runtime).contains("only through `if TYPE_CHECKING:` imports"), "{}", text(&runtime));
}

/// rich: 50 of 399 edges come from `if __name__ == "__main__":` blocks, and "Does rich.style depend on
/// rich.console?" answered yes through `color.py`'s block, as if it ran on import.
#[test]
fn main_block_imports_are_not_runtime_dependencies_and_every_answer_says_so() {
    let files = [
        ("rich/__init__.py", ""),
        ("rich/style.py", "from .color import Color\n"),
        ("rich/color.py", "class Color: ...\nif __name__ == \"__main__\":\n    from .console import Console\n"),
        ("rich/console.py", "from .style import Style\n"),
    ];
    let all = ask_repo(&files, "Does rich.style depend on rich.console?");
    let said = text(&all);
    assert!(said.starts_with("Yes, but only through imports in `if __name__ == \"__main__\":` blocks"), "{said}");
    assert!(said.contains("`rich/console.py` (in a `__main__` block only, line 3)"), "{said}");
    let runtime = ask_repo(&files, "Does rich.style depend on rich.console at runtime?");
    assert!(text(&runtime).starts_with("No: "), "{}", text(&runtime));
    let dependents = ask_repo(&files, "What depends on rich/console.py?");
    assert!(text(&dependents).contains("2 hold only through imports in `if __name__"), "{}", text(&dependents));
    let cycles = ask_repo(&files, "Are there any import cycles?");
    assert!(text(&cycles).contains("(0 at runtime)"), "{}", text(&cycles));
    assert!(
        text(&cycles).contains("no cycle at runtime: it exists only through imports in `if __name__"),
        "{}",
        text(&cycles)
    );
    let imports = ask_repo(&files, "What does rich/color.py import?");
    assert!(
        text(&imports).contains("`rich/console.py` (in a `__main__` block only, conditional)"),
        "{}",
        text(&imports)
    );
}

/// `impact` counted the enclosing `__init__.py` files as dependents and `ask` did not: `ask` now says
/// which modules run a package's `__init__.py` by importing one of its submodules.
#[test]
fn dependents_of_a_package_init_name_the_modules_that_run_it_as_impact_does() {
    let files = [
        ("httpx/__init__.py", "from .__version__ import __version__\n"),
        ("httpx/__version__.py", "__version__ = '1'\n"),
        ("httpx/_models.py", ""),
        ("httpx/_auth.py", "from ._models import Request\n"),
    ];
    let answer = ask_repo(&files, "What depends on httpx/__init__.py?");
    let said = text(&answer);
    assert!(said.contains("importing a submodule runs its package's `__init__.py` first"), "{said}");
    assert!(said.contains("`httpx/_auth.py`"), "{said}");
}

/// "Most depended-on" meant direct importers in `ask` (rich: `console`, 50) and every dependent in
/// `summary.md` (`_cell_widths`, 62): both now rank by every dependent, as docs/graph.md defines it.
#[test]
fn most_depended_on_ranks_as_summary_md_does() {
    let index = shop_index();
    let answer = ask("Which modules are the most depended on?");
    let summary = String::from_utf8(index.read("summary.md")).unwrap();
    let table: Vec<&str> = summary
        .split("## Most depended on")
        .nth(1)
        .unwrap()
        .lines()
        .filter_map(|line| line.strip_prefix("| `").and_then(|rest| rest.split('`').next()))
        .collect();
    let ranked: Vec<String> = answer["understood"]["parts"][0]["result"]["modules"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m.as_str().unwrap().to_string())
        .collect();
    assert!(text(&answer).starts_with("Most depended-on modules: "), "{}", text(&answer));
    assert_eq!(ranked[..3], table[..3], "{}\n{summary}", text(&answer));
    let direct = ask("Which modules are imported by the most modules?");
    assert!(text(&direct).starts_with("Most imported modules: "), "{}", text(&direct));
}
