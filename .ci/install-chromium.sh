#!/usr/bin/env bash
# Debian's chromium for the headless-browser test of the HTML report
# (tests/test_html_browser.py skips without it). Idempotent: a no-op, with no
# network access, once /usr/bin/chromium is there.
set -euo pipefail

if [ -x /usr/bin/chromium ]; then
    exit 0
fi
if ! command -v apt-get >/dev/null 2>&1; then
    echo "install-chromium: no apt-get here; the browser test will be skipped" >&2
    exit 0
fi
SUDO=""
if [ "$(id -u)" != 0 ]; then
    if command -v sudo >/dev/null 2>&1; then
        SUDO="sudo -n"
    else
        echo "install-chromium: not root and no sudo; the browser test will be skipped" >&2
        exit 0
    fi
fi
export DEBIAN_FRONTEND=noninteractive
for attempt in 1 2; do
    if $SUDO apt-get update -q && $SUDO apt-get install -y -q chromium; then
        exit 0
    fi
    sleep 5
done
# Not fatal: the browser test then skips and says why; every other test still runs.
echo "install-chromium: apt-get could not install chromium; the browser test will be skipped" >&2
exit 0
