# SPDX-License-Identifier: GPL-2.0
#
# stacklat top-level Makefile.
#
#   make                 module (against KDIR) and tool
#   make check           the VM tests on the kernel matrix (each scenario
#                        on the kernels its "# kernels:" line asks for:
#                        tests/vm/README.md) with style, unit tests, the
#                        build-only pass, fuzz-tool and debcheck beside
#                        them, firstrun-demo and vmtest-mt beside its last
#                        kernels; its 6.1 loads the module
#                        DKMS built
#   make check KERNELS=6.1 BUILD_KERNELS=   (one kernel: every scenario on it)
#   make check-full      make check with every scenario on every kernel
#                        (SL_FULL=1)
#   make buildcheck      W=1 build against BUILD_KERNELS' headers only
#   make dkmscheck       DKMS builds the module, DKMS_KERNEL's guest runs it
#   make firstrun        make demo and a one-kernel make check, fresh clone
#   make firstrun-demo   make demo alone on a fresh clone (in make check)
#   make check-debug     VM tests on a 6.1 built here with KASAN, lockdep,
#                        kmemleak, UBSAN (the first build takes 20-40 min;
#                        DEBUG_SCENARIOS picks the scenarios)
#   make soak            the lifecycle and stress scenarios at their long
#                        loop counts (SL_SOAK=1) on KERNELS: about twice
#                        what make check runs of them
#   make check-kmemleak  the kmemleak verdict catches a leak planted on purpose
#                        (a test of the checker, on the debug kernel)
#   make fuzz            >= 100,000 netlink and >= 20,000 control messages
#                        (FUZZ_KERNELS, default 6.1) and the tool's
#                        libFuzzer harness for FUZZ_TOOL_RUNS inputs
#   make demo            boot 6.1 in QEMU with stacklat, show what it measures
#   make bench           per-event cost of the hooks, armed vs disarmed
#                        (BENCH_BASE=REV: against REV's module, same boot;
#                        BENCH_ROUNDS=N rounds, default 5), and against
#                        bpftrace and ftrace on the same stages; on the
#                        first of KERNELS (KERNELS=6.1 make bench)
#   make profile         guest instructions per function of one bench case
#                        (PROFILE=func|net|storage|block, on BENCH_KERNEL;
#                        BENCH_BASE=REV: REV's module beside it)
#   make install / make dkms-install
#   make deb             Debian packages stacklat-dkms and stacklat in
#                        build/deb/ (debian/, docs/packages.md)
#   make debcheck        make deb, then lintian and the packages' contents
#                        (tests/deb-check.sh; in make check)
#   make check-packages  the packages installed, upgraded and removed in a
#                        guest (PKG_KERNELS, default 6.1; run.sh --packages)
#   make style           checkpatch, sparse, shellcheck and the docs' shape
#                        (tests/docs-check.sh)
#   make sparse          sparse (C=1) over the module
#   make w1              W=1 build of the module

KDIR ?= /lib/modules/$(shell uname -r)/build
# The matrix, two at a time (run.sh's plan spreads the scenarios that need
# one kernel so that both slots end together).  7.3 is third: its build
# needs the gcc-14 chroot, which a fresh clone makes in some 250-300 s,
# while 5.10 and 6.12 (fetched in under 70 s) start as soon as they are
# here; first, 7.3 held its slot that long.  7.3
# boots with preempt=full (its tracepoint probes run preemptible, as
# process context does then), 6.1 loads the module DKMS built from make
# dkms-src (what make dkmscheck checks alone); 6.1 with 1024 possible CPUs
# is vmtest-mt's boot, in CHECK_TAIL
KERNELS ?= 5.10 6.12 7.3+preempt 6.1+dkms 6.1-rt
# header sets only built against (W=1), not booted: an API change in them
# fails make check too.  The RT flavours: 7.3-rt for mainline PREEMPT_RT
# (6.12-rt is the same API a year older: make buildcheck
# BUILD_KERNELS=6.12-rt), 5.10-rt for the out-of-tree patch set before it
# (6.1-rt is booted)
BUILD_KERNELS ?= 7.3-rt 5.10-rt
VERSION := $(shell cat VERSION 2>/dev/null || echo 0.1.0)
PREFIX ?= /usr/local
DESTDIR ?=

