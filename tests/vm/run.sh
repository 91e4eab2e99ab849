#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# run.sh [--bench|--profile|--demo] KERNEL... (KERNEL: 5.10 6.1 6.1-rt 6.12 7.3 6.1-debug,
#                                     each also as KERNEL+VARIANT: see variants below)
# run.sh --build KERNEL...            (KERNEL: 7.2 7.3-rt 6.12-rt ...)
# run.sh --plan KERNEL...             which scenarios each kernel would run, and
#                                     the estimated seconds (nothing is booted)
# run.sh --check                      every scenario's "# kernels:" line is well formed
# run.sh --fetch KERNEL...            only fetch the kernels (and the build chroot
#                                     they need), one at a time
# run.sh --packages KERNEL            the Debian packages installed, upgraded and
#                                     removed in the guest (make check-packages:
#                                     pkg-prep.sh on the host, pkg-guest.sh there)
#
# --build: only fetch each kernel's headers (fetch-kernel.sh --headers) and
# build the module W=1 against them, for the header sets not booted.
#
# For each kernel: fetch it (cached; 6.1-debug is built from source by
# debug-kernel.sh, with KASAN, lockdep, kmemleak...), build the module against its headers
# with W=1 (any warning fails), make an initramfs (cached), boot it in QEMU
# (TCG) with the host's root shared read-only over 9p, a virtio-net NIC with
# a port forward on 127.0.0.1 and a virtio-blk ext4 scratch disk, run the
# scenarios in the guest and judge the results here.  See README.md.
#
# Which scenarios a kernel runs: each scenario says in a line of its first
# 20, "# kernels: all", "# kernels: any" or "# kernels: K [K...]" (README.md,
# "Which kernels a scenario runs on"); the host picks them (plan below) and
# the guest runs only those.  A kernel left with none is not booted.
#
# Environment:
#   SCENARIOS="00 10-func"  run only the scenarios whose names start so (each
#                           still on the kernels its "# kernels:" line gives)
#   SL_FULL=1               every scenario on every kernel of the run but the
#                           "named" variants (make check-full)
#   BOOT_TIMEOUT=300        s for the guest to reach guest-run.sh
#   VM_TIMEOUT=3600         s for the whole boot (scenarios included)
#   SL_SCENARIO_TIMEOUT=600 s per scenario (enforced in the guest)
#                           (the three timeouts are multiplied by the
#                           kernel's TIMEOUT_SCALE: 4 for 6.1-debug)
#   VM_MEM=1024 VM_CPUS=2   guest size
#   VM_TCG=single           TCG threading: single (default) or multi
#   VM_ICOUNT=              e.g. shift=0: the guest clock counts instructions
#                           (1 ns each), so a bench's ns per op are the guest
#                           instructions it ran, free of the host's noise;
#                           one vCPU unless VM_CPUS says otherwise (QEMU 7.2
#                           hangs bringing up a second CPU under -icount)
#                           (multi-threaded TCG runs the guest's vCPUs in
#                           parallel but does not keep up with the kernel
#                           patching code other vCPUs run: kprobe arming
#                           under load then livelocks or jumps to 0)
#   VM_PLUGIN=FILE,ARGS     a QEMU TCG plugin (make profile: tests/vm/prof)
#   VM_JOBS=2               kernels booted side by side
#   VM_APPEND=ARGS          more kernel command line
#   SL_BUILD_JOBS=N         make -j of the module builds (default: cores)
#   VM_TAIL=CMD             run CMD (bash -c, from the repository) in the
#                           first slot the matrix no longer needs, beside
#                           its last kernels; its exit status is a verdict
#                           (make check: CHECK_TAIL)
#   VM_TAIL_SECS=S          what CMD is expected to take, for the balance of
#                           the "any" scenarios (make check: CHECK_TAIL_SECS)
#   SL_FUZZ=NL,CTL,SEED     messages of 18-fuzz (default 2000,1000,1)
#   SL_SOAK=1               the loops of the lifecycle and stress scenarios
#                           at their long counts (make soak; lib.sh soak)
#   SL_BUILD_DEBUG=1        build the module with debug information (the
#                           default leaves it out: -g0, no BTF)
#   SL_KCFLAGS=...          extra compiler flags of the module (tests of
#                           the harness only: -DSL_PLANT_LEAK)
#   SL_QEMU=qemu-system-x86_64
# Logs: tests/vm/out/KERNEL/{fetch,build,console,results,dmesg,bad}.log
# Ends with one line "N passed, N failed"; exits non-zero on any failure.
set -euo pipefail
# bash reads a script as it runs it: everything is in one block, parsed
# before anything runs, so editing this file during a run cannot hurt it.
{
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
mode="test"
case ${1:-} in
--bench) mode=bench; shift ;;
--profile) mode=profile; shift ;;
--demo) mode=demo; shift ;;
--build) mode=build; shift ;;
--plan) mode=plan; shift ;;
--check) mode=check; shift ;;
--fetch) mode=fetch; shift ;;
--packages) mode=packages; shift ;;
-h|--help) sed -n '3,/^set -euo/p' "$0" | sed '$d'; exit 0 ;;
esac
# the Makefile's KERNELS
[ $# -gt 0 ] || set -- 5.10 6.12 7.3+preempt 6.1+dkms 6.1-rt
[ "$mode" != demo ] || set -- "$1"

# Boot variants: KERNEL+VARIANT is KERNEL's image and headers booted
# another way (variants add up: 6.1+dkms+preempt).  "matrix": it takes the
# scenarios declared all and any as a plain kernel does; "named": only
# those whose "# kernels:" line names it (so it costs nothing while none
# does), or everything when the run has no other kind of kernel
# (SCENARIOS=00 run.sh 6.1+manycpus).  BOOT's first word, when it has an
# "=", is added to the kernel command line (guest-run.sh checks that it
# took: the result "boot-variant").
#   VARIANT   SCENARIOS  BOOT
variants='
dkms        matrix     the module DKMS builds from make dkms-src (the 6.1 of make check; make dkmscheck)
mt          named      multi-threaded TCG, the vCPUs in parallel (make vmtest-mt)
preempt     matrix     preempt=full: process context preemptible (PREEMPT_DYNAMIC)
manycpus    named      possible_cpus=1024: nr_cpu_ids 1024 with 2 vCPUs
'
declare -A vnamed=() vappend=()
while read -r v sc b _; do
	[ -n "$v" ] || continue
	vnamed[$v]=0
	[ "$sc" != named ] || vnamed[$v]=1
	vappend[$v]=
	case $b in *=*) vappend[$v]=${b%:} ;; esac
