#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# compat-probe.sh SRCTREE OBJTREE
#
# Run by Kbuild: reads the target kernel's headers and prints one
# -DCOMPAT_<CAPABILITY> per difference stacklat has to know of, for
# compat.h.  Features are detected (a declaration, a struct member, a
# tracepoint's TP_PROTO), never assumed from a version number: distribution
# and stable kernels backport API changes (the block_rq_* tracepoints lost
# their queue argument in 5.10.137, not in 5.11).  Debian splits its headers
# into an arch tree (OBJTREE) and a -common one (SRCTREE): both are read.
#
# Prints -DCOMPAT_PROBE_FAILED when the headers cannot be read at all, so
# that compat.h stops the build with a message instead of guessing.
set -u
src=${1:-}
obj=${2:-}

# the first of include/<path> that exists in SRCTREE or OBJTREE
hdr() {
	for d in "$src" "$obj"; do
		if [ -n "$d" ] && [ -f "$d/include/$1" ]; then
			echo "$d/include/$1"
			return
		fi
	done
	echo /nonexistent
}

# has FILE ERE: does include/FILE contain a line matching ERE?
has() {
	grep -qsE "$2" "$(hdr "$1")"
}

# tp_proto EVENT FILE: the TP_PROTO of tracepoint EVENT (TRACE_EVENT,
# DEFINE_EVENT, ...) in include/trace/events/FILE.h on one line, blanks
# squeezed; empty when the event is not there
tp_proto() {
	sed -n "/[(,][[:space:]]*$1,/,/TP_ARGS/p" "$(hdr "trace/events/$2.h")" 2>/dev/null |
		tr -s ' \t\n' '   ' |
		sed -n 's/.*TP_PROTO([[:space:]]*\(.*[^[:space:]]\)[[:space:]]*),[[:space:]]*TP_ARGS.*/\1/p'
}

# flag NAME: print -DCOMPAT_NAME
flag() {
	printf ' -DCOMPAT_%s' "$1"
}

if [ ! -f "$(hdr linux/kprobes.h)" ] || [ ! -f "$(hdr trace/events/skb.h)" ]; then
	flag PROBE_FAILED
	exit 0
fi

# ---- kprobes and netlink
# kallsyms_lookup_name() a binary search over names sorted at build time
# (6.2, with kallsyms_on_each_match_symbol(); Debian's 6.1 has it too),
# before a scan of every symbol
has linux/kallsyms.h 'kallsyms_on_each_match_symbol' && flag HAS_KALLSYMS_NAME_SEARCH
# ri->rp became get_kretprobe(ri) in 5.11
has linux/kprobes.h 'get_kretprobe\(' && flag HAS_GET_KRETPROBE
# nla_strlcpy() became nla_strscpy() in 5.11
has net/netlink.h 'nla_strscpy\(' && flag HAS_NLA_STRSCPY
# extack messages formatted at run time (6.2)
has linux/netlink.h 'define[[:space:]]+NL_SET_ERR_MSG_FMT\(' && flag HAS_NL_SET_ERR_MSG_FMT
# system_unbound_wq is deprecated for system_dfl_wq (7.x warns at queueing)
has linux/workqueue.h 'struct workqueue_struct[[:space:]]+\*system_dfl_wq;' && flag HAS_SYSTEM_DFL_WQ

# ftrace_ops callbacks get struct ftrace_regs (5.11), ftrace has a
# per-context recursion lock for callbacks (5.11) and filters can be freed
# by a module (6.1): the ftrace backend of function-entry points
if has linux/ftrace.h 'struct ftrace_ops \*op, struct ftrace_regs \*fregs\);' &&
	has linux/trace_recursion.h 'int ftrace_test_recursion_trylock\(' &&
	has linux/ftrace.h 'void ftrace_free_filter\(struct ftrace_ops'; then
	flag HAS_FTRACE_OPS_REGS
fi

# fprobe with per-call entry data and the caller's address (6.2): return
# points on ftrace; its handlers get pt_regs (rethook-based, to 6.13) or
# ftrace_regs (function-graph based, 6.14); the rethook-based one bounds
# the calls in flight (nr_maxactive)
if has linux/fprobe.h 'unsigned long ret_ip, struct ftrace_regs \*'; then
	flag FPROBE_FTRACE_REGS
elif has linux/fprobe.h 'unsigned long ret_ip, struct pt_regs \*'; then
	flag FPROBE_PT_REGS
fi
has linux/fprobe.h 'int[[:space:]]+nr_maxactive;' && flag FPROBE_HAS_NR_MAXACTIVE