.PHONY: all module tool helpers unit vmtest vmtest-mt buildcheck check check-full check-debug \
	check-kmemleak soak fuzz fuzz-tool deps demo bench profile style sparse w1 \
	clean install install-tool dkms-src dkms-install dkmscheck firstrun firstrun-demo help \
	deb debcheck check-packages

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
# TCG (the variant +mt), both vCPUs running handlers truly in parallel,
# on a boot with 1024 possible CPUs (+manycpus: what is sized by the CPU
# count, 19-status-manycpus).  They arm and disarm only while their load
# is stopped: arming under load crashes such a guest even with bpftrace
# alone (../shared VM notes, docs/testing.md).  MT_MEM: the module's per-CPU memory
# follows the possible CPUs (issue 31), and 50-storage-exact's storage
# pipeline alone takes some 120 MiB of it at 1024: it drove a 1 GiB guest
# out of memory.  Logs in tests/vm/out/$(MT_KERNEL)+mt/.
MT_KERNEL ?= 6.1+manycpus
MT_SCENARIOS ?= 10 13 19 50
MT_MEM ?= 2048
vmtest-mt: tool helpers
	VM_MEM=$(MT_MEM) SCENARIOS="$(MT_SCENARIOS)" tests/vm/run.sh $(MT_KERNEL)+mt

# libFuzzer (clang) over the tool's pure parsers, from a fixed seed
FUZZ_TOOL_RUNS ?= 200000
fuzz-tool:
	$(MAKE) -C tests/fuzz run FUZZ_RUNS=$(FUZZ_TOOL_RUNS)

buildcheck:
	$(if $(strip $(BUILD_KERNELS)),tests/vm/run.sh --build $(BUILD_KERNELS))

# the module DKMS builds (make dkms-src, dkms.conf and all), loaded and
# exercised in this kernel's guest
DKMS_KERNEL ?= 6.1
DKMS_SCENARIOS ?= 00 10 16-krp 42 53
dkmscheck: deps tool helpers
	SCENARIOS="$(DKMS_SCENARIOS)" tests/vm/run.sh $(DKMS_KERNEL)+dkms

# the README's two commands on a fresh clone of HEAD in a scratch directory
firstrun: deps
	tests/firstrun.sh

# make demo alone on a fresh clone
firstrun-demo: deps
	FIRSTRUN_CHECK=0 tests/firstrun.sh

# make check's tests besides style, unit and the matrix (the fresh clone's
# own make check, in firstrun, runs none of them).  CHECK_BG, those that
# boot nothing (style and unit with them), run from the start beside the guests at nice 19: they take
# what the guests leave idle (their sleeps, timers and netem delays; on an
# idle host a guest kept its core busy 91 % of a 12/16/72/96 run: the run
# summary's "QEMU busy"), without slowing them, and finish long before the
# matrix does (log: tests/vm/out/check-bg.log).
# CHECK_TAIL runs beside
# the matrix's last kernels, in the first slot the matrix frees once all
# its kernels have started (VM_TAIL; its builds one job at a time, not to
# take the guests' core); CHECK_TAIL_SECS is what it takes in the seconds
# of tests/vm/scenario-costs (firstrun-demo ~160, vmtest-mt ~150,
# check-packages ~170), for run.sh's plan to end both slots together.
# CHECK_EXTRAS run after the matrix.
# firstrun-demo is make demo on a fresh clone (CI is make check on one);
# check-packages the Debian packages installed, upgraded and removed in a
# 6.1 guest (issue 30).
CHECK_BG ?= buildcheck fuzz-tool debcheck
CHECK_TAIL ?= firstrun-demo vmtest-mt check-packages
CHECK_TAIL_SECS ?= 480
CHECK_EXTRAS ?=

# style and unit tests run in the background with CHECK_BG (they boot
# nothing: 190 CPU-seconds of checkpatch, sparse and shellcheck, 100 s on
# two idle cores, that held every guest back until they were done) while
# the kernels are fetched (run.sh --fetch) and the matrix starts; the
# matrix, the tail and the extras all run, and any failure among them
# fails it at the end
check: deps
	@mkdir -p tests/vm/out
	@tests/vm/run.sh --fetch $(KERNELS) > tests/vm/out/fetch-ahead.log 2>&1 & \
	fpid=$$!; \
	rm -f tests/vm/out/*/fails tests/vm/out/*/fails.tail; \
	failed=; \
	( SL_BUILD_JOBS=1 nice -n 19 $(MAKE) -k style unit $(CHECK_BG) \
		> tests/vm/out/check-bg.log 2>&1 ) & \
	bpid=$$!; \
	VM_TAIL="$(if $(strip $(CHECK_TAIL)),SL_BUILD_JOBS=1 $(MAKE) -k $(CHECK_TAIL))" \
	VM_TAIL_SECS=$(CHECK_TAIL_SECS) \
		$(MAKE) vmtest || failed="$$failed vmtest"; \
	wait $$fpid 2>/dev/null; \
	wait $$bpid || failed="$$failed style/unit/$(CHECK_BG)"; \
	cat tests/vm/out/check-bg.log; \
	for t in $(CHECK_EXTRAS); do $(MAKE) $$t || failed="$$failed $$t"; done; \
	if [ -n "$$failed" ]; then \
		echo "check: FAILED:$$failed"; \
		cat tests/vm/out/*/fails.tail 2>/dev/null | sed 's/^/check: output: /'; \
		cat tests/vm/out/*/fails 2>/dev/null | sed 's/^/check: FAILED: /'; \
		exit 1; \
	fi; echo "check: all passed"

