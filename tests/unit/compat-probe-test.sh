#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# kmod/compat-probe.sh on header snippets of the kernels the matrix does not
# have, written as those kernels have them: 5.10.0-5.10.136 (block_rq_*
# with a queue), 5.17 (kfree_skb with a reason, no rq->rq_disk), 6.11
# (rx_sk, not const), interrupt events that changed, the task's state
# (->__state, 5.14) and sched_wakeup, tracepoint probes
# called preemptible (6.13's syscall tracepoints, 7.x's all), and no
# headers at all.  Each must give exactly the flags listed.  (The matrix's own header sets are probed by every build.)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
probe=$here/../../kmod/compat-probe.sh
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0

w() { # w TREE FILE: stdin into TREE/include/FILE
	mkdir -p "$(dirname "$1/include/$2")"
	cat > "$1/include/$2"
}

net_common() { # the net_dev_* and netif_receive_skb events every kernel has
	# (and the scheduler events as before 5.18, the interrupt events: no flag)
	w "$1" trace/events/irq.h <<'H'
TRACE_EVENT(irq_handler_entry,

	TP_PROTO(int irq, struct irqaction *action),

	TP_ARGS(irq, action),
TRACE_EVENT(irq_handler_exit,

	TP_PROTO(int irq, struct irqaction *action, int ret),

	TP_ARGS(irq, action, ret),
DEFINE_EVENT(softirq, softirq_entry,

	TP_PROTO(unsigned int vec_nr),

	TP_ARGS(vec_nr)
DEFINE_EVENT(softirq, softirq_exit,

	TP_PROTO(unsigned int vec_nr),

	TP_ARGS(vec_nr)
H
	w "$1" trace/events/sched.h <<'H'
TRACE_EVENT(sched_switch,
	TP_PROTO(bool preempt,
		 struct task_struct *prev,
		 struct task_struct *next),
	TP_ARGS(preempt, prev, next),
DEFINE_EVENT(sched_wakeup_template, sched_waking,
	     TP_PROTO(struct task_struct *p),
	     TP_ARGS(p));
DEFINE_EVENT(sched_wakeup_template, sched_wakeup,
	     TP_PROTO(struct task_struct *p),
	     TP_ARGS(p));
DEFINE_EVENT(sched_wakeup_template, sched_wakeup_new,
	     TP_PROTO(struct task_struct *p),
	     TP_ARGS(p));
DEFINE_EVENT(sched_process_template, sched_process_exit,
	     TP_PROTO(struct task_struct *p),
	     TP_ARGS(p));
H
	w "$1" linux/sched.h <<'H'
struct task_struct {
	volatile long			state;
};
H
	w "$1" trace/events/net.h <<'H'
TRACE_EVENT(net_dev_start_xmit,
	TP_PROTO(const struct sk_buff *skb, const struct net_device *dev),
	TP_ARGS(skb, dev),
TRACE_EVENT(net_dev_xmit,
	TP_PROTO(struct sk_buff *skb,
		 int rc,
		 struct net_device *dev,
		 unsigned int skb_len),
	TP_ARGS(skb, rc, dev, skb_len),
DEFINE_EVENT(net_dev_template, net_dev_queue,
	TP_PROTO(struct sk_buff *skb),
	TP_ARGS(skb)
DEFINE_EVENT(net_dev_template, netif_receive_skb,
	TP_PROTO(struct sk_buff *skb),
	TP_ARGS(skb)
H
}

expect() { # expect NAME TREE FLAGS...
	local name=$1 tree=$2 got want
	shift 2
	got=$(sh "$probe" "$tree" "$tree" | tr ' ' '\n' | sed -n 's/^-DCOMPAT_//p' | sort | tr '\n' ' ')
	want=$(printf '%s\n' "$@" | sort | tr '\n' ' ')
	if [ "$got" = "$want" ]; then
		echo "ok: $name: ${got:-(none)}"
	else
		echo "FAIL: $name: expected '$want', got '$got'"
		fail=1
	fi
}

# 5.10.100: block_rq_* still pass the queue (it went in 5.10.137)
t=$tmp/5.10.100
w "$t" linux/kprobes.h <<'H'
struct kretprobe_instance { struct kretprobe *rp; };
H
w "$t" trace/events/skb.h <<'H'
TRACE_EVENT(kfree_skb,
	TP_PROTO(struct sk_buff *skb, void *location),
	TP_ARGS(skb, location),
TRACE_EVENT(consume_skb,
	TP_PROTO(struct sk_buff *skb),
	TP_ARGS(skb),
H
net_common "$t"
w "$t" trace/events/block.h <<'H'
DEFINE_EVENT(block_rq, block_rq_insert,
	TP_PROTO(struct request_queue *q, struct request *rq),
	TP_ARGS(q, rq)
TRACE_EVENT(block_rq_complete,
	TP_PROTO(struct request *rq, int error, unsigned int nr_bytes),
	TP_ARGS(rq, error, nr_bytes),
TRACE_EVENT(block_bio_complete,
	TP_PROTO(struct request_queue *q, struct bio *bio),
	TP_ARGS(q, bio),
DEFINE_EVENT(block_bio, block_bio_queue,
	TP_PROTO(struct request_queue *q, struct bio *bio),
	TP_ARGS(q, bio)
H
w "$t" linux/blkdev.h <<'H'
	struct gendisk *rq_disk;
struct block_device *lookup_bdev(const char *);
H
w "$t" linux/blk_types.h <<'H'
	struct gendisk		*bi_disk;
H
expect "5.10.100" "$t" BLOCK_RQ_TP_HAS_QUEUE BLOCK_BIO_TP_HAS_QUEUE REQUEST_HAS_RQ_DISK BIO_HAS_BI_DISK

# 5.17: kfree_skb has a reason; struct request lost rq_disk
t=$tmp/5.17
w "$t" linux/kprobes.h <<'H'
static nokprobe_inline struct kretprobe *get_kretprobe(struct kretprobe_instance *ri)
H
w "$t" trace/events/skb.h <<'H'
TRACE_EVENT(kfree_skb,
	TP_PROTO(struct sk_buff *skb, void *location,
		 enum skb_drop_reason reason),
	TP_ARGS(skb, location, reason),
TRACE_EVENT(consume_skb,
	TP_PROTO(struct sk_buff *skb),
	TP_ARGS(skb),
H
net_common "$t"
w "$t" trace/events/block.h <<'H'
DEFINE_EVENT(block_rq, block_rq_insert,
	TP_PROTO(struct request *rq),
	TP_ARGS(rq)
TRACE_EVENT(block_rq_complete,
	TP_PROTO(struct request *rq, blk_status_t error, unsigned int nr_bytes),
	TP_ARGS(rq, error, nr_bytes),
TRACE_EVENT(block_bio_complete,
	TP_PROTO(struct request_queue *q, struct bio *bio),
	TP_ARGS(q, bio),
H
w "$t" linux/blk-mq.h <<'H'
struct request {
	struct request_queue *q;
H
w "$t" linux/blkdev.h <<'H'
int lookup_bdev(const char *pathname, dev_t *dev);
H
w "$t" net/netlink.h <<'H'
ssize_t nla_strscpy(char *dst, const struct nlattr *nla, size_t dstsize);
H
expect "5.17" "$t" HAS_GET_KRETPROBE HAS_NLA_STRSCPY KFREE_SKB_TP_HAS_REASON \
	BLOCK_RQ_COMPLETE_TP_HAS_BLK_STATUS LOOKUP_BDEV_HAS_DEV_T

# 6.11: kfree_skb's rx_sk, not yet const; consume_skb's location
t2=$tmp/6.11
cp -r "$t" "$t2"
w "$t2" trace/events/skb.h <<'H'
TRACE_EVENT(kfree_skb,
	TP_PROTO(struct sk_buff *skb, void *location,
		 enum skb_drop_reason reason, struct sock *rx_sk),
	TP_ARGS(skb, location, reason, rx_sk),
TRACE_EVENT(consume_skb,
	TP_PROTO(struct sk_buff *skb, void *location),
	TP_ARGS(skb, location),
H
expect "6.11" "$t2" HAS_GET_KRETPROBE HAS_NLA_STRSCPY KFREE_SKB_TP_HAS_REASON KFREE_SKB_TP_HAS_RX_SK \
	CONSUME_SKB_TP_HAS_LOCATION BLOCK_RQ_COMPLETE_TP_HAS_BLK_STATUS LOOKUP_BDEV_HAS_DEV_T

# how tracepoint probes are called: with preemption off (to 6.12, no
# flag); syscall tracepoints that may fault, under RCU tasks trace (6.13);
# every probe under SRCU (7.x): stacklat's probes turn preemption off
t6=$tmp/tp
cp -r "$t2" "$t6"
w "$t6" linux/tracepoint.h <<'H'
#define __DO_TRACE(name, args, cond, rcuidle)				\
		/* keep srcu and sched-rcu usage consistent */		\
		preempt_disable_notrace();				\
H
expect "tracepoints 6.12" "$t6" HAS_GET_KRETPROBE HAS_NLA_STRSCPY KFREE_SKB_TP_HAS_REASON KFREE_SKB_TP_HAS_RX_SK \
	CONSUME_SKB_TP_HAS_LOCATION BLOCK_RQ_COMPLETE_TP_HAS_BLK_STATUS LOOKUP_BDEV_HAS_DEV_T
w "$t6" linux/tracepoint.h <<'H'
#define __DECLARE_TRACE(name, proto, args, cond, data_proto)			\
		if (cond) {						\
			guard(preempt_notrace)();			\
			__DO_TRACE_CALL(name, TP_ARGS(args));		\
#define __DECLARE_TRACE_SYSCALL(name, proto, args, data_proto)		\
		guard(rcu_tasks_trace)();				\
H
expect "tracepoints 6.13" "$t6" HAS_GET_KRETPROBE HAS_NLA_STRSCPY KFREE_SKB_TP_HAS_REASON KFREE_SKB_TP_HAS_RX_SK \
	CONSUME_SKB_TP_HAS_LOCATION BLOCK_RQ_COMPLETE_TP_HAS_BLK_STATUS LOOKUP_BDEV_HAS_DEV_T \
	TP_SYSCALL_PROBES_PREEMPTIBLE
w "$t6" linux/tracepoint.h <<'H'
#define __DECLARE_TRACE(name, proto, args, cond, data_proto)			\
		if (cond) {						\
			guard(srcu_fast_notrace)(&tracepoint_srcu);	\
			__DO_TRACE_CALL(name, TP_ARGS(args));		\
#define __DECLARE_TRACE_SYSCALL(name, proto, args, data_proto)		\
		guard(rcu_tasks_trace)();				\
H
expect "tracepoints 7.x" "$t6" HAS_GET_KRETPROBE HAS_NLA_STRSCPY KFREE_SKB_TP_HAS_REASON KFREE_SKB_TP_HAS_RX_SK \
	CONSUME_SKB_TP_HAS_LOCATION BLOCK_RQ_COMPLETE_TP_HAS_BLK_STATUS LOOKUP_BDEV_HAS_DEV_T \
	TP_PROBES_PREEMPTIBLE TP_SYSCALL_PROBES_PREEMPTIBLE

# the task's state: ->__state from 5.14; neither it nor ->state: named
t7=$tmp/state
cp -r "$t6" "$t7"
w "$t7" linux/sched.h <<'H'
struct task_struct {
	/* - 0 runnable, > 0 stopped: */
	unsigned int			__state;
};
H
expect "task __state" "$t7" HAS_GET_KRETPROBE HAS_NLA_STRSCPY KFREE_SKB_TP_HAS_REASON KFREE_SKB_TP_HAS_RX_SK \
	CONSUME_SKB_TP_HAS_LOCATION BLOCK_RQ_COMPLETE_TP_HAS_BLK_STATUS LOOKUP_BDEV_HAS_DEV_T \
	TP_PROBES_PREEMPTIBLE TP_SYSCALL_PROBES_PREEMPTIBLE TASK_STATE_IS___STATE
sed -i 's/__state;/state_word;/' "$t7/include/linux/sched.h"
sed -i 's/TP_PROTO(struct task_struct \*p),/TP_PROTO(struct task_struct *p, int cpu),/' \
	"$t7/include/trace/events/sched.h"
expect "task state, sched_wakeup changed" "$t7" HAS_GET_KRETPROBE HAS_NLA_STRSCPY KFREE_SKB_TP_HAS_REASON \
	KFREE_SKB_TP_HAS_RX_SK CONSUME_SKB_TP_HAS_LOCATION BLOCK_RQ_COMPLETE_TP_HAS_BLK_STATUS LOOKUP_BDEV_HAS_DEV_T \
	TP_PROBES_PREEMPTIBLE TP_SYSCALL_PROBES_PREEMPTIBLE TASK_STATE_UNKNOWN SCHED_WAKEUP_TP_UNKNOWN \
	SCHED_WAKING_TP_UNKNOWN SCHED_PROCESS_EXIT_TP_UNKNOWN

# a net_dev_xmit that changed: named, not guessed
sed -i 's/unsigned int skb_len)/unsigned int skb_len, int more)/' "$t2/include/trace/events/net.h"
expect "net_dev_xmit changed" "$t2" HAS_GET_KRETPROBE HAS_NLA_STRSCPY KFREE_SKB_TP_HAS_REASON KFREE_SKB_TP_HAS_RX_SK \
	CONSUME_SKB_TP_HAS_LOCATION BLOCK_RQ_COMPLETE_TP_HAS_BLK_STATUS LOOKUP_BDEV_HAS_DEV_T NET_DEV_XMIT_TP_UNKNOWN

# the ftrace backend's three pieces (6.1 and later); one missing: none
t3=$tmp/ftrace
cp -r "$t2" "$t3"
sed -i 's/unsigned int skb_len, int more)/unsigned int skb_len)/' "$t3/include/trace/events/net.h"
w "$t3" linux/ftrace.h <<'H'
typedef void (*ftrace_func_t)(unsigned long ip, unsigned long parent_ip,
			      struct ftrace_ops *op, struct ftrace_regs *fregs);
void ftrace_free_filter(struct ftrace_ops *ops);
H
w "$t3" linux/trace_recursion.h <<'H'
static __always_inline int ftrace_test_recursion_trylock(unsigned long ip,
							 unsigned long parent_ip)
H
expect "ftrace backend" "$t3" HAS_GET_KRETPROBE HAS_NLA_STRSCPY KFREE_SKB_TP_HAS_REASON KFREE_SKB_TP_HAS_RX_SK \
	CONSUME_SKB_TP_HAS_LOCATION BLOCK_RQ_COMPLETE_TP_HAS_BLK_STATUS LOOKUP_BDEV_HAS_DEV_T HAS_FTRACE_OPS_REGS
sed -i '/ftrace_free_filter/d' "$t3/include/linux/ftrace.h"
expect "ftrace_free_filter missing" "$t3" HAS_GET_KRETPROBE HAS_NLA_STRSCPY KFREE_SKB_TP_HAS_REASON KFREE_SKB_TP_HAS_RX_SK \
	CONSUME_SKB_TP_HAS_LOCATION BLOCK_RQ_COMPLETE_TP_HAS_BLK_STATUS LOOKUP_BDEV_HAS_DEV_T

# fprobe: 6.1's handlers (no caller address) are not used; 6.12's get
# pt_regs and bound the calls in flight; 7.x's get ftrace_regs
t5=$tmp/fprobe
cp -r "$t2" "$t5"
sed -i 's/unsigned int skb_len, int more)/unsigned int skb_len)/' "$t5/include/trace/events/net.h"
w "$t5" linux/fprobe.h <<'H'
	void (*entry_handler)(struct fprobe *fp, unsigned long entry_ip,
			      struct pt_regs *regs, void *entry_data);
H
expect "fprobe 6.1" "$t5" HAS_GET_KRETPROBE HAS_NLA_STRSCPY KFREE_SKB_TP_HAS_REASON KFREE_SKB_TP_HAS_RX_SK \
	CONSUME_SKB_TP_HAS_LOCATION BLOCK_RQ_COMPLETE_TP_HAS_BLK_STATUS LOOKUP_BDEV_HAS_DEV_T
w "$t5" linux/fprobe.h <<'H'
typedef int (*fprobe_entry_cb)(struct fprobe *fp, unsigned long entry_ip,
			       unsigned long ret_ip, struct pt_regs *regs,
			       void *entry_data);
	int			nr_maxactive;
H
expect "fprobe 6.12" "$t5" HAS_GET_KRETPROBE HAS_NLA_STRSCPY KFREE_SKB_TP_HAS_REASON KFREE_SKB_TP_HAS_RX_SK \
	CONSUME_SKB_TP_HAS_LOCATION BLOCK_RQ_COMPLETE_TP_HAS_BLK_STATUS LOOKUP_BDEV_HAS_DEV_T \
	FPROBE_PT_REGS FPROBE_HAS_NR_MAXACTIVE
w "$t5" linux/fprobe.h <<'H'
typedef int (*fprobe_entry_cb)(struct fprobe *fp, unsigned long entry_ip,
			       unsigned long ret_ip, struct ftrace_regs *regs,
			       void *entry_data);
H
expect "fprobe 7.x" "$t5" HAS_GET_KRETPROBE HAS_NLA_STRSCPY KFREE_SKB_TP_HAS_REASON KFREE_SKB_TP_HAS_RX_SK \
	CONSUME_SKB_TP_HAS_LOCATION BLOCK_RQ_COMPLETE_TP_HAS_BLK_STATUS LOOKUP_BDEV_HAS_DEV_T \
	FPROBE_FTRACE_REGS

# 7.x: sched_process_exit says whether the process ended; an unknown one
# is named
t4=$tmp/pexit
cp -r "$t3" "$t4"
cat >> "$t4/include/trace/events/sched.h" <<'H'
 * compatible as much as possible. sched_process_exits has an extra
TRACE_EVENT(sched_process_exit,

	TP_PROTO(struct task_struct *p, bool group_dead),

	TP_ARGS(p, group_dead),
H
sed -i '/DEFINE_EVENT(sched_process_template, sched_process_exit,/,+2d' "$t4/include/trace/events/sched.h"
expect "sched_process_exit group_dead" "$t4" HAS_GET_KRETPROBE HAS_NLA_STRSCPY KFREE_SKB_TP_HAS_REASON \
	KFREE_SKB_TP_HAS_RX_SK CONSUME_SKB_TP_HAS_LOCATION BLOCK_RQ_COMPLETE_TP_HAS_BLK_STATUS \
	LOOKUP_BDEV_HAS_DEV_T SCHED_PROCESS_EXIT_TP_HAS_GROUP_DEAD
sed -i 's/bool group_dead), *$/bool group_dead, int code),/' "$t4/include/trace/events/sched.h"
expect "sched_process_exit changed" "$t4" HAS_GET_KRETPROBE HAS_NLA_STRSCPY KFREE_SKB_TP_HAS_REASON \
	KFREE_SKB_TP_HAS_RX_SK CONSUME_SKB_TP_HAS_LOCATION BLOCK_RQ_COMPLETE_TP_HAS_BLK_STATUS \
	LOOKUP_BDEV_HAS_DEV_T SCHED_PROCESS_EXIT_TP_UNKNOWN
# an interrupt event that changed: named, not guessed
sed -i '/softirq_exit/,/TP_ARGS/s/unsigned int vec_nr)/unsigned int vec_nr, int cpu)/' "$t3/include/trace/events/irq.h"
sed -i 's/struct irqaction \*action, int ret)/struct irqaction *action, irqreturn_t ret)/' "$t3/include/trace/events/irq.h"
expect "softirq_exit, irq_handler_exit changed" "$t3" HAS_GET_KRETPROBE HAS_NLA_STRSCPY KFREE_SKB_TP_HAS_REASON \
	KFREE_SKB_TP_HAS_RX_SK CONSUME_SKB_TP_HAS_LOCATION BLOCK_RQ_COMPLETE_TP_HAS_BLK_STATUS LOOKUP_BDEV_HAS_DEV_T \
	SOFTIRQ_TP_UNKNOWN IRQ_HANDLER_EXIT_TP_UNKNOWN

# no headers there at all
expect "no headers" "$tmp/none" PROBE_FAILED

exit $fail
