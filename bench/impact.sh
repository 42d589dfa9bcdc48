#!/usr/bin/env bash
# Benchmark `strata impact` on real releases, with a peer, and check its test selection (not a test).
#
# For each corpus (git histories made by ../shared/corpus/fetch.sh, one commit per release):
#   django         v5.2.18 -> v5.2.19   (tests/ included; Django's runner finds `test*.py`)
#   homeassistant  v2025.4.3 -> v2025.4.4
# it indexes the base release once (`strata index --rev BASE`), then times `strata impact --rev HEAD
# --previous BASE_INDEX` R times (median wall, max peak RSS), and prints the changed, affected and test
# module counts. The peer is grimp (if importable by $PYTHON): a cold `build_graph` of the head's
# package plus `find_downstream_modules` of every changed module, what a Python tool does without an
# index. Safety: every test module that directly imports a changed module in the independent stdlib
# `ast` oracle's graph of the head (eval/ast_oracle.py, `tests` as an extra source root) must be among
# strata's selected tests; the count checked and any missing are printed.
# Goals (release build): django <= 1 s, homeassistant <= 2 s.
#
# usage: bench/impact.sh [--runs R] [--repo django|homeassistant]...
# env:   STRATA_BIN (default target/release/strata), CORPUS (default ~/.cache/strata-corpus), PYTHON.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
runs=5 repos=()
while [ $# -gt 0 ]; do
    case "$1" in
        --runs) runs=$2; shift 2 ;;
        --repo) repos+=("$2"); shift 2 ;;
        *) echo "usage: bench/impact.sh [--runs R] [--repo django|homeassistant]..." >&2; exit 2 ;;
    esac
done
[ ${#repos[@]} -gt 0 ] || repos=(django homeassistant)
strata=${STRATA_BIN:-$here/target/release/strata}
corpus=${CORPUS:-$HOME/.cache/strata-corpus}
python=${PYTHON:-python3}
[ -x "$strata" ] || { echo "no strata binary at $strata (set STRATA_BIN)" >&2; exit 1; }
work=$(mktemp -d "${TMPDIR:-/tmp}/strata-impact.XXXXXX")
trap 'rm -rf "$work"' EXIT

declare -A base_tag=([django]=v5.2.18 [homeassistant]=v2025.4.3)
declare -A head_tag=([django]=v5.2.19 [homeassistant]=v2025.4.4)
declare -A package=([django]=django [homeassistant]=homeassistant)
declare -A tests=([django]='test*.py' [homeassistant]='test_*.py')

printf '%-14s %-22s %8s %8s %7s %8s %8s %6s | %-24s | %s\n' repo releases "p50 ms" "max MB" changed affected tests "safe" "grimp ms (downstream)" "index ms (base)"
for name in "${repos[@]}"; do
    repo=$corpus/$name.git-history
    [ -d "$repo/.git" ] || "$here/../shared/corpus/fetch.sh" "$corpus" "$name" >&2
    base=$work/$name-base
    started=$(date +%s%N)
    "$strata" index "$repo" --rev "${base_tag[$name]}" --out "$base" >/dev/null
    index_ms=$(( ($(date +%s%N) - started) / 1000000 ))
    walls=() peak=0
    for _ in $(seq "$runs"); do
        started=$(date +%s%N)
        /usr/bin/time -f %M -o "$work/rss" "$strata" impact "$repo" --rev "${head_tag[$name]}" --previous "$base" \
            --test-files "${tests[$name]}" --format json >"$work/impact.json"
        walls+=($(( ($(date +%s%N) - started) / 1000000 )))
        rss=$(cat "$work/rss"); [ "$rss" -gt "$peak" ] && peak=$rss
    done
    p50=$(printf '%s\n' "${walls[@]}" | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}')
    # The head's tree, for the oracle and the peer.
    head=$work/$name-head
    mkdir -p "$head"
    git -C "$repo" archive "${head_tag[$name]}" | tar -x -C "$head"
    extra=()
    [ -d "$head/tests" ] && extra=(--extra-root tests)
    "$python" "$here/eval/ast_oracle.py" --root "$head" "${extra[@]}" edge-paths >"$work/oracle.json"
    read -r changed affected selected safe < <("$python" - "$work/impact.json" "$work/oracle.json" "${tests[$name]}" <<'EOF'
import fnmatch, json, sys
impact = json.load(open(sys.argv[1])); edges = json.load(open(sys.argv[2])); pattern = sys.argv[3]
changed = set(impact["changed"]) | set(impact["added"]) | {r["to"] for r in impact["renamed"]}
selected = set(impact["tests"])
is_test = lambda path: fnmatch.fnmatch(path.rsplit("/", 1)[-1], pattern)
must = {e["src"] for e in edges if e["dst"] in changed and is_test(e["src"])}
missing = sorted(must - selected)
for path in missing:
    print("missing:", path, file=sys.stderr)
print(len(changed), len(impact["affected"]), len(selected), f"{len(must) - len(missing)}/{len(must)}")
EOF
)
    peer="n/a (no grimp)"
    if "$python" -c "import grimp" 2>/dev/null; then
        peer=$(cd "$head" && "$python" - "${package[$name]}" "$work/impact.json" <<'EOF'
import json, sys, time
import grimp
package, impact = sys.argv[1], json.load(open(sys.argv[2]))
started = time.perf_counter()
graph = grimp.build_graph(package, cache_dir=None)
names = []
for path in impact["changed"] + impact["added"]:
    if path.startswith(package + "/") and path.endswith(".py"):
        name = path[:-3].replace("/", ".").removesuffix(".__init__")
        if name in graph.modules:
            names.append(name)
upstream = set()
for name in names:
    upstream |= graph.find_downstream_modules(name)
print(f"{(time.perf_counter() - started) * 1000:.0f} ({len(upstream)})")
EOF
)
    fi
    printf '%-14s %-22s %8s %8s %7s %8s %8s %6s | %-24s | %s\n' "$name" "${base_tag[$name]}..${head_tag[$name]}" \
        "$p50" "$((peak / 1024))" "$changed" "$affected" "$selected" "$safe" "$peer" "$index_ms"
done
