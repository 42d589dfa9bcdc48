#!/usr/bin/env bash
# Paraphrase suite runner: indexes each target repository with strata, asks it every question of the
# chosen half (questions-dev.jsonl / questions-gen.jsonl, written by build.py) in one
# `strata ask --questions FILE --format json` call per repository, puts the answers back in question
# order and scores them with score.py against the oracle's expected answers.
#
# Usage: eval/paraphrase/run.sh BIN CORPUS_DIR [dev|dev2|dev3|dev4|dev5|dev6|dev7|dev8|dev9|dev10|dev11|dev12|dev13|dev14|dev15|dev16|dev17|dev18|dev19|gen|all]  (all: every
# half but dev4, dev5, dev11, dev12, dev13, dev14 and dev19, the held-out halves written from
# 2026-12-04 to 2026-12-07, each run on its own)
#   BIN         the strata binary
#   CORPUS_DIR  folder holding flask-3.1.2/ and django-5.2.19/ (as for build.py --corpus)
# Environment (all optional):
#   REPORT       Markdown report to write (default: paraphrase-report-HALF.md in the current folder)
#   MIN_CORRECT  fraction passed to score.py --min-correct (the run fails below it)
#   MAX_WRONG    fraction passed to score.py --max-wrong (the run fails above it)
#   GATES        space-separated HALF:MIN_CORRECT:MAX_WRONG gates passed to score.py --gate
#   REPOS        space-separated target names to keep (default: every target build.py lists)
#   WORK         folder for indexes, question files and answers, kept afterwards (default: a temporary
#                folder, removed on exit)
set -euo pipefail

usage() {
    echo "usage: $0 BIN CORPUS_DIR [dev|dev2|dev3|dev4|dev5|dev6|dev7|dev8|dev9|dev10|dev11|dev12|dev13|dev14|dev15|dev16|dev17|dev18|dev19|gen|all]" >&2
    exit 2
}

[[ $# -ge 2 && $# -le 3 ]] || usage
bin=$1
corpus=$2
half=${3:-all}
case $half in
    dev | dev2 | dev3 | dev4 | dev5 | dev6 | dev7 | dev8 | dev9 | dev10 | dev11 | dev12 | dev13 | dev14 | dev15 | dev16 | dev17 | dev18 | dev19 | gen) halves=("$half") ;;
    all) halves=(dev dev2 dev3 dev6 dev7 dev8 dev9 dev10 dev15 dev16 dev17 dev18 gen) ;;
    *) usage ;;
esac

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
[[ -x $bin ]] || { echo "not an executable: $bin" >&2; exit 2; }
[[ -d $corpus ]] || { echo "not a folder: $corpus" >&2; exit 2; }
bin=$(cd "$(dirname "$bin")" && pwd)/$(basename "$bin")
for h in "${halves[@]}"; do
    [[ -f $here/questions-$h.jsonl ]] || { echo "missing $here/questions-$h.jsonl: run build.py first" >&2; exit 2; }
done

if [[ -n ${WORK:-} ]]; then
    work=$WORK
    mkdir -p "$work"
else
    work=$(mktemp -d "${TMPDIR:-/tmp}/strata-paraphrase.XXXXXX")
    trap 'rm -rf "$work"' EXIT
fi
report=${REPORT:-paraphrase-report-$half.md}

targets=$(python3 "$here/build.py" --corpus "$corpus" --list-targets)
names=()
while IFS=$'\t' read -r name path; do
    if [[ -n ${REPOS:-} && " $REPOS " != *" $name "* ]]; then
        continue
    fi
    names+=("$name")
    echo "== $name: indexing $path" >&2
    "$bin" index "$path" --out "$work/idx-$name" >"$work/index-$name.log"
    for h in "${halves[@]}"; do
        questions=$work/questions-$h-$name.txt
        answers=$work/answers-$h-$name.jsonl
        # One question a line, in the order of the questions file.
        python3 -c '
import json, sys
with open(sys.argv[1], encoding="utf-8") as f:
    for line in f:
        if line.strip() and json.loads(line)["repo"] == sys.argv[2]:
            print(json.loads(line)["question"])
' "$here/questions-$h.jsonl" "$name" >"$questions"
        count=$(wc -l <"$questions")
        if [[ $count -eq 0 ]]; then
            : >"$answers"
            continue
        fi
        echo "   asking $count $h questions" >&2
        "$bin" ask --index "$work/idx-$name" --questions "$questions" --format json >"$answers"
        got=$(wc -l <"$answers")
        if [[ $got -ne $count ]]; then
            echo "$name ($h): $count questions but $got answer lines in $answers" >&2
            exit 1
        fi
    done
done <<<"$targets"
[[ ${#names[@]} -gt 0 ]] || { echo "no target left (REPOS=${REPOS:-})" >&2; exit 2; }

# Back into question order: the questions file's lines for the kept repos, each with its repo's next answer.
python3 -c '
import json, sys
here, work, repos, halves = sys.argv[1], sys.argv[2], sys.argv[3].split(), sys.argv[4].split()
with open(f"{work}/questions.jsonl", "w", encoding="utf-8") as out_q, \
        open(f"{work}/answers.jsonl", "w", encoding="utf-8") as out_a:
    for half in halves:
        answers = {r: open(f"{work}/answers-{half}-{r}.jsonl", encoding="utf-8") for r in repos}
        with open(f"{here}/questions-{half}.jsonl", encoding="utf-8") as f:
            for line in f:
                if line.strip() and json.loads(line)["repo"] in answers:
                    out_q.write(line.rstrip("\n") + "\n")
                    out_a.write(answers[json.loads(line)["repo"]].readline().rstrip("\n") + "\n")
' "$here" "$work" "${names[*]}" "${halves[*]}"

score=(python3 "$here/score.py" --questions "$work/questions.jsonl" --answers "$work/answers.jsonl" --out "$report")
if [[ -n ${MIN_CORRECT:-} ]]; then
    score+=(--min-correct "$MIN_CORRECT")
fi
if [[ -n ${MAX_WRONG:-} ]]; then
    score+=(--max-wrong "$MAX_WRONG")
fi
for gate in ${GATES:-}; do
    score+=(--gate "$gate")
done
"${score[@]}"
