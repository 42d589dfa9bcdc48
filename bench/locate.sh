#!/usr/bin/env bash
# "Find the code" on the SWE-QA sets (../shared/data/swe-qa): strata `ask` against plain BM25 over whole
# files, side by side, on the development half (even lines: what retrieval settings were chosen on) and
# the held-out half (odd lines: only ever reported). Each index is built from a folder that holds only
# the package, as the sets' gold paths are relative to it.
#
# usage: STRATA_BIN=target/release/strata CORPUS=~/.cache/strata-corpus bench/locate.sh [dev|held|all]
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
data="${SWEQA:-$here/../shared/data/swe-qa}"
corpus="${CORPUS:-${HOME}/.cache/strata-corpus}"
strata="${STRATA_BIN:-$here/target/release/strata}"
half="${1:-all}"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

fetch() { "$here/scripts/fetch-sdist" "$@" "$corpus" >/dev/null; }
fetch flask 3.1.2 bf656c15c80190ed628ad08cdfd3aaa35beb087855e2f494910aa3774cc4fd87
fetch requests 2.32.5 dbba0bac56e100853db0ea71b82b4dfd5fe2bf6d3754a8893c3af500cec7d7cf
fetch django 6.0.10 6005d030df924f85088454c18bd35dcf082b058aa355ad3df520d8de9aef9f41

package() {  # NAME SOURCE: a folder holding only the package, indexed
    mkdir -p "$work/$1"
    cp -R "$2" "$work/$1/"
    "$strata" index "$work/$1" --out "$work/$1-index" >/dev/null
}
package flask "$corpus/flask-3.1.2/src/flask"
package requests "$corpus/requests-2.32.5/src/requests"
package django "$corpus/django-6.0.10/django"

printf '%-12s %-5s %4s | %-34s | %-34s\n' set half n "strata hit@5 rec@5 hit@1 mrr decl" "bm25 hit@5 rec@5 hit@1 mrr"
for spec in "flask flask" "flask_v1 flask" "requests_v1 requests" "django_v1 django"; do
    set -- $spec
    for which in dev held; do
        [ "$half" = all ] || [ "$half" = "$which" ] || continue
        start=$([ "$which" = dev ] && echo 0 || echo 1)
        questions="$work/$1.$which.jsonl"
        python3 -c "import sys; lines=[l for l in open(sys.argv[1]) if l.strip()]; sys.stdout.writelines(lines[int(sys.argv[2])::2])" \
            "$data/$1.jsonl" "$start" > "$questions"
        ours=$(python3 "$data/score_locate.py" "$strata" "$work/$2-index" "$questions" --out "$work/score.json" --quiet |
            awk '$1 == "OVERALL" {printf "%5s %5s %5s %5s %4s", $3, $4, $8, $9, $5; n=$2} END {printf "|%s", n}')
        bm25=$(python3 "$data/bm25_files.py" "$work/$2" "$2" "$questions" | tail -1 |
            sed -E 's/.*hit@5=([0-9.]+) recall@5=([0-9.]+) hit@1=([0-9.]+) mrr@5=([0-9.]+).*/\1 \2 \3 \4/')
        printf '%-12s %-5s %4s | %-34s | %-34s\n' "$1" "$which" "${ours##*|}" "${ours%|*}" "$bm25"
    done
done