# ---- how tracepoint probes are called
# 7.x calls them under SRCU (guard(srcu_fast_notrace)), no longer with
# preemption off: stacklat's probes turn it off themselves there
has linux/tracepoint.h 'guard\(srcu' && flag TP_PROBES_PREEMPTIBLE
# syscall tracepoints that may fault (6.13): probes under RCU tasks trace,
# preemptible
has linux/tracepoint.h '__DECLARE_TRACE_SYSCALL' && flag TP_SYSCALL_PROBES_PREEMPTIBLE

# ---- network tracepoints
p=$(tp_proto kfree_skb skb)
case $p in
*"enum skb_drop_reason reason"*) flag KFREE_SKB_TP_HAS_REASON ;;	# 5.17
esac
case $p in
*"const struct sock *rx_sk"*) flag KFREE_SKB_TP_HAS_CONST_RX_SK ;;
*"struct sock *rx_sk"*) flag KFREE_SKB_TP_HAS_RX_SK ;;		# 6.11
esac
case $(tp_proto consume_skb skb) in
*"void *location"*) flag CONSUME_SKB_TP_HAS_LOCATION ;;		# 6.3
esac
# tcp_retransmit_skb grew the transmission's error in 6.16 (fired for failures too)
case $(tp_proto tcp_retransmit_skb tcp) in
*"int err"*) flag TCP_RETRANSMIT_SKB_TP_HAS_ERR ;;
esac
# the names of the drop reasons: a list per subsystem (6.4), one array (6.0)
if has net/dropreason.h 'drop_reasons_by_subsys'; then
	flag HAS_DROP_REASONS_BY_SUBSYS
elif has net/dropreason.h 'const char[[:space:]]*\*[[:space:]]*const[[:space:]]+drop_reasons\[' ||
	has linux/skbuff.h 'const char[[:space:]]*\*[[:space:]]*const[[:space:]]+drop_reasons\['; then
	flag HAS_DROP_REASONS
fi
# prototypes pipelines/net.c writes out: the same on every kernel known;
# any other is named by compat.h rather than failing deep in net.c
[ "$(tp_proto net_dev_queue net)" = "struct sk_buff *skb" ] ||
	flag NET_DEV_QUEUE_TP_UNKNOWN
[ "$(tp_proto net_dev_start_xmit net)" = "const struct sk_buff *skb, const struct net_device *dev" ] ||
	flag NET_DEV_START_XMIT_TP_UNKNOWN
[ "$(tp_proto net_dev_xmit net)" = "struct sk_buff *skb, int rc, struct net_device *dev, unsigned int skb_len" ] ||
	flag NET_DEV_XMIT_TP_UNKNOWN
[ "$(tp_proto netif_receive_skb net)" = "struct sk_buff *skb" ] ||
	flag NETIF_RECEIVE_SKB_TP_UNKNOWN

# ---- scheduler tracepoints (pipelines/reqresp.c, pipelines/syscalls.c)
# sched_switch gained prev_state in 5.18 (and Debian's 6.1 has it)
case $(tp_proto sched_switch sched) in
*"unsigned int prev_state"*) flag SCHED_SWITCH_TP_HAS_PREV_STATE ;;
"bool preempt, struct task_struct *prev, struct task_struct *next") ;;
*) flag SCHED_SWITCH_TP_UNKNOWN ;;
esac
[ "$(tp_proto sched_waking sched)" = "struct task_struct *p" ] ||
	flag SCHED_WAKING_TP_UNKNOWN
# the task's state: ->__state from 5.14 (->state, a volatile long, before);
# pipelines/sched.c asks whether a task leaving its CPU is still runnable
if has linux/sched.h '^[[:space:]]*unsigned int[[:space:]]+__state;'; then
	flag TASK_STATE_IS___STATE
elif ! has linux/sched.h '^[[:space:]]*volatile long[[:space:]]+state;'; then
	flag TASK_STATE_UNKNOWN
fi
case "$(tp_proto sched_wakeup sched)|$(tp_proto sched_wakeup_new sched)" in
"struct task_struct *p|struct task_struct *p") ;;
*) flag SCHED_WAKEUP_TP_UNKNOWN ;;
esac
# sched_process_exit says whether the whole process ended (7.x; before,
# pipelines/syscalls.c reads the signal struct's live count)
case $(tp_proto sched_process_exit sched) in
"struct task_struct *p, bool group_dead") flag SCHED_PROCESS_EXIT_TP_HAS_GROUP_DEAD ;;
"struct task_struct *p") ;;
*) flag SCHED_PROCESS_EXIT_TP_UNKNOWN ;;
esac

