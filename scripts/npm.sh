#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Install the npm packages that scripts/flamegraph/package-lock.json pins
# (d3 and d3-flame-graph, which scripts/flamegraph.sh inlines into its
# page) into $O/npm (O defaults to build, relative to the top of the
# tree), never into the source tree.
#
#	scripts/npm.sh		prints the node_modules directory on stdout
#
# Idempotent: when $O/npm/node_modules holds a stamp equal to the lock
# file, nothing runs; otherwise "npm ci" installs exactly the locked
# versions (no install scripts run: the packages are only read).  npm's
# output goes to stderr.
#
# Node.js and npm come from Debian (scripts/apt.sh) only when the command
# is missing: a nodejs package that bundles its own npm (NodeSource's)
# conflicts with Debian's npm package, so "apt_need npm" is not asked for
# when npm is already there.
set -e
top=$(cd "$(dirname "$0")/.." && pwd)
APT_WHO="npm"
. "$top/scripts/apt.sh"
command -v node >/dev/null || apt_need nodejs
command -v npm >/dev/null || apt_need npm

src=$top/scripts/flamegraph
obj=${O:-build}
case $obj in
/*) ;;
*) obj=$top/$obj ;;
esac
dst=$obj/npm
stamp=$dst/node_modules/.kunwind-lock

if ! cmp -s "$src/package-lock.json" "$stamp"; then
	echo "npm: installing $(tr -d '\n ' <"$src/package.json" |
		sed 's/.*"dependencies":{\([^}]*\)}.*/\1/') into $dst" >&2
	mkdir -p "$dst"
	cp "$src/package.json" "$src/package-lock.json" "$dst/"
	(cd "$dst" && npm ci --ignore-scripts --no-audit --no-fund \
		--loglevel=error) >&2
	cp "$src/package-lock.json" "$stamp"
fi
echo "$dst/node_modules"
