# SPDX-License-Identifier: GPL-2.0
#
# osn: OS-noise tracer (module + CLI).
#
#   make                      build kernel/osn.ko (against KDIR) and tools/osn
#   make module KDIR=...      only the module, for another kernel's headers
#   make tools                only the CLI
#   make install              install the module (into /lib/modules) and the CLI
#   make check                every test: host unit tests (plain, ASan+UBSan)
#                             and the guest suite on the VM kernel matrix
#   make check-host           only the host unit tests
#   make check-vm [KERNELS="6.1 6.12 6.1-rt 6.12-rt"]
#   make demo                 boot a Debian kernel in QEMU and show osn top
#   make bench                benchmark against upstream osnoise (6.1-rt VM)
#   make sparse / make W1     static checks of the module

KDIR	?= /lib/modules/$(shell uname -r)/build
PREFIX	?= /usr/local
DESTDIR	?=
KERNELS	?= 6.1 6.12 6.1-rt 6.12-rt

export KDIR PREFIX DESTDIR

.PHONY: all module tools install install-module install-tools clean \
	check check-host check-vm demo bench soak sparse W1 deps

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

sparse:
	$(MAKE) -C "$(KDIR)" M=$(CURDIR)/kernel C=2 W=1 modules

W1:
	$(MAKE) -C "$(KDIR)" M=$(CURDIR)/kernel W=1 modules

deps:
	tests/install-deps.sh

check-host:
	tests/run-host.sh

check-vm:
	tests/vm/run-matrix.sh $(KERNELS)

check:
	tests/run-all.sh $(KERNELS)

demo:
	tests/vm/demo.sh

bench:
	tests/bench/run.sh

soak:
	tests/vm/run-matrix.sh --long $(KERNELS)

clean:
	-$(MAKE) -C "$(KDIR)" M=$(CURDIR)/kernel clean 2>/dev/null
	$(MAKE) -C tools clean
	rm -rf build
