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
# shellcheck disable=SC2086 # one word per package
$sudo apt-get install -y -qq --no-install-recommends $packages >/dev/null
chromium --version
firefox-esr --version
command -v WebKitWebDriver Xvfb openssl pdflatex >/dev/null
echo "System packages for the tests are installed."