done <<<"$variants"
kbase() { echo "${1%%+*}"; }
has_variant() { [[ "$1+" == *"+$2+"* ]]; }
# kvalid NAME: a kernel name run.sh takes (series, flavour, known variants)
kvalid() {
	local v rest
	[[ $1 =~ ^[0-9]+\.[0-9]+(-[a-z]+)?(\+[a-z]+)*$ ]] || return 1
	rest=${1#"${1%%+*}"}
	for v in ${rest//+/ }; do
		[ -n "${vnamed[$v]:-}" ] || return 1
	done
}
# knamed K: K has a "named" variant
knamed() {
	local v rest=${1#"${1%%+*}"}
	for v in ${rest//+/ }; do
		[ "${vnamed[$v]:-0}" = 0 ] || return 0
	done
	return 1
}
# kappend K: the command line K's variants add
kappend() {
	local v rest=${1#"${1%%+*}"}
	for v in ${rest//+/ }; do
		[ -z "${vappend[$v]:-}" ] || printf ' %s' "${vappend[$v]}"
	done
}

# Each guest runs single-threaded TCG (one host core), so VM_JOBS kernels
# run side by side (default: the host's cores, at most 2).
jobs=${VM_JOBS:-$(($(nproc) < 2 ? 1 : 2))}

# What the plan weighs: the seconds each scenario took on 6.1 in a full
# make check (scenario-costs; one not there counts as cost_default), times
# the kernel's factor in tenths - the guest time of the scenarios it shares
# with 6.1 against 6.1's, in the same check on a fresh clone of 88c7b32
# (7.3 749 s against 634, 5.10 931, 6.12 611; 6.1-rt 429 against 371) -
# plus what a kernel takes before its first scenario and after its last
# (the module build, the boot: boot_cost s; 100-110 s there).
cost_default=60
boot_cost=110
# of it, the module's build, which the kernels after the first VM_JOBS
# have made ahead (build_ahead) by the time their slot frees
build_cost=60
kfactor() {
	case ${1%%+*} in
	5.10) kf=15 ;;
	6.1-rt) kf=12 ;;
	6.12) kf=10 ;;
	7.3) kf=12 ;;
	*) kf=10 ;;
	esac
}
declare -A costs=()
if [ -f "$here/scenario-costs" ]; then
	while read -r name secs _; do
		case $name in ''|'#'*) continue ;; esac
		costs[$name]=$secs
	done < "$here/scenario-costs"
fi

# declared FILE: the scenario's "# kernels:" line, checked: sets decl to
# all, any or the kernel names; or to what is wrong with it, and fails
declared() {
	local l lines=() n=0 k
	mapfile -t -n 20 lines < "$1"
	for l in "${lines[@]}"; do
		shopt -s nocasematch
		if [[ $l =~ ^#[[:space:]]*kernels?[[:space:]]*: ]]; then
			n=$((n + 1))
			decl=$l
		fi
		shopt -u nocasematch
	done
	if [ $n = 0 ]; then
		decl="no '# kernels: all|any|K [K...]' line in its first 20 lines"
		return 1
	elif [ $n != 1 ]; then
		decl="$n '# kernels:' lines, one wanted"
		return 1
	fi
	if ! [[ $decl =~ ^"# kernels: "([^ ]+( [^ ]+)*)$ ]]; then
		decl="malformed: '$decl' (wanted exactly '# kernels: all', '# kernels: any' or '# kernels: K [K...]')"
		return 1
	fi
	l=${BASH_REMATCH[1]}
	decl=$l
	case $l in all|any) return 0 ;; esac
	for k in $l; do
		case $k in
		all|any)
			decl="'$k' among kernel names: '# kernels: $l'"
			return 1
			;;
		esac
		if ! kvalid "$k"; then
			decl="'$k' is not a kernel run.sh takes (SERIES[-FLAVOUR][+VARIANT], variants:${!vnamed[*]})"
			return 1
		fi
	done
}

# kmatches K NAME: kernel K of the run is the NAME a declaration gives: the
# same name, or NAME without a variant and K a matrix variant of it (a
# scenario for "7.3" runs on the matrix's 7.3+preempt)
kmatches() {
	[ "$1" = "$2" ] && return 0
	[ "$2" = "${2%%+*}" ] && [ "${1%%+*}" = "$2" ] && ! knamed "$1"
}

