// SPDX-License-Identifier: GPL-2.0
/*
 * Buffers for online CPUs (cpus.h): one multi-instance CPU hot-plug state
 * of the module, each user an instance.
 */
#include <linux/cpu.h>
#include <linux/cpuhotplug.h>
#include <linux/cpumask.h>

#include "cpus.h"
#include "fmt.h"

static int sl_cpus_state = -1;	/* the dynamic hot-plug state, or < 0 */

/* Process context: @cpu's hot-plug thread, the CPU just online. */
static int sl_cpus_online(unsigned int cpu, struct hlist_node *node)
{
	struct sl_cpus_user *u = hlist_entry(node, struct sl_cpus_user, node);

	/*
	 * Never fail a CPU's bringing up for a buffer: without it, probes
	 * on that CPU count their loss (cpus.h).
	 */
	if (u->online(u, cpu))
		sl_err("CPU %u online: no memory for its buffers; what runs there is counted lost\n",
		       cpu);
	return 0;
}

int sl_cpus_init(void)
{
	int ret;

	ret = cpuhp_setup_state_multi(CPUHP_AP_ONLINE_DYN, "stacklat:online",
				      sl_cpus_online, NULL);
	if (ret < 0) {
		sl_info("no CPU hot-plug state (%d): buffers for every possible CPU\n",
			ret);
		return 0;
	}
	sl_cpus_state = ret;
	return 0;
}

void sl_cpus_exit(void)
{
	if (sl_cpus_state >= 0)
		cpuhp_remove_multi_state(sl_cpus_state);
	sl_cpus_state = -1;
}

/*
 * Process context, may sleep: @u's buffers for the CPUs online now, and
 * for each that comes online until sl_cpus_del().  On -ENOMEM, what was
 * allocated stays for the user to free.
 */
int sl_cpus_add(struct sl_cpus_user *u)
{
	unsigned int cpu;
	int ret = 0;

	if (sl_cpus_state < 0) {
		for_each_possible_cpu(cpu) {
			ret = u->online(u, cpu);
			if (ret)
				return ret;
		}
		return 0;
	}
	/*
	 * The callbacks first, for the CPUs that come from now on; then,
	 * with no CPU coming or going (the read side of the hot-plug lock,
	 * which the callbacks run under the write side of), the CPUs online:
	 * each user allocates only what a CPU does not have yet.
	 */
	if (!u->added) {
		/* (a user retrying after -ENOMEM is added already) */
		ret = cpuhp_state_add_instance_nocalls(sl_cpus_state, &u->node);
		if (ret)
			return ret;
		u->added = true;
	}
	cpus_read_lock();
	for_each_online_cpu(cpu) {
		ret = u->online(u, cpu);
		if (ret)
			break;
	}
	cpus_read_unlock();
	return ret;
}

/* Process context: no more callbacks for @u once this returns. */
void sl_cpus_del(struct sl_cpus_user *u)
{
	if (u->added)
		cpuhp_state_remove_instance_nocalls(sl_cpus_state, &u->node);
	u->added = false;
}
