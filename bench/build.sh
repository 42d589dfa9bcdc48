#!/usr/bin/env bash
# Benchmark building and shipping strata (not a test): per Cargo profile, the build time (cold from an
# empty target directory with --cold, and incremental after a one-line change to one source file,
# which is put back afterwards), the binary's
# size as built and stripped, and the release archive's size and decompression time with each
# compressor the Action could use (gzip, as today's tar.gz; xz; zstd), side by side in one table.
#
# usage: bench/build.sh [--cold] [--icf] [--profiles dev,fast,release] [--touch FILE,FILE...]
#   --cold      also time a build from an empty target directory per profile (release: about half an hour
#               on 2 cores), and `cargo test -p strata-core` (the light crate alone, tests included)
#               from empty; without it the existing target directory is reused, so the first build
#               only brings it up to date and is not reported as cold.
#   --icf       also relink each optimised profile's binary with identical code folding
#               (`-C link-arg=-Wl,--icf=all`, rust-lld on x86_64 Linux; what release.yml ships there)
#               and measure it in a row of its own.
#   --profiles  which profiles to measure (default: dev,fast).
#   --touch     the source files whose change (a comment line appended, one at a time) the incremental
#               builds measure (default: one file each in strata-core, strata-answer and the binary
#               crate, to show what a change rebuilds in each crate of the workspace).
# env:  CARGO_TARGET_DIR (the warm target directory, default target/ in the repository).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(dirname "$here")
usage() { sed -n '/^# usage:/,/^set /{/^set /d;s/^# \{0,1\}//;p}' "$0"; }
die() { echo "build.sh: $*" >&2; exit 1; }

cold=false icf=false profiles="dev,fast"
touch_files=crates/core/src/python/parse.rs,crates/answer/src/understand/lexicon.rs,src/commands/ask.rs
while [ $# -gt 0 ]; do
  case $1 in
    --cold) cold=true; shift ;;
    --icf) icf=true; shift ;;
    --profiles) profiles=${2:?--profiles needs a list}; shift 2 ;;
    --profiles=*) profiles=${1#*=}; shift ;;
    --touch) touch_files=${2:?--touch needs files}; shift 2 ;;
    -h | --help) usage; exit 0 ;;
    *) usage >&2; exit 2 ;;
  esac
done
cd "$repo"
IFS=, read -r -a touched <<<"$touch_files"
for file in "${touched[@]}"; do [ -f "$file" ] || die "no file $file"; done
warm_target=${CARGO_TARGET_DIR:-$repo/target}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/strata-build-bench.XXXXXX")
mkdir -p "$tmp/originals"
for i in "${!touched[@]}"; do cp -p "${touched[$i]}" "$tmp/originals/$i"; done
restore() { for i in "${!touched[@]}"; do cp -p "$tmp/originals/$i" "${touched[$i]}"; done; }
trap 'restore; rm -rf "$tmp"' EXIT

seconds() { # CMD...: run it quietly, print its wall time in seconds
  local t0 t1
  t0=$(date +%s%N)
  "$@" >"$tmp/log" 2>&1 || { tail -30 "$tmp/log" >&2; die "failed: $*"; }
  t1=$(date +%s%N)
  awk -v ns=$((t1 - t0)) 'BEGIN { printf "%.0f", ns / 1e9 }'
}
mb() { awk -v b="$1" 'BEGIN { printf "%.1f", b / 1048576 }'; }
decompress_ms() { # CMD FILE: median of 3 decompressions to /dev/null
  local runs=() t0 t1
  for _ in 1 2 3; do
    t0=$(date +%s%N); $1 <"$2" >/dev/null; t1=$(date +%s%N)
    runs+=($(((t1 - t0) / 1000000)))
  done
  printf '%s\n' "${runs[@]}" | sort -n | sed -n 2p
}

