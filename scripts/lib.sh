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
# The unpatched base, for the kernels the series is measured against.
BASE_SRC=$BUILD/base-linux
OBJ=$BUILD/obj
JOBS=${JOBS:-$(nproc)}
# Outside build/, so that a clean build starts warm. (Not with base_dir,
# which would share it between checkouts: it makes the compiler's paths
# relative, and __FILE__ in the kernel's reports with them.)
export CCACHE_DIR=${CCACHE_DIR:-$HOME/.cache/revoke-ccache}
export CCACHE_MAXSIZE=${CCACHE_MAXSIZE:-5G}

say() { printf '>> %s\n' "$*" >&2; }
die() { printf 'error: %s\n' "$*" >&2; exit 1; }

# add_counts TEXT: add the last "N passed, N failed" found in TEXT to the
# caller's $passed and $failed; a TEXT without one is one failure (a step
# that died before it could count).
add_counts() {
	local line
	line=$(grep -Eo '[0-9]+ passed, [0-9]+ failed' <<<"$1" | tail -n 1) || true
	if [ -z "$line" ]; then
		failed=$((failed + 1))
		return
	fi
	passed=$((passed + ${line%% passed*}))
	line=${line#*passed, }
	failed=$((failed + ${line%% failed}))
}

# base_tree: extract the unpatched base from build/linux's tag base into
# $BASE_SRC, unless it is there.
base_tree() {
	[ "$(cat "$BASE_SRC/.base-version" 2>/dev/null)" != "$BASE_VERSION" ] || return 0
	[ -d "$LINUX/.git" ] || "$TOP/scripts/tree"
	say "extracting the unpatched base into ${BASE_SRC#"$TOP"/}"
	rm -rf "$BASE_SRC"
	mkdir -p "$BASE_SRC"
	git -C "$LINUX" archive base | tar -x -C "$BASE_SRC"
	echo "$BASE_VERSION" >"$BASE_SRC/.base-version"
}

# fix_patches: the fixes to the base that are not part of the series and go
# upstream on their own (patches/fixes/), applied before the series.
fix_patches() {
	compgen -G "$TOP/patches/fixes/*.patch" | sort || true
}

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
		cat "$TOP/patches/series" "$TOP"/patches/*.patch \
			"$TOP"/patches/fixes/*.patch 2>/dev/null || true
		while read -r kind a b; do
			[ "$kind" = file ] && cat "$TOP/$a"
		done < <(series_entries)
	} | sha256sum | cut -d' ' -f1
}