# plan KERNEL...: which scenarios each kernel runs (plan_list[K]) and its
# estimated seconds (plan_secs[K]).
#  - all: every matrix kernel of the run (a kernel without a "named"
#    variant; if the run has none, every kernel);
#  - K [K...]: the kernels of the run it names (kmatches); if none is in
#    the run, as any;
#  - any: one matrix kernel, chosen so that the run ends first: longest
#    first, each onto the kernel after which the estimated end of the
#    whole run (kernels started in order on VM_JOBS slots, then VM_TAIL:
#    plan_end) is earliest, on a tie the kernel with the least to do, then
#    the first;
#  - SL_FULL=1: each also on every matrix kernel.
# SCENARIOS keeps only the scenarios whose names start so.  A malformed
# declaration goes to plan_errors.
declare -A plan_list=() plan_secs=() plan_kf=() plan_boot=()
plan_errors=()
plan_kernels=()
plan_nsel=0
plan() {
	local k f name w ok best bend bsecs s hits kf anys=() matrix=() i=0
	plan_kernels=("$@")
	for k; do
		plan_list[$k]=
		plan_secs[$k]=0
		# the kernels after the first VM_JOBS boot a module built ahead
		i=$((i + 1))
		plan_boot[$k]=$boot_cost
		[ $i -le "$jobs" ] || plan_boot[$k]=$((boot_cost - build_cost))
		kfactor "$k"
		plan_kf[$k]=$kf
		knamed "$k" || matrix+=("$k")
	done
	[ ${#matrix[@]} -gt 0 ] || matrix=("$@")
	for f in "$here"/scenarios/*.sh; do
		[ -f "$f" ] || continue
		name=${f##*/}
		name=${name%.sh}
		if [ -n "${SCENARIOS:-}" ]; then
			ok=0
			for w in $SCENARIOS; do
				case $name in "$w"*) ok=1 ;; esac
			done
			[ $ok = 1 ] || continue
		fi
		plan_nsel=$((plan_nsel + 1))
		if ! declared "$f"; then
			plan_errors+=("$name: $decl")
			continue
		fi
		hits=" "
		case $decl in
		all) hits=" ${matrix[*]} " ;;
		any) ;;
		*)
			for k; do
				for w in $decl; do
					! kmatches "$k" "$w" || hits+="$k "
				done
			done
			;;
		esac
		if [ "${SL_FULL:-0}" = 1 ]; then
			hits+="${matrix[*]} "
		fi
		if [ "$hits" = " " ]; then
			anys+=("${costs[$name]:-$cost_default} $name")
			continue
		fi
		for k; do
			[[ $hits != *" $k "* ]] || plan_add "$k" "$name"
		done
	done
	[ ${#anys[@]} -gt 0 ] || return 0
	while read -r _ name; do
		best=
		for k in "${matrix[@]}"; do
			plan_add "$k" "$name"
			plan_end
			s=${plan_secs[$k]}
			plan_del "$k" "$name"
			if [ -z "$best" ] || [ "$end" -lt "$bend" ] ||
			   { [ "$end" = "$bend" ] && [ "$s" -lt "$bsecs" ]; }; then
				best=$k bend=$end bsecs=$s
			fi
		done
		plan_add "$best" "$name"
	done < <(printf '%s\n' "${anys[@]}" | sort -k1,1nr -k2,2)
}
# what NAME adds to kernel K's seconds (and the boot, with its first)
plan_add() { # K NAME
	local c=${costs[$2]:-$cost_default}
	[ -n "${plan_list[$1]}" ] || c=$((c + plan_boot[$1]))
	plan_list[$1]+="$2 "
	plan_secs[$1]=$((plan_secs[$1] + c * plan_kf[$1] / 10))
}
plan_del() { # K NAME: undo the last plan_add K NAME
	local c=${costs[$2]:-$cost_default}
	plan_list[$1]=${plan_list[$1]%"$2 "}
	[ -n "${plan_list[$1]}" ] || c=$((c + plan_boot[$1]))
	plan_secs[$1]=$((plan_secs[$1] - c * plan_kf[$1] / 10))
}
# plan_end: sets end, when the last kernel (and VM_TAIL) would end, in s:
# each kernel with something to run starts in order in the first free of
# VM_JOBS slots, VM_TAIL in the first one free after that (as the run
# goes, below)
plan_end() {
	local slot=() i m k s
	end=0
	for ((i = 0; i < jobs; i++)); do slot[i]=0; done
	for k in "${plan_kernels[@]}" +tail; do
		if [ "$k" = +tail ]; then
			[ -n "${VM_TAIL:-}" ] || continue
			s=${VM_TAIL_SECS:-0}
		else
			[ -n "${plan_list[$k]}" ] || continue
			s=${plan_secs[$k]}
		fi
		m=0
		for ((i = 1; i < jobs; i++)); do
			[ "${slot[i]}" -ge "${slot[m]}" ] || m=$i
		done
		slot[m]=$((slot[m] + s))
		[ "${slot[m]}" -le "$end" ] || end=${slot[m]}
	done
}

cache=$here/.cache
# this run, for what it leaves in the cache for itself (build_ahead)
run_id=$$.$(date +%s%N)
# a fresh clone has no cache yet: the host tools' logs go there first
mkdir -p "$cache"
boot_timeout=${BOOT_TIMEOUT:-300}
# a guard against a hung guest, not a budget: 5.10's 44 scenarios (kprobes,
# slow to arm under emulation) took 2077 s beside another guest
vm_timeout=${VM_TIMEOUT:-3600}
qemu=${SL_QEMU:-qemu-system-x86_64}
passed=0
failed=0
skipped=0
summary=()
fails=()

# What the kernel log must never contain.
bad_re='Oops|WARNING:|BUG:|Call Trace|lockdep|possible recursive locking|KASAN|UBSAN|kernel BUG|general protection|INFO: task|stack-protector|Kernel panic|kmemleak|RCU stall|rcu_sched self-detected|soft lockup|hard LOCKUP|refcount_t:|list_add corruption|list_del corruption'
# except what a debug kernel says of its checkers at boot, and kmemleak's
# news: the leaks it finds are judged by guest-run.sh (verdict "kmemleak")
ok_re='rcu:[[:space:]]+RCU lockdep checking is enabled|kmemleak: (Kernel memory leak detector initialized|Automatic memory scanning thread (started|ended)|[0-9]+ new suspected memory leaks)'

record() { # record KERNEL NAME VERDICT MSG
	summary+=("$(printf '%-12s %-28s %s %s' "$1" "$2" "$3" "$4")")
	case $3 in
	PASS) passed=$((passed + 1)) ;;
	SKIP) skipped=$((skipped + 1)) ;;
	*) failed=$((failed + 1)); fails+=("$1 $2: $3 ${4:0:300}") ;;
	esac
	echo "[$1] $2: $3 $4"
}

note() { # harness steps that went well: shown, not counted
	summary+=("$(printf '%-12s %-28s %s' "$1" "$2" "$3")")
	echo "[$1] $2: $3"
}

collect() { # collect KERNEL RESULTS_LOG: record the verdicts not yet recorded
	local k=$1 f=$2 i=0 name verdict msg
	[ -f "$f" ] || return 0
	while read -r _ name verdict msg; do
		i=$((i + 1))
		[ "$i" -gt "$nres" ] || continue
		record "$k" "$name" "$verdict" "$msg"
		nres=$i
	done < <(complete_lines "$f" | grep -a '^STACKLAT-RESULT ' || true)
}

complete_lines() { # a line still being written by the guest is not read yet
	if [ -n "$(tail -c1 "$1")" ]; then head -n -1 "$1"; else cat "$1"; fi
}

