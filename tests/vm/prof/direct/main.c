// SPDX-License-Identifier: GPL-2.0
/*
 * sl_direct: issue 31 part 2's prototype (a study, not part of stacklat).
 * A return point on ftrace's direct-call interface for one function with
 * register arguments only (func=, default __x64_sys_getppid), beside a
 * kretprobe on the same function for comparison:
 *
 *   insmod sl_direct.ko mode=direct|krp|none [ipmod=1] [func=NAME]
 *
 * mode=direct: tramp.S is called from the function's fentry site and calls
 * the function's body itself; mode=krp: a kretprobe with an entry handler;
 * ipmod=1 also puts a kprobe with a post handler on the function (ftrace's
 * IPMODIFY user, as livepatch is), before the direct call; noshare=1
 * registers the direct call without the ops_func that accepts such users.  Both count
 * entries, exits and, for getppid, returns that are not the caller's
 * parent's tgid; /sys/module/sl_direct/parameters/stats reads
 * "entries exits bad_ret inflight" and the unload prints them.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt
#include <linux/atomic.h>
#include <linux/delay.h>
#include <linux/ftrace.h>
#include <linux/kprobes.h>
#include <linux/module.h>
#include <linux/percpu.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/string.h>

#include "sl_direct.h"

static char *mode = "direct";
module_param(mode, charp, 0444);
static char *func = "__x64_sys_getppid";
module_param(func, charp, 0444);
static bool ipmod;
module_param(ipmod, bool, 0444);
/* no ops_func: what a direct ops that does not accept IPMODIFY users meets */
static bool noshare;
module_param(noshare, bool, 0444);
/* count the calls of this process only (0: all); inflight counts all */
static int tgid;
module_param(tgid, int, 0644);

/* "filter ANY tgid=N" (what sl-spin -f writes) sets tgid */
static int filter_set(const char *val, const struct kernel_param *kp)
{
	int t;

	if (sscanf(val, "filter %*s tgid=%d", &t) != 1 || t < 0)
		return -EINVAL;
	WRITE_ONCE(tgid, t);
	return 0;
}

static const struct kernel_param_ops filter_ops = { .set = filter_set };
module_param_cb(filter, &filter_ops, NULL, 0200);

struct sld_count {
	unsigned long entries, exits, bad_ret;
	long inflight;
};

static DEFINE_PER_CPU(struct sld_count, sld_count);
static bool check_ppid;

static bool sld_mine(void)
{
	int t = READ_ONCE(tgid);

	return !t || current->tgid == t;
}

/* the expected getppid(): the caller's real parent's tgid in its pidns */
static void sld_check(unsigned long ret)
{
	long want;

	rcu_read_lock();
	want = task_tgid_vnr(rcu_dereference(current->real_parent));
	rcu_read_unlock();
	if ((long)ret != want)
		this_cpu_inc(sld_count.bad_ret);
}

/*
 * Context of sld_entry/sld_exit and of the kretprobe handlers: the traced
 * function's (process context for a syscall), preemptible on a preemptible
 * kernel (direct: nothing disables it; this_cpu_* alone).  Entry and exit
 * may run on two CPUs: only the sums mean anything.
 */
void sld_entry(unsigned long body, unsigned long *args)
{
	if (sld_mine())
		this_cpu_inc(sld_count.entries);
	this_cpu_inc(sld_count.inflight);
}

void sld_exit(unsigned long body, unsigned long ret)
{
	if (sld_mine()) {
		if (check_ppid)
			sld_check(ret);
		this_cpu_inc(sld_count.exits);
	}
	this_cpu_dec(sld_count.inflight);
}

#ifdef SLD_OPS_FUNC_IP
static int sld_ops_func(struct ftrace_ops *op, unsigned long ip,
			enum ftrace_ops_cmd cmd)
#else
static int sld_ops_func(struct ftrace_ops *op, enum ftrace_ops_cmd cmd)
#endif
{
	/*
	 * Sharing with an IPMODIFY user (livepatch, a kprobe with a post
	 * handler): tramp.S calls the body at the address on its stack, which
	 * ftrace_regs_caller sets to the IPMODIFY user's regs->ip, as BPF's
	 * BPF_TRAMP_F_ORIG_STACK does.  Nothing to change: accept.
	 */
	return 0;
}

static struct ftrace_ops sld_ops = {
	.ops_func = sld_ops_func,
};

static int krp_entry(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	if (sld_mine())
		this_cpu_inc(sld_count.entries);
	return 0;
}

static int krp_ret(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	if (!sld_mine())
		return 0;
	if (check_ppid)
		sld_check(regs_return_value(regs));
	this_cpu_inc(sld_count.exits);
	return 0;
}

static struct kretprobe sld_krp = {
	.entry_handler = krp_entry,
	.handler = krp_ret,
	.maxactive = 64,
};

static unsigned long ipmod_hits;

static int ipmod_pre(struct kprobe *p, struct pt_regs *regs)
{
	return 0;
}

