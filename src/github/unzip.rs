//! Unpacking a downloaded index artifact, by hand, because archives are a classic hole (zip-slip,
//! symlink escapes, zip bombs). Only regular files and folders with plain relative names are accepted:
//! no absolute paths, `..`, `.`, backslashes, drive letters or symlinks. Files are created with
//! `create_new`, so nothing outside a fresh directory is ever overwritten, and the bytes actually
//! decompressed (not the sizes the archive claims) are counted against a cap, as are the entries.

use std::io::{Read, Write};
use std::path::{Component, Path, PathBuf};

use anyhow::{Context, Result, bail};

/// Caps on what an archive may unpack to.
#[derive(Debug, Clone, Copy)]
pub struct ArchiveLimits {
    pub max_bytes: u64,
    pub max_entries: usize,
}

impl Default for ArchiveLimits {
    fn default() -> Self {
        ArchiveLimits { max_bytes: 4 << 30, max_entries: 10_000 }
    }
}

/// Why an archive was refused; shown to the user as is.
#[derive(Debug, thiserror::Error)]
pub enum UnsafeArchive {
    #[error("the archive entry {0:?} has an unsafe path")]
    UnsafePath(String),
    #[error("the archive entry {0:?} is a symbolic link")]
    Symlink(String),
    #[error("the archive unpacks to more than {0} bytes")]
    TooLarge(u64),
    #[error("the archive has more than {0} entries")]
    TooManyEntries(usize),
}

/// Unpacks `zip_bytes` into `dest`, which must not exist yet. Returns the number of files written.
pub fn unpack(zip_bytes: &[u8], dest: &Path, limits: ArchiveLimits) -> Result<usize> {
    let mut archive = zip::ZipArchive::new(std::io::Cursor::new(zip_bytes)).context("the artifact is not a zip")?;
    if archive.len() > limits.max_entries {
        bail!(UnsafeArchive::TooManyEntries(limits.max_entries));
    }
    std::fs::create_dir(dest).with_context(|| format!("cannot create {}", dest.display()))?;
    let mut budget = limits.max_bytes;
    let mut files = 0;
    for index in 0..archive.len() {
        let mut entry = archive.by_index(index).context("cannot read an archive entry")?;
        // A name that is not valid UTF-8 (or CP437) cannot be checked: refuse it.
        let name = entry.name().map_err(|_| UnsafeArchive::UnsafePath(format!("entry {index}")))?.to_string();
        if entry.is_symlink() {
            bail!(UnsafeArchive::Symlink(name));
        }
        let relative = safe_relative_path(&name).ok_or_else(|| UnsafeArchive::UnsafePath(name.clone()))?;
        let target = dest.join(&relative);
        if entry.is_dir() {
            std::fs::create_dir_all(&target).with_context(|| format!("cannot create {}", target.display()))?;
            continue;
        }
        if let Some(parent) = target.parent() {
            std::fs::create_dir_all(parent).with_context(|| format!("cannot create {}", parent.display()))?;
        }
        let mut file = std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&target)
            .with_context(|| format!("cannot create {} (a duplicate entry?)", target.display()))?;
        // Read one byte past the budget: reaching it means the entry is too large.
        let copied = std::io::copy(&mut (&mut entry).take(budget + 1), &mut file)
            .with_context(|| format!("cannot unpack {name}"))?;
        if copied > budget {
            drop(file);
            bail!(UnsafeArchive::TooLarge(limits.max_bytes));
        }
        file.flush()?;
        budget -= copied;
        files += 1;
    }
    Ok(files)
}

/// `name` as a relative path of normal components only, or `None` when it could escape `dest`.
fn safe_relative_path(name: &str) -> Option<PathBuf> {
    if name.is_empty() || name.contains('\\') || name.contains('\0') || name.starts_with('/') {
        return None;
    }
    let first = name.split('/').next().unwrap_or("");
    if first.len() >= 2 && first.as_bytes()[1] == b':' {
        return None; // a drive letter such as `C:`
    }
    // Segment by segment: `Path::components` would quietly drop a `.` in the middle.
    let mut relative = PathBuf::new();
    for segment in name.strip_suffix('/').unwrap_or(name).split('/') {
        if segment.is_empty() || segment == "." || segment == ".." {
            return None;
        }
        match Path::new(segment).components().next() {
            Some(Component::Normal(part)) => relative.push(part),
            _ => return None,
        }
    }
    Some(relative)
}

#[cfg(test)]
mod tests {
    use super::*;
    use zip::write::SimpleFileOptions;

    fn zip_of(entries: &[(&str, &[u8])]) -> Vec<u8> {
        let mut writer = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
        for (name, bytes) in entries {
            writer.start_file(*name, SimpleFileOptions::default()).unwrap();
            writer.write_all(bytes).unwrap();
        }
        writer.finish().unwrap().into_inner()
    }

    #[test]
    fn only_plain_relative_names_are_safe() {
        for bad in ["../x", "a/../../x", "/etc/passwd", "C:/x", "c:x", "a\\..\\x", "./", "", "a/./b"] {
            assert_eq!(safe_relative_path(bad), None, "{bad}");
        }
        assert_eq!(
            safe_relative_path("lancedb/chunks.lance/data/x.lance"),
            Some("lancedb/chunks.lance/data/x.lance".into())
        );
        assert_eq!(safe_relative_path("folder/"), Some("folder".into()));
    }

    #[test]
    fn a_normal_archive_unpacks_and_traversal_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let good = zip_of(&[("manifest.json", b"{}"), ("lancedb/t/data.lance", b"rows")]);
        assert_eq!(unpack(&good, &dir.path().join("ok"), ArchiveLimits::default()).unwrap(), 2);
        assert_eq!(std::fs::read(dir.path().join("ok/lancedb/t/data.lance")).unwrap(), b"rows");

        let slip = zip_of(&[("../escaped.txt", b"x")]);
        let error = unpack(&slip, &dir.path().join("slip"), ArchiveLimits::default()).unwrap_err();
        assert!(error.to_string().contains("unsafe path"), "{error}");
        assert!(!dir.path().join("escaped.txt").exists());
    }

    #[test]
    fn decompressed_bytes_and_entries_are_capped() {
        let dir = tempfile::tempdir().unwrap();
        let bomb = zip_of(&[("a", &[0u8; 10_000]), ("b", &[0u8; 10_000])]);
        let limits = ArchiveLimits { max_bytes: 15_000, max_entries: 10 };
        let error = unpack(&bomb, &dir.path().join("bomb"), limits).unwrap_err();
        assert!(error.to_string().contains("more than 15000 bytes"), "{error}");
        let many = zip_of(&[("a", b""), ("b", b""), ("c", b"")]);
        let limits = ArchiveLimits { max_bytes: 1_000, max_entries: 2 };
        assert!(
            unpack(&many, &dir.path().join("many"), limits).unwrap_err().to_string().contains("more than 2 entries")
        );
    }

    #[test]
    fn symlinks_are_refused() {
        let dir = tempfile::tempdir().unwrap();
        let mut writer = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
        writer.add_symlink("manifest.json", "/etc/passwd", SimpleFileOptions::default()).unwrap();
        let archive = writer.finish().unwrap().into_inner();
        let error = unpack(&archive, &dir.path().join("link"), ArchiveLimits::default()).unwrap_err();
        assert!(error.to_string().contains("symbolic link"), "{error}");
    }
}
