#!/usr/bin/env bash
# Makes sure the browser the e2e tests drive is here (docs: tests/support/e2e/README.md):
# Debian's Chromium at /usr/bin/chromium,
# or the binary CHROMIUM_PATH names. When it is missing and this machine can
# install packages (root, or sudo without a password, and apt-get), it installs
# Debian's `chromium`; otherwise it stops with one line naming what to install.
# It never lets the browser tests be skipped.
set -euo pipefail

path="${CHROMIUM_PATH:-/usr/bin/chromium}"

if [ -x "$path" ]; then
  exit 0
fi

if [ -n "${CHROMIUM_PATH:-}" ]; then
  echo "CHROMIUM_PATH=$CHROMIUM_PATH is not an executable Chromium: fix it, or unset it and install Debian's with 'apt-get install -y chromium'." >&2
  exit 1
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
  echo "The e2e tests need Chromium at $path: install Debian's with 'sudo apt-get install -y chromium', or set CHROMIUM_PATH to a Chromium binary." >&2
  exit 1
fi

echo "Chromium is missing: installing Debian's chromium package (apt-get) for the e2e tests..." >&2
export DEBIAN_FRONTEND=noninteractive
"${as_root[@]}" apt-get update -qq >&2
"${as_root[@]}" apt-get install -y -qq chromium >&2

if [ ! -x "$path" ]; then
  echo "apt-get installed chromium but $path is still missing: install Chromium by hand, or set CHROMIUM_PATH." >&2
  exit 1
fi
echo "Installed $("$path" --version 2>/dev/null || echo chromium) at $path." >&2
