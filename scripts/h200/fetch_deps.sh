#!/usr/bin/env bash
# Run here, before a run on the H200 machine: downloads what that machine lacks (cmocka, as
# Debian packages) into .deps/ at the repository root. .deps/ is git-ignored; pass it to the device
# tool's `carry` so it travels with the working tree.
set -euo pipefail
cd "$(dirname "$0")/../.."
mkdir -p .deps
cd .deps
apt-get download libcmocka0 libcmocka-dev 2>/dev/null || {
  apt-get update -qq && apt-get download libcmocka0 libcmocka-dev
}
ls -l ./*.deb
