#!/usr/bin/env bash
# Benchmark an index on S3-compatible object storage against the same index on local disk (not a test).
#
# Starts moto's S3 server on 127.0.0.1 (from .ci/run's virtualenv, ~/.cache/strata-ci-moto), then for
# flask 3.1.2 and django 5.2.19 (the pinned sdists in STRATA_CORPUS_CACHE):
#   index  `strata index SRC --out DIR` against `--out s3://bench/NAME`: wall seconds (the s3 run
#          includes its upload)
#   ask    each of 10 questions (structural and retrieval) as its own `strata ask --format json`
#          process, local and s3: p50 wall milliseconds
#   read   per question on s3: requests and bytes read (the answer's `storage` key), against the
#          index's size (every file of the local copy; LanceDB's file names differ, sizes agree)
# moto on loopback has no network latency: p50 against a real bucket adds a round trip per request.
#
# usage: bench/objstore.sh
# env:   STRATA_BIN (default: $CARGO_TARGET_DIR/debug/strata, else target/debug/strata),
#        STRATA_CORPUS_CACHE (default: ~/.cache/strata-corpus), MOTO_SERVER (default: the venv's)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(dirname "$here")
die() { echo "objstore.sh: $*" >&2; exit 1; }
[ $# -eq 0 ] || { sed -n '/^# usage:/,/^set /{/^set /d;s/^# \{0,1\}//;p}' "$0" >&2; exit 2; }

strata=${STRATA_BIN:-${CARGO_TARGET_DIR:-$repo/target}/debug/strata}
corpus=${STRATA_CORPUS_CACHE:-$HOME/.cache/strata-corpus}
moto=${MOTO_SERVER:-$HOME/.cache/strata-ci-moto/bin/moto_server}
[ -x "$strata" ] || die "no strata binary at $strata (set STRATA_BIN)"
[ -x "$moto" ] || die "no moto_server at $moto (run .ci/run, or set MOTO_SERVER)"

work=$(mktemp -d)
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
"$moto" -H 127.0.0.1 -p "$port" >"$work/moto.log" 2>&1 &
moto_pid=$!
trap 'kill "$moto_pid" 2>/dev/null; rm -rf "$work"' EXIT
export AWS_ENDPOINT_URL="http://127.0.0.1:$port" AWS_ACCESS_KEY_ID=bench AWS_SECRET_ACCESS_KEY=bench AWS_REGION=us-east-1
for _ in $(seq 100); do curl -fs "$AWS_ENDPOINT_URL/" >/dev/null && break; sleep 0.2; done
curl -fs -X PUT "$AWS_ENDPOINT_URL/bench" >/dev/null || die "moto did not start (see $work/moto.log)"

now_ms() { date +%s%3N; }
p50() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

questions_flask=(
  "What imports flask.app?" "What does flask.sessions import?" "Are there import cycles?"
  "Which modules are most depended on?" "Where is flask.helpers.url_for defined?"
  "How are sessions signed?" "Where are blueprints registered?" "How does the test client work?"
  "Where are JSON responses built?" "How is the request context pushed?"
)
questions_django=(
  "What imports django.db.models.query?" "What does django.urls.resolvers import?" "Are there import cycles?"
  "Which modules are most depended on?" "Where is django.shortcuts.render defined?"
  "How are user passwords hashed and verified?" "How does Django check the CSRF token on POST requests?"
  "Where are database migrations applied or unapplied?" "How are template tags registered?"
  "Where are signals sent when a model is saved?"
)

printf '%-8s %10s %10s %10s %12s %12s %10s %14s %14s %8s %12s %12s\n' repo index_local index_s3 index_MB \
  ask_p50_local ask_p50_s3 requests bytes_p50 bytes_max share structural retrieval
for name in flask django; do
  case $name in
    flask) src="$corpus/flask-3.1.2"; questions=("${questions_flask[@]}") ;;
    django) src="$corpus/django-5.2.19"; questions=("${questions_django[@]}") ;;
  esac
  [ -d "$src" ] || die "$src is missing (.ci/run fetches it)"
  start=$(now_ms); "$strata" index "$src" --out "$work/$name" --json >/dev/null; local_ms=$(( $(now_ms) - start ))
  start=$(now_ms); "$strata" index "$src" --out "s3://bench/$name" --json >/dev/null; s3_ms=$(( $(now_ms) - start ))
  size=$(du -sb "$work/$name" | cut -f1)
  : >"$work/local.ms"; : >"$work/s3.ms"; : >"$work/reads"
  for question in "${questions[@]}"; do
    start=$(now_ms); "$strata" ask --index "$work/$name" --format json "$question" >/dev/null
    echo $(( $(now_ms) - start )) >>"$work/local.ms"
    start=$(now_ms); "$strata" ask --index "s3://bench/$name" --format json "$question" >"$work/answer.json"
    echo $(( $(now_ms) - start )) >>"$work/s3.ms"
    jq -r '"\(.storage.requests) \(.storage.bytes_read) \(.mode)"' "$work/answer.json" >>"$work/reads"
  done
  requests=$(cut -d' ' -f1 "$work/reads" | p50)
  bytes=$(cut -d' ' -f2 "$work/reads" | p50)
  bytes_max=$(cut -d' ' -f2 "$work/reads" | sort -n | tail -1)
  # The share of the index a question reads, p50 over the questions the graph answers, then over
  # those searched (a structural question reads no part of the search index).
  share_of() { awk -v m="$1" '$3 == m { print $2 }' "$work/reads" | p50 | awk -v s="$size" '{ printf "%.1f%%", 100 * $1 / s }'; }
  printf '%-8s %9.1fs %9.1fs %10.1f %10sms %10sms %10s %14s %14s %7.1f%% %12s %12s\n' "$name" \
    "$(echo "$local_ms / 1000" | bc -l)" "$(echo "$s3_ms / 1000" | bc -l)" "$(echo "$size / 1048576" | bc -l)" \
    "$(p50 <"$work/local.ms")" "$(p50 <"$work/s3.ms")" "$requests" "$bytes" "$bytes_max" \
    "$(echo "100 * $bytes / $size" | bc -l)" "$(share_of structural)" "$(share_of retrieval)"
done
echo "(index_MB: the local copy's size; requests and bytes: per question on s3, p50; share: bytes_p50 / index size;
      structural, retrieval: the share's p50 over the questions of that mode)"