get_kernel() { # get_kernel KERNEL: fetch a Debian kernel, or build a debug one
	local b
	b=$(kbase "$1")
	mkdir -p "$cache/locks"
	# one at a time per kernel (fetch-kernel.sh locks on its own): run.sh
	# and make check fetch ahead while the kernels that start wait here
	# for theirs
	case $b in
	*-debug) flock "$cache/locks/build-$b" "$here/debug-kernel.sh" "$b" ;;
	*) "$here/fetch-kernel.sh" "$b" ;;
	esac
}

free_port() {
	python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

# The modules /init loads, in order: what reaches the host root over 9p
# (virtio_pci, 9pnet_virtio, 9p with netfs/fscache where the kernel has
# them), the NIC, the disk and ext4.
initrd_modules="virtio_pci virtio_net virtio_blk 9pnet_virtio 9p ext4"

make_initrd() { # make_initrd KERNEL -> path of the cached initramfs
	local k ird stamp m f b
	k=$(kbase "$1")
	ird=$cache/initrd/$k
	# shellcheck disable=SC1090
	. "$cache/k/$k/env"
	stamp="$KVER $initrd_modules $(sha256sum "$here/init.sh" /bin/busybox | cut -c1-16 | tr '\n' ' ')"
	if [ -s "$ird.gz" ] && [ "$(cat "$ird.stamp" 2>/dev/null)" = "$stamp" ]; then
		echo "$ird.gz"
		return
	fi
	rm -rf "$ird" "$ird.gz" "$ird.stamp"
	mkdir -p "$ird"/{bin,dev,proc,sys,mnt,modules,tmp}
	cp /bin/busybox "$ird/bin/busybox"
	ln -s busybox "$ird/bin/sh"
	cp "$here/init.sh" "$ird/init"
	chmod +x "$ird/init"
	: > "$ird/modules.order"
	for m in $initrd_modules; do
		modprobe --show-depends -d "$MODROOT" -S "$KVER" "$m" 2>/dev/null |
			awk '$1 == "insmod" { print $2 }' |
			while read -r f; do
				b=$(basename "$f")
				b=${b%.xz}
				b=${b%.zst}
				grep -qx "$b" "$ird/modules.order" && continue
				case $f in
				*.xz) xz -dc "$f" > "$ird/modules/$b" ;;
				*.zst) zstd -qdc "$f" > "$ird/modules/$b" ;;
				*) cp "$f" "$ird/modules/$b" ;;
				esac
				echo "$b" >> "$ird/modules.order"
			done
	done
	grep -q '^9p.ko$' "$ird/modules.order" || { echo "make_initrd: no 9p module in $MODROOT" >&2; return 1; }
	(cd "$ird" && find . | cpio -o -H newc --quiet | gzip -1) > "$ird.gz.tmp"
	mv "$ird.gz.tmp" "$ird.gz"
	echo "$stamp" > "$ird.stamp"
	echo "$ird.gz"
}

# choose_cc LOG: the compiler for the headers at $KDIR (their env sourced):
# sets cc (make's CC=...) and run (the chroot to build in, or nothing);
# makes the chroot the first time
choose_cc() {
	local log=$1 need have text
	cc=()
	run=()
	# The compiler: the one the headers name (CONFIG_GCC_VERSION) if the
	# host has it; else the host's gcc when it is newer (5.10 names gcc-10,
	# which bookworm lacks: gcc-12 builds a module that loads and runs);
	# else a chroot of the Debian suite that has it (toolchain.sh: 7.x
	# passes flags gcc-12 rejects, and its kbuild tools need a newer libc).
	# The exact compiler (a kernel built here, 6.1-debug, names plain "gcc":
	# kbuild warns when the name differs) comes first.
	need=$(sed -n 's/^CONFIG_GCC_VERSION=\([0-9]*\)[0-9]\{4\}$/\1/p' "$KDIR/include/config/auto.conf" 2>/dev/null)
	have=$(gcc -dumpversion | cut -d. -f1)
	text=$(sed -n 's/^CONFIG_CC_VERSION_TEXT="\{0,1\}\([^"]*\)"\{0,1\}$/\1/p' "$KDIR/include/config/auto.conf" 2>/dev/null)
	if [ -n "$text" ] && command -v "${text%% *}" > /dev/null &&
	   [ "$("${text%% *}" --version | head -n1)" = "$text" ]; then
		cc=(CC="${text%% *}")
	elif [ -z "$need" ] || command -v "gcc-$need" > /dev/null; then
		[ -z "$need" ] || cc=(CC="gcc-$need")
	elif [ "$have" -gt "$need" ]; then
		cc=(CC="gcc-$have")
	else
		cc=(CC="gcc-$need")
		run=("$here/toolchain.sh" "gcc-$need" --)
		if ! "$here/toolchain.sh" "gcc-$need" > "$log" 2>&1; then
			echo "toolchain.sh gcc-$need failed" >> "$log"
			return 1
		fi
	fi
}

build_module() { # build_module KERNEL LOG [REV]: the working copy, or REV
	local k=$1 log=$2 b=$cache/build/$1 cc=() run=()
	[ -z "${3:-}" ] || b=$cache/build/$1-base
	# shellcheck disable=SC1090
	. "$cache/k/$(kbase "$k")/env"
	rm -rf "$b"
	mkdir -p "$b"
	if [ -n "${3:-}" ]; then
		git -C "$repo" archive "$3" Kbuild Makefile VERSION kmod uapi | tar -x -C "$b" || return 1
	else
		cp -r "$repo/Kbuild" "$repo/Makefile" "$repo/VERSION" "$repo/kmod" "$repo/uapi" "$b/"
	fi
	# objects of an in-tree build of the working copy must not leak in
	find "$b" \( -name '*.o' -o -name '.*.cmd' -o -name '*.ko' -o -name '*.mod*' \) -delete
	choose_cc "$log" || return 1
	# Without debug information (-g0; and no BTF, which pahole makes from
	# it): GCC's code is the same with or without -g, and the build takes
	# a third less (6.12: 37 CPU-seconds against 55, an 0.9 MB .ko against
	# 18.8 MB), which make check's ten builds took from the guests beside
	# them.  make profile keeps it (addr2line: SL_BUILD_DEBUG=1).
	# SL_KCFLAGS: test builds only (make check-kmemleak plants a leak)
	if [ "${SL_BUILD_DEBUG:-0}" = 1 ]; then
		[ -z "${SL_KCFLAGS:-}" ] || cc+=("KCFLAGS=$SL_KCFLAGS")
	else
		cc+=("KCFLAGS=-g0${SL_KCFLAGS:+ $SL_KCFLAGS}" CONFIG_DEBUG_INFO_BTF_MODULES=)
	fi
	echo "${run[*]} make -j${SL_BUILD_JOBS:-$(nproc)} -C $KDIR M=$b W=1 ${cc[*]} modules" > "$log"
	"${run[@]}" make -j"${SL_BUILD_JOBS:-$(nproc)}" -C "$KDIR" M="$b" W=1 "${cc[@]}" modules >> "$log" 2>&1 || return 1
	[ -s "$b/stacklat.ko" ] || return 1
	# compiler and modpost (WARNING: modpost: ...) warnings alike
	! grep -qiE "warning:|error:" "$log"
}

