#!/usr/bin/env bash
# The full check the README's test command runs: lint, the API reference, the layering check, then typecheck and the
# tests of every package (all of them, even after a failure), then one closing
# line with the totals. Exits non-zero if any step failed.
set -uo pipefail
cd "$(dirname "$0")/.."
# The real components some tests drive (PostgreSQL, lxc, Chromium, hail, gabbi),
# installed from Debian's packages when missing and possible.
bash scripts/test-deps.sh
biome check . || exit 1
# Every relative link and #anchor in the Markdown resolves; the README and app READMEs keep their size.
node scripts/check-docs.mjs || exit 1
# The embedders' API reference builds without a warning: every export documented (typedoc.config.mjs).
pnpm run --silent docs:api || exit 1
# Package dependency direction, no import cycles, berthd's rooms one way (.dependency-cruiser.cjs).
pnpm run --silent check:layers || exit 1
turbo run typecheck test --continue
status=$?
node scripts/test-summary.mjs
summary=$?
if [ "$status" -ne 0 ]; then exit "$status"; fi
exit "$summary"
