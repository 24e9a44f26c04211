#!/usr/bin/env bash
# `npm test`: installs what the suites need that is missing (Debian: Chromium, pgvector in the
# local PostgreSQL), then runs every suite — lint, typecheck, unit, integration on PGlite and on
# the real Postgres at TEST_DATABASE_URL, a production build, the production deployment tests on
# that build (tests/production), and Playwright e2e in Chromium.
set -euo pipefail
cd "$(dirname "$0")/.."

export TEST_DATABASE_URL="${TEST_DATABASE_URL:-postgres://postgres@127.0.0.1:5432/test}"
# The same server through PgBouncer in transaction mode (scripts/ensure-test-deps.sh starts it).
export TEST_PGBOUNCER_URL="${TEST_PGBOUNCER_URL:-postgres://postgres@127.0.0.1:6433/test}"
export NEXT_TELEMETRY_DISABLED=1
# Suites pick their own databases and providers; a developer's .env must not leak into them.
unset DATABASE_URL OPENAI_API_KEY OPENAI_BASE_URL INNGEST_EVENT_KEY INNGEST_DEV

step() { printf '\n\033[1m▶ %s\033[0m\n' "$*"; }
started=$SECONDS

step "System dependencies"
bash scripts/ensure-test-deps.sh

step "Lint and format (biome)"
npx biome ci .

step "Typecheck (tsc)"
npx next typegen >/dev/null   # route types in .next/types, fresh for the current app/
npx tsc --noEmit

step "Unit and integration tests (vitest: PGlite and Postgres)"
npx vitest run

step "Production build (next build)"
# On CI (a fresh clone, built once) Turbopack's build cache would be written (~30 s) and never read.
if [ -n "${CI:-}" ]; then export LIFELINE_BUILD_CACHE="${LIFELINE_BUILD_CACHE:-0}"; fi
npx next build

step "Production deployment tests (vitest --project production: next start on the build, Postgres, signed Inngest calls)"
npx vitest run --project production

step "End-to-end tests (Playwright, Chromium, embedded default)"
npx playwright test

step "End-to-end dictation (Playwright, Chromium's fake microphone, a scripted OpenAI-compatible server)"
npx playwright test --config playwright.dictation.config.ts

step "End-to-end tests against the strict OpenAI fake (cut streams, error events, finish reasons, refusals)"
npx playwright test -c playwright.openai.config.ts

printf '\n\033[1m✔ All suites passed in %ss\033[0m\n' "$((SECONDS - started))"
