#!/usr/bin/env bash
# npm test: everything a change must pass, on a fresh machine after `npm ci`; --quick: the inner loop's tier.
# Unit, infra, integration and browser tests run in one vitest invocation; the integration and
# browser projects share one local stage that the run starts and stops itself.
set -euo pipefail
cd "$(dirname "$0")/.."

# engines.node: `npm test` typed on a machine with Node 20 runs vitest, and so every test, on Node 22 LTS
# (scripts/ensure-node.sh installs it when missing).
node_bin="$(bash scripts/ensure-node.sh)"
export PATH="$node_bin:$PATH"
node tests/support/api-types.mjs # the OpenAPI client types (generated, not committed), quiet when current

if ! command -v java >/dev/null 2>&1; then
  if [ "$(id -u)" -eq 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "Instalando Java 17 para DynamoDB Local (apt-get)..." >&2
    DEBIAN_FRONTEND=noninteractive apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends openjdk-17-jre-headless >/dev/null
  else
    echo "Falta Java 17+ (DynamoDB Local lo necesita): instálelo, por ejemplo con 'sudo apt-get install -y openjdk-17-jre-headless'." >&2
    exit 1
  fi
fi
if [ "${1:-}" = "--quick" ]; then
  # npm run test:quick: unit, web-components, infra and the integration files; no browser, no stage restarts.
  shift
  export TEST_TIER=quick
  set -- --project unit --project unit-isolated --project web-components --project infra --project integration --project integration-alone "$@"
else
  bash tests/ensure-chromium.sh
fi

npx vitest run "$@"
