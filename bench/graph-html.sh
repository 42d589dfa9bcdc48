#!/usr/bin/env bash
# Benchmark graph.html's first render in Debian's chromium (not a test): for each corpus it indexes the
# package (or takes an index), opens graph.html R times, and prints the median time from navigation to
# the first frame with labels, and to the layout settled, for the default package view side by side
# with the page forced to show every module (every folder open: the old hairball view).
# Goal: first render on homeassistant's index (8,000 modules) <= 3 s.
#
# usage: bench/graph-html.sh [--runs R] [--repo django|homeassistant]...
# env:   STRATA_BIN (default target/release/strata), CORPUS (default ~/.cache/strata-corpus).
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
runs=3 repos=()
while [ $# -gt 0 ]; do
    case "$1" in
        --runs) runs=$2; shift 2 ;;
        --repo) repos+=("$2"); shift 2 ;;
        *) echo "usage: bench/graph-html.sh [--runs R] [--repo django|homeassistant]..." >&2; exit 2 ;;
    esac
done
[ ${#repos[@]} -gt 0 ] || repos=(django homeassistant)
strata=${STRATA_BIN:-$here/target/release/strata}
corpus=${CORPUS:-$HOME/.cache/strata-corpus}
[ -x "$strata" ] || { echo "no strata binary at $strata (set STRATA_BIN)" >&2; exit 1; }
command -v chromium >/dev/null 2>&1 || { echo "needs Debian's chromium (apt-get install chromium)" >&2; exit 1; }
(cd "$here/tests/browser" && npm ci --no-audit --no-fund --silent)
work=$(mktemp -d "${TMPDIR:-/tmp}/strata-graph-html.XXXXXX")
trap 'rm -rf "$work"' EXIT

declare -A folder=([django]=django-5.2.19/django [homeassistant]=homeassistant-2025.4.4/homeassistant)
for repo in "${repos[@]}"; do
    "$strata" index "$corpus/${folder[$repo]}" --out "$work/$repo" >/dev/null 2>&1
    modules=$(jq '.counts.modules' "$work/$repo/bundle.json")
    size=$(du -k "$work/$repo/graph.html" | cut -f1)
    echo "== $repo: $modules modules, graph.html ${size} KiB"
    (cd "$here/tests/browser" && node graph.test.mjs --bench "$work/$repo" "$runs")
done
