//! WordLlama `l2_supercat` (MIT; 256 dimensions over Llama 2's 32,000 tokens; 16 MB of F16 weights):
//! the opt-in semantic embedder (`--embedder wordllama`). The first use downloads its PyPI wheel, pinned
//! by URL and SHA-256, takes the tokenizer and the weights out of it into strata's model cache, and
//! every later run loads them from there without the network. `STRATA_MODEL_DIR` moves the cache; a
//! folder that already holds `tokenizer.json` and `embeddings.safetensors` is used as it is, which is
//! how offline runners and the tests supply a model. `STRATA_WORDLLAMA_URL` with
//! `STRATA_WORDLLAMA_SHA256` names a mirror of the wheel.

use std::io::Read;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};
use sha2::{Digest, Sha256};

use super::static_model::StaticEmbedder;

pub const WORDLLAMA_ID: &str = "wordllama-l2-supercat-256";
const WHEEL_URL: &str = "https://files.pythonhosted.org/packages/8e/68/c449826f8b8ba8cea65f2efc05b049c155e00dd3f17b6454ffbd9ba6652a/wordllama-0.4.0.post1-cp311-cp311-manylinux2014_x86_64.manylinux_2_17_x86_64.whl";
const WHEEL_SHA256: &str = "42c2c88907ace0b0681ac6f9092d6a300a6409a5d2d61071a3fb5e7159370c97";
/// The wheel's members strata keeps, and the names they get in the cache.
const MEMBERS: [(&str, &str); 2] = [
    ("wordllama/tokenizers/l2_supercat_tokenizer_config.json", "tokenizer.json"),
    ("wordllama/weights/l2_supercat_256.safetensors", "embeddings.safetensors"),
];
/// The wheel is about 19 MB; anything far larger is not it.
const MAX_WHEEL_BYTES: usize = 64 << 20;

/// Where the model lives: `$STRATA_MODEL_DIR`, else `$XDG_CACHE_HOME/strata/models/…`, else
/// `~/.cache/strata/models/…`.
pub fn model_dir() -> Result<PathBuf> {
    if let Some(dir) = std::env::var_os("STRATA_MODEL_DIR").filter(|d| !d.is_empty()) {
        return Ok(PathBuf::from(dir));
    }
    let cache = std::env::var_os("XDG_CACHE_HOME")
        .filter(|d| !d.is_empty())
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|home| PathBuf::from(home).join(".cache")))
        .context("no cache folder for the model: set STRATA_MODEL_DIR")?;
    Ok(cache.join("strata").join("models").join(WORDLLAMA_ID))
}

/// The model, downloaded into the cache first if it is not there.
pub async fn load_wordllama() -> Result<StaticEmbedder> {
    let dir = model_dir()?;
    if !MEMBERS.iter().all(|(_, name)| dir.join(name).is_file()) {
        let (url, sha256) = match (std::env::var("STRATA_WORDLLAMA_URL"), std::env::var("STRATA_WORDLLAMA_SHA256")) {
            (Ok(url), Ok(sha256)) => (url, sha256),
            (Err(_), Err(_)) => (WHEEL_URL.to_string(), WHEEL_SHA256.to_string()),
            _ => bail!("set both STRATA_WORDLLAMA_URL and STRATA_WORDLLAMA_SHA256, or neither"),
        };
        fetch_model(&url, &sha256, &dir).await.with_context(|| {
            format!(
                "cannot fetch the WordLlama model into {} (put `tokenizer.json` and `embeddings.safetensors` there, or point STRATA_MODEL_DIR at a folder that has them)",
                dir.display()
            )
        })?;
    }
    StaticEmbedder::load(&dir, WORDLLAMA_ID)
}

async fn fetch_model(url: &str, sha256: &str, dir: &Path) -> Result<()> {
    let response = reqwest::get(url).await.with_context(|| format!("cannot download {url}"))?;
    if !response.status().is_success() {
        bail!("{url} answered {}", response.status());
    }
    let wheel = response.bytes().await.context("the download broke off")?;
    if wheel.len() > MAX_WHEEL_BYTES {
        bail!("{url} sent {} bytes, far more than the model's wheel", wheel.len());
    }
    let digest = hex(&Sha256::digest(&wheel));
    if !digest.eq_ignore_ascii_case(sha256) {
        bail!("the download's SHA-256 is {digest}, not the pinned {sha256}; nothing was kept");
    }
    let mut archive = zip::ZipArchive::new(std::io::Cursor::new(wheel)).context("the download is not a wheel")?;
    std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    for (member, name) in MEMBERS {
        let mut file = archive.by_name(member).with_context(|| format!("the wheel has no {member}"))?;
        let mut bytes = Vec::new();
        file.by_ref().take(MAX_WHEEL_BYTES as u64).read_to_end(&mut bytes)?;
        // Written under a temporary name and renamed, so a half-written model is never loaded.
        let partial = dir.join(format!(".{name}.partial"));
        std::fs::write(&partial, &bytes).with_context(|| format!("cannot write {}", partial.display()))?;
        std::fs::rename(&partial, dir.join(name))?;
    }
    Ok(())
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}
