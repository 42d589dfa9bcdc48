#!/usr/bin/env bash
# Benchmark incremental reindexing on real release history (not a test). For each corpus, in one run:
#   full:        strata index HISTORY --rev NEW                       (median of N runs)
#   incremental: strata index HISTORY --rev NEW --previous OLD_INDEX   (median of N runs)
# where OLD_INDEX is a full index of the previous release. Prints wall times, the ratio
# incremental/full (goal: <= 10%), files re-parsed and chunks re-embedded, from strata's --json report.
#
# Corpora (git histories whose commits are successive releases, from ../shared/corpus/fetch.sh):
#   django        5.2.18 -> 5.2.19   (~2,800 files)
#   homeassistant 2025.4.3 -> 2025.4.4 (~8,000 files)
#
# usage: bench/incremental.sh [--runs N] [NAME...]      (default: django homeassistant)
# env:   STRATA_BIN (default target/release/strata), CORPUS (default ../corpus next to the repo)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(dirname "$here")
runs=3
names=()
while [ $# -gt 0 ]; do
  case $1 in
    --runs) runs=${2:?--runs needs a number}; shift 2 ;;
    -h | --help) sed -n '/^# usage:/,/^set /{/^set /d;s/^# \{0,1\}//;p}' "$0"; exit 0 ;;
    *) names+=("$1"); shift ;;
  esac
done
[ ${#names[@]} -gt 0 ] || names=(django homeassistant)
strata=${STRATA_BIN:-$repo/target/release/strata}
corpus=${CORPUS:-$repo/../corpus}
[ -x "$strata" ] || { echo "incremental.sh: no strata binary at $strata" >&2; exit 1; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/strata-incr.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

declare -A old_tag=([django]=v5.2.18 [homeassistant]=v2025.4.3)
declare -A new_tag=([django]=v5.2.19 [homeassistant]=v2025.4.4)

# run_ms OUT_JSON ARGS...: runs strata index with --json, prints wall milliseconds.
run_ms() {
  local out=$1; shift
  local start end
  start=$(date +%s%N)
  "$strata" index "$@" --json >"$out"
  end=$(date +%s%N)
  echo $(((end - start) / 1000000))
}

median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
field() { python3 -c "import json,sys; r=json.load(open(sys.argv[1])); print(r$2)" "$1"; }

echo "strata: $strata ($("$strata" --version)); $(nproc) cores; $runs runs each"
echo
echo "| corpus | files | full ms (median) | incremental ms (median) | ratio | files parsed | files reused | chunks embedded | chunks total | edges added | edges removed |"
echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
for name in "${names[@]}"; do
  history=$corpus/$name.git-history
  if [ ! -d "$history/.git" ]; then
    "$repo/../shared/corpus/fetch.sh" "$corpus" "$name" >&2
  fi
  old=${old_tag[$name]} new=${new_tag[$name]}
  run_ms "$tmp/old.json" "$history" --rev "$old" --out "$tmp/$name-old" >/dev/null
  full=() incr=()
  for i in $(seq "$runs"); do
    rm -rf "$tmp/$name-full"
    full+=("$(run_ms "$tmp/full.json" "$history" --rev "$new" --out "$tmp/$name-full")")
    rm -rf "$tmp/$name-incr"
    incr+=("$(run_ms "$tmp/incr.json" "$history" --rev "$new" --out "$tmp/$name-incr" --previous "$tmp/$name-old")")
  done
  full_ms=$(printf '%s\n' "${full[@]}" | median)
  incr_ms=$(printf '%s\n' "${incr[@]}" | median)
  cmp -s "$tmp/$name-full/bundle.json" "$tmp/$name-incr/bundle.json" || { echo "incremental bundle.json differs from full for $name" >&2; exit 1; }
  ratio=$(python3 -c "print(f'{$incr_ms / $full_ms:.1%}')")
  echo "| $name $old→$new | $(field "$tmp/incr.json" "['n_modules']") | $full_ms | $incr_ms | $ratio | $(field "$tmp/incr.json" "['n_files_parsed']") | $(field "$tmp/incr.json" "['n_files_reused']") | $(field "$tmp/incr.json" "['n_chunks_embedded']") | $(field "$tmp/incr.json" "['n_chunks']") | $(field "$tmp/incr.json" "['diff']['edges_added'].__len__()") | $(field "$tmp/incr.json" "['diff']['edges_removed'].__len__()") |"
  echo "  full timings_ms: $(field "$tmp/full.json" "['timings_ms']")" >&2
  echo "  incremental timings_ms: $(field "$tmp/incr.json" "['timings_ms']")" >&2
done
