#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# run-kernel.sh [--long] KERNEL [FILTER...] - run the guest suite on one
# Debian kernel of the matrix (tests/vm/common.sh) under QEMU TCG.
#
#   tests/vm/run-kernel.sh 6.1                         every tests/guest/*/NN-*.sh
#   tests/vm/run-kernel.sh 6.1 engine/                 only tests whose path has "engine/"
#   tests/vm/run-kernel.sh 6.1-rt engine/10-foo.sh injector/
#
# Steps: fetch the kernel's vmlinuz (fetch-kernel.sh), build kernel/osn.ko
# and tests/injector/osn_inject.ko with its release's toolchain
# (build-module.sh: build/modules/<kernel>/), build tools/osn (make -C tools), pack an
# initramfs (busybox, /init = guest-init.sh, modules, host binaries with
# their libraries, tests/ at /osn/tests), boot it and parse the console
# log (parse-log.sh).  Logs: build/vm/<kernel>/{console.log,build-*.log}.
#
# Environment:
#   OSN_TESTS_FILTER  space-separated substrings of test paths (as FILTER)
#   OSN_VM_SMP        vCPUs (2)             OSN_VM_MEM   MiB of RAM (1024)
#   OSN_VM_TIMEOUT    host-side limit in s (default: sum of the tests'
#                     limits + 180); besides, a watchdog kills a guest that
#                     prints nothing for a test's limit + 60 s (240 s at boot)
#   OSN_VM_APPEND     extra kernel command line
#   OSN_VM_VERBOSE=1  show the whole console while it runs (2: without the
#                     final dmesg dump)
#   OSN_VM_NO_TOOLS=1 do not (re)build tools/ (run-matrix builds it once)
#   OSN_VM_BINS       extra host binaries to copy into the guest
#   OSN_VM_ENV        "NAME=VALUE ..." exported to the guest tests
#   OSN_VM_PVH=0      boot bzImage instead of the extracted vmlinux
#   OSN_VM_TCG_THREAD TCG threading, multi or single (default: single; see
#                     below why multi is unsafe)
#   OSN_VM_WORK       work directory instead of build/vm/<kernel>
#   OSN_GUEST_DIR     directory under tests/ whose NN-*.sh and */NN-*.sh the
#                     guest runs (default: guest; tests/bench/run.sh: bench/guest)
# Exit status: 0 all passed, 1 something failed, 2 setup error.
# Last line: OSN-RESULT <kernel> pass=N fail=N skip=N status=ok|FAIL retries=N time=Ns ...
set -euo pipefail
. "$(dirname "$0")/common.sh"

long=0
while [ $# -gt 0 ]; do
	case "$1" in
	--long) long=1; shift ;;
	-h|--help) sed -n '3,30p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
	-*) die "unknown option $1" ;;
	*) break ;;
	esac