# make_module KERNEL LOG: the module KERNEL boots, in $cache/build/KERNEL:
# DKMS's for KERNEL+dkms (dkms-build.sh), else build_module's
make_module() {
	local k=$1 log=$2
	if has_variant "$k" dkms; then
		mkdir -p "$cache/build/$k"
		"$here/dkms-build.sh" "$(kbase "$k")" "$cache/build/$k/stacklat.ko" > "$log" 2>&1
	else
		build_module "$k" "$log"
	fi
}

# renice_tree PID: PID and all below it back to nice 0 (what they start
# from then on inherits it); quiet when PID is gone or it may not
renice_tree() {
	local c
	[ -n "${1:-}" ] || return 0
	renice -n 0 -p "$1" > /dev/null 2>&1 || true
	for c in $(pgrep -P "$1" 2>/dev/null); do
		renice_tree "$c"
	done
}

# build_ahead KERNEL: make_module while the first kernels run (one make
# job, beside their guests), leaving its log and "RUN_ID / STATUS SECS" in
# $cache/build/KERNEL.ahead for run_kernel, which waits on the same lock
# and takes it only from this run.  A slot that frees then boots at once
# instead of building for a minute or more first (the builds of the last
# kernels were on the critical path).
build_ahead() {
	local k=$1 t0=$SECONDS rc=0 fd
	exec {fd}> "$cache/locks/build-$k"
	flock "$fd"
	# its guest started first (and may be loading that module): leave it
	if [ "$(cat "$cache/build/$k.started" 2>/dev/null)" = "$run_id" ]; then
		exec {fd}>&-
		return
	fi
	rm -f "$cache/build/$k.ahead"
	echo "$BASHPID" > "$cache/build/$k.ahead.pid"
	SL_BUILD_JOBS=1 make_module "$k" "$cache/build/$k.ahead.log" || rc=$?
	rm -f "$cache/build/$k.ahead.pid"
	printf '%s\n%s %s\n' "$run_id" "$rc" $((SECONDS - t0)) > "$cache/build/$k.ahead"
	exec {fd}>&-
}

# Host programs the guest runs over 9p: the tool and the test helpers.
build_host_tools() {
	local d
	for d in tool tests/vm/helpers; do
		[ -f "$repo/$d/Makefile" ] || continue
		if ! make -s -C "$repo/$d" > "$cache/host-$(basename "$d").log" 2>&1; then
			record host "make -C $d" FAIL "see $cache/host-$(basename "$d").log"
		fi
	done
}

qpid=
peer=
# shellcheck disable=SC2317  # (called from the traps)
cleanup() {
	[ -z "$qpid" ] || kill "$qpid" 2>/dev/null || true
	[ -z "$peer" ] || kill "$peer" 2>/dev/null || true
}
trap 'cleanup; exit 130' INT TERM
trap cleanup EXIT

