#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# add-to-tree.sh KERNEL_TREE - drop osn's sources into a kernel tree, so
# that `CONFIG_OSN_TRACER=y` builds osn in, as the ftrace tracer "osn"
# (Documentation/engine.md, "In-tree build").  What it does:
#   KERNEL_TREE/kernel/trace/osn/		kernel/*.[ch], Kbuild, Kconfig
#   KERNEL_TREE/kernel/trace/osn/include/osn/	include/osn/*.h
#   kernel/trace/Kconfig	source "kernel/trace/osn/Kconfig", before
#				the "endif # FTRACE" that closes the menu
#   kernel/trace/Makefile	obj-$(CONFIG_OSN_TRACER) += osn/
# Run again after a change to osn's sources: the copy is replaced and the
# two lines are not added twice.  Then, in KERNEL_TREE:
#   scripts/config --enable OSN_TRACER && make olddefconfig && make
set -eu

die() {
	echo "add-to-tree.sh: $*" >&2
	exit 1
}

[ $# -eq 1 ] || die "usage: add-to-tree.sh KERNEL_TREE"
tree=$1
here=$(cd "$(dirname "$0")" && pwd)
top=$(dirname "$here")
kconfig=$tree/kernel/trace/Kconfig
makefile=$tree/kernel/trace/Makefile
[ -f "$kconfig" ] && [ -f "$makefile" ] ||
	die "$tree is not a kernel tree (no kernel/trace/Kconfig and Makefile)"
grep -q '^endif # FTRACE' "$kconfig" ||
	die "$kconfig has no 'endif # FTRACE' line to add osn's menu entry before"

dst=$tree/kernel/trace/osn
rm -rf "$dst"
mkdir -p "$dst/include/osn"
cp "$here"/*.c "$here"/*.h "$here/Kbuild" "$dst/"
cp "$top/Kconfig" "$dst/Kconfig"
cp "$top"/include/osn/*.h "$dst/include/osn/"

if ! grep -q '^source "kernel/trace/osn/Kconfig"' "$kconfig"; then
	sed -i 's|^endif # FTRACE|source "kernel/trace/osn/Kconfig"\n\n&|' "$kconfig"
fi
if ! grep -q '^obj-$(CONFIG_OSN_TRACER) += osn/' "$makefile"; then
	printf '\nobj-$(CONFIG_OSN_TRACER) += osn/\n' >>"$makefile"
fi
echo "osn: sources in $dst; enable with CONFIG_OSN_TRACER=y"