done
[ $# -ge 1 ] || die "usage: run-kernel.sh [--long] KERNEL [FILTER...]"
K=$1
shift
check_kernel_name "$K"
filter="${OSN_TESTS_FILTER:-} $*"
filter=$(echo $filter)
smp=${OSN_VM_SMP:-2}
mem=${OSN_VM_MEM:-1024}
# Multi-threaded TCG (QEMU 7.2) does not make a code write by one vCPU
# visible to another at once: a vCPU goes on running a stale translated
# block holding the int3 of a text_poke_bp() that has already finished.
# Every kernel flips static keys when a tracepoint is hooked, and both
# failure modes were seen without and with osn: "Oops: int3" at the
# local_timer_entry key on 6.12, and on 6.1-rt a CPU trapping forever on
# the int3 of the sched_switch key inside __schedule() (a silent hang,
# caught by the NMI of the watchdog).  Single-threaded TCG runs one vCPU
# at a time, so patched text is coherent; it costs one host core per VM
# instead of two, and run-matrix.sh runs two kernels at once to make up.
tcg_thread=${OSN_VM_TCG_THREAD:-single}
t0=$(now_s)

"$OSN_ROOT/tests/vm/fetch-kernel.sh" "$K" 2>&1 | sed 's/^/  /' >&2
kdir=$OSN_KCACHE/$K
kver=$(cat "$kdir/kver")
# An arm64 kernel (OSN_ARM64_KERNELS): its modules, the CLI and the
# injector's programs are cross-built, the initramfs holds arm64 binaries
# (busybox from Debian's busybox-static:arm64, fetched by fetch-kernel.sh)
# and it boots in qemu-system-aarch64 (GICv3, pseudo-NMIs on).
cross=$(kernel_cross "$K")
ucc=cc
[ -z "$cross" ] || ucc=${cross}gcc

# One bench per kernel directory; a concurrent run of the same kernel (other
# developer, same tree) gets its own directory instead of waiting.
mkdir -p "$OSN_BUILD/vm"
work=$OSN_BUILD/vm/$K
lock=$OSN_BUILD/vm/.lock-$K
if [ -n "${OSN_VM_WORK:-}" ]; then
	# absolute: make -C tools writes the cross CLI to $work/osn
	work=$(realpath -m "$OSN_VM_WORK")
	lock=$work.lock
fi
exec 8>"$lock"
if ! flock -n 8; then
	work=$OSN_BUILD/vm/$K.run$$
	# Logs of finished concurrent runs are kept for 2 hours.
	find "$OSN_BUILD/vm" -maxdepth 1 -name "$K.run*" -mmin +120 \
		-exec rm -rf {} + 2>/dev/null || true
	note "$K: build/vm/$K is in use by another run: using $work"
	exec 8>"$work.lock"
	flock -n 8
	trap 'rm -rf "$work/src" "$work/root" "$work/initramfs.cpio" "$work.lock"' EXIT
fi
mkdir -p "$work"
results=$work/host-results
: >"$results"
host_fail() {	# name why
	echo "OSN-TEST-NOTE: $1 $2" >>"$results"
	echo "OSN-TEST: FAIL $1 0s" >>"$results"
}

# ---- modules -------------------------------------------------------------
# Built with the kernel's own release's toolchain, W=1 and sparse; the
# build's PASS/FAIL lines count as tests of this kernel.
ko=$work/ko
rm -rf "$ko"
mkdir -p "$ko"
"$OSN_ROOT/tests/vm/build-module.sh" "$K" >>"$results" || true
for m in osn.ko osn_inject.ko; do
	[ -e "$OSN_BUILD/modules/$K/$m" ] && cp "$OSN_BUILD/modules/$K/$m" "$ko/"
done

# ---- CLI -----------------------------------------------------------------
osn_bin=$OSN_ROOT/tools/osn
tools_make=()
if [ -n "$cross" ]; then
	osn_bin=$work/osn
	tools_make=(CC="$ucc" OBJ="$work/tools-obj" BIN="$osn_bin"
		PKG_CONFIG_LIBDIR="/usr/lib/${cross%-}/pkgconfig:/usr/share/pkgconfig")
fi
# OSN_VM_NO_TOOLS=1: run-matrix.sh built the host's CLI once for every
# amd64 kernel; a foreign kernel's is built here all the same.
if [ -e "$OSN_ROOT/tools/Makefile" ] && { [ "${OSN_VM_NO_TOOLS:-0}" != 1 ] || [ -n "$cross" ]; }; then
	if make -C "$OSN_ROOT/tools" -j"$(nproc)" "${tools_make[@]}" >"$work/build-tools.log" 2>&1; then
		note "$K: built tools/osn"
	else
		note "$K: make -C tools FAILED ($work/build-tools.log):"
		grep -E 'error|Error' "$work/build-tools.log" | head -n 20 | sed 's/^/    /' >&2
		host_fail "build/tools" "make -C tools failed (see $work/build-tools.log)"
	fi
fi

# The injector's user-space mode (TLB shootdowns from a known process).
rm -f "$work/osn_tlb"
if ! $ucc -O2 -Wall -Wextra -Werror -pthread -o "$work/osn_tlb" \
	"$OSN_ROOT/tests/injector/osn_tlb.c" >"$work/build-tlb.log" 2>&1; then
	host_fail "build/osn_tlb" "cc tests/injector/osn_tlb.c failed (see $work/build-tlb.log)"
fi
# A user-space timerlat thread (timerlat's user-space mode).
rm -f "$work/osn_tlu"
if ! $ucc -O2 -Wall -Wextra -Werror -o "$work/osn_tlu" \
	"$OSN_ROOT/tests/injector/osn_tlu.c" >"$work/build-tlu.log" 2>&1; then
	host_fail "build/osn_tlu" "cc tests/injector/osn_tlu.c failed (see $work/build-tlu.log)"
fi

# ---- initramfs -----------------------------------------------------------
root=$work/root
rm -rf "$root"
mkdir -p "$root"/{bin,sbin,usr/bin,usr/sbin,etc,proc,sys,dev,tmp,run,root,osn/bin,osn/ko}
bb=$(command -v busybox) || die "busybox-static is not installed"
# A foreign kernel's guest userland (fetch-kernel.sh guest_userland).
xul=$OSN_KCACHE/$(kernel_arch "$K")-userland
if [ -n "$cross" ]; then
	# It cannot run here: the host's busybox lists the applets.
	cp "$xul/busybox" "$root/bin/busybox"
else
	cp "$bb" "$root/bin/busybox"
fi
for a in $("$bb" --list-full); do
	[ -e "$root/$a" ] || ln -s /bin/busybox "$root/$a"
done
cp "$OSN_ROOT/tests/vm/guest-init.sh" "$root/init"
chmod 755 "$root/init"
echo "root:x:0:0:root:/root:/bin/sh" >"$root/etc/passwd"
echo "root:x:0:" >"$root/etc/group"
cp -a "$ko/." "$root/osn/ko/"

copy_bin() {	# copy a host binary and its shared libraries (ldd)
	local b=$1 l
	[ -n "$b" ] && [ -x "$b" ] || return 1
	cp -L "$b" "$root/osn/bin/"
	for l in $(ldd "$b" 2>/dev/null | awk '/=> \//{print $3} /^\t\//{print $1}'); do
		[ -e "$root$l" ] && continue
		mkdir -p "$root$(dirname "$l")"
		cp -L "$l" "$root$l"
	done
}
# Another architecture's binary: its libraries by their DT_NEEDED names
# (ldd cannot run it), from the multiarch directories of that
# architecture, the host's or those of the guest userland, into the
# guest's.
copy_bin_cross() {
	local b=$1 n l d todo seen= m=${cross%-}
	[ -n "$b" ] && [ -x "$b" ] || return 1
	cp -L "$b" "$root/osn/bin/"
	todo=$b
	while [ -n "$todo" ]; do
		set -- $todo
		todo=
		for l in "$@"; do
			for n in $(${cross}readelf -d "$l" 2>/dev/null | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p'); do
				case " $seen " in *" $n "*) continue ;; esac
				seen="$seen $n"
				for d in /lib/$m /usr/lib/$m "$xul/root/lib/$m" "$xul/root/usr/lib/$m"; do
					[ -e "$d/$n" ] || continue
					mkdir -p "$root/usr/lib/$m"
					cp -L "$d/$n" "$root/usr/lib/$m/"
					todo="$todo $d/$n"
					break
				done
			done
		done
	done
	l=$(${cross}readelf -l "$b" | sed -n 's/.*interpreter: \(.*\)\]/\1/p')
	if [ -n "$l" ] && [ ! -e "$root$l" ]; then
		mkdir -p "$root$(dirname "$l")"
		cp -L "$l" "$root$l"
	fi
}
[ -z "$cross" ] || copy_bin() { copy_bin_cross "$@"; }
copied=
[ -x "$osn_bin" ] && copy_bin "$osn_bin" && copied="$copied osn"
[ -x "$work/osn_tlb" ] && copy_bin "$work/osn_tlb" && copied="$copied osn_tlb"
[ -x "$work/osn_tlu" ] && copy_bin "$work/osn_tlu" && copied="$copied osn_tlu"
# The host's tools; a foreign guest gets those of its userland (jq,
# stress-ng, the host release's rtla; busybox has chrt).
hostbins="jq chrt rtla oslat cyclictest hackbench stress-ng trace-cmd ${OSN_VM_BINS:-}"
for b in $hostbins; do
	if [ -n "$cross" ]; then
		p=$xul/root/usr/bin/$b
	else
		p=$(command -v "$b" 2>/dev/null) || continue
	fi
	[ -x "$p" ] || continue
	copy_bin "$p" && copied="$copied $b"
done
# rtla of the kernel's own release (its -rt kernels carry the osnoise it
# drives): users of that release compare with that rtla.  It runs with its
# release's libraries, under /osn/rel, through its own dynamic loader.
ul=$(kernel_userland "$K")
if [ -n "$ul" ] && [ -x "$ul/usr/bin/rtla" ] && [ -z "$cross" ]; then
	rel=$root/osn/rel
	mkdir -p "$rel/bin" "$rel/lib"
	cp -L "$ul/usr/bin/rtla" "$rel/bin/"
	for l in $(in_userland "$K" ldd /usr/bin/rtla 2>/dev/null | awk '/=> \//{print $3} /^\t\//{print $1}'); do
		cp -L "$ul$l" "$rel/lib/"
	done
	# glibc dlopen()s libgcc_s at a thread's exit (rtla -u's timerlatu/N
	# threads), which ldd does not list: without it rtla -u aborts.
	for l in /usr/lib/x86_64-linux-gnu/libgcc_s.so.1 /lib/x86_64-linux-gnu/libgcc_s.so.1; do
		[ -e "$ul$l" ] && { cp -L "$ul$l" "$rel/lib/"; break; }
	done
	# The release's dynamic loader, under the name rtla: the process's
	# name (comm) is the loader's file name, and the bench finds and
	# signals rtla by name (pidof rtla).
	cp -L "$rel/lib/ld-linux-x86-64.so.2" "$rel/rtla"
	cat >"$root/osn/bin/rtla" <<'EOW'
#!/bin/sh
# rtla of the guest kernel's own Debian release, with that release's libraries.
exec /osn/rel/rtla --argv0 rtla --library-path /osn/rel/lib /osn/rel/bin/rtla "$@"
EOW
	chmod 755 "$root/osn/bin/rtla"
	copied="$copied rtla($(kernel_release "$K"))"
fi
# The dynamic loader at the path binaries ask for (/lib64 is a symlink).
if [ -z "$cross" ] && [ ! -e "$root/lib64/ld-linux-x86-64.so.2" ]; then
	mkdir -p "$root/lib64"
	cp -L /lib64/ld-linux-x86-64.so.2 "$root/lib64/"
fi
mkdir -p "$root/osn/tests"
(cd "$OSN_ROOT/tests" && tar -c --exclude='*.o' --exclude='*.ko' --exclude='obj' \
	--exclude='.*.cmd' --exclude='*.mod*' . ) | tar -x -C "$root/osn/tests"
# The ABI header: guest tests read the expected names from it.
mkdir -p "$root/osn/include"
cp "$OSN_ROOT/include/osn/osn_abi.h" "$root/osn/include/"

# Host-side time limit: the tests' own limits + boot/shutdown.
tlimit=0
ntests=0
# The sharded matrix (OSN_SHARD=DAY, make check; common.sh): the
# sharded tests that run on another kernel today, and the tests the twin
# of this kernel runs today, are left out here.  An arm64 kernel runs
# them all (OSN_CHECK_ARM64).
declare -A shard_on=()
shard_skip=
if [ -n "${OSN_SHARD:-}" ] && [ "$K" != "$OSN_SHARD_MAIN" ] && ! is_foreign "$K"; then
	case $OSN_SHARD in *[!0-9]*) die "OSN_SHARD: '$OSN_SHARD' is not a day number" ;; esac
	while read -r t k; do shard_on[$t]=$k; done < <(shard_plan "$OSN_SHARD" && twin_plan "$OSN_SHARD" "$K")
