//! Resolved settings: command-line flags (with their `STRATA_*` environment twins) merged with the
//! repository's optional `strata.toml`, validated once. Flags win over the file; exclusions add up.

use anyhow::{Context, Result};
use serde::Deserialize;

use crate::secret::Secret;

/// Files above this size are skipped with a warning unless configured otherwise (generated code, data).
pub const DEFAULT_MAX_FILE_BYTES: u64 = 2_000_000;

/// The name of the optional configuration file at the repository root.
pub const CONFIG_FILE_NAME: &str = "strata.toml";

/// `strata.toml` as written in the repository.
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct FileConfig {
    #[serde(default)]
    pub index: IndexFileConfig,
    #[serde(default)]
    pub impact: ImpactFileConfig,
    /// `[[contracts]]`: architecture rules `strata check` enforces.
    #[serde(default)]
    pub contracts: Vec<crate::impact::contracts::Contract>,
}

/// `[impact]`: how `strata impact` picks the tests to run.
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct ImpactFileConfig {
    /// File name patterns of test modules, as pytest's `python_files` [default: test_*.py, *_test.py].
    pub test_files: Option<Vec<String>>,
}

#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct IndexFileConfig {
    #[serde(default)]
    pub exclude: Vec<String>,
    #[serde(default)]
    pub source_roots: Vec<String>,
    pub max_file_bytes: Option<u64>,
}

impl FileConfig {
    pub fn parse(text: &str) -> Result<FileConfig> {
        toml::from_str(text).with_context(|| format!("invalid {CONFIG_FILE_NAME}; fix it or remove the offending key"))
    }
}

/// Index options as the user typed them on the command line (validated by clap only).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct IndexOptions {
    pub exclude: Vec<String>,
    pub source_roots: Vec<String>,
    pub max_file_bytes: Option<u64>,
}

/// What the index pipeline uses.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct IndexSettings {
    pub exclude: Vec<String>,
    pub source_roots: Vec<String>,
    pub max_file_bytes: u64,
    /// File name patterns of test modules (`strata impact`).
    pub test_files: Vec<String>,
    /// Architecture contracts (`strata check`).
    pub contracts: Vec<crate::impact::contracts::Contract>,
}

impl IndexSettings {
    pub fn resolve(options: &IndexOptions, file: &FileConfig) -> IndexSettings {
        let mut exclude = file.index.exclude.clone();
        exclude.extend(options.exclude.iter().cloned());
        let source_roots = if options.source_roots.is_empty() {
            file.index.source_roots.clone()
        } else {
            options.source_roots.clone()
        };
        let max_file_bytes = options.max_file_bytes.or(file.index.max_file_bytes).unwrap_or(DEFAULT_MAX_FILE_BYTES);
        let test_files = file.impact.test_files.clone().unwrap_or_else(|| {
            crate::graph_view::DEFAULT_TEST_FILES.iter().map(|pattern| pattern.to_string()).collect()
        });
        IndexSettings { exclude, source_roots, max_file_bytes, test_files, contracts: file.contracts.clone() }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn toml_piece() -> impl Strategy<Value = String> {
        prop::sample::select(vec![
            "[index]\n",
            "[index.x]\n",
            "[[index]]\n",
            "exclude = [\"docs\"]\n",
            "source-roots = [\"..\", \"src\"]\n",
            "max-file-bytes = 10\n",
            "max-file-bytes = -1\n",
            "max-file-bytes = 1e400\n",
            "unknown = 1\n",
            "exclude = \"not a list\"\n",
            "\"",
            "'",
            "[",
            "]",
            "=",
            "\n",
            "\r\n",
            "\0",
            "\u{feff}",
            "é",
            "#",
            "x = { a = 1 }\n",
            "\"\"\"",
            "[index]\n[index]\n",
        ])
        .prop_map(str::to_string)
    }

    proptest! {
        #![proptest_config(ProptestConfig { failure_persistence: None, ..ProptestConfig::default() })]

        /// Any text is a configuration or an error that names the file and the line, never a panic.
        #[test]
        fn any_text_parses_or_names_the_file_and_line(
            pieces in prop::collection::vec(toml_piece(), 0..12),
            noise in "\\PC{0,40}",
        ) {
            let text = format!("{}{noise}", pieces.concat());
            match FileConfig::parse(&text) {
                Ok(file) => {
                    let settings = IndexSettings::resolve(&IndexOptions::default(), &file);
                    prop_assert!(settings.max_file_bytes > 0 || file.index.max_file_bytes == Some(0));
                }
                Err(error) => {
                    let message = format!("{error:#}");
                    prop_assert!(message.contains(CONFIG_FILE_NAME), "{}", message);
                    prop_assert!(message.contains("line "), "no line in: {}", message);
                }
            }
        }
    }

    #[test]
    fn flags_win_and_exclusions_add_up() {
        let file = FileConfig::parse("[index]\nexclude = [\"docs\"]\nsource-roots = [\"lib\"]\nmax-file-bytes = 10\n")
            .unwrap();
        let options = IndexOptions { exclude: vec!["tests".into()], source_roots: vec![], max_file_bytes: Some(99) };
        let settings = IndexSettings::resolve(&options, &file);
        assert_eq!(settings.exclude, ["docs", "tests"]);
        assert_eq!(settings.source_roots, ["lib"]);
        assert_eq!(settings.max_file_bytes, 99);
    }

    #[test]
    fn unknown_keys_are_rejected_with_the_file_name() {
        let error = FileConfig::parse("[index]\nexlude = []\n").unwrap_err();
        let message = format!("{error:#}");
        assert!(message.contains("strata.toml") && message.contains("exlude"), "{message}");
    }
}

/// Which embedder fills the vector column (`--embedder`, parsed in the binary's `cli.rs`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EmbedderChoice {
    /// Deterministic code-aware hashing, no model and no network (the default).
    Builtin,
    /// WordLlama l2_supercat, a small semantic model run in-process (16 MB, downloaded once from PyPI
    /// and cached; `STRATA_MODEL_DIR`).
    Wordllama,
    /// An OpenAI-compatible `/embeddings` endpoint (`OPENAI_BASE_URL`, `OPENAI_API_KEY`, `--embedding-model`).
    Openai,
}

/// An OpenAI-compatible server, from the environment (`OPENAI_BASE_URL`, `OPENAI_API_KEY`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LlmServer {
    pub base_url: String,
    pub api_key: Secret,
}

pub const DEFAULT_OPENAI_BASE_URL: &str = "https://api.openai.com/v1";

impl LlmServer {
    /// The configured server, or `None` when neither a key nor a base URL is set (local servers such as
    /// Ollama need only the URL).
    pub fn from_values(base_url: Option<&str>, api_key: Option<&str>) -> Option<LlmServer> {
        let base_url = base_url.map(str::trim).filter(|v| !v.is_empty());
        let api_key = api_key.map(str::trim).filter(|v| !v.is_empty());
        if base_url.is_none() && api_key.is_none() {
            return None;
        }
        Some(LlmServer {
            base_url: base_url.unwrap_or(DEFAULT_OPENAI_BASE_URL).trim_end_matches('/').to_string(),
            api_key: Secret::new(api_key.unwrap_or_default()),
        })
    }
}
