#!/usr/bin/env bash
# Measure the opt-in semantic embedder against the built-in hashing one inside strata's own hybrid
# retrieval (not a test): `--embedder wordllama` (WordLlama l2_supercat, 256-d static token embeddings
# run in-process; fetched once into the model cache) vs `--embedder builtin`. For each SWE-QA set it
# indexes the package folder with each embedder and prints file-level hit@1, hit@5, recall@5, MRR@5
# and the false-decline rate side by side, with the wall time of each index.
#
# usage: bench/embedders.sh SWEQA_DIR
# env:   STRATA_BIN (default target/release/strata), CORPUS (default ~/.cache/strata-corpus),
#        STRATA_MODEL_DIR (where the model is cached).
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
sweqa=${1:?usage: bench/embedders.sh SWEQA_DIR}
strata=${STRATA_BIN:-$here/target/release/strata}
corpus=${CORPUS:-$HOME/.cache/strata-corpus}
work=$(mktemp -d "${TMPDIR:-/tmp}/strata-embedders.XXXXXX")
trap 'rm -rf "$work"' EXIT
# Fetch the model before timing anything.
mkdir -p "$work/warm" && printf 'import os\n' >"$work/warm/a.py"
"$strata" index "$work/warm" --out "$work/warm-index" --embedder wordllama >/dev/null

declare -A folder=([flask]=flask-3.1.2/src/flask [requests]=requests-2.32.5/src/requests [django]=django-6.0.10/django)
printf '%-12s %-10s %6s %6s %6s %9s %6s %6s %9s\n' set embedder n hit@1 hit@5 recall@5 MRR@5 declined index_ms
for name in flask requests django; do
    mkdir -p "$work/src/$name"
    cp -R "$corpus/${folder[$name]}" "$work/src/$name/"
    for embedder in builtin wordllama; do
        start=$(date +%s%N)
        "$strata" index "$work/src/$name" --out "$work/$name-$embedder" --embedder "$embedder" >/dev/null 2>&1
        ms=$(( ($(date +%s%N) - start) / 1000000 ))
        for set in "$sweqa"/*.jsonl; do
            case "$(basename "$set" .jsonl)" in "$name"|"$name"_v1) ;; *) continue ;; esac
            label=$(basename "$set" .jsonl)
            "$strata" eval --index "$work/$name-$embedder" --questions "$set" \
                --out "$work/eval-$label-$embedder" >/dev/null 2>&1
            jq -r --arg s "$label" --arg e "$embedder" --arg ms "$ms" '
                .overall as $o | [$s, $e, $o.n, $o.hit_at_1, $o.hit_at_5, $o.recall_at_5, $o.mrr_at_5, $o.declined, $ms]
                | @tsv' "$work/eval-$label-$embedder/report.json" |
                awk -F'\t' '{ printf "%-12s %-10s %6s %6.3f %6.3f %9.3f %6.3f %6.3f %9s\n", $1,$2,$3,$4,$5,$6,$7,$8,$9 }'
        done
    done
done
