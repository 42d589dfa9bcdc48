"""Renders a comment the way GitHub does and lists the live markup in it, for tests/cli/bot_gfm.rs.

GitHub renders comments with cmark-gfm (its fork of cmark) and the table, autolink, strikethrough,
tagfilter and tasklist extensions; the `cmarkgfm` package binds that same C library. The comment comes
on stdin, the link prefixes strata may use as arguments; one finding per line goes to stdout:

- a link whose target starts with none of the allowed prefixes;
- an image;
- HTML strata does not write (anything but the hidden answer marker, <details>, <summary>, <sub>);
- a mention, an issue reference or a GH-n reference in text outside code;
- a fenced block GitHub draws instead of showing code (Mermaid, math, maps, 3D models, suggestions);
- a bidirectional-control character.

Exit 0 whatever it finds; exit 2 when cmarkgfm is missing (the Rust test decides what that means).
"""

import html.parser
import re
import sys

try:
    import cmarkgfm
    from cmarkgfm.cmark import Options
except ImportError:
    sys.exit(2)

EXTENSIONS = ["table", "autolink", "strikethrough", "tagfilter", "tasklist"]
RICH_FENCES = {"mermaid", "math", "geojson", "topojson", "stl", "suggestion"}
# Tags cmark-gfm writes for Markdown, and the ones strata writes itself.
MARKDOWN_TAGS = {
    "p", "a", "code", "pre", "em", "strong", "del", "table", "thead", "tbody", "tr", "th", "td", "ul", "ol",
    "li", "blockquote", "h1", "h2", "h3", "h4", "h5", "h6", "hr", "br", "input",
}
STRATA_TAGS = {"details", "summary", "sub"}
# GitHub's mention and reference filters: after a non-word character (but not inside a path or an
# entity), `@user`, `#12` and `GH-12`.
REFERENCE = re.compile(r"(?:^|[^A-Za-z0-9_/&])(@[A-Za-z0-9]|#[0-9]|(?i:gh-[0-9]))")
BIDI = re.compile("[\u202a-\u202e\u2066-\u2069\u200e\u200f\u061c]")


class Finder(html.parser.HTMLParser):
    def __init__(self, allowed_links):
        super().__init__(convert_charrefs=True)
        self.allowed_links = allowed_links
        self.findings = []
        self.in_code = 0
        self.text = []

    def handle_starttag(self, tag, attrs):
        attributes = dict(attrs)
        if tag == "a":
            href = attributes.get("href") or ""
            if not any(href.startswith(prefix) for prefix in self.allowed_links):
                self.findings.append(f"link {href}")
        elif tag == "img":
            self.findings.append(f"image {attributes.get('src')}")
        elif tag not in MARKDOWN_TAGS and tag not in STRATA_TAGS:
            self.findings.append(f"html <{tag}>")
        if tag == "pre":
            language = (attributes.get("lang") or "").lower()
            if language in RICH_FENCES:
                self.findings.append(f"rich fence {language}")
        if tag == "code":
            language = (attributes.get("class") or "").removeprefix("language-").lower()
            if language in RICH_FENCES:
                self.findings.append(f"rich fence {language}")
        if tag in ("code", "pre"):
            self.flush()
            self.in_code += 1

    def handle_endtag(self, tag):
        if tag in ("code", "pre"):
            self.in_code = max(0, self.in_code - 1)
        self.flush()

    def handle_data(self, data):
        if BIDI.search(data):
            self.findings.append("bidi control")
        if not self.in_code:
            self.text.append(data)

    def handle_comment(self, data):
        if not data.strip().startswith("strata:answer "):
            self.findings.append(f"html comment {data[:40]!r}")

    def flush(self):
        text = "".join(self.text)
        self.text = []
        for match in REFERENCE.finditer(text):
            self.findings.append(f"reference {match.group(1)} in {text[max(0, match.start() - 20):match.end() + 20]!r}")


def main():
    comment = sys.stdin.read()
    rendered = cmarkgfm.markdown_to_html_with_extensions(
        comment, options=Options.CMARK_OPT_UNSAFE | Options.CMARK_OPT_GITHUB_PRE_LANG, extensions=EXTENSIONS
    )
    finder = Finder(sys.argv[1:])
    finder.feed(rendered)
    finder.close()
    finder.flush()
    for finding in finder.findings:
        print(finding)


if __name__ == "__main__":
    main()
