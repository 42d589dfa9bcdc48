//! Test support: fixture repositories in temporary directories, running `strata`, reading its output.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use serde_json::{Value, json};
use tempfile::TempDir;
use wiremock::ResponseTemplate;

pub const FIXTURES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/repos");

/// A repository in a temporary directory.
pub struct Repo {
    dir: TempDir,
}

impl Repo {
    /// The fixture's files in a plain directory (not a git repository).
    pub fn plain(fixture: &str) -> Repo {
        let dir = TempDir::new().unwrap();
        copy_tree(&Path::new(FIXTURES).join(fixture), dir.path());
        Repo { dir }
    }

    /// The fixture's files committed to a fresh git repository.
    pub fn git(fixture: &str) -> Repo {
        let repo = Repo::plain(fixture);
        repo.init_git();
        repo.commit_all("fixture");
        repo
    }

    /// An empty git repository with no commits.
    pub fn empty_git() -> Repo {
        let repo = Repo { dir: TempDir::new().unwrap() };
        repo.init_git();
        repo
    }

    pub fn path(&self) -> &Path {
        self.dir.path()
    }

    pub fn write(&self, relative: &str, content: &str) {
        let path = self.path().join(relative);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, content).unwrap();
    }

    pub fn remove(&self, relative: &str) {
        std::fs::remove_file(self.path().join(relative)).unwrap();
    }

    pub fn rename(&self, from: &str, to: &str) {
        std::fs::rename(self.path().join(from), self.path().join(to)).unwrap();
    }

    /// Makes the directory a git repository, with gix: the tests need no `git` program, only Rust.
    pub fn init_git(&self) {
        gix::init(self.path()).expect("git init");
    }

    /// Commits the working tree as it is (every file, symlinks as links) on top of HEAD.
    pub fn commit_all(&self, message: &str) {
        let repository = gix::open(self.path()).expect("open the fixture repository");
        let tree = write_tree(&repository, self.path());
        let parents: Vec<gix::ObjectId> = repository.head_id().ok().map(|id| id.detach()).into_iter().collect();
        let signature = gix::actor::SignatureRef {
            name: "fixture".into(),
            email: "fixture@example.invalid".into(),
            time: "1767225600 +0000",
        };
        repository.commit_as(signature, signature, "HEAD", message, tree, parents).expect("commit");
    }

    /// The commit HEAD points to, as hex.
    /// The git blob id of a file as it is on disk (what GitHub's API calls its `sha`).
    pub fn blob_id(&self, relative: &str) -> String {
        let bytes = std::fs::read(self.path().join(relative)).expect("read the fixture file");
        gix::objs::compute_hash(gix::hash::Kind::Sha1, gix::objs::Kind::Blob, &bytes).expect("hash").to_string()
    }

    pub fn head(&self) -> String {
        gix::open(self.path()).expect("open the fixture repository").head_id().expect("a commit").to_string()
    }
}

/// Writes `dir` (without `.git`) as a tree object, the way `git add -A` would see it.
fn write_tree(repository: &gix::Repository, dir: &Path) -> gix::ObjectId {
    use gix::objs::tree::{Entry, EntryKind};
    let mut entries = Vec::new();
    for item in std::fs::read_dir(dir).unwrap() {
        let item = item.unwrap();
        let name = item.file_name().into_string().expect("UTF-8 fixture names");
        if name == ".git" {
            continue;
        }
        let kind = item.file_type().unwrap();
        let (mode, oid) = if kind.is_symlink() {
            let target = std::fs::read_link(item.path()).unwrap();
            let id = repository.write_blob(target.to_str().unwrap().as_bytes()).unwrap().detach();
            (EntryKind::Link, id)
        } else if kind.is_dir() {
            let id = write_tree(repository, &item.path());
            if id == gix::ObjectId::empty_tree(gix::hash::Kind::Sha1) {
                continue; // git does not track empty folders
            }
            (EntryKind::Tree, id)
        } else {
            (EntryKind::Blob, repository.write_blob(std::fs::read(item.path()).unwrap()).unwrap().detach())
        };
        entries.push(Entry { mode: mode.into(), filename: name.into(), oid });
    }
    entries.sort();
    repository.write_object(gix::objs::Tree { entries }).unwrap().detach()
}

