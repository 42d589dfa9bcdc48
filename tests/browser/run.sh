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

# A package of 70 modules and a subfolder (it opens in the first view), and modules that share a name
# in several folders (their labels get their folder), for the first view and the Mermaid.
mkdir -p "$work/flat/big/sub" "$work/names/app/jobs" "$work/names/lib/jobs"
printf 'import big.m2\n' >"$work/flat/big/sub/helper.py"
: >"$work/flat/big/__init__.py"
for i in $(seq 1 70); do printf 'from big import m%d\n' $(( i % 70 + 1 )) >"$work/flat/big/m$i.py"; done
printf 'import big.m1\n' >"$work/flat/setup.py"
printf 'from lib import signals\n' >"$work/names/app/signals.py"
: >"$work/names/lib/signals.py"
printf 'from app import signals\n' >"$work/names/app/jobs/tasks.py"
printf 'from lib import signals\n' >"$work/names/lib/jobs/tasks.py"
"$strata" index "$work/flat" --out "$work/flat-index" >/dev/null
"$strata" index "$work/names" --out "$work/names-index" >/dev/null

cd "$here"
node graph.test.mjs "$work/shop-index" "$work/shop.png"
node graph.test.mjs --first-view "$work/flat-index" "$work/flat.png"
node graph.test.mjs --first-view "$work/names-index" "$work/names.png"
mermaid=("$work/impact.md" "$work/shop-index/summary.md")
for level in package module; do
    "$strata" graph --index "$work/shop-index" --level "$level" >"$work/shop-$level.mmd"
    mermaid+=("$work/shop-$level.mmd")
done
"$strata" graph --index "$work/shop-index" --level module --cycles >"$work/shop-cycles.mmd"
mermaid+=("$work/shop-cycles.mmd")
"$strata" graph --index "$work/flat-index" >"$work/flat-package.mmd"
"$strata" graph --index "$work/flat-index" --level module --focus big/m1.py --cycles >"$work/flat-focus.mmd"
mermaid+=("$work/flat-package.mmd" "$work/flat-focus.mmd")
if [ -n "$django" ]; then
    "$strata" index "$django" --out "$work/django-index" >/dev/null
    node graph.test.mjs "$work/django-index" "$work/django.png"
    "$strata" graph --index "$work/django-index" >"$work/django-package.mmd" 2>/dev/null
    "$strata" graph --index "$work/django-index" --level module --cycles >"$work/django-cycles.mmd" 2>/dev/null
    mermaid+=("$work/django-package.mmd" "$work/django-cycles.mmd" "$work/django-index/summary.md")
fi
node mermaid.test.mjs "${mermaid[@]}"
