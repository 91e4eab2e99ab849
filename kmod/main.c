// SPDX-License-Identifier: GPL-2.0
/*
 * stacklat: where inside the kernel a request spends its time.
 *
 * Init: validate parameters, the in-flight table, pipelines (hooks resolved,
 * nothing armed), debugfs, netlink, then the pipelines named by "enable".
 * Exit is init in reverse: netlink first, so no new command can arrive, then
 * debugfs, then every probe is unregistered and synchronised before any
 * memory a handler could touch is freed.
 */
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/kernel.h>
#include <linux/tracepoint.h>

#include "pipeline.h"
#include "chain.h"
#include "cpus.h"
#include "events.h"
#include "cgdim.h"
#include "fmt.h"
#include "stack.h"
#include "iface/iface.h"
#include "pipelines/all.h"

#ifdef SL_PLANT_LEAK
#include <linux/slab.h>
#define SL_PLANT_LEAK_SIZE	4096
#endif

/*
 * Numeric parameters: decimal only (kstrtouint base 10: no octal, no hex,
 * no sign), checked against their range when parsed, so a bad value fails
 * the load with a message naming the parameter and its range.
 */
struct sl_uint_param {
	unsigned int val, min, max;
};

static int sl_param_set_uint(const char *val, const struct kernel_param *kp)
{
	struct sl_uint_param *p = kp->arg;
	unsigned int v;

	if (kstrtouint(val, 10, &v) || v < p->min || v > p->max) {
		sl_err("%s=%*pE is outside %u..%u (decimal)\n", kp->name,
		       (int)min_t(size_t, strlen(val), 32), val, p->min, p->max);
		return -EINVAL;
	}
	p->val = v;
	return 0;
}

static int sl_param_get_uint(char *buf, const struct kernel_param *kp)
{
	const struct sl_uint_param *p = kp->arg;

	return scnprintf(buf, PAGE_SIZE, "%u\n", p->val);
}

static const struct kernel_param_ops sl_uint_ops = {
	.set = sl_param_set_uint,
	.get = sl_param_get_uint,
};

static struct sl_uint_param flight_entries = { 16384, 256, 1U << 22 };
module_param_cb(flight_entries, &sl_uint_ops, &flight_entries, 0444);
MODULE_PARM_DESC(flight_entries,
		 "in-flight table slots, 256..4194304, rounded up to a power of two (default 16384)");

static struct sl_uint_param stale_ms = { 10000, 1, 3600000 };
module_param_cb(stale_ms, &sl_uint_ops, &stale_ms, 0444);
MODULE_PARM_DESC(stale_ms,
		 "age after which an unfinished in-flight entry may be reclaimed, 1..3600000 ms (default 10000)");

static struct sl_uint_param max_delta_ms = { 60000, 1, 3600000 };
module_param_cb(max_delta_ms, &sl_uint_ops, &max_delta_ms, 0444);
MODULE_PARM_DESC(max_delta_ms,
		 "deltas above this are discarded as absurd, 1..3600000 ms (default 60000)");

static struct sl_uint_param keyed_rows = { 8192, 256, 1U << 18 };
module_param_cb(keyed_rows, &sl_uint_ops, &keyed_rows, 0444);
MODULE_PARM_DESC(keyed_rows,
		 "rows of a keyed table (syscalls: one per process and syscall), 256..262144 (default 8192)");

static struct sl_uint_param keyed_cpu_rows = { 512, 64, 1U << 14 };
module_param_cb(keyed_cpu_rows, &sl_uint_ops, &keyed_cpu_rows, 0444);
MODULE_PARM_DESC(keyed_cpu_rows,
		 "rows each CPU counts in between folds, at most (it has two such buffers, from 16 rows; a full one spills into a buffer the CPUs share and grows x4 at the next fold), 64..16384 (default 512)");

static struct sl_uint_param keyed_linger_ms = { 5000, 0, 3600000 };
module_param_cb(keyed_linger_ms, &sl_uint_ops, &keyed_linger_ms, 0444);
MODULE_PARM_DESC(keyed_linger_ms,
		 "how long the rows of an ended process stay readable, 0..3600000 ms (default 5000)");

static struct sl_uint_param stack_slots = { 4096, SL_STACK_MIN_SLOTS,
					    SL_STACK_MAX_SLOTS };
module_param_cb(stack_slots, &sl_uint_ops, &stack_slots, 0444);
MODULE_PARM_DESC(stack_slots,
		 "distinct kernel stacks a pipeline's stack table holds, 16..65536, rounded up to a power of two (default 4096)");

static struct sl_uint_param stack_depth = { 32, SL_STACK_MIN_DEPTH,
					    SL_STACK_MAX_DEPTH };
module_param_cb(stack_depth, &sl_uint_ops, &stack_depth, 0444);
MODULE_PARM_DESC(stack_depth,
		 "frames kept of a kernel stack, 4..64 (default 32)");