pub fn copy_tree(from: &Path, to: &Path) {
    for entry in std::fs::read_dir(from).unwrap_or_else(|e| panic!("fixture {}: {e}", from.display())) {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            std::fs::create_dir_all(&target).unwrap();
            copy_tree(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), target).unwrap();
        }
    }
}

/// Runs the binary with a clean environment for the variables strata reads.
pub fn strata(args: &[&str]) -> Output {
    strata_with_env(args, &[])
}

pub fn strata_with_env(args: &[&str], env: &[(&str, &str)]) -> Output {
    let mut command = Command::new(env!("CARGO_BIN_EXE_strata"));
    command.args(args);
    for (name, _) in std::env::vars() {
        // Never let a developer's real keys or settings reach a test run.
        if name.starts_with("STRATA_") || name.starts_with("GITHUB_") || name.starts_with("OPENAI_") {
            command.env_remove(name);
        }
    }
    for (name, value) in env {
        command.env(name, value);
    }
    command.output().expect("strata runs")
}

/// The result of a successful `strata index --json`.
pub struct Index {
    _temporary: TempDir,
    pub dir: PathBuf,
    pub report: Value,
    pub bundle: Value,
    pub stderr: String,
}

impl Index {
    pub fn file(&self, name: &str) -> PathBuf {
        self.dir.join(name)
    }

    pub fn read(&self, name: &str) -> Vec<u8> {
        std::fs::read(self.file(name)).unwrap()
    }

    /// Edges as `src -> dst` strings, sorted.
    pub fn edges(&self) -> BTreeSet<String> {
        self.bundle["edges"]
            .as_array()
            .unwrap()
            .iter()
            .map(|edge| format!("{} -> {}", edge["src"].as_str().unwrap(), edge["dst"].as_str().unwrap()))
            .collect()
    }

    pub fn edge(&self, src: &str, dst: &str) -> &Value {
        self.bundle["edges"]
            .as_array()
            .unwrap()
            .iter()
            .find(|edge| edge["src"] == src && edge["dst"] == dst)
            .unwrap_or_else(|| panic!("no edge {src} -> {dst}; edges: {:?}", self.edges()))
    }

    pub fn node(&self, id: &str) -> &Value {
        let node = &self.bundle["nodes"][id];
        assert!(node.is_object(), "no node {id}");
        node
    }
}

pub fn index(path: &Path, extra_args: &[&str]) -> Index {
    index_with_env(path, extra_args, &[])
}

pub fn index_with_env(path: &Path, extra_args: &[&str], env: &[(&str, &str)]) -> Index {
    let out = TempDir::new().unwrap();
    let out_dir = out.path().join("index");
    let mut args = vec!["index", path.to_str().unwrap(), "--out", out_dir.to_str().unwrap(), "--json"];
    args.extend_from_slice(extra_args);
    let output = strata_with_env(&args, env);
    let stderr = String::from_utf8_lossy(&output.stderr).to_string();
    assert!(output.status.success(), "strata index failed: {stderr}");
    let report: Value = serde_json::from_slice(&output.stdout).expect("--json prints JSON");
    let bundle: Value = serde_json::from_slice(&std::fs::read(out_dir.join("bundle.json")).unwrap()).unwrap();
    Index { _temporary: out, dir: out_dir, report, bundle, stderr }
}

/// An OpenAI chat completion whose message is `content`, as a fake server answers.
pub fn chat_reply(content: &str) -> ResponseTemplate {
    ResponseTemplate::new(200).set_body_json(json!({
        "id": "chatcmpl-1", "object": "chat.completion", "created": 1767225600, "model": "fake-chat",
        "choices": [{"index": 0, "finish_reason": "stop", "logprobs": null,
                     "message": {"role": "assistant", "content": content, "refusal": null}}],
        "usage": {"prompt_tokens": 10, "completion_tokens": 10, "total_tokens": 20}
    }))
}