fi
sel() {
	if [ -n "${shard_on[$1]:-}" ] && [ "${shard_on[$1]}" != "$K" ]; then
		shard_skip="$shard_skip $1"
		return 1
	fi
	[ -z "$filter" ] && return 0
	local f
	for f in $filter; do case "$1" in *"$f"*) return 0 ;; esac; done
	return 1
}
gdir=${OSN_GUEST_DIR:-guest}
dirs="$gdir/*/[0-9]*.sh"
[ "$gdir" = guest ] || dirs="$gdir/[0-9]*.sh $dirs"
[ $long = 1 ] && dirs="$dirs guest-long/[0-9]*.sh guest-long/*/[0-9]*.sh"
# What the guest must report, by the names it reports them under
# (guest-init.sh), for check-manifest.sh.
expected=$work/expected
printf 'build/osn.ko\nbuild/osn_inject.ko\n' >"$expected"
# Tests with a "# boot: NAME PARAMS..." header run in a boot of their own
# (one per NAME, after the plain one), with PARAMS and osn.boot=NAME added
# to the kernel command line (guest-init.sh runs only the tests of its
# boot): the audit's checks of isolation parameters need real boots.  A
# PARAM vm.smp=N is QEMU's, not the kernel's: that boot has N vCPUs (a
# sparse CPU set of more than two).
declare -A vparams=() vlimit=() vsmp=()
vnames=
# arm64 under TCG runs the same tests 2 to 5 times slower than x86-64
# (6.1-rt-arm64's timerlat analyses most: Documentation/kernels.md): its
# tests get three times their limit (OSN_TIMEOUT_SCALE, which
# OSN_VM_ENV may set instead), here and in the guest.
tscale=1
is_foreign "$K" && tscale=3
case " ${OSN_VM_ENV:-} " in
*" OSN_TIMEOUT_SCALE="*) tscale=$(echo " $OSN_VM_ENV " | sed 's/.* OSN_TIMEOUT_SCALE=\([0-9]*\) .*/\1/') ;;
*) [ "$tscale" = 1 ] || OSN_VM_ENV="${OSN_VM_ENV:-} OSN_TIMEOUT_SCALE=$tscale" ;;
esac
for t in $(cd "$OSN_ROOT/tests" && eval ls $dirs 2>/dev/null); do
	sel "$t" || continue
	l=$(test_header "$OSN_ROOT/tests/$t" timeout | sed -n 's/^\([0-9][0-9]*\).*/\1/p')
	b=$(test_header "$OSN_ROOT/tests/$t" boot)
	if [ -n "$b" ]; then
		bn=${b%% *}
		if [ -z "${vparams[$bn]+set}" ]; then
			vparams[$bn]=
			vsmp[$bn]=$smp
			for w in ${b#"$bn"}; do
				case $w in
				vm.smp=[1-9]*) vsmp[$bn]=${w#vm.smp=} ;;
				*) vparams[$bn]="${vparams[$bn]} $w" ;;
				esac
			done
			vlimit[$bn]=0
			vnames="$vnames $bn"
		fi
		vlimit[$bn]=$((${vlimit[$bn]} + ${l:-120} * ${tscale:-1} + 2))
	else
		tlimit=$((tlimit + ${l:-120} * ${tscale:-1} + 2))
	fi
	ntests=$((ntests + 1))
	case $t in
	"$gdir"/*)	n=${t#"$gdir"/} ;;
	guest-long/*)	n=long/${t#guest-long/} ;;
	*)		n=$t ;;
	esac
	echo "${n%.sh}" >>"$expected"
done
timeout_s=${OSN_VM_TIMEOUT:-$((tlimit + 180))}
if [ -n "$shard_skip" ]; then
	tw=$(twin_of "$K")
	note "$K: sharded matrix, day $OSN_SHARD: $(echo $shard_skip | wc -w) tests run on other kernels today${tw:+ (its twin: $tw)}, not here"
fi

cat >"$root/osn/config" <<EOC
OSN_KVER='$K'
OSN_FILTER='$filter'
OSN_SKIP='$shard_skip'
OSN_LONG=$long
OSN_GUEST_DIR='$gdir'
OSN_DEFAULT_TIMEOUT=120
EOC
for kv in ${OSN_VM_ENV:-}; do
	case $kv in
	[A-Za-z_]*=*) echo "export ${kv%%=*}='${kv#*=}'" >>"$root/osn/config" ;;
	*) die "OSN_VM_ENV: '$kv' is not NAME=VALUE" ;;
	esac
done
(cd "$root" && find . | LC_ALL=C sort | cpio -o -H newc --quiet) >"$work/initramfs.cpio"
note "$K: initramfs $(du -m "$work/initramfs.cpio" | cut -f1) MB, bins:${copied:- none}, modules: $(cd "$ko" && echo *.ko | sed 's/\*\.ko/none/')"

# ---- boot ----------------------------------------------------------------
append="console=ttyS0 panic=-1 oops=panic quiet loglevel=4 tsc=reliable ${OSN_VM_APPEND:-}"
qemu=(qemu-system-x86_64)
if [ "$(kernel_arch "$K")" = arm64 ]; then
	# GICv3 for pseudo-NMIs (irqchip.gicv3_pseudo_nmi=1): Documentation/kernels.md.
	append="console=ttyAMA0 panic=-1 oops=panic quiet loglevel=4 irqchip.gicv3_pseudo_nmi=1 ${OSN_VM_APPEND:-}"
	qemu=(qemu-system-aarch64 -M virt,gic-version=3)
fi
note "$K: booting $kver, $smp vCPUs, $ntests tests, limit ${timeout_s}s"
log=$work/console.log
kimg=$kdir/vmlinuz
[ -s "$kdir/vmlinux" ] && [ "${OSN_VM_PVH:-1}" = 1 ] && kimg=$kdir/vmlinux

# Watchdog: a guest that stops making progress (hard hang, deadlock with
# IRQs off, livelock) is killed long before the overall limit.  A test may
# stay silent for its own limit + 60 s (the guest's runner kills it at its
# limit); boot, the gaps between tests and the dmesg dump get 240 s.
# A hung guest is sent an NMI through the QEMU monitor before it is
# killed: guest-init.sh made unknown NMIs panic, and the panic prints every
# task's stack and replays the whole kernel log (panic_print=0x21), which is
# all we will ever learn about the hang.  The panic ends QEMU (-no-reboot).
guest_nmi_dump() {
	local pid=$1 i
	[ -S "$work/monitor.sock" ] || return 0
	echo "OSN-HOST: watchdog: sending an NMI to the hung guest for its stacks" >>"$log"
	python3 - "$work/monitor.sock" <<'PY' || true
import socket, sys, time
s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
s.settimeout(5)
s.connect(sys.argv[1])
time.sleep(0.5)
s.sendall(b"nmi\n")
time.sleep(1)
s.close()
PY
	for i in $(seq 1 20); do
		kill -0 "$pid" 2>/dev/null || return 0
		sleep 3
	done
}

watchdog() {
	local seen=-1 since lim l n pid boot=${OSN_VM_WATCHDOG_BOOT:-240}
	set +e
	since=$(now_s)
	lim=$boot
	while sleep 3; do
		pid=$(cat "$work/qemu.pid" 2>/dev/null) || continue
		kill -0 "$pid" 2>/dev/null || return 0
		n=$(grep -c '^OSN-' "$log" 2>/dev/null)
		if [ "$n" != "$seen" ]; then
			seen=$n
			since=$(now_s)
			l=$(grep -E '^OSN-(TEST-BEGIN|TEST:|GUEST:|DMESG)' "$log" | tail -n 1)
			case $l in
			OSN-TEST-BEGIN*)
				lim=$(echo "$l" | sed -n 's/.* timeout=\([0-9]*\)s.*/\1/p')
				lim=$((${lim:-120} + 60)) ;;
			*)	lim=$boot ;;
			esac
		elif [ $(($(now_s) - since)) -gt "$lim" ]; then
			echo "no progress for ${lim}s after: ${l:-boot}" >"$work/watchdog"
			guest_nmi_dump "$pid"
			kill "$pid" 2>/dev/null
			return 0
		fi
	done
}
# boot_guest APPEND LOG LIMIT_S [SMP]: one boot (SMP vCPUs, default
# OSN_VM_SMP), its console in LOG; failures of the boot itself (time
# limit, watchdog) go to the host results.
boot_guest() {
	local qrc
	log=$2
	rm -f "$work/qemu.pid" "$work/watchdog" "$work/monitor.sock"
	: >"$log"
	watchdog &
	wdpid=$!
	set +e
	timeout -k 10 "$3" \
		"${qemu[@]}" -accel "tcg,thread=$tcg_thread" -cpu max -smp "${4:-$smp}" -m "$mem" \
		-kernel "$kimg" -initrd "$work/initramfs.cpio" -append "$1" \
		-nographic -no-reboot -nodefaults -serial stdio -monitor "unix:$work/monitor.sock,server,nowait" \
		-pidfile "$work/qemu.pid" \
		</dev/null 2>&1 | sed -u 's/\r$//' | tee "$log" |
		if [ "${OSN_VM_VERBOSE:-0}" = 1 ]; then cat
		elif [ "${OSN_VM_VERBOSE:-0}" = 2 ]; then
			awk '/^OSN-DMESG-BEGIN/ { skip = 1 } !skip { print; fflush() }
			     /^OSN-DMESG-END/ { skip = 0 }'
		else
			grep --line-buffered -E '^OSN-(TEST:|TEST-NOTE:|GUEST:)|Kernel panic|^\[ *[0-9.]+\] (BUG|Oops|WARNING)' |
				sed -u "s/^/  [$K] /"
		fi
	qrc=${PIPESTATUS[0]}
	set -e
	kill "$wdpid" 2>/dev/null || true
	wait "$wdpid" 2>/dev/null || true
	[ "$qrc" = 124 ] && host_fail "vm/timeout" "QEMU killed after ${3}s ($log)"
	[ -s "$work/watchdog" ] && host_fail "vm/watchdog" "QEMU killed: $(cat "$work/watchdog") ($log)"
	return 0
}

