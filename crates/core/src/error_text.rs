//! Error text for people. Errors from dependencies (LanceDB, DataFusion, object_store) carry the
//! source location they were raised at (`…/.cargo/registry/src/…/lance-table-1.0/src/io.rs:123:45`),
//! which tells a user nothing and leaks build paths into bot comments; they are cut out here.

use std::sync::LazyLock;

use regex::Regex;

static SOURCE_LOCATIONS: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?:,\s*)?(?:/?[\w.\-@+]+/)*[\w.\-]+\.rs:\d+(?::\d+)?|(?:,\s*)?\S*\.cargo/registry/\S*")
        .expect("valid source-location regex")
});

/// `text` without Rust source locations, with the whitespace they leave behind collapsed.
pub fn clean_error_text(text: &str) -> String {
    let cleaned = SOURCE_LOCATIONS.replace_all(text, "");
    let collapsed: Vec<&str> = cleaned.split(' ').filter(|part| !part.is_empty()).collect();
    collapsed.join(" ").replace(" ,", ",").replace(" :", ":")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn source_locations_are_removed() {
        let raw = "LanceError(IO): Not found: tmp/x/lancedb/chunks.lance/_versions, /home/ci/.cargo/registry/src/index.crates.io-0000000000000000/lance-table-1.0.2/src/io/commit.rs:362:26";
        assert_eq!(clean_error_text(raw), "LanceError(IO): Not found: tmp/x/lancedb/chunks.lance/_versions");
        assert_eq!(clean_error_text("failed at src/store.rs:12:3 while reading"), "failed at while reading");
        assert_eq!(clean_error_text("no such file: /data/a.py"), "no such file: /data/a.py");
    }
}
