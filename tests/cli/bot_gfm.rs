//! Whole comments as the bot posts them, rendered by GitHub's own parser: cmark-gfm with the table,
//! autolink, strikethrough, tagfilter and tasklist extensions, through the `cmarkgfm` package
//! (`tests/gfm/check_comment.py`). The bot answers with a language model faked on loopback that
//! replies with hostile Markdown, every reply quoted in issue 30 among it; each posted comment must hold
//! no link out of the repository, no image, no HTML strata did not write, no mention or `#n` outside
//! code, no rich fence and no bidirectional control, and every question gets its answer (no crash).
//!
//! Needs `python3` with `cmarkgfm` (`.ci/run` installs it); without them the test says so and passes,
//! except under CI (`CI=true`), where that is a failure.

use std::io::Write;
use std::process::{Command, Stdio};

use wiremock::matchers::{method, path};
use wiremock::{Mock, MockServer};

use crate::bot::{FakeGitHub, event, run_bot, shop_index};
use crate::support::chat_reply;

const CHECKER: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/gfm/check_comment.py");
/// The only links a comment may hold: files and commits of the repository the event is from.
const REPOSITORY_URL: &str = "https://github.com/gagbo/ouro-closures/";

/// Whether `python3` can import `cmarkgfm`; under CI its absence fails the test.
fn cmark_gfm_available() -> bool {
    let found =
        Command::new("python3").args(["-c", "import cmarkgfm"]).output().is_ok_and(|output| output.status.success());
    let required = std::env::var("CI").is_ok_and(|value| value == "true");
    assert!(
        found || !required,
        "python3 with cmarkgfm is needed for the GitHub rendering test under CI: `python3 -m pip install cmarkgfm==2025.10.22` (.ci/run installs it)"
    );
    if !found {
        eprintln!("python3 with cmarkgfm not found: the GitHub rendering test is skipped");
    }
    found
}

/// What cmark-gfm renders live in `comment`, one finding a line.
fn live_in_github(comment: &str) -> Vec<String> {
    let mut child = Command::new("python3")
        .arg(CHECKER)
        .arg(REPOSITORY_URL)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("python3 runs");
    child.stdin.take().unwrap().write_all(comment.as_bytes()).unwrap();
    let output = child.wait_with_output().unwrap();
    assert!(output.status.success(), "the checker failed: {}", String::from_utf8_lossy(&output.stderr));
    String::from_utf8(output.stdout).unwrap().lines().map(str::to_string).collect()
}

/// Replies a model might give, hostile on purpose: the ones issue 30 quotes first.
fn hostile_replies() -> Vec<(&'static str, String)> {
    let token = "abcdefghijklmnopqrstuvwxyz0123";
    vec![
        ("mention through a table cell", "| &#124;@octocat | x | y |\n|---|---|---|\n| a | b | c |".into()),
        ("image through a table cell", "| a | b |\n|---|---|\n| \\|\\!\\[i\\]\\(//evil.example/p.png#x\\) | c |".into()),
        ("link through a table cell", "| a | b |\n|---|---|\n| \\|\\[l\\]\\(https://evil.example/#x\\) | c |".into()),
        ("HTML in a table cell", "| <a title=\"|@octocat\"> | <img alt=\"|![i](//evil.example/p.png#x)\"> |\n|---|---|\n| y | z |".into()),
        ("a link cut at 65 KB", format!("https://evil.example/{}", "A".repeat(70_000))),
        ("a link before 70,000 As", format!("https://evil.example/ {}", "A".repeat(70_000))),
        ("an escaped image cut at 65 KB", format!("{}\\!\\[i\\]\\(//evil.example/p.png\\)", "A ".repeat(32_480))),
        ("code cut at 65 KB", format!("{} `@octocat ![i](//evil.example/p.png) https://evil.example/`", "A".repeat(64_900))),
        ("20,000 nested quotes", format!("{} @octocat ![i](//evil.example/p.png)", ">".repeat(20_000))),
        ("an entity-encoded token", format!("The token is ghs&#95;{token} and ghp&#x5f;{token}.")),
        (
            "rich fences",
            "```mermaid\ngraph TD; A-->B\n```\n\n~~~math\nx^2\n~~~\n\n```geojson\n{}\n```\n\n```topojson\n{}\n```\n\n```stl\nsolid x\n```\n\n```suggestion\nx\n```"
                .into(),
        ),
        ("bidi controls", "Access is \u{202E}denied\u{202C} for \u{2066}admins\u{2069} &#x202E;here".into()),
        (
            "everything else",
            "@octocat #12 GH-3 acme/shop#4 www.evil.example a@b.example <https://evil.example> [l](https://evil.example) ![i](//evil.example/p.png) <img src=x> <details><summary>s</summary>x</details>\n\n> [!WARNING]\n> alert\n\n- [ ] task\n\n$x$ and $`y`$ and $$z$$\n\n[r]: https://evil.example\n\n[x][r]"
                .into(),
        ),
    ]
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bot_comments_rendered_by_cmark_gfm_hold_nothing_live() {
    if !cmark_gfm_available() {
        return;
    }
    let (_, zip) = shop_index();
    let mut failures = Vec::new();
    for (name, reply) in hostile_replies() {
        let chat = MockServer::start().await;
        Mock::given(method("POST"))
            .and(path("/v1/chat/completions"))
            .respond_with(chat_reply(&reply))
            .mount(&chat)
            .await;
        let github = FakeGitHub::with_index(zip.clone()).await;
        let base_url = format!("{}/v1", chat.uri());
        let env = [("OPENAI_BASE_URL", base_url.as_str()), ("OPENAI_API_KEY", "test-key")];
        let outcome =
            run_bot(&github, &event("/ask How are failed payment charges retried?", "OWNER", false), &env).await;
        assert!(outcome.success, "{name}: {}", outcome.stderr);
        assert_eq!(github.reactions().await, ["eyes", "rocket"], "{name}: the thread gets its answer");
        let comments = github.comments().await;
        assert_eq!(comments.len(), 1, "{name}");
        let body = &comments[0];
        assert!(body.contains("generated from the retrieved code"), "{name}: the model's reply was used: {body:.300}");
        assert!(body.len() <= 65_000, "{name}: {} bytes", body.len());
        let live = live_in_github(body);
        if !live.is_empty() {
            failures.push(format!("{name}: {live:?}"));
        }
    }
    assert!(failures.is_empty(), "live markup in posted comments:\n{}", failures.join("\n"));
}

/// The checker itself sees each kind of live markup when it is posted as it is.
#[test]
fn the_github_checker_sees_live_markup() {
    if !cmark_gfm_available() {
        return;
    }
    let live = live_in_github(
        "@octocat #12 [l](https://evil.example) ![i](x.png) <b>b</b>\n\n```mermaid\nA\n```\n\n\u{202E}x\n\n| a | b |\n|---|---|\n| `x|@y` | c |",
    );
    let kinds: Vec<&str> = live.iter().map(|finding| finding.split(' ').next().unwrap()).collect();
    for kind in ["reference", "link", "image", "html", "rich", "bidi"] {
        assert!(kinds.contains(&kind), "{kind} missing from {live:?}");
    }
    assert!(live.iter().any(|finding| finding.contains("@y")), "a mention split out of a table cell: {live:?}");
    assert!(
        live_in_github("<!-- strata:answer question=1 -->\n`@ok` [f](https://github.com/gagbo/ouro-closures/blob/x)")
            .is_empty()
    );
}
