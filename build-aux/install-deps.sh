#!/bin/sh
# Installs Decipher's build and test dependencies on Debian 12.
# SPDX-License-Identifier: GPL-3.0-or-later
set -eu
here=$(dirname "$0")
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
packages=$(grep -v '^#' "$here/debian-packages.txt" | tr '\n' ' ')
missing=""
for p in $packages; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
if [ -n "$missing" ]; then
    echo "Installing:$missing"
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends $missing
fi
