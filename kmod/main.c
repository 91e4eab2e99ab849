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

#include "sl.h"

static unsigned int flight_entries = 16384;
module_param(flight_entries, uint, 0444);
MODULE_PARM_DESC(flight_entries,
		 "in-flight table slots, 256..4194304, rounded up to a power of two (default 16384)");

static unsigned int stale_ms = 10000;
module_param(stale_ms, uint, 0444);
MODULE_PARM_DESC(stale_ms,
		 "age after which an unfinished in-flight entry may be reclaimed, 1..3600000 ms (default 10000)");

static unsigned int max_delta_ms = 60000;
module_param(max_delta_ms, uint, 0444);
MODULE_PARM_DESC(max_delta_ms,
		 "deltas above this are discarded as absurd, 1..3600000 ms (default 60000)");

static char *enable;
module_param(enable, charp, 0444);
MODULE_PARM_DESC(enable, "comma-separated pipelines to enable at load");

u64 sl_max_delta_ns;
struct sl_flight *sl_ft;

static int __init sl_params_check(void)
{
	if (flight_entries < 256 || flight_entries > (1U << 22)) {
		sl_err("flight_entries=%u is outside 256..4194304\n",
		       flight_entries);
		return -EINVAL;
	}
	if (!stale_ms || stale_ms > 3600000) {
		sl_err("stale_ms=%u is outside 1..3600000\n", stale_ms);
		return -EINVAL;
	}
	if (!max_delta_ms || max_delta_ms > 3600000) {
		sl_err("max_delta_ms=%u is outside 1..3600000\n", max_delta_ms);
		return -EINVAL;
	}
	sl_max_delta_ns = (u64)max_delta_ms * NSEC_PER_MSEC;
	return 0;
}

static int __init sl_init(void)
{
	int ret;

	ret = sl_params_check();
	if (ret)
		return ret;
	sl_ft = sl_flight_create(flight_entries, (u64)stale_ms * NSEC_PER_MSEC);
	if (!sl_ft)
		return -ENOMEM;
	ret = sl_pipelines_init();
	if (ret)
		goto err_flight;
	sl_sweep_start((u64)stale_ms * NSEC_PER_MSEC);
	ret = sl_debugfs_init();
	if (ret)
		goto err_pipelines;
	ret = sl_netlink_init();
	if (ret) {
		sl_err("cannot register the generic netlink family (%d)\n", ret);
		goto err_debugfs;
	}
	if (enable && *enable) {
		ret = sl_pipelines_enable_list(enable);
		if (ret)
			goto err_netlink;
	}
	return 0;

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
	return ret;
}

static void __exit sl_exit(void)
{
	sl_netlink_exit();
	sl_debugfs_exit();
	sl_sweep_stop();
	sl_pipelines_exit();
	/* nothing of ours may run once the module text is gone */
	tracepoint_synchronize_unregister();
	sl_flight_destroy(sl_ft);
	sl_ft = NULL;
}

module_init(sl_init);
module_exit(sl_exit);

MODULE_LICENSE("GPL");
MODULE_AUTHOR("The stacklat authors");
MODULE_DESCRIPTION("Per-layer kernel latency breakdown (network, storage, functions)");
MODULE_VERSION(SL_VERSION);