# ---- lock contention tracepoints (pipelines/lock.c): lock:contention_begin
# and contention_end (5.19); none before, and the lock pipeline's points are
# "not available"; another prototype is named by compat.h
b=$(tp_proto contention_begin lock)
e=$(tp_proto contention_end lock)
if [ "$b|$e" = "void *lock, unsigned int flags|void *lock, int ret" ]; then
	flag HAS_LOCK_CONTENTION_TP
elif [ -n "$b$e" ]; then
	flag LOCK_CONTENTION_TP_UNKNOWN
fi

# ---- interrupt tracepoints (pipelines/irq.c): written out by hand, the
# same on every kernel known; any other is named by compat.h
[ "$(tp_proto irq_handler_entry irq)" = "int irq, struct irqaction *action" ] ||
	flag IRQ_HANDLER_ENTRY_TP_UNKNOWN
[ "$(tp_proto irq_handler_exit irq)" = "int irq, struct irqaction *action, int ret" ] ||
	flag IRQ_HANDLER_EXIT_TP_UNKNOWN
if [ "$(tp_proto softirq_entry irq)" != "unsigned int vec_nr" ] ||
	[ "$(tp_proto softirq_exit irq)" != "unsigned int vec_nr" ]; then
	flag SOFTIRQ_TP_UNKNOWN
fi

# ---- block tracepoints and structures
# the bio tracepoints lost their request_queue argument in 5.11
# (pipelines/block.c, and block_bio_queue in pipelines/disktop.c)
case $(tp_proto block_bio_queue block) in
*"struct request_queue *q"*) flag BLOCK_BIO_TP_HAS_QUEUE ;;
esac
case $(tp_proto block_bio_backmerge block) in
*"struct request_queue *q"*) flag BLOCK_MERGE_TP_HAS_QUEUE ;;
esac
case $(tp_proto block_split block) in
*"struct request_queue *q"*) flag BLOCK_SPLIT_TP_HAS_QUEUE ;;
esac
# the request ones lost theirs in 5.11 and in the 5.10.137 stable release:
# pipelines/storage.c takes the request only (compat.h refuses the older)
for e in block_rq_insert block_rq_issue block_rq_requeue block_rq_merge; do
	case $(tp_proto $e block) in
	*"struct request_queue *q"*) flag BLOCK_RQ_TP_HAS_QUEUE; break ;;
	esac
done
# block_rq_complete's error became a blk_status_t in 5.16
case $(tp_proto block_rq_complete block) in
*"blk_status_t error"*) flag BLOCK_RQ_COMPLETE_TP_HAS_BLK_STATUS ;;
esac
[ "$(tp_proto block_bio_complete block)" = "struct request_queue *q, struct bio *bio" ] ||
	flag BLOCK_BIO_COMPLETE_TP_UNKNOWN
# rq->rq_disk went away in 5.17 (rq->q->disk)
if has linux/blk-mq.h 'struct gendisk[[:space:]]+\*rq_disk;' ||
	has linux/blkdev.h 'struct gendisk[[:space:]]+\*rq_disk;'; then
	flag REQUEST_HAS_RQ_DISK
fi
# req_op()/bio_op() give an enum req_op of __bitwise blk_opf_t values (6.0),
# an enum req_opf before
has linux/blk_types.h '^enum req_op[[:space:]]*\{' && flag HAS_ENUM_REQ_OP
# bio->bi_disk became bio->bi_bdev in 5.12 (the disk of a bio: block.c,
# disktop.c)
has linux/blk_types.h 'struct gendisk[[:space:]]+\*bi_disk;' && flag BIO_HAS_BI_DISK
# lookup_bdev() returned a block_device until 5.11, fills a dev_t since
if has linux/blkdev.h 'int[[:space:]]+lookup_bdev\(const char[^,]*,[[:space:]]*dev_t'; then
	flag LOOKUP_BDEV_HAS_DEV_T
fi

# ---- cgroups (core/cgdim.c): cgroup_get_from_id() (6.0; exported with it)
# tells whether a per-cgroup slot's cgroup was removed
has linux/cgroup.h 'struct cgroup[[:space:]]+\*cgroup_get_from_id\(u64' && flag HAS_CGROUP_GET_FROM_ID

# ---- uprobes (core/hook_uprobe.c): uprobe_register() returns the uprobe
# and unregistration is nosync + sync (6.12); handlers get a session
# cookie (6.13)
has linux/uprobes.h 'struct uprobe[[:space:]]+\*uprobe_register\(' && flag UPROBE_REGISTER_RETURNS_UPROBE
has linux/uprobes.h 'int \(\*handler\)\(struct uprobe_consumer \*self, struct pt_regs \*regs, __u64 \*data\);' &&
	flag UPROBE_HANDLER_HAS_DATA
exit 0
