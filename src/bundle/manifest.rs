//! `manifest.json`: what an index directory was built from and by what, so a later run can decide
//! whether to reuse it. The only file allowed to hold wall-clock figures (`timings_ms`).

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

/// Bump on any change that makes an older reader misread the artifact.
pub const MANIFEST_SCHEMA_VERSION: u32 = 1;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Manifest {
    pub schema_version: u32,
    pub bundle_schema_version: String,
    pub tool: ToolInfo,
    pub commit: Option<String>,
    /// `git` or `worktree`.
    pub source: String,
    /// Git blob id of every indexed file, by path.
    pub files: BTreeMap<String, String>,
    /// Milliseconds per stage of the run that wrote this manifest.
    pub timings_ms: BTreeMap<String, u64>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ToolInfo {
    pub name: String,
    pub version: String,
}

impl ToolInfo {
    pub fn current() -> ToolInfo {
        ToolInfo {
            name: "strata".to_string(),
            version: env!("CARGO_PKG_VERSION").to_string(),
        }
    }
}
