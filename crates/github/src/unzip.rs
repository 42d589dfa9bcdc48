//! Unpacking a downloaded index artifact, by hand, because archives are a classic hole (zip-slip,
//! symlink escapes, zip bombs). Only regular files and folders with plain relative names are accepted:
//! no absolute paths, `..`, `.`, backslashes, drive letters or symlinks. Files are created with
//! `create_new`, so nothing outside a fresh directory is ever overwritten, and the bytes actually
//! decompressed (not the sizes the archive claims) are counted against a cap, as are the entries and
//! each entry's compression ratio; duplicate names and entries sharing compressed bytes are refused.
//! The archive is unpacked into a temporary sibling of the destination
//! and renamed into place only when every entry passed: a refused archive leaves nothing behind.

use std::io::{Read, Seek, Write};
use std::path::{Component, Path, PathBuf};

use anyhow::{Context, Result, bail};

/// Caps on what an archive may unpack to.
#[derive(Debug, Clone, Copy)]
pub struct ArchiveLimits {
    /// Bytes downloaded, and bytes unpacked.
    pub max_bytes: u64,
    pub max_entries: usize,
    /// Largest ratio of an entry's unpacked to compressed size (an index compresses 2–20 times; a zip
    /// bomb a thousand). Entries under [`RATIO_FREE_BYTES`] are not checked.
    pub max_ratio: u64,
}

/// Small entries (a manifest, an empty table) may compress far beyond any ratio and harm no one.
pub const RATIO_FREE_BYTES: u64 = 1 << 20;

impl Default for ArchiveLimits {
    fn default() -> Self {
        ArchiveLimits { max_bytes: 1 << 30, max_entries: 10_000, max_ratio: 100 }
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
    #[error("the archive entry {0:?} unpacks to more than {1} times its compressed size")]
    RatioTooHigh(String, u64),
    #[error("the archive has two entries with the same name")]
    DuplicateNames,
    #[error("the archive has entries that share their compressed bytes")]
    OverlappingEntries,
}

/// Unpacks the zip read from `zip` into `dest`, which must not exist yet, all or nothing. Returns the
/// number of files written.
pub fn unpack<R: Read + Seek>(zip: R, dest: &Path, limits: ArchiveLimits) -> Result<usize> {
    if dest.exists() {
        bail!("{} already exists", dest.display());
    }
    let parent = dest.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new("."));
    let staging = tempfile::Builder::new()
        .prefix(".strata-unpack-")
        .tempdir_in(parent)
        .with_context(|| format!("cannot create a folder in {}", parent.display()))?;
    let files = unpack_into(zip, staging.path(), limits)?;
    std::fs::rename(staging.path(), dest).with_context(|| format!("cannot move the index into {}", dest.display()))?;
    // The staging folder is now `dest`; its guard must not delete it.
    let _ = staging.keep();
    Ok(files)
}

