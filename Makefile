# SPDX-License-Identifier: GPL-2.0
#
# osn: OS-noise tracer (module + CLI).
#
#   make                      build kernel/osn.ko (against KDIR) and tools/osn
#   make module KDIR=...      only the module, for another kernel's headers
#   make tools                only the CLI
#   make install              install the module (into /lib/modules) and the CLI
#   make deb                  Debian packages osn and osn-dkms in build/deb/
#                             (dpkg-buildpackage on a copy of the tree, lintian)
#   make check                every test: host unit tests (plain, ASan+UBSan)
#                             and the guest suite on the VM kernel matrix
#   make check-host           only the host unit tests
#   make check-vm [KERNELS="6.1 forky-rt ..."]  the guest suite on some kernels
#   make check-arm64          the guest suite on the four arm64 kernels
#   make module-for KERNEL=K  build/modules/K/osn.ko (+ the test injector) for a
#                             kernel of the matrix, with its release's toolchain
#   make demo [KERNEL=K]      boot a Debian kernel (default 6.1; e.g.
#                             trixie-arm64) in QEMU and show osn top
#   make bench                benchmark against upstream osnoise (6.1-rt VM)
#   make check-mutants        deliberate bugs (tests/mutants/*.mut) the suite must
#                             catch (6.1 and 6.1-rt VMs)
#   make sparse / make W1     static checks of the module
#   make checkpatch           checkpatch --strict on kernel/ (also in check-host)
#   make debug-kernel         build the debug kernel (lockdep, KASAN, ...): tests/debug/
#   make check-debug          the engine and reliability suites on it
#   make intree-kernel        the debug kernel with osn built in (CONFIG_OSN_TRACER=y)
#   make check-intree         the tracer and CLI suites on it: tests/intree/

KDIR	?= /lib/modules/$(shell uname -r)/build
PREFIX	?= /usr/local
DESTDIR	?=
# The matrix (tests/vm/common.sh): Debian 11 bullseye, 12 bookworm (+ its
# 6.12 backport), 13 trixie and forky (testing), generic and PREEMPT_RT,
# and trixie's arm64 kernel; longest run first (see tests/vm/common.sh).
KERNELS	?= trixie-arm64 forky-rt forky 5.10-rt 6.1-rt trixie-rt 6.12-rt 5.10 6.12 trixie 6.1
# Debian's arm64 kernels: bookworm's and trixie's, generic and PREEMPT_RT.
ARM64_KERNELS ?= trixie-rt-arm64 6.1-rt-arm64 trixie-arm64 6.1-arm64

export KDIR PREFIX DESTDIR

.PHONY: all module tools install install-module install-tools clean \
	check check-host check-vm demo bench soak sparse W1 deps module-for \
	check-mutants checkpatch debug-kernel check-debug intree-kernel \
	check-intree deb check-arm64

all: module tools

module:
	@test -d "$(KDIR)" || { echo "osn: no kernel headers at $(KDIR): install linux-headers-$$(uname -r) (apt-get install linux-headers-$$(uname -r)) or pass KDIR=" >&2; exit 1; }
	$(MAKE) -C "$(KDIR)" M=$(CURDIR)/kernel modules

tools:
	$(MAKE) -C tools

install: install-module install-tools

install-module: module
	$(MAKE) -C "$(KDIR)" M=$(CURDIR)/kernel modules_install
	-depmod -a

install-tools: tools
	$(MAKE) -C tools install

deb:
	tests/deb/make-deb.sh

sparse:
	$(MAKE) -C "$(KDIR)" M=$(CURDIR)/kernel C=2 W=1 modules

W1:
	$(MAKE) -C "$(KDIR)" M=$(CURDIR)/kernel W=1 modules

deps:
	tests/install-deps.sh

checkpatch:
	tests/checkpatch.sh

debug-kernel:
	tests/debug/build-kernel.sh

check-debug:
	tests/debug/run.sh

intree-kernel:
	tests/intree/build-kernel.sh

check-intree:
	tests/intree/run.sh

check-host:
	tests/run-host.sh

check-vm:
	tests/vm/run-matrix.sh $(KERNELS)

check-arm64:
	tests/vm/run-matrix.sh $(ARM64_KERNELS)

module-for:
	@test -n "$(KERNEL)" || { echo "usage: make module-for KERNEL=<one of: $(KERNELS) $(ARM64_KERNELS)>" >&2; exit 2; }
	tests/vm/build-module.sh $(KERNEL)

# Every test on every kernel: a test filter would make a partial run look
# like a whole one.
check:
	@test -z "$(OSN_TESTS_FILTER)" || { echo "make check runs every test: unset OSN_TESTS_FILTER (use make check-vm to run some)" >&2; exit 2; }
	tests/run-all.sh $(KERNELS)

# Deliberate bugs (tests/mutants/*.mut, outside the code) the guest suite
# must catch, on 6.1 and 6.1-rt: MUTANTS="NAME..." picks some.
check-mutants:
	tests/mutants/run.sh $(MUTANTS)

demo:
	tests/vm/demo.sh $(KERNEL)

bench:
	tests/bench/run.sh

soak:
	tests/vm/run-matrix.sh --long $(KERNELS)

clean:
	-$(MAKE) -C "$(KDIR)" M=$(CURDIR)/kernel clean 2>/dev/null
	$(MAKE) -C tools clean
	rm -rf build
