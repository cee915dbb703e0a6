# SPDX-License-Identifier: GPL-2.0
#
# overlay.sh - sourced by install-one.sh and build-one.sh, each run as root
# in a private mount namespace (unshare -m): a fresh overlay of LOWER (a
# release's chroot, or / for the host's own release) at $m, with its
# writable layer on a tmpfs at DIR, so LOWER is never written and nothing
# is left when the namespace ends.  The caller defines ok/fail.

# overlay_up LOWER DIR: mount it; $m is its root.  Exits on failure.
overlay_up() {
	m=$2/m
	mount -t tmpfs -o size=4g osn-deb "$2" || { fail "tmpfs at $2"; exit 1; }
	mkdir -p "$2/u" "$2/w" "$m"
	mount -t overlay osn-deb -o "lowerdir=$1,upperdir=$2/u,workdir=$2/w" "$m" ||
		{ fail "overlay of $1"; exit 1; }
	# The host's root has an empty /dev and /proc under its mounts.
	if ! { mount --rbind /dev "$m/dev" && mount -t proc proc "$m/proc" &&
		mount -t tmpfs tmp "$m/tmp"; }; then
		fail "mounts in the overlay"
		exit 1
	fi
	cp /etc/resolv.conf "$m/etc/resolv.conf" 2>/dev/null
}

# in_m CMD...: CMD in the overlay, with a clean environment
in_m() {
	chroot "$m" env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin LC_ALL=C.UTF-8 \
		HOME=/root DEBIAN_FRONTEND=noninteractive "$@"
}

# apt_m ARG...: apt-get in the overlay, no recommends
apt_m() {
	in_m apt-get -o Acquire::Check-Valid-Until=false -o Dpkg::Use-Pty=0 \
		-o APT::Install-Recommends=false "$@"
}

# apt_m_fresh LOG ARG...: apt_m ARG... into LOG; if the chroot's package
# lists are stale (404), update them (in the overlay) and try again.
apt_m_fresh() {
	local log=$1
	shift
	apt_m "$@" >"$log" 2>&1 && return 0
	grep -qE '404|Unable to fetch|Unable to locate|has no installation candidate' "$log" ||
		return 1
	echo "# $rel: stale package lists: apt-get update"
	apt_m update -q >/dev/null 2>&1
	apt_m "$@" >"$log" 2>&1
}
