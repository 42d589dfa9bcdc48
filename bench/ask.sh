#!/usr/bin/env bash
# Benchmark `strata ask`, latency and answer quality, in one run (not a test).
#
# Corpora: scrapy 2.19.0, django 5.2.19 and sympy 1.14.0 (1,532 files), each indexed as its package
# directory alone (a temp copy T/scrapy-pkg/scrapy, so module ids read `scrapy/core/engine.py`).
# Question sets: bench/questions/<repo>.jsonl, ground truth written by reading the source (sympy's are
# eval/locate's new-user and absent questions, each line naming its source); checked first (fields,
# expected files exist, structural answers re-derived with a stdlib ast scan).
#
# Measures:
#   index    `strata index T/<repo>-pkg --out DIR --json`, once per repo: wall, peak RSS, timings_ms.
#   latency  every question as its own `strata ask --index DIR --format json [--offline] Q` process
#            under `/usr/bin/time -f %M`; the whole list repeated R times. Per repo: p50 / p95 / max
#            wall (ms, nearest rank, over all R x N asks; failed asks counted apart, not timed)
#            and max peak RSS (MB).
#   quality  per repo and category: n, hit@5 (an expected module among the first 5 distinct modules
#            of `context`, or of `citations` when the answer is structural), recall@5 (share of the
#            expected modules in those 5), the answer modes, the false-decline rate of answerable
#            questions and the decline rate of unanswerable ones. Means over the R runs.
# Offline: `--offline` is passed to `ask` when it has the flag (no LLM call), so mode is
# structural | retrieval | declined.
# Goal: p50 <= 100 ms, p95 <= 300 ms and peak RSS <= 300 MB offline on a release build, on sympy and django.
#
# usage: bench/ask.sh [--runs R] [--json OUT] [--repo scrapy|django|sympy]... [--validate-only]
#   --runs R         repeat the whole question list R times (default 3)
#   --json OUT       also write every per-question result, with its scores, to OUT
#   --repo NAME      only this corpus (repeatable; default all three)
#   --validate-only  check the question files against the corpus and stop (needs no binary)
# env:   STRATA_BIN (default: target/release/strata in the repo), CORPUS (default: ../corpus next to
#        the repo, fetched with ../shared/corpus/fetch.sh if a corpus is missing), PYTHON.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(dirname "$here")
usage() { sed -n '/^# usage:/,/^set /{/^set /d;s/^# \{0,1\}//;p}' "$0"; }
die() { echo "ask.sh: $*" >&2; exit 1; }

runs=3 json_out="" repos=() validate_only=""
while [ $# -gt 0 ]; do
  case $1 in
    --runs) runs=${2:?--runs needs a number}; shift 2 ;;
    --runs=*) runs=${1#*=}; shift ;;
    --json) json_out=${2:?--json needs a file}; shift 2 ;;
    --json=*) json_out=${1#*=}; shift ;;
    --repo) repos+=("${2:?--repo needs a name}"); shift 2 ;;
    --repo=*) repos+=("${1#*=}"); shift ;;
    --validate-only) validate_only=1; shift ;;
    -h | --help) usage; exit 0 ;;
    *) usage >&2; exit 2 ;;
  esac
done
[[ $runs =~ ^[1-9][0-9]*$ ]] || die "--runs must be a positive integer"
[ ${#repos[@]} -gt 0 ] || repos=(scrapy django sympy)
[ -z "$json_out" ] || json_out=$(cd "$(dirname "$json_out")" && pwd)/$(basename "$json_out")

declare -A sdist_of=([scrapy]=scrapy-2.19.0 [django]=django-5.2.19 [sympy]=sympy-1.14.0)
strata=${STRATA_BIN:-$repo/target/release/strata}
# Resolve interpreter shims (pyenv's cost ~0.2 s a start); the helper itself is not timed.
python=$("${PYTHON:-python3}" -c 'import sys; print(sys.executable)')
corpus=${CORPUS:-$repo/../corpus}
helper=$here/ask_bench.py

# 1. Question sets: valid, and every expected module exists in the corpus.
for name in "${repos[@]}"; do
  [ -n "${sdist_of[$name]:-}" ] || die "unknown repo $name (known: ${!sdist_of[*]})"
  sdist=$corpus/${sdist_of[$name]}
  if [ ! -d "$sdist/$name" ]; then
    "$repo/../shared/corpus/fetch.sh" "$corpus" "$name" >&2 || die "no corpus at $sdist"
  fi
  "$python" "$helper" validate "$here/questions/$name.jsonl" "$sdist" || die "bad question file"
done
[ -z "$validate_only" ] || exit 0

# 2. The binary must have `ask`; ask offline when it can.
[ -x "$strata" ] || die "no strata binary at $strata (build it, or set STRATA_BIN)"
"$strata" ask --help >/dev/null 2>&1 || die "$strata has no \`ask\` subcommand (an older build?)"
ask_args=()
if "$strata" ask --help | grep -q -- '--offline'; then ask_args+=(--ask-arg=--offline); fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/strata-ask-bench.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

echo "strata: $strata ($("$strata" --version)); $("$python" --version); $(nproc) cores;" \
  "$runs run(s); ask flags: --format json ${ask_args[*]/--ask-arg=/}; $(date -u +%Y-%m-%dT%H:%MZ)"

# 3. Index each corpus once (a copy of the package directory alone).
sets=()
: >"$tmp/index.tsv"
for name in "${repos[@]}"; do
  root=$tmp/$name-pkg out=$tmp/$name-index
  mkdir "$root"
  cp -R "$corpus/${sdist_of[$name]}/$name" "$root/$name"
  find "$root" -type f -exec cat {} + >/dev/null # warm the page cache
  echo "$name: $(find "$root" -name '*.py' | wc -l) .py files; indexing ..." >&2
  t0=$(date +%s%N)
  /usr/bin/time -f '%M' -o "$tmp/index-rss" "$strata" index "$root" --out "$out" --json \
    >"$tmp/$name-index.json" 2>"$tmp/$name-index.err" \
    || { tail -20 "$tmp/$name-index.err" >&2; die "strata index failed on $name"; }
  t1=$(date +%s%N)
  printf '%s\t%s\t%s\t%s\t%s\n' "$name" $((t1 - t0)) "$(tail -1 "$tmp/index-rss")" \
    "$tmp/$name-index.json" "$here/questions/$name.jsonl" >>"$tmp/index.tsv"
  sets+=(--set "$name" "$out" "$here/questions/$name.jsonl")
done

# 4. Ask every question, R times over the whole list; 5. report.
"$python" "$helper" run --strata "$strata" --runs "$runs" --out "$tmp/results.jsonl" \
  "${ask_args[@]}" "${sets[@]}"
echo
"$python" "$helper" report "$tmp/results.jsonl" --index-tsv "$tmp/index.tsv" \
  ${json_out:+--json "$json_out"}
