#!/usr/bin/env bash
# The browser tests: graph.html opened in Debian's chromium for a fixture and (when given) django, and
# strata's Mermaid output (`strata graph`, summary.md, `strata impact`) parsed and drawn by Mermaid
# itself. Installs chromium (Debian) and the npm packages (tests/browser/package-lock.json) when missing.
#
# usage: tests/browser/run.sh STRATA_BIN [DJANGO_PACKAGE_FOLDER]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
strata=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
django=${2:-}

if ! command -v chromium >/dev/null 2>&1; then
    sudo_if_needed=()
    [ "$(id -u)" -eq 0 ] || sudo_if_needed=(sudo)
    "${sudo_if_needed[@]}" apt-get update -qq
    "${sudo_if_needed[@]}" apt-get install -y -qq chromium >/dev/null
fi
(cd "$here" && npm ci --no-audit --no-fund --silent)
work=$(mktemp -d "${TMPDIR:-/tmp}/strata-browser.XXXXXX")
trap 'rm -rf "$work"' EXIT

# A fixture as a git repository with a change, for the summary's and impact's diagrams too.
cp -R "$root/tests/fixtures/repos/shop" "$work/shop"
git_in() { git -C "$work/shop" -c user.name=strata -c user.email=strata@example.invalid "$@"; }
git_in init -q && git_in add -A && git_in commit -qm base
"$strata" index "$work/shop" --out "$work/shop-base" >/dev/null
printf 'from shop import api\n' >>"$work/shop/shop/pricing.py"
git_in commit -qam head
"$strata" index "$work/shop" --out "$work/shop-index" --previous "$work/shop-base" >/dev/null
"$strata" impact "$work/shop" --previous "$work/shop-base" >"$work/impact.md"

cd "$here"
node graph.test.mjs "$work/shop-index" "$work/shop.png"
mermaid=("$work/impact.md" "$work/shop-index/summary.md")
for level in package module; do
    "$strata" graph --index "$work/shop-index" --level "$level" >"$work/shop-$level.mmd"
    mermaid+=("$work/shop-$level.mmd")
done
"$strata" graph --index "$work/shop-index" --level module --cycles >"$work/shop-cycles.mmd"
mermaid+=("$work/shop-cycles.mmd")
if [ -n "$django" ]; then
    "$strata" index "$django" --out "$work/django-index" >/dev/null
    node graph.test.mjs "$work/django-index" "$work/django.png"
    "$strata" graph --index "$work/django-index" >"$work/django-package.mmd" 2>/dev/null
    "$strata" graph --index "$work/django-index" --level module --cycles >"$work/django-cycles.mmd" 2>/dev/null
    mermaid+=("$work/django-package.mmd" "$work/django-cycles.mmd" "$work/django-index/summary.md")
fi
node mermaid.test.mjs "${mermaid[@]}"
