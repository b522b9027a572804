#!/usr/bin/env bash
# Runs a command with the tools' Node first on PATH (scripts/ensure-node.sh installs Node 22 LTS when the machine's
# is older than engines.node): `npm start` typed on a machine with Node 20 still runs the stage on Node 22.
set -euo pipefail
node_bin="$(bash "$(dirname "$0")/ensure-node.sh")"
export PATH="$node_bin:$PATH"
exec "$@"
