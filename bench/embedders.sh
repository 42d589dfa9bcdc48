#!/usr/bin/env bash
# Measure a real small semantic embedder against the built-in hashing one inside strata's own hybrid
# retrieval (not a test): WordLlama's l2_supercat static token embeddings (256 dimensions, 16 MB of
# weights in the `wordllama` wheel on PyPI), served on loopback by bench/wordllama/serve.py as an
# OpenAI-compatible endpoint, so strata indexes and asks through its real `--embedder openai` path.
# For each SWE-QA set it indexes the package folder with each embedder and prints file-level hit@1,
# hit@5, recall@5, MRR@5 and the false-decline rate side by side, plus the index time of each.
# Index times with WordLlama include the loopback HTTP round trips (an in-process embedder would not).
#
# usage: bench/embedders.sh SWEQA_DIR
# env:   STRATA_BIN (default target/release/strata), CORPUS (default ~/.cache/strata-corpus),
#        PYTHON (with wordllama, tokenizers, safetensors and numpy from PyPI).
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
sweqa=${1:?usage: bench/embedders.sh SWEQA_DIR}
strata=${STRATA_BIN:-$here/target/release/strata}
corpus=${CORPUS:-$HOME/.cache/strata-corpus}
python=${PYTHON:-python3}
work=$(mktemp -d "${TMPDIR:-/tmp}/strata-embedders.XXXXXX")
port=$((20000 + RANDOM % 20000))
"$python" "$here/bench/wordllama/serve.py" "$port" 2>"$work/server.log" &
server=$!
trap 'kill $server 2>/dev/null; rm -rf "$work"' EXIT
for _ in $(seq 50); do grep -q embedding "$work/server.log" && break; sleep 0.2; done

declare -A folder=([flask]=flask-3.1.2/src/flask [requests]=requests-2.32.5/src/requests [django]=django-6.0.10/django)
printf '%-12s %-10s %6s %6s %6s %9s %6s %6s %9s\n' set embedder n hit@1 hit@5 recall@5 MRR@5 declined index_ms
for name in flask requests django; do
    mkdir -p "$work/src/$name"
    cp -R "$corpus/${folder[$name]}" "$work/src/$name/"
    for embedder in builtin wordllama; do
        args=(--embedder builtin)
        [ "$embedder" = wordllama ] && args=(--embedder openai --embedding-model wordllama-l2-supercat)
        start=$(date +%s%N)
        OPENAI_BASE_URL="http://127.0.0.1:$port/v1" OPENAI_API_KEY=local \
            "$strata" index "$work/src/$name" --out "$work/$name-$embedder" "${args[@]}" >/dev/null 2>&1
        ms=$(( ($(date +%s%N) - start) / 1000000 ))
        for set in "$sweqa"/*.jsonl; do
            case "$(basename "$set" .jsonl)" in "$name"|"$name"_v1) ;; *) continue ;; esac
            label=$(basename "$set" .jsonl)
            OPENAI_BASE_URL="http://127.0.0.1:$port/v1" OPENAI_API_KEY=local \
                "$strata" eval --offline --index "$work/$name-$embedder" --questions "$set" \
                --out "$work/eval-$label-$embedder" >/dev/null 2>&1
            jq -r --arg s "$label" --arg e "$embedder" --arg ms "$ms" '
                .overall as $o | [$s, $e, $o.n, $o.hit_at_1, $o.hit_at_5, $o.recall_at_5, $o.mrr_at_5, $o.declined, $ms]
                | @tsv' "$work/eval-$label-$embedder/report.json" |
                awk -F'\t' '{ printf "%-12s %-10s %6s %6.3f %6.3f %9.3f %6.3f %6.3f %9s\n", $1,$2,$3,$4,$5,$6,$7,$8,$9 }'
        done
    done
done
