#!/usr/bin/env bash
# Benchmark `strata index` against its peers on the same files, in one run (not a test).
#
# Measures, on django 5.2.19 and homeassistant 2025.4.4:
#   package    (a temp copy of django/ alone)          strata, grimp 3.20, and pviz-parser 0.2.2 if asked
#   sdist      (the whole unpacked django sdist)       strata, and pviz if asked (grimp needs a package)
#   ha-package (a temp copy of homeassistant/ alone)   strata, grimp
#   ha-sdist   (the whole unpacked homeassistant sdist) strata
# Every stage of strata's run is printed, with the search stage's steps.
# strata: `strata index ROOT --out DIR --json`: wall, peak RSS, its timings_ms, size of bundle.json.
# grimp:  grimp.build_graph('django', cache_dir=None) cold in a fresh Python process: wall of
#         build_graph (inside Python) and of the process, peak RSS.
# pviz:   `pviz ROOT -o OUT.json --store-root STORE --clean`: wall, peak RSS, size of OUT.json.
#         Slow (~354 s on the sdist), so only with --with-pviz, and run once.
# strata and grimp run N times (medians reported); files are read once first so caches are warm.
#
# Targets: package:  strata parse+graph <= 2x grimp's cold build_graph.
#          sdist:    strata >= 100x faster than pviz (354 s measured); bundle.json <= 1/4 of pviz's JSON;
#                    whole run <= 3.5 s.
#          ha-sdist: whole run <= 8 s with peak RSS <= 1 GB.
#
# usage: bench/index.sh [--runs N] [--with-pviz[=package,sdist]]
# env:   STRATA_BIN (default: target/release/strata in the repo), CORPUS (default: ../corpus next to
#        the repo, fetched with ../shared/corpus/fetch.sh if django is missing), PYTHON, PVIZ_BIN.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(dirname "$here")
usage() { sed -n '/^# usage:/,/^set /{/^set /d;s/^# \{0,1\}//;p}' "$0"; }
die() { echo "index.sh: $*" >&2; exit 1; }

runs=5 pviz_on=""
while [ $# -gt 0 ]; do
  case $1 in
    --runs) runs=${2:?--runs needs a number}; shift 2 ;;
    --runs=*) runs=${1#*=}; shift ;;
    --with-pviz) pviz_on="package sdist"; shift ;;
    --with-pviz=*) pviz_on=${1#*=}; pviz_on=${pviz_on//,/ }; shift ;;
    -h | --help) usage; exit 0 ;;
    *) usage >&2; exit 2 ;;
  esac
done
[[ $runs =~ ^[1-9][0-9]*$ ]] || die "--runs must be a positive integer"

strata=${STRATA_BIN:-$repo/target/release/strata}
# Resolve interpreter shims (pyenv's cost ~0.2 s a start) so process times are the tools' own.
python=$("${PYTHON:-python3}" -c 'import sys; print(sys.executable)')
pviz=${PVIZ_BIN:-$(dirname "$python")/pviz}
[ -x "$pviz" ] || pviz=$(command -v pviz) || [ -z "$pviz_on" ] || die "pviz not found (set PVIZ_BIN)"
corpus=${CORPUS:-$repo/../corpus}
[ -x "$strata" ] || die "no strata binary at $strata (build it, or set STRATA_BIN)"
sdist=$corpus/django-5.2.19
if [ ! -d "$sdist/django" ]; then
  "$repo/../shared/corpus/fetch.sh" "$corpus" django >&2
fi
ha=$corpus/homeassistant-2025.4.4
if [ ! -d "$ha/homeassistant" ]; then
  "$repo/../shared/corpus/fetch.sh" "$corpus" homeassistant >&2
fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/strata-bench.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/django-pkg"
cp -R "$sdist/django" "$tmp/django-pkg/django"
mkdir "$tmp/ha-pkg"
cp -R "$ha/homeassistant" "$tmp/ha-pkg/homeassistant"
results=$tmp/results.tsv n=0
: >"$results"

# measure CORPUS TOOL OUT EXTRA CMD...: run CMD under /usr/bin/time (stdout to EXTRA) and append
# a row: wall ns, peak RSS KB, size of OUT (0 if none), EXTRA (a JSON file read by peers.py).
measure() {
  local corpus=$1 tool=$2 out=$3 extra=$4 t0 t1; shift 4
  t0=$(date +%s%N)
  /usr/bin/time -f '%M' -o "$tmp/rss" "$@" >"$extra" 2>"$tmp/stderr" \
    || { tail -20 "$extra" "$tmp/stderr" >&2; die "$tool failed on $corpus: $*"; }
  t1=$(date +%s%N)
  printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$corpus" "$tool" $((t1 - t0)) "$(tail -1 "$tmp/rss")" \
    "$(if [ -n "$out" ]; then stat -c %s "$out"; else echo 0; fi)" "$extra" >>"$results"
}

bench_strata() { # CORPUS ROOT
  for _ in $(seq "$runs"); do
    rm -rf "$tmp/strata-out"; n=$((n + 1))
    measure "$1" strata "$tmp/strata-out/bundle.json" "$tmp/x$n.json" \
      "$strata" index "$2" --out "$tmp/strata-out" --json
  done
}

bench_grimp() { # CORPUS PARENT PACKAGE
  for _ in $(seq "$runs"); do
    n=$((n + 1))
    measure "$1" grimp "" "$tmp/x$n.json" "$python" "$here/peers.py" grimp "$2" "$3"
  done
}

bench_pviz() { # CORPUS ROOT
  [[ " $pviz_on " == *" $1 "* ]] || return 0
  echo "running pviz once on $1 (slow) ..." >&2
  n=$((n + 1))
  measure "$1" pviz "$tmp/pviz-$1.json" "$tmp/x$n.json" \
    "$pviz" "$2" -o "$tmp/pviz-$1.json" --store-root "$tmp/pviz-store" --clean
  # pviz prints a log, not JSON: replace it with the file count (nodes) from its bundle
  "$python" -c 'import json,sys; print(json.dumps({"files": len(json.load(open(sys.argv[1]))["nodes"])}))' \
    "$tmp/pviz-$1.json" >"$tmp/x$n.json"
  echo "pviz on $1: $(awk -F'\t' 'END { printf "%.1f s", $3 / 1e9 }' "$results")" >&2
}

echo "strata: $strata ($("$strata" --version)); grimp $("$python" -c 'import grimp; print(grimp.__version__)');" \
  "pviz-parser $("$python" -m pip show pviz-parser 2>/dev/null | sed -n 's/^Version: //p');" \
  "$("$python" --version); $(nproc) cores; $runs runs"
echo "package: $(find "$tmp/django-pkg" -name '*.py' | wc -l) .py files; sdist: $(find "$sdist" -name '*.py' | wc -l) .py files ($sdist)"
echo "ha-package: $(find "$tmp/ha-pkg" -name '*.py' | wc -l) .py files; ha-sdist: $(find "$ha" -name '*.py' | wc -l) .py files ($ha)"
echo
find "$tmp/django-pkg" "$sdist" "$tmp/ha-pkg" "$ha" -type f -exec cat {} + >/dev/null # warm the page cache

bench_strata package "$tmp/django-pkg"
bench_grimp package "$tmp/django-pkg" django
bench_pviz package "$tmp/django-pkg"
bench_strata sdist "$sdist"
bench_pviz sdist "$sdist"
bench_strata ha-package "$tmp/ha-pkg"
bench_grimp ha-package "$tmp/ha-pkg" homeassistant
bench_strata ha-sdist "$ha"

"$python" "$here/peers.py" table "$results"
