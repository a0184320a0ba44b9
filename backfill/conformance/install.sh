#!/bin/sh
# Installs what the sampling proxy's conformance tests run: Node.js 22 (npm's node package) and
# the MCP conformance suite here, the reference server's dependencies in server/, each at the
# versions its package-lock.json pins. Fast when npm's cache holds them.
set -eu
cd "$(dirname "$0")"
npm ci --no-audit --no-fund
# The reference server runs on the Node.js installed above, whatever node is on PATH.
cd server
PATH="$(cd .. && pwd)/node_modules/.bin:$PATH" npm ci --no-audit --no-fund