static void ipmod_post(struct kprobe *p, struct pt_regs *regs,
		       unsigned long flags)
{
	/* racy by design: a rough count that the kprobe ran */
	WRITE_ONCE(ipmod_hits, READ_ONCE(ipmod_hits) + 1);
}

static struct kprobe sld_kp = {
	.pre_handler = ipmod_pre,
	.post_handler = ipmod_post,
};

static bool direct_on, krp_on, kp_on;

static void sld_sum(struct sld_count *s)
{
	int cpu;

	memset(s, 0, sizeof(*s));
	for_each_possible_cpu(cpu) {
		struct sld_count *c = per_cpu_ptr(&sld_count, cpu);

		s->entries += READ_ONCE(c->entries);
		s->exits += READ_ONCE(c->exits);
		s->bad_ret += READ_ONCE(c->bad_ret);
		s->inflight += READ_ONCE(c->inflight);
	}
}

static int stats_get(char *buf, const struct kernel_param *kp)
{
	struct sld_count s;

	sld_sum(&s);
	return sysfs_emit(buf, "%lu %lu %lu %ld %lu\n", s.entries, s.exits,
			  s.bad_ret, s.inflight, READ_ONCE(ipmod_hits));
}

static const struct kernel_param_ops stats_ops = { .get = stats_get };
module_param_cb(stats, &stats_ops, NULL, 0444);

#ifdef SLD_MULTI
#define sld_register	register_ftrace_direct_multi
#define sld_unregister	unregister_ftrace_direct_multi
#else
#define sld_register	register_ftrace_direct
#ifdef SLD_FREE_FILTERS
#define sld_unregister(ops, addr) unregister_ftrace_direct(ops, addr, true)
#else
#define sld_unregister	unregister_ftrace_direct
#endif
#endif

static void sld_direct_off(void)
{
	struct sld_count s;
	int i;

	sld_unregister(&sld_ops, (unsigned long)sl_direct_tramp);
	/*
	 * No new entries.  A task may still be in the trampoline: before
	 * sld_entry or after sld_exit (not sleeping: RCU Tasks waits for it
	 * to leave, preempted or not), or in the body (which may sleep, so
	 * RCU Tasks does not: inflight counts it).
	 */
	synchronize_rcu_tasks();
	for (i = 0; i < 500; i++) {
		sld_sum(&s);
		if (!s.inflight)
			break;
		msleep(20);
	}
	if (s.inflight)
		pr_err("%ld calls still in the body\n", s.inflight);
	synchronize_rcu_tasks();
}

/* the address of @name, from a kprobe put there and taken away at once */
static unsigned long sld_addr(const char *name)
{
	struct kprobe kp = { .symbol_name = name };
	unsigned long a;

	if (register_kprobe(&kp))
		return 0;
	a = (unsigned long)kp.addr;
	unregister_kprobe(&kp);
	return a;
}

static int __init sld_init(void)
{
	int err;

	check_ppid = !strcmp(func, "__x64_sys_getppid");
	if (ipmod) {
		sld_kp.symbol_name = func;
		err = register_kprobe(&sld_kp);
		if (err) {
			pr_err("kprobe: %d\n", err);
			return err;
		}
		kp_on = true;
	}
	if (!strcmp(mode, "direct")) {
		unsigned long ip = sld_addr(func);

		if (noshare)
			sld_ops.ops_func = NULL;

		/*
		 * By address: 6.1 lists __x64_sys_getppid's fentry site under
		 * another of its aliases' names, so a filter by name fails
		 */
		err = ip ? ftrace_set_filter_ip(&sld_ops, ip, 0, 0) : -ENOENT;
		if (err) {
			pr_err("filter %s: %d\n", func, err);
			goto out;
		}
		err = sld_register(&sld_ops, (unsigned long)sl_direct_tramp);
		if (err) {
			pr_err("direct on %s: %d\n", func, err);
			goto out;
		}
		direct_on = true;
	} else if (!strcmp(mode, "krp")) {
		sld_krp.kp.symbol_name = func;
		err = register_kretprobe(&sld_krp);
		if (err) {
			pr_err("kretprobe on %s: %d\n", func, err);
			goto out;
		}
		krp_on = true;
	}
	pr_info("%s on %s%s\n", mode, func,
		kp_on ? " with an IPMODIFY kprobe" : "");
	return 0;
out:
	if (kp_on)
		unregister_kprobe(&sld_kp);
	return err;
}

static void __exit sld_exit_mod(void)
{
	struct sld_count s;

	if (direct_on)
		sld_direct_off();
	if (krp_on)
		unregister_kretprobe(&sld_krp);
	if (kp_on)
		unregister_kprobe(&sld_kp);
	sld_sum(&s);
	pr_info("%s entries %lu exits %lu bad_ret %lu inflight %ld nmissed %d\n",
		mode, s.entries, s.exits, s.bad_ret, s.inflight,
		krp_on ? sld_krp.nmissed : 0);
}

module_init(sld_init);
module_exit(sld_exit_mod);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("stacklat issue 31 study: return points on ftrace direct calls");
