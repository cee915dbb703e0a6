#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# demo.sh [KERNEL] - `make demo`: build everything, boot a Debian kernel
# (default 6.1) in QEMU, load osn, inject known noise on CPU 1 and show osn
# measuring it: osn top with its culprits (--causes), a stop and its
# explanation, and the report page, copied to build/demo/report.html (or
# osn's trace events if the CLI is not built yet).  DEMO_SECONDS=N changes
# the measurement length (default 10).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/common.sh"
k=${1:-6.1}
export OSN_GUEST_DIR=vm/demo-guest
export OSN_VM_VERBOSE=2
export OSN_VM_ENV="${OSN_VM_ENV:-} DEMO_SECONDS=${DEMO_SECONDS:-10}"
rc=0
"$here/run-kernel.sh" "$k" || rc=$?
page=$OSN_BUILD/vm/$k/files/demo-report.html
if [ -s "$page" ]; then
	mkdir -p "$OSN_BUILD/demo"
	cp "$page" "$OSN_BUILD/demo/report.html"
	echo "osn demo: the report page is $OSN_BUILD/demo/report.html"
fi
exit $rc