# make check with every scenario on every kernel of KERNELS, the variants
# that take only the scenarios naming them aside (run.sh SL_FULL=1)
check-full:
	SL_FULL=1 $(MAKE) check

# The long fuzz run: 18-fuzz with SL_FUZZ=netlink,control,seed
FUZZ_KERNELS ?= 6.1
FUZZ_SEED ?= 1
fuzz: deps tool helpers
	$(MAKE) fuzz-tool FUZZ_TOOL_RUNS=2000000
	SL_FUZZ=100000,20000,$(FUZZ_SEED) SL_SCENARIO_TIMEOUT=2400 \
		SCENARIOS=18 tests/vm/run.sh $(FUZZ_KERNELS)

# make check runs these with short loops to stay inside CI's time; here at
# their long counts (tests/vm/lib.sh sl_count)
SOAK_SCENARIOS ?= 12 14 16-krp 39 57 90
soak: deps tool helpers
	SL_SOAK=1 SCENARIOS="$(SOAK_SCENARIOS)" tests/vm/run.sh $(KERNELS)

check-kmemleak: deps tool helpers
	tests/vm/kmemleak-selftest.sh

# on the debug kernel every scenario is some forty times slower: by
# default those that load, unload and drive each pipeline
DEBUG_SCENARIOS ?= 00 10 11 12 13 14 15 42 47 53 55

check-debug: deps tool helpers
	VM_JOBS=1 SCENARIOS="$(DEBUG_SCENARIOS)" tests/vm/run.sh 6.1-debug

demo: deps tool helpers
	tests/vm/demo.sh

# rounds of each bench case, interleaved in one boot (medians reported)
BENCH_ROUNDS ?= 5
# the kernel make bench boots (the peers' tables in docs/overhead.md are 6.1's and 7.3's)
BENCH_KERNEL ?= 6.1
bench: deps tool helpers
	BENCH_BASE=$(BENCH_BASE) BENCH_ROUNDS=$(BENCH_ROUNDS) tests/vm/run.sh --bench $(BENCH_KERNEL)

PROFILE ?= block
profile: deps tool helpers
	BENCH_BASE=$(BENCH_BASE) PROFILE_LINES="$(PROFILE_LINES)" \
		tests/vm/profile.sh $(PROFILE) $(BENCH_KERNEL)

style:
	tests/style.sh

clean:
	-$(MAKE) -C $(KDIR) M=$(CURDIR) clean 2>/dev/null
	$(MAKE) -C tool clean
	$(MAKE) -C tests/unit clean
	$(MAKE) -C tests/fuzz clean
	$(MAKE) -C tests/vm/helpers clean
	rm -rf build/deb
	-rmdir build 2>/dev/null

install: install-tool
	$(MAKE) -C $(KDIR) M=$(CURDIR) INSTALL_MOD_DIR=extra modules_install
	depmod -a $(shell basename $$(dirname $(KDIR)))

install-tool: tool
	install -D -m 0755 tool/stacklat $(DESTDIR)$(PREFIX)/sbin/stacklat

# the DKMS source tree: what dkms-install registers, and what the DKMS test
# (tests/vm/dkms-build.sh) builds with private dkms trees
DKMS_SRC ?= /usr/src/stacklat-$(VERSION)
dkms-src:
	rm -rf $(DKMS_SRC)
	mkdir -p $(DKMS_SRC)
	cp -r Kbuild Makefile VERSION kmod uapi $(DKMS_SRC)/
	find $(DKMS_SRC) \( -name '*.o' -o -name '.*.cmd' -o -name '*.ko' -o -name '*.mod*' \) -delete
	sed 's/#MODULE_VERSION#/$(VERSION)/' dkms/dkms.conf > $(DKMS_SRC)/dkms.conf

dkms-install: dkms-src
	dkms add -m stacklat -v $(VERSION)
	dkms build -m stacklat -v $(VERSION)
	dkms install -m stacklat -v $(VERSION)
	$(MAKE) install-tool

# the Debian packages, built in a copy of the tree under build/deb
# (debian/build-debs.sh); debcheck adds lintian and a look inside them
deb:
	debian/build-debs.sh

debcheck:
	tests/deb-check.sh

# the packages the way an operator uses them, in a guest: dpkg -i of
# VERSION~prev (DKMS, modprobe, stacklat.service's commands, status), the
# upgrade to VERSION, dpkg -r (tests/vm/pkg-guest.sh; some 4 min).
# SL_PKG_DKMS=guest: DKMS builds in the guest instead of on the host
# (16 min a build under TCG: with SL_SCENARIO_TIMEOUT=2700)
PKG_KERNELS ?= 6.1
check-packages: deps tool helpers
	VM_JOBS=1 tests/vm/run.sh --packages $(PKG_KERNELS)

help:
	@sed -n '3,25p' Makefile
