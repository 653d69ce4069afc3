#!/bin/sh
# ensure-packages.sh PKG... - make sure the named Debian packages are installed.
# As root it installs the missing ones with apt-get (non-interactively); otherwise it prints
# the one apt-get line to run and fails.  Used by `make demo` and `make check`.
missing=""
for p in "$@"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
[ -z "$missing" ] && exit 0
if [ "$(id -u)" = 0 ]; then
    echo "installing:$missing"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq && apt-get install -y -qq --no-install-recommends $missing >/dev/null && exit 0
    echo "apt-get could not install:$missing" >&2
    exit 1
fi
echo "missing Debian packages; run:" >&2
echo "  sudo apt-get install -y$missing" >&2
exit 1
