#!/usr/bin/env bash
# An organisation's store over about 50 repositories (not a test): `strata index --org` into one bucket
# of moto's S3 server on 127.0.0.1, against `index --out` locally, then `strata ask --org`, with the
# cross-repository answers checked against an independent oracle over the combined sources. See
# bench/org_bench.py for what is generated and measured.
#
# Repositories: flask, requests and scrapy (the pinned sdists, each from its package folder) and 47
# generated ones: a shared library (`acme_core`) and 46 services importing it and each other.
#
# Questions about code across the organisation, against each real repository's own index: the
# new-user and absent-thing sets of eval/locate for the three, and the SWE-QA sets of flask and requests
# when SWEQA holds them.
#
# usage: bench/org.sh [--services N]
# env:   STRATA_BIN (default: target/debug/strata), CORPUS (default: ~/.cache/strata-corpus),
#        MOTO_SERVER (default: ~/.cache/strata-ci-moto/bin/moto_server, which .ci/run installs),
#        SWEQA (default: ../shared/data/swe-qa beside the checkout)
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
strata="${STRATA_BIN:-$here/target/debug/strata}"
corpus="${CORPUS:-${HOME}/.cache/strata-corpus}"
moto="${MOTO_SERVER:-$HOME/.cache/strata-ci-moto/bin/moto_server}"
[ -x "$strata" ] || { echo "org.sh: no strata binary at $strata (set STRATA_BIN)" >&2; exit 1; }
[ -x "$moto" ] || { echo "org.sh: no moto_server at $moto (run .ci/run, or set MOTO_SERVER)" >&2; exit 1; }
fetch() { "$here/scripts/fetch-sdist" "$@" "$corpus"; }
flask="$(fetch flask 3.1.2 bf656c15c80190ed628ad08cdfd3aaa35beb087855e2f494910aa3774cc4fd87)/src/flask"
requests="$(fetch requests 2.32.5 dbba0bac56e100853db0ea71b82b4dfd5fe2bf6d3754a8893c3af500cec7d7cf)/src/requests"
scrapy="$(fetch scrapy 2.19.0 34130726582b64c91531162ab277c4053e558876d49ba219cb43679e71d80a87)/scrapy"
sweqa="${SWEQA:-$here/../shared/data/swe-qa}"
questions=()
for name in flask requests scrapy; do
    for set in newuser absent; do questions+=(--questions "$name=$here/eval/locate/$set-$name.jsonl"); done
done
for pair in flask=flask flask=flask_v1 requests=requests_v1; do
    [ -f "$sweqa/${pair#*=}.jsonl" ] && questions+=(--questions "${pair%=*}=$sweqa/${pair#*=}.jsonl")
done
exec python3 "$here/bench/org_bench.py" --strata "$strata" --moto "$moto" \
    --real "flask=$flask" --real "requests=$requests" --real "scrapy=$scrapy" "${questions[@]}" "$@"
