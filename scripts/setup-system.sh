#!/usr/bin/env bash
# Install the Debian packages every test suite needs (the list: scripts/system-packages.txt).
# `npm run setup` runs it (as root, or through sudo); .ci/run runs it on a fresh machine.
set -euo pipefail
cd "$(dirname "$0")/.."
packages=$(grep -vE '^\s*(#|$)' scripts/system-packages.txt | tr '\n' ' ')
sudo=""
if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
# Fresh lists first: stale ones can install an older Chromium (TOOLCHAIN-NOTES).
$sudo apt-get update -qq
# A throw-away machine (.ci/run sets DECKHAND_SETUP_UNSAFE_IO=1) lets dpkg skip its fsync per
# unpacked file: a power cut mid-install could leave a package half written, which on a machine
# used once does not matter. A developer's `npm run setup` keeps dpkg's safe writes.
dpkg_options=()
if [ "${DECKHAND_SETUP_UNSAFE_IO:-}" = "1" ]; then dpkg_options=(-o Dpkg::Options::=--force-unsafe-io); fi
# shellcheck disable=SC2086 # one word per package
$sudo apt-get install -y -qq --no-install-recommends "${dpkg_options[@]}" $packages >/dev/null
chromium --version
firefox-esr --version
command -v WebKitWebDriver Xvfb openssl pdflatex >/dev/null
echo "System packages for the tests are installed."