static struct sl_uint_param event_rate = { 10000, 0, 10000000 };
module_param_cb(event_rate, &sl_uint_ops, &event_rate, 0444);
MODULE_PARM_DESC(event_rate,
		 "events a second written of each pipeline on each CPU, the rest counted suppressed; 0 no limit, ..10000000 (default 10000)");

static struct sl_uint_param cgroup_slots = { SL_DIM_SLOTS, 0, SL_DIM_SLOTS };
module_param_cb(cgroup_slots, &sl_uint_ops, &cgroup_slots, 0444);
MODULE_PARM_DESC(cgroup_slots,
		 "named per-cgroup total slots of each pipeline that keeps them, 0..8 (0: none)");

static struct sl_uint_param event_records = {
	STACKLAT_EVENTS_RING_DEFAULT, STACKLAT_EVENTS_RING_MIN,
	STACKLAT_EVENTS_RING_MAX };
module_param_cb(event_records, &sl_uint_ops, &event_records, 0444);
MODULE_PARM_DESC(event_records,
		 "slow-event records in each online CPU's ring (504 bytes each), 16..65536 (default 512)");

/* 0: not given (below its least value) */
static struct sl_uint_param event_records_start = {
	0, STACKLAT_EVENTS_RING_MIN, STACKLAT_EVENTS_RING_MAX };
module_param_cb(event_records_start, &sl_uint_ops, &event_records_start,
		0444);
MODULE_PARM_DESC(event_records_start,
		 "records a ring starts with, growing x4 up to event_records= when it is found more than half full, 16..65536 (default: event_records=, no growth)");

static char *enable;
module_param(enable, charp, 0444);
MODULE_PARM_DESC(enable, "comma-separated pipelines to enable at load");

static int __init sl_init(void)
{
	int ret;

	sl_max_delta_ns = (u64)max_delta_ms.val * NSEC_PER_MSEC;
	sl_keyed_rows = keyed_rows.val;
	sl_keyed_cpu_rows = keyed_cpu_rows.val;
	sl_keyed_linger_ns = (u64)keyed_linger_ms.val * NSEC_PER_MSEC;
	sl_stack_slots = stack_slots.val;
	sl_stack_depth = stack_depth.val;
	sl_events_rate = event_rate.val;
	sl_events_records = event_records.val;
	sl_events_start = event_records_start.val ?
			  min(event_records_start.val, event_records.val) :
			  event_records.val;
	sl_cgdim_slots = cgroup_slots.val;
	sl_cpus_init();
	sl_ft = sl_flight_create(flight_entries.val,
				 (u64)stale_ms.val * NSEC_PER_MSEC);
	if (!sl_ft) {
		sl_cpus_exit();
		return -ENOMEM;
	}
	ret = sl_pipelines_init(sl_all_pipelines, sl_all_npipelines);
	if (ret)
		goto err_flight;
	sl_sweep_start((u64)stale_ms.val * NSEC_PER_MSEC);
	ret = sl_debugfs_init();
	if (ret)
		goto err_pipelines;
	ret = sl_netlink_init();
	if (ret) {
		sl_err("cannot register the generic netlink family (%d)\n", ret);
		goto err_debugfs;
	}
#ifdef SL_PLANT_LEAK
	/* a test of the kmemleak verdict only (make check-kmemleak) */
	sl_info("planting a leak for the kmemleak check: %d\n",
		kmalloc(SL_PLANT_LEAK_SIZE, GFP_KERNEL) != NULL);
#endif
	ret = sl_modules_watch();
	if (ret)
		goto err_netlink;
	if (enable && *enable) {
		ret = sl_pipelines_enable_list(enable);
		if (ret)
			goto err_notifier;
	}
	return 0;

err_notifier:
	sl_modules_unwatch();
err_netlink:
	sl_netlink_exit();
err_debugfs:
	sl_debugfs_exit();
err_pipelines:
	sl_sweep_stop();
	sl_pipelines_exit();
err_flight:
	sl_flight_destroy(sl_ft);
	sl_ft = NULL;
	sl_cpus_exit();
	return ret;
}

static void __exit sl_exit(void)
{
	sl_modules_unwatch();
	sl_netlink_exit();
	sl_debugfs_exit();
	sl_sweep_stop();
	sl_pipelines_exit();
	/* nothing of ours may run once the module text is gone */
	tracepoint_synchronize_unregister();
	sl_events_exit();
	sl_flight_destroy(sl_ft);
	sl_ft = NULL;
	sl_cpus_exit();
}

module_init(sl_init);
module_exit(sl_exit);

MODULE_LICENSE("GPL");
MODULE_AUTHOR("The stacklat authors");
MODULE_DESCRIPTION("Per-layer kernel latency breakdown (network, storage, functions)");
MODULE_VERSION(SL_VERSION);