archive_row() { # LABEL COLD_S BINARY: print its sizes, archives and unpack times
  local size stripped
  size=$(stat -c %s "$3")
  mkdir -p "$tmp/archive/strata"
  cp "$3" "$tmp/archive/strata/strata"
  strip "$tmp/archive/strata/strata"
  stripped=$(stat -c %s "$tmp/archive/strata/strata")
  tar -C "$tmp/archive" -cf "$tmp/strata.tar" strata
  gzip -9 -c "$tmp/strata.tar" >"$tmp/strata.tar.gz"
  xz -9 -T0 -c "$tmp/strata.tar" >"$tmp/strata.tar.xz"
  zstd -19 -T0 -q -c "$tmp/strata.tar" >"$tmp/strata.tar.zst"
  echo "| $1 | $2 | $(mb "$size") | $(mb "$stripped") | $(mb "$(stat -c %s "$tmp/strata.tar.gz")") | $(mb "$(stat -c %s "$tmp/strata.tar.xz")") | $(mb "$(stat -c %s "$tmp/strata.tar.zst")") | $(decompress_ms "gzip -dc" "$tmp/strata.tar.gz") | $(decompress_ms "xz -dc" "$tmp/strata.tar.xz") | $(decompress_ms "zstd -dc" "$tmp/strata.tar.zst") |"
  rm -rf "$tmp/archive" "$tmp"/strata.tar*
}

echo "strata $(sed -n 's/^version = "\(.*\)"/\1/p' Cargo.toml | head -1); $(rustc --version); $(nproc) cores"
echo
echo "| profile | cold build s | binary MiB | stripped MiB | tar.gz MiB | tar.xz MiB | tar.zst MiB | gunzip ms | unxz ms | unzstd ms |"
echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
incremental_rows=()
for profile in ${profiles//,/ }; do
  dir=$profile
  [ "$profile" = dev ] && dir=debug
  cold_s="-"
  if [ "$cold" = true ]; then
    cold_s=$(seconds env CARGO_TARGET_DIR="$tmp/cold-$profile" cargo build --locked --profile "$profile")
    rm -rf "$tmp/cold-$profile"
  fi
  # Bring the warm target up to date, then measure the rebuild each changed file costs.
  seconds env CARGO_TARGET_DIR="$warm_target" cargo build --locked --profile "$profile" >/dev/null
  for file in "${touched[@]}"; do
    printf '// build benchmark %s\n' "$(date +%s%N)" >>"$file"
    incremental_rows+=("| $profile | $file | $(seconds env CARGO_TARGET_DIR="$warm_target" cargo build --locked --profile "$profile") |")
    restore
    seconds env CARGO_TARGET_DIR="$warm_target" cargo build --locked --profile "$profile" >/dev/null
  done
  archive_row "$profile" "$cold_s" "$warm_target/$dir/strata"
  if [ "$icf" = true ] && [ "$profile" != dev ]; then
    seconds env CARGO_TARGET_DIR="$warm_target" cargo rustc --locked --profile "$profile" --bin strata \
      -- -C link-arg=-Wl,--icf=all >/dev/null
    archive_row "$profile + icf" "-" "$warm_target/$dir/strata"
    # Link it again as configured, so the warm target holds the profile's own binary.
    seconds env CARGO_TARGET_DIR="$warm_target" cargo build --locked --profile "$profile" >/dev/null
  fi
done
echo
echo "| profile | one line appended to | incremental build s |"
echo "|---|---|---:|"
printf '%s\n' "${incremental_rows[@]}"
if [ "$cold" = true ]; then
  echo
  echo "strata-core alone (no LanceDB), tests built from an empty target directory (dev): $(seconds env CARGO_TARGET_DIR="$tmp/cold-core" cargo test --locked -p strata-core --no-run) s"
  rm -rf "$tmp/cold-core"
fi
echo
echo "Archives hold the stripped binary; releases ship tar.xz (xz -9). The Action's install"
echo "step costs the download (size / runner bandwidth) plus the decompression time above."
