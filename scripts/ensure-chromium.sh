#!/usr/bin/env bash
# Makes sure the browsers are here (docs: tests/support/e2e/README.md): Debian's
# chromium-headless-shell at /usr/bin/chromium-headless-shell, which the browser
# tests drive, and Debian's chromium at /usr/bin/chromium, whose paints the
# benchmark measures; or the one binary CHROMIUM_PATH names. When one is missing
# and this machine can install packages (root, or sudo without a password, and
# apt-get), it installs Debian's package; otherwise it stops with one line naming
# what to install. It never lets the browser tests be skipped.
set -euo pipefail

if [ -n "${CHROMIUM_PATH:-}" ]; then
  if [ -x "$CHROMIUM_PATH" ]; then
    exit 0
  fi
  echo "CHROMIUM_PATH=$CHROMIUM_PATH is not an executable Chromium: fix it, or unset it and install Debian's with 'apt-get install -y chromium-headless-shell chromium'." >&2
  exit 1
fi

missing=()
[ -x /usr/bin/chromium-headless-shell ] || missing+=(chromium-headless-shell)
[ -x /usr/bin/chromium ] || missing+=(chromium)
if [ "${#missing[@]}" -eq 0 ]; then
  exit 0
fi

as_root=()
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
    as_root=(sudo -n)
  else
    as_root=(none)
  fi
fi

if ! command -v apt-get >/dev/null 2>&1 || [ "${as_root[0]:-}" = none ]; then
  echo "The browser tests need Debian's ${missing[*]}: install with 'sudo apt-get install -y ${missing[*]}', or set CHROMIUM_PATH to a Chromium binary." >&2
  exit 1
fi

echo "Installing Debian's ${missing[*]} (apt-get) for the browser tests and the benchmark..." >&2
export DEBIAN_FRONTEND=noninteractive
"${as_root[@]}" apt-get update -qq >&2
"${as_root[@]}" apt-get install -y -qq "${missing[@]}" >&2

for path in /usr/bin/chromium-headless-shell /usr/bin/chromium; do
  if [ ! -x "$path" ]; then
    echo "apt-get ran but $path is still missing: install it by hand, or set CHROMIUM_PATH." >&2
    exit 1
  fi
done
echo "Installed $(/usr/bin/chromium-headless-shell --version 2>/dev/null || echo chromium-headless-shell) and $(/usr/bin/chromium --version 2>/dev/null || echo chromium)." >&2