tb=$(now_s)
boot_guest "$append" "$work/console.log" "$timeout_s"
# The other boots: their tests' lines (and the guest's count) join the
# host results; a boot that failed as a whole (no OSN-GUEST-DONE, a kernel
# warning, taint) is one more failure, vm/boot-NAME.
for bn in $vnames; do
	vlog=$work/console-$bn.log
	note "$K: booting again with${vparams[$bn]} osn.boot=$bn, ${vsmp[$bn]} vCPUs"
	boot_guest "$append${vparams[$bn]} osn.boot=$bn" "$vlog" $((${vlimit[$bn]} + 180)) "${vsmp[$bn]}"
	grep -E '^OSN-(TEST|GUEST):|^OSN-TEST-NOTE:' "$vlog" >>"$results" || true
	set +e
	"$OSN_ROOT/tests/vm/parse-log.sh" --kernel "$K:$bn" --result "$work/result-$bn" \
		"$vlog" >"$work/parse-$bn" 2>&1
	vrc=$?
	set -e
	vf=$(sed -n 's/.*fail=\([0-9]*\).*/\1/p' "$work/result-$bn" 2>/dev/null)
	nf=$(grep -c '^OSN-TEST: FAIL' "$vlog" || true)
	if [ "$vrc" != 0 ] && [ "${vf:-1}" -gt "$nf" ]; then
		host_fail "vm/boot-$bn" "the $bn boot failed: $(grep -E 'FAIL|missing|dmesg|taint' "$work/parse-$bn" | head -n 3 | tr '\n' ' ') ($vlog)"
	fi
