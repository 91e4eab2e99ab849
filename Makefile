# SPDX-License-Identifier: GPL-2.0
#
# stacklat top-level Makefile.
#
#   make                 module (against KDIR) and tool
#   make check           unit tests + VM tests on the whole kernel matrix
#   make check KERNELS=6.1
#   make check-debug     VM tests on a 6.1 built here with KASAN, lockdep,
#                        kmemleak, UBSAN (the first build takes 20-40 min;
#                        DEBUG_SCENARIOS picks the scenarios)
#   make check-kmemleak  the kmemleak verdict catches a leak planted on purpose
#                        (a test of the checker, on the debug kernel)
#   make fuzz            >= 100,000 netlink and >= 20,000 control messages
#                        (FUZZ_KERNELS, default 6.1) and the tool's
#                        libFuzzer harness for FUZZ_TOOL_RUNS inputs
#   make demo            boot 6.1 in QEMU with stacklat, show what it measures
#   make bench           per-event cost of the hooks, armed vs disarmed
#                        (BENCH_BASE=REV: against REV's module, same boot)
#   make install / make dkms-install
#   make style           checkpatch, sparse and shellcheck
#   make sparse          sparse (C=1) over the module
#   make w1              W=1 build of the module

KDIR ?= /lib/modules/$(shell uname -r)/build
KERNELS ?= 5.10 6.1 6.1-rt 6.12
VERSION := $(shell cat VERSION 2>/dev/null || echo 0.1.0)
PREFIX ?= /usr/local
DESTDIR ?=

.PHONY: all module tool helpers unit vmtest vmtest-mt check check-debug check-kmemleak \
	fuzz fuzz-tool deps demo bench style sparse w1 \
	clean install install-tool dkms-install help

all: module tool

module:
	$(MAKE) -C $(KDIR) M=$(CURDIR) modules

w1:
	$(MAKE) -C $(KDIR) M=$(CURDIR) W=1 modules

sparse:
	$(MAKE) -C $(KDIR) M=$(CURDIR) C=2 modules

tool:
	$(MAKE) -C tool

unit:
	$(MAKE) -C tests/unit run

# Install the Debian packages the tests need (only when root and missing).
deps:
	@tests/deps.sh

helpers:
	$(MAKE) -C tests/vm/helpers

vmtest: tool helpers
	tests/vm/run.sh $(KERNELS)

# The concurrency and exactness scenarios once more with multi-threaded
# TCG, both vCPUs running handlers truly in parallel.  They arm and disarm
# only while their load is stopped: arming under load crashes such a guest
# even with bpftrace alone (../shared VM notes, README).  Its logs replace
# the single-threaded run's in tests/vm/out/$(MT_KERNEL)/.
MT_KERNEL ?= 6.1
MT_SCENARIOS ?= 10 13 50
vmtest-mt: tool helpers
	VM_TCG=multi SCENARIOS="$(MT_SCENARIOS)" tests/vm/run.sh $(MT_KERNEL)

# libFuzzer (clang) over the tool's pure parsers, from a fixed seed
FUZZ_TOOL_RUNS ?= 200000
fuzz-tool:
	$(MAKE) -C tests/fuzz run FUZZ_RUNS=$(FUZZ_TOOL_RUNS)

check: deps
	$(MAKE) style
	$(MAKE) unit
	$(MAKE) fuzz-tool
	$(MAKE) vmtest
	$(MAKE) vmtest-mt

# The long fuzz run: 18-fuzz with SL_FUZZ=netlink,control,seed
FUZZ_KERNELS ?= 6.1
FUZZ_SEED ?= 1
fuzz: deps tool helpers
	$(MAKE) fuzz-tool FUZZ_TOOL_RUNS=2000000
	SL_FUZZ=100000,20000,$(FUZZ_SEED) SL_SCENARIO_TIMEOUT=2400 \
		SCENARIOS=18 tests/vm/run.sh $(FUZZ_KERNELS)

check-kmemleak: deps tool helpers
	tests/vm/kmemleak-selftest.sh

# on the debug kernel every scenario is some forty times slower: by
# default those that load, unload and drive each pipeline
DEBUG_SCENARIOS ?= 00 10 11 12 13 14 15 42 47 53 55

check-debug: deps tool helpers
	VM_JOBS=1 SCENARIOS="$(DEBUG_SCENARIOS)" tests/vm/run.sh 6.1-debug

demo: deps tool helpers
	tests/vm/demo.sh

bench: deps tool helpers
	BENCH_BASE=$(BENCH_BASE) tests/vm/run.sh --bench $(firstword $(KERNELS))

style:
	tests/style.sh

clean:
	-$(MAKE) -C $(KDIR) M=$(CURDIR) clean 2>/dev/null
	$(MAKE) -C tool clean
	$(MAKE) -C tests/unit clean
	$(MAKE) -C tests/fuzz clean
	$(MAKE) -C tests/vm/helpers clean

install: install-tool
	$(MAKE) -C $(KDIR) M=$(CURDIR) INSTALL_MOD_DIR=extra modules_install
	depmod -a $(shell basename $$(dirname $(KDIR)))

install-tool: tool
	install -D -m 0755 tool/stacklat $(DESTDIR)$(PREFIX)/sbin/stacklat

dkms-install:
	rm -rf /usr/src/stacklat-$(VERSION)
	mkdir -p /usr/src/stacklat-$(VERSION)
	cp -r Kbuild Makefile VERSION kmod uapi /usr/src/stacklat-$(VERSION)/
	sed 's/@VERSION@/$(VERSION)/' dkms/dkms.conf > /usr/src/stacklat-$(VERSION)/dkms.conf
	dkms add -m stacklat -v $(VERSION)
	dkms build -m stacklat -v $(VERSION)
	dkms install -m stacklat -v $(VERSION)
	$(MAKE) install-tool

help:
	@sed -n '3,21p' Makefile