fn unpack_into<R: Read + Seek>(zip: R, dest: &Path, limits: ArchiveLimits) -> Result<usize> {
    let mut archive = zip::ZipArchive::new(zip).context("the artifact is not a zip")?;
    if archive.len() > limits.max_entries {
        bail!(UnsafeArchive::TooManyEntries(limits.max_entries));
    }
    // Two entries with one name would leave only one of them readable by name; entries that share
    // compressed bytes are the overlapping-file zip bomb.
    if archive.has_duplicate_names() {
        bail!(UnsafeArchive::DuplicateNames);
    }
    if archive.has_overlapping_entries().context("cannot read the archive's entries")? {
        bail!(UnsafeArchive::OverlappingEntries);
    }
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
        // Read one byte past the budget: reaching it means the entry is too large. The ratio caps the
        // same read, by the entry's compressed size (which the archive's central directory states).
        let ratio_cap = entry.compressed_size().saturating_mul(limits.max_ratio).max(RATIO_FREE_BYTES);
        let cap = budget.min(ratio_cap);
        let copied = std::io::copy(&mut (&mut entry).take(cap.saturating_add(1)), &mut file)
            .with_context(|| format!("cannot unpack {name}"))?;
        if copied > budget {
            bail!(UnsafeArchive::TooLarge(limits.max_bytes));
        }
        if copied > ratio_cap {
            bail!(UnsafeArchive::RatioTooHigh(name, limits.max_ratio));
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
    use proptest::prelude::*;
    use zip::write::SimpleFileOptions;

    fn entry_name() -> impl Strategy<Value = String> {
        let segment = prop::sample::select(vec![
            "a",
            "lancedb",
            "manifest.json",
            "..",
            ".",
            "",
            "C:",
            "\\",
            "é",
            "a\0b",
            "..\\..",
            "~",
            "-",
        ]);
        (prop::collection::vec(segment, 1..5), any::<bool>(), any::<bool>()).prop_map(|(parts, absolute, folder)| {
            let mut name = parts.join("/");
            if absolute {
                name.insert(0, '/');
            }
            if folder {
                name.push('/');
            }
            name
        })
    }

    /// What is in `dir`, recursively, as paths relative to it.
    fn listing(dir: &Path) -> Vec<String> {
        let mut found = Vec::new();
        let mut stack = vec![dir.to_path_buf()];
        while let Some(folder) = stack.pop() {
            for entry in std::fs::read_dir(&folder).into_iter().flatten().flatten() {
                let path = entry.path();
                found.push(path.strip_prefix(dir).unwrap().display().to_string());
                if path.is_dir() {
                    stack.push(path);
                }
            }
        }
        found.sort();
        found
    }

    fn check_unpack(zip: &[u8]) -> Result<(), TestCaseError> {
        let dir = tempfile::tempdir().unwrap();
        let dest = dir.path().join("out");
        let limits = ArchiveLimits { max_bytes: 4096, max_entries: 8, max_ratio: 100 };
        let result = unpack(std::io::Cursor::new(zip), &dest, limits);
        let outside: Vec<String> =
            listing(dir.path()).into_iter().filter(|p| p != "out" && !p.starts_with("out/")).collect();
        prop_assert!(outside.is_empty(), "written outside the destination: {:?}", outside);
        if result.is_err() {
            prop_assert!(!dest.exists(), "a refused archive left {:?}", listing(&dest));
        }
        Ok(())
    }

    proptest! {
        #![proptest_config(ProptestConfig { failure_persistence: None, ..ProptestConfig::default() })]

        /// Hostile names (traversal in every position, duplicates, absolute, drive letters, NUL) are
        /// refused or unpacked inside the destination; a refusal leaves nothing.
        #[test]
        fn any_entries_stay_inside_or_leave_nothing(
            entries in prop::collection::vec((entry_name(), prop::collection::vec(any::<u8>(), 0..64)), 0..8),
        ) {
            let mut writer = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
            for (name, bytes) in &entries {
                let options = SimpleFileOptions::default();
                let started = if name.ends_with('/') {
                    writer.add_directory(name.as_str(), options)
                } else {
                    writer.start_file(name.as_str(), options)
                };
                // The writer refuses some names (and duplicates) itself; those entries are skipped.
                if started.is_ok() && !name.ends_with('/') {
                    writer.write_all(bytes).unwrap();
                }
            }
            let zip = writer.finish().unwrap().into_inner();
            check_unpack(&zip)?;
        }

        #[test]
        fn any_bytes_are_refused_or_unpacked_safely(bytes in prop::collection::vec(any::<u8>(), 0..2048)) {
            check_unpack(&bytes)?;
        }
    }

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
        assert_eq!(unpack(std::io::Cursor::new(&good), &dir.path().join("ok"), ArchiveLimits::default()).unwrap(), 2);
        assert_eq!(std::fs::read(dir.path().join("ok/lancedb/t/data.lance")).unwrap(), b"rows");

        let slip = zip_of(&[("../escaped.txt", b"x")]);
        let error =
            unpack(std::io::Cursor::new(&slip), &dir.path().join("slip"), ArchiveLimits::default()).unwrap_err();
        assert!(error.to_string().contains("unsafe path"), "{error}");
        assert!(!dir.path().join("escaped.txt").exists());
    }

    #[test]
    fn a_refused_archive_leaves_nothing_behind() {
        let dir = tempfile::tempdir().unwrap();
        let late_slip = zip_of(&[("manifest.json", b"{}"), ("lancedb/x", b"rows"), ("a/../../x", b"x")]);
        assert!(unpack(std::io::Cursor::new(&late_slip), &dir.path().join("out"), ArchiveLimits::default()).is_err());
        let left: Vec<_> = std::fs::read_dir(dir.path()).unwrap().collect();
        assert!(left.is_empty(), "the half-written output was removed: {left:?}");
    }

    #[test]
    fn an_entry_a_thousand_times_smaller_than_it_unpacks_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let mut writer = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
        let deflated = SimpleFileOptions::default().compression_method(zip::CompressionMethod::Deflated);
        writer.start_file("lancedb/zeros", deflated).unwrap();
        writer.write_all(&vec![0u8; 4 << 20]).unwrap();
        let bomb = writer.finish().unwrap().into_inner();
        assert!(bomb.len() * 200 < 4 << 20, "the fixture compresses more than 200:1 ({} bytes)", bomb.len());
        let error =
            unpack(std::io::Cursor::new(&bomb), &dir.path().join("bomb"), ArchiveLimits::default()).unwrap_err();
        assert!(error.to_string().contains("times its compressed size"), "{error}");
        assert!(!dir.path().join("bomb").exists());
    }

    #[test]
    fn decompressed_bytes_and_entries_are_capped() {
        let dir = tempfile::tempdir().unwrap();
        let bomb = zip_of(&[("a", &[0u8; 10_000]), ("b", &[0u8; 10_000])]);
        let limits = ArchiveLimits { max_bytes: 15_000, max_entries: 10, max_ratio: 100 };
        let error = unpack(std::io::Cursor::new(&bomb), &dir.path().join("bomb"), limits).unwrap_err();
        assert!(error.to_string().contains("more than 15000 bytes"), "{error}");
        let many = zip_of(&[("a", b""), ("b", b""), ("c", b"")]);
        let limits = ArchiveLimits { max_bytes: 1_000, max_entries: 2, max_ratio: 100 };
        assert!(
            unpack(std::io::Cursor::new(&many), &dir.path().join("many"), limits)
                .unwrap_err()
                .to_string()
                .contains("more than 2 entries")
        );
    }

    #[test]
    fn duplicate_names_are_refused() {
        // The zip writer refuses a duplicate name, so the second entry is renamed in the bytes.
        let mut bytes = zip_of(&[("manifest.json", b"{}"), ("manifest.jsoX", b"{\"evil\": 1}")]);
        let (from, to) = (b"manifest.jsoX", b"manifest.json");
        while let Some(at) = bytes.windows(from.len()).position(|window| window == from) {
            bytes[at..at + to.len()].copy_from_slice(to);
        }
        let dir = tempfile::tempdir().unwrap();
        let error = unpack(std::io::Cursor::new(&bytes), &dir.path().join("dup"), ArchiveLimits::default());
        let error = error.expect_err("a second manifest.json must not overwrite or pass silently");
        assert!(error.to_string().contains("same name"), "{error}");
        assert!(!dir.path().join("dup").exists());
    }

    #[test]
    fn symlinks_are_refused() {
        let dir = tempfile::tempdir().unwrap();
        let mut writer = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
        writer.add_symlink("manifest.json", "/etc/passwd", SimpleFileOptions::default()).unwrap();
        let archive = writer.finish().unwrap().into_inner();
        let error =
            unpack(std::io::Cursor::new(&archive), &dir.path().join("link"), ArchiveLimits::default()).unwrap_err();
        assert!(error.to_string().contains("symbolic link"), "{error}");
    }
}