run_kernel() {
	local k=$1 out=$repo/tests/vm/out/$1 ird port gport sel tcg t0 secs rc=0 why=
	mkdir -p "$out" "$cache/locks"
	# two run.sh on the same kernel would clobber each other's build and logs
	exec {lockfd}> "$cache/locks/$k"
	if ! flock -n "$lockfd"; then
		echo "[$k] waiting for another run.sh on $k to finish"
		flock "$lockfd"
	fi
	rm -f "$out"/*.log "$out/disk.img"
	if ! get_kernel "$k" > "$out/fetch.log" 2>&1; then
		record "$k" fetch FAIL "see $out/fetch.log"
		exec {lockfd}>&-
		return
	fi
	TIMEOUT_SCALE=1
	# shellcheck disable=SC1090
	. "$cache/k/$(kbase "$k")/env"
	# a slow kernel (the debug one) says by how much to scale the timeouts
	local boot_timeout=$((boot_timeout * TIMEOUT_SCALE)) vm_timeout=$((vm_timeout * TIMEOUT_SCALE))
	local stimeout=$((${SL_SCENARIO_TIMEOUT:-600} * TIMEOUT_SCALE))
	t0=$SECONDS
	# the module: built ahead by this run (build_ahead, below) or now
	local bsecs brc=0 ahead=
	exec {blockfd}> "$cache/locks/build-$k"
	if ! flock -n "$blockfd"; then
		# built ahead still, niced: a slot waits for it now
		renice_tree "$(cat "$cache/build/$k.ahead.pid" 2>/dev/null)"
		flock "$blockfd"
	fi
	if [ -f "$cache/build/$k.ahead" ] &&
	   [ "$(sed -n 1p "$cache/build/$k.ahead")" = "$run_id" ]; then
		read -r brc bsecs < <(sed -n 2p "$cache/build/$k.ahead")
		cp "$cache/build/$k.ahead.log" "$out/build.log"
		ahead="built ahead, "
	else
		make_module "$k" "$out/build.log" || brc=$?
		bsecs=$((SECONDS - t0))
	fi
	rm -f "$cache/build/$k.ahead" "$cache/build/$k.ahead.log"
	mkdir -p "$cache/build"
	echo "$run_id" > "$cache/build/$k.started"
	exec {blockfd}>&-
	if has_variant "$k" dkms; then
		# KERNEL+dkms: the module DKMS builds from a dkms-src tree,
		# as make dkms-install would, is the one the guest loads
		if [ "$brc" != 0 ]; then
			record "$k" dkms-build FAIL "see $out/build.log"
			tail -n 5 "$out/build.log" | sed "s/^/[$k]   /" || true
			exec {lockfd}>&-
			return
		fi
		record "$k" dkms-build PASS "$(tail -n 1 "$out/build.log") (${ahead}${bsecs}s)"
	elif [ "$brc" != 0 ]; then
		record "$k" build FAIL "module build failed or warned: see $out/build.log"
		grep -iE "warning:|error:" "$out/build.log" | head -n 5 | sed "s/^/[$k]   /" || true
		exec {lockfd}>&-
		return
	else
		note "$k" build "W=1 warning-free against $KVER (${ahead}${bsecs}s)"
	fi
	# make bench BENCH_BASE=REV: the engine of REV, measured in the same boot
	rm -rf "$cache/build/$k-base"
	if [ "$mode" = bench ] || [ "$mode" = profile ] && [ -n "${BENCH_BASE:-}" ]; then
		if build_module "$k" "$out/build-base.log" "$BENCH_BASE"; then
			note "$k" build "baseline $BENCH_BASE built"
		else
			record "$k" build-base FAIL "baseline $BENCH_BASE: see $out/build-base.log"
		fi
	fi
	# run.sh --packages: the packages and DKMS's builds of them (pkg-prep.sh)
	if [ "$mode" = packages ]; then
		t0=$SECONDS
		if ! "$here/pkg-prep.sh" "$(kbase "$k")" > "$out/pkg-prep.log" 2>&1; then
			record "$k" pkg-prep FAIL "see $out/pkg-prep.log"
			tail -n 5 "$out/pkg-prep.log" | sed "s/^/[$k]   /" || true
			exec {lockfd}>&-
			return
		fi
		note "$k" pkg-prep "$(tail -n 1 "$out/pkg-prep.log") ($((SECONDS - t0))s)"
		sed -n 's/^pkg-prep: \(.*: [0-9]* s\)$/\1/p' "$out/pkg-prep.log" | sed "s/^/[$k]   /"
	fi
	if ! ird=$(make_initrd "$k"); then
		record "$k" initramfs FAIL "could not make the initramfs"
		exec {lockfd}>&-
		return
	fi
	if [ ! -s "$cache/disk.img" ]; then
		truncate -s 64M "$cache/disk.img.tmp"
		mkfs.ext4 -q -F -L sl-scratch "$cache/disk.img.tmp"
		mv "$cache/disk.img.tmp" "$cache/disk.img"
	fi
	cp --sparse=always "$cache/disk.img" "$out/disk.img"
	port=$(free_port)
	gport=7777
	# the scenarios: the plan's, by name, in a file the guest reads (the
	# command line is too short for them); benches and demo by SCENARIOS
	sel=
	if [ "$mode" = test ]; then
		printf '%s\n' ${plan_list[$k]} > "$out/selected"
		sel=$(printf 'sl.select=%s' "$out/selected")
	elif [ -n "${SCENARIOS:-}" ]; then
		sel="sl.scenarios=$(echo "$SCENARIOS" | tr ' ' ',')"
	fi
	tcg=${VM_TCG:-single}
	! has_variant "$k" mt || tcg=multi
	"$here/host-peer.py" "$port" "$vm_timeout" &
	peer=$!
	t0=$SECONDS
	: > "$out/results.log"
	vm_cpus=${VM_CPUS:-2}
	if [ -n "${VM_ICOUNT:-}" ]; then
		vm_cpus=${VM_CPUS:-1}
	fi
	# norandmaps: the guest's user space at the same addresses in every
	# process.  QEMU 7.2's TCG finds a translated block by its virtual
	# address too, so with ASLR each exec translated its program and
	# libraries again (1.4 M blocks, 774 MB of host code in a minute of
	# execs, measured with the monitor's "info jit"; flat without):
	# an exec of /bin/true 55 -> 20 ms, a 6.12 run of every scenario
	# 1,010 -> 735 s.  The module is not affected: KASLR stays on.
	timeout -k 5 "$vm_timeout" "$qemu" -accel "tcg,thread=$tcg" -cpu max \
		${VM_ICOUNT:+-icount "$VM_ICOUNT"} ${VM_PLUGIN:+-plugin "$VM_PLUGIN"} \
		-m "${VM_MEM:-1024}" -smp "$vm_cpus" -nographic -no-reboot \
		-kernel "$VMLINUZ" -initrd "$ird" \
		-append "console=ttyS0 loglevel=5 norandmaps panic=-1 panic_on_warn=1 oops=panic sl.repo=$repo sl.kernel=$k sl.mode=$mode sl.port=$port sl.gport=$gport sl.stimeout=$stimeout${sel:+ $sel} sl.fuzz=${SL_FUZZ:-2000,1000,1}${BENCH_ROUNDS:+ sl.brounds=$BENCH_ROUNDS}${SL_PROF:+ sl.prof=$SL_PROF}${SL_SOAK:+ sl.soak=$SL_SOAK}$(kappend "$k")${VM_APPEND:+ $VM_APPEND}" \
		-virtfs local,path=/,mount_tag=hostroot,security_model=none,readonly=on,multidevs=remap \
		-netdev "user,id=n0,hostfwd=tcp:127.0.0.1:$port-:$gport" -device virtio-net-pci,netdev=n0 \
		-drive "file=$out/disk.img,if=virtio,format=raw" \
		-serial mon:stdio -serial "file:$out/results.log" \
		< /dev/null > "$out/console.log" 2>&1 &
	qpid=$!
	# boot watchdog: the guest must reach guest-run.sh in BOOT_TIMEOUT s;
	# meanwhile verdicts are shown as they come
	nres=0
	# and the CPU time QEMU used (utime + stime of timeout's child, in
	# clock ticks, the last reading before it ends): the time note says
	# how busy the guest kept its host core, i.e. how much of the slot
	# went to sleeps and waits in the scenarios
	qcpu=0
	while kill -0 "$qpid" 2>/dev/null; do
		collect "$k" "$out/results.log"
		qc=$(pgrep -P "$qpid" | head -n1) || true
		[ -z "$qc" ] || qcpu=$(awk '{ print $14 + $15 }' "/proc/$qc/stat" 2>/dev/null || echo "$qcpu")
		if [ $((SECONDS - t0)) -ge "$boot_timeout" ] &&
			! grep -aq '^STACKLAT-GUEST-UP' "$out/results.log"; then
			why="the guest did not come up in ${boot_timeout}s"
			kill "$qpid" 2>/dev/null || true
			break
		fi
		sleep 1
	done
	wait "$qpid" || rc=$?
	qpid=
	kill "$peer" 2>/dev/null || true
	wait "$peer" 2>/dev/null || true
	peer=
	rm -f "$out/disk.img"
	secs=$((SECONDS - t0))
	[ "$rc" != 124 ] || why="VM timed out after ${vm_timeout}s"
	[ -z "$why" ] || record "$k" boot FAIL "$why: see $out/console.log"
	if grep -a '^STACKLAT-GUEST-ERROR' "$out/results.log" "$out/console.log" > /dev/null 2>&1; then
		record "$k" guest FAIL "$(grep -ah '^STACKLAT-GUEST-ERROR' "$out/results.log" "$out/console.log" | head -n1)"
	fi

	collect "$k" "$out/results.log"
	local n=$nres
	grep -a '^STACKLAT-BENCH ' "$out/results.log" | sed "s/^/[$k] /" || true
	# the peer benches' comparison table (tests/vm/bench/4*-peers-*.sh)
	[ "$mode" != bench ] || "$here/bench-table.sh" "$out/results.log" || true
	[ "$mode" != packages ] || sed -n "s/^\[pkg-guest\] \(pkg: \)/[$k] \1/p" "$out/results.log"
	if [ "$mode" = demo ]; then
		echo
		sed -n 's/^\[demo-guest\] //p' "$out/results.log"
		echo
	fi
	if [ $n = 0 ] && { [ "$mode" = test ] || [ "$mode" = packages ]; }; then
		record "$k" scenarios FAIL "no scenario result: see $out/console.log and $out/results.log"
	fi
	if ! grep -aq '^STACKLAT-ALL-DONE' "$out/results.log"; then
		record "$k" guest FAIL "the guest did not finish (no STACKLAT-ALL-DONE): see $out/console.log"
	fi
	# the kernel log: the serial console and the guest's dmesg at the end
	sed -n '/^STACKLAT-DMESG-BEGIN/,/^STACKLAT-DMESG-END/p' "$out/results.log" > "$out/dmesg.log"
	if grep -aE "$bad_re" "$out/console.log" "$out/dmesg.log" | grep -avE "$ok_re" > "$out/bad.log"; then
		record "$k" kernel-log FAIL "$(head -n1 "$out/bad.log" | cut -c1-140) (all in $out/bad.log)"
	else
		note "$k" kernel-log "clean (no Oops/WARNING/BUG/lockdep/KASAN/UBSAN/hung task)"
	fi
	note "$k" time "boot + ${mode} ${secs}s, QEMU busy $((qcpu / $(getconf CLK_TCK)))s; $(grep -a '^STACKLAT-TIME ' "$out/results.log" | awk '{ printf "%s%s %s", sep, $2, $3; sep = ", " }')"
	exec {lockfd}>&-
}

# One kernel in a subshell: its verdicts go to out/KERNEL/{summary,counts}
# for the parent to add up.
run_kernel_bg() {
	local k=$1 out=$repo/tests/vm/out/$1
	summary=()
	fails=()
	passed=0
	failed=0
	skipped=0
	trap 'cleanup; exit 130' INT TERM
	trap cleanup EXIT
	run_kernel "$k"
	mkdir -p "$out"
	printf '%s\n' "${summary[@]}" > "$out/summary"
	[ ${#fails[@]} = 0 ] || printf '%s\n' "${fails[@]}" > "$out/fails"
	# each failed scenario's last lines of output, for make check to print
	# last: CI keeps a log's end, and a verdict alone does not say which
	# assertion failed or with what values
	local l n
	for l in "${fails[@]}"; do
		n=${l#"$k "}
		n=${n%%:*}
		grep -a "^\[$n\] " "$out/results.log" 2> /dev/null | tr -d '\r' |
			tail -n 20 | sed "s/^/$k /"
	done > "$out/fails.tail"
	echo "$passed $failed $skipped" > "$out/counts"
}

# --build: headers and a W=1 build only, one kernel after the other
build_only() {
	local k=$1 out=$repo/tests/vm/out/build-$1 t0 t1
	mkdir -p "$out" "$cache/locks"
	exec {lockfd}> "$cache/locks/$k-headers"
	flock "$lockfd"
	t0=$SECONDS
	if ! "$here/fetch-kernel.sh" --headers "$k" > "$out/fetch.log" 2>&1; then
		record "$k" fetch FAIL "see $out/fetch.log"
	else
		t1=$SECONDS
		if build_module "$k-headers" "$out/build.log"; then
			record "$k" build-only PASS "W=1 warning-free against $KVER (build $((SECONDS - t1))s, fetch $((t1 - t0))s)"
		else
			record "$k" build-only FAIL "module build failed or warned: see $out/build.log"
			grep -iE "warning:|error:" "$out/build.log" | head -n 5 | sed "s/^/[$k]   /" || true
		fi
	fi
	exec {lockfd}>&-
}

if [ "$mode" = build ]; then
	for k in "$@"; do
		build_only "$k"
	done
	set --
fi

# --check: the declarations only (tests/style.sh)
if [ "$mode" = check ]; then
	bad=0
	for f in "$here"/scenarios/*.sh; do
		[ -f "$f" ] || continue
		declared "$f" || { echo "${f#"$repo"/}: $decl"; bad=1; }
	done
	exit $bad
fi
for k in "$@"; do
	if [ "$mode" != build ] && ! kvalid "$k"; then
		echo "run.sh: '$k' is not SERIES[-FLAVOUR][+VARIANT] with a known variant ($(awk 'NF { printf "%s%s", s, $1; s = " " }' <<<"$variants"))" >&2
		exit 2
	fi
done
# --fetch: each kernel (once per image) and the chroot its build needs,
# two at a time in order (7.3, third, needs the build chroot, which takes
# longest: it is made while the first two run); make check runs
# it beside style and unit, so that the kernels wait for nothing but their
# own fetch
fetch_one() { # fetch_one BASE: the kernel and its toolchain
	local b=$1 t0=$SECONDS
	if ! get_kernel "$b" > "$cache/fetch-$b.log" 2>&1; then
		echo "[$b] fetch FAIL: see $cache/fetch-$b.log"
		return 1
	fi
	# shellcheck disable=SC1090
	. "$cache/k/$b/env"
	if ! (choose_cc "$cache/toolchain-$b.log" > /dev/null); then
		echo "[$b] toolchain FAIL: see $cache/toolchain-$b.log"
		return 1
	fi
	echo "[$b] fetched ($((SECONDS - t0))s)"
}
if [ "$mode" = fetch ]; then
	declare -A seen=()
	pids=()
	for k in "$@"; do
		b=$(kbase "$k")
		[ -z "${seen[$b]:-}" ] || continue
		seen[$b]=1
		while [ "$(jobs -rp | wc -l)" -ge 2 ]; do
			wait -n || true
		done
		fetch_one "$b" &
		pids+=($!)
	done
	# each one's own status (wait -n above may have taken some: bash keeps
	# a child's status until its pid is waited for by name as well)
	rc=0
	for p in "${pids[@]}"; do
		wait "$p" || rc=1
	done
	exit $rc
fi

if [ "$mode" = test ] || [ "$mode" = plan ]; then
	plan "$@"
	for e in "${plan_errors[@]}"; do
		record plan "${e%%:*}" FAIL "${e#*: } (tests/vm/README.md: a scenario says which kernels it runs on)"
	done
	if [ "$plan_nsel" = 0 ]; then
		record plan scenarios FAIL "no scenario${SCENARIOS:+ matches SCENARIOS='$SCENARIOS'}"
	fi
	for k in "$@"; do
		if [ -n "${plan_list[$k]}" ]; then
			echo "[plan] $k: $(wc -w <<<"${plan_list[$k]}") scenarios, ~${plan_secs[$k]}s: ${plan_list[$k]% }"
		else
			echo "[plan] $k: nothing to run, not booted"
		fi
	done
	plan_end
	echo "[plan] estimated end: ${end}s on $jobs slots${VM_TAIL:+ (with VM_TAIL, ${VM_TAIL_SECS:-0}s)}"
	if [ "$mode" = plan ]; then
		for k in "$@"; do
			printf '%s:' "$k"
			printf ' %s' ${plan_list[$k]}
			echo
		done
		[ $failed = 0 ]
		exit
	fi
fi

# the kernels with something to run
ks=()
for k in "$@"; do
	[ "$mode" != test ] || [ -n "${plan_list[$k]}" ] || continue
	ks+=("$k")
done
set -- "${ks[@]}"
# fetch ahead, one kernel after the other, while the first ones run (a
# kernel that starts waits only for its own fetch: get_kernel's lock);
# not a job of this shell, whose jobs are the guests
# and, in a test run, build ahead the module of each kernel that does not
# start at once (the first VM_JOBS do), in order, once those have built
# theirs (not to slow down the builds the first guests wait for)
if [ $# -gt 0 ]; then
	(
		# niced: it takes the cores the guests leave idle
		renice -n 19 -p "$BASHPID" > /dev/null 2>&1 || true
		i=0 first=("${@:1:$jobs}")
		for k in "$@"; do
			i=$((i + 1))
			get_kernel "$k" > /dev/null 2>&1 || continue
			[ "$mode" = test ] && [ $i -gt "$jobs" ] || continue
			for f in "${first[@]}"; do
				for _ in $(seq 1 600); do
					[ "$(cat "$cache/build/$f.started" 2>/dev/null)" != "$run_id" ] || break
					sleep 1
				done
			done
			first=()
			mkdir -p "$cache/build" "$cache/locks"
			build_ahead "$k"
		done
	) &
	disown $!
fi
[ "$mode" = build ] || build_host_tools
kpids=()
for k in "$@"; do
	rm -f "$repo/tests/vm/out/$k/summary" "$repo/tests/vm/out/$k/counts" "$repo/tests/vm/out/$k/fails" "$repo/tests/vm/out/$k/fails.tail"
	while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do
		wait -n || true
	done
	run_kernel_bg "$k" &
	kpids+=($!)
done
# VM_TAIL: once every kernel has started, in the first slot one of them
# frees (the last kernels run alone for some minutes otherwise)
tpid=
if [ -n "${VM_TAIL:-}" ]; then
	while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do
		wait -n || true
	done
	echo "[tail] $VM_TAIL"
	(cd "$repo" && exec env -u VM_TAIL -u MAKEFLAGS -u MFLAGS -u MAKELEVEL bash -c "$VM_TAIL") &
	tpid=$!
fi
for p in "${kpids[@]}"; do
	wait "$p" || true
done
for k in "$@"; do
	o=$repo/tests/vm/out/$k
	if [ -s "$o/counts" ]; then
		mapfile -t -O "${#summary[@]}" summary < "$o/summary"
		[ ! -s "$o/fails" ] || mapfile -t -O "${#fails[@]}" fails < "$o/fails"
		read -r p f sk < "$o/counts"
		passed=$((passed + p))
		failed=$((failed + f))
		skipped=$((skipped + sk))
	else
		record "$k" harness FAIL "the run of $k ended without verdicts"
	fi
done

if [ -n "$tpid" ]; then
	trc=0
	wait "$tpid" || trc=$?
	if [ $trc = 0 ]; then
		record tail "$VM_TAIL" PASS "exited 0"
	else
		record tail "$VM_TAIL" FAIL "exited $trc (its own summary above says what failed)"
	fi
fi

echo
echo "== summary"
printf '%s\n' "${summary[@]}"
echo "($skipped skipped)"
echo "$passed passed, $failed failed"
# the failures again, last: a log cut to its end still names them
for l in "${fails[@]}"; do
	[ -z "$l" ] || echo "FAILED: $l"
done
[ $failed = 0 ]
exit
}
