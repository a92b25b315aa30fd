# shellcheck shell=bash
# Common settings for the project's scripts: where the kernel tree and
# build outputs live, and the pinned base version.

set -euo pipefail

TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BASE_PKG=linux-source-6.12
BASE_VERSION=6.12.118-1~deb12u1
BASE_TARBALL=/usr/src/linux-source-6.12.tar.xz
BUILD=$TOP/build
LINUX=$BUILD/linux
OBJ=$BUILD/obj
JOBS=${JOBS:-$(nproc)}
export CCACHE_DIR=${CCACHE_DIR:-$BUILD/ccache}
export CCACHE_MAXSIZE=${CCACHE_MAXSIZE:-5G}

say() { printf '>> %s\n' "$*" >&2; }
die() { printf 'error: %s\n' "$*" >&2; exit 1; }

# series_entries: print "patch <name>" and "file <repo-path> <kernel-path>"
# lines from patches/series, in order.
series_entries() {
	local line
	[ -f "$TOP/patches/series" ] || return 0
	while IFS= read -r line; do
		line=${line%%#*}
		[ -n "${line//[[:space:]]/}" ] || continue
		if [[ $line =~ ^[[:space:]]+([^[:space:]]+)[[:space:]]*-\>[[:space:]]*([^[:space:]]+)[[:space:]]*$ ]]; then
			echo "file ${BASH_REMATCH[1]} ${BASH_REMATCH[2]}"
		elif [[ $line =~ ^([^[:space:]]+)[[:space:]]*$ ]]; then
			echo "patch ${BASH_REMATCH[1]}"
		else
			die "patches/series: cannot parse '$line'"
		fi
	done <"$TOP/patches/series"
}

# sources_hash: what build/linux is assembled from, the series, its patches
# and area files, as one hash.
sources_hash() {
	local kind a b
	{
		cat "$TOP/patches/series" "$TOP"/patches/*.patch 2>/dev/null || true
		while read -r kind a b; do
			[ "$kind" = file ] && cat "$TOP/$a"
		done < <(series_entries)
	} | sha256sum | cut -d' ' -f1
}
