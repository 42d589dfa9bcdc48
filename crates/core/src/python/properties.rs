//! Property tests of the fact extractor on hostile input: any bytes (invalid UTF-8, NUL, BOMs, mixed
//! line endings) and Python-shaped noise yield facts and warnings, never a panic, and every line
//! number points into the file. Seeded cases cover what random generation rarely reaches: deep
//! nesting, a 10 MB line, a file that is only a BOM. `PROPTEST_CASES` sets the number of cases
//! (`scripts/fuzz` runs them for minutes).

use proptest::prelude::*;

use super::parse_python_file;

/// Checks the invariants of one extraction.
fn check(bytes: &[u8]) {
    let parsed = parse_python_file(bytes);
    let n_lines = parsed.facts.n_lines.max(1);
    for import in &parsed.facts.imports {
        assert!(import.line >= 1 && import.line <= n_lines + 1, "import line {} of {n_lines}", import.line);
    }
    for symbol in &parsed.facts.symbols {
        let (start, end) = (symbol.line_start, symbol.line_end);
        assert!(
            start >= 1 && start <= end && end <= n_lines + 1,
            "{} at lines {start}-{end} of {n_lines}",
            symbol.name
        );
    }
    for name in &parsed.facts.imported_names {
        assert!(name.statement < parsed.facts.imports.len(), "imported name points past the imports");
    }
}

fn python_piece() -> impl Strategy<Value = Vec<u8>> {
    prop_oneof![
        4 => prop::sample::select(vec![
            "import a.b.c\n", "from . import x\n", "from ..p import (a,\n b)\n", "from x import *\n",
            "if TYPE_CHECKING:\n    import t\n", "try:\n    import u\nexcept ImportError:\n    u = None\n",
            "def f(x, /, *a, **k) -> 'T':\n    ...\n", "class C[T = int](B, metaclass=M):\n    pass\n",
            "__all__ = ['a', 'b'] + other\n", "@app.route('/x')\ndef view(): pass\n", "\"\"\"doc\"\"\"\n",
            "async def g():\n    await h()\n", "match x:\n    case [a, *_]: pass\n", "lambda: (yield)\n",
            "(", ")", "[", "]", "{", "}", ":", "\\\n", "    ", "\t", "\n", "\r\n", "\r", "'", "\"\"\"", "#",
            "\u{feff}", "\0", "é", "𝔘", "from", "import", ".", "..", "as", "def", "class", "if", "else",
        ]).prop_map(|s| s.as_bytes().to_vec()),
        1 => prop::collection::vec(any::<u8>(), 0..16),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn any_bytes_give_facts_never_a_panic(bytes in prop::collection::vec(any::<u8>(), 0..512)) {
        check(&bytes);
    }

    #[test]
    fn python_shaped_noise_gives_facts_never_a_panic(pieces in prop::collection::vec(python_piece(), 0..60)) {
        check(&pieces.concat());
    }
}

#[test]
fn seeded_nasty_files_give_facts() {
    let deep_parens = format!("x = {}1{}\nimport after\n", "(".repeat(20_000), ")".repeat(20_000));
    let deep_blocks: String = (0..300).map(|depth| format!("{}if x:\n", "    ".repeat(depth))).collect();
    let long_line = format!("import a\nx = '{}'\nimport b\n", "y".repeat(10 << 20));
    let cases: Vec<(&str, Vec<u8>)> = vec![
        ("only a BOM", "\u{feff}".as_bytes().to_vec()),
        ("NUL bytes", b"import a\0\nimport b\n\0\0".to_vec()),
        ("invalid UTF-8", b"import \xff\xfe a\nfrom \xc3 import x\n".to_vec()),
        ("mixed line endings", b"import a\r\nimport b\rimport c\nimport d".to_vec()),
        ("deep parentheses", deep_parens.into_bytes()),
        ("deep blocks", format!("{deep_blocks}{}import z\n", "    ".repeat(300)).into_bytes()),
        ("a 10 MB line", long_line.into_bytes()),
    ];
    for (name, bytes) in cases {
        check(&bytes);
        let imports = parse_python_file(&bytes).facts.imports.len();
        match name {
            "mixed line endings" => assert_eq!(imports, 4, "{name}"),
            "a 10 MB line" => assert_eq!(imports, 2, "{name}"),
            "NUL bytes" => assert!(imports >= 1, "{name}"),
            _ => {}
        }
    }
}