done
log=$work/console.log
tboot=$(($(now_s) - tb))

# Files the guest handed back (lib.sh's hand_back): the last copy of each,
# to $work/files/NAME.
rm -rf "$work/files"
for name in $(sed -n 's/^    OSN-FILE-BEGIN \([A-Za-z0-9._-]*\)$/\1/p' "$log" | sort -u); do
	mkdir -p "$work/files"
	awk -v n="$name" '$0 == "    OSN-FILE-BEGIN " n { on = 1; b = ""; next }
		on && $0 == "    OSN-FILE-END" { on = 0; last = b; next }
		on && /^    [A-Za-z0-9+\/=]+$/ { b = b substr($0, 5) "\n" }
		END { printf "%s", last }' "$log" | base64 -d 2>/dev/null |
		gunzip >"$work/files/$name" 2>/dev/null ||
		{ echo "  [$K] $name: handed back damaged" >&2; rm -f "$work/files/$name"; }
done

# cli/98-monitor's scrape of osn monitor, checked by the real promtool
# (Debian's prometheus, tests/install-deps.sh) where it is installed.
if [ -s "$work/files/monitor.prom" ] && command -v promtool >/dev/null; then
	if promtool check metrics <"$work/files/monitor.prom" >"$work/promtool.log" 2>&1; then
		echo "OSN-TEST: PASS host/promtool-monitor 0s" >>"$results"
	else
		host_fail host/promtool-monitor "$(head -c 300 "$work/promtool.log" | tr '\n' ' ')"
	fi
fi
# ... and a real Prometheus server over its scrapes, asked in PromQL for the
# injected noise (10 s: on one kernel only, OSN_PROM_KERNEL, default 6.1)
if [ "$K" = "${OSN_PROM_KERNEL:-6.1}" ] && [ -d "$work/files" ]; then
	"$OSN_ROOT/tests/vm/prometheus-query.sh" "$work/files" >>"$results" || true
fi

# The test suite proper (not the bench): every expected test reported, no
# skip the manifest does not allow.
if [ "$gdir" = guest ]; then
	"$OSN_ROOT/tests/vm/check-manifest.sh" "$K" "$expected" "$log" "$results" \
		>"$work/manifest-results" || true
	cat "$work/manifest-results" >>"$results"
fi

set +e
"$OSN_ROOT/tests/vm/parse-log.sh" --kernel "$K" --extra "$results" \
	--result "$work/result" "$log"
prc=$?
set -e
total=$(($(now_s) - t0))
res=$(tail -n 1 "$work/result" 2>/dev/null || true)
# Attempts the tests retried because the emulator spoiled them (lib.sh's
# retry_marker): reported, so that a rise is seen.
retries=$(grep -c '^    RETRY: ' "$log" || true)
grep '^    RETRY: ' "$log" | sed "s/^    /  [$K] /" >&2 || true
echo "OSN-RESULT $K $res retries=$retries time=${total}s boot+tests=${tboot}s log=$log"
exit $prc
