// SPDX-License-Identifier: GPL-2.0
/*
 * The change requests (CAP_SYS_ADMIN or CAP_PERFMON): SET_PIPELINE
 * (enable, threshold, stacks, filter), RESET, FUNC_ADD/DEL.  Each is
 * change_msg(), its attributes, change() (nl.c).
 */
#include <stdbool.h>
#include <stdint.h>
#include <netlink/attr.h>

#include "format.h"
#include "nl.h"
#include "nl_priv.h"

void sl_nl_set_threshold(const char *pipe, uint64_t ns)
{
	struct nl_msg *msg = change_msg(STACKLAT_CMD_SET_PIPELINE, pipe);

	if (nla_put_u64(msg, STACKLAT_A_THRESHOLD_NS, ns))
		fatal("out of memory");
	change(msg, "threshold %s", pipe);
}

void sl_nl_set_sample(const char *pipe, uint32_t n, bool autom)
{
	struct nl_msg *msg = change_msg(STACKLAT_CMD_SET_PIPELINE, pipe);

	if (nla_put_u32(msg, autom ? STACKLAT_A_SAMPLE_AUTO : STACKLAT_A_SAMPLE, n))
		fatal("out of memory");
	change(msg, "sample %s %s%u", pipe, autom ? "auto " : "", n);
}

void sl_nl_enable(const char *pipe, bool on)
{
	struct nl_msg *msg = change_msg(STACKLAT_CMD_SET_PIPELINE, pipe);

	if (nla_put_u8(msg, STACKLAT_A_ENABLE, on))
		fatal("out of memory");
	change(msg, "%s %s", on ? "enable" : "disable", pipe);
}

void sl_nl_set_stacks(const char *pipe, bool on)
{
	struct nl_msg *msg;

	if (!module_knows(STACKLAT_A_STACKS))
		fatal("stacks %s %s: the module is older than this tool (no stacks at a pipeline's points)",
		      on ? "on" : "off", pipe);
	msg = change_msg(STACKLAT_CMD_SET_PIPELINE, pipe);
	if (nla_put_u8(msg, STACKLAT_A_STACKS, on))
		fatal("out of memory");
	change(msg, "stacks %s %s", on ? "on" : "off", pipe);
}

void sl_nl_set_cgtotals(const char *pipe, bool on)
{
	struct nl_msg *msg;

	if (!module_knows(STACKLAT_A_CGTOTALS))
		fatal("cgtotals %s %s: the module is older than this tool (no switch for per-cgroup totals)",
		      pipe, on ? "on" : "off");
	msg = change_msg(STACKLAT_CMD_SET_PIPELINE, pipe);
	if (nla_put_u8(msg, STACKLAT_A_CGTOTALS, on))
		fatal("out of memory");
	change(msg, "cgtotals %s %s", pipe, on ? "on" : "off");
}

void sl_nl_set_filter(const char *pipe, const struct filter_spec *f)
{
	struct nl_msg *msg = change_msg(STACKLAT_CMD_SET_PIPELINE, pipe);
	struct nlattr *nest;
	int bad = 0;

	/* libnl < 3.10 does not set NLA_F_NESTED; the kernel's strict
	 * validation requires it */
	nest = nla_nest_start(msg, STACKLAT_A_FILTER | NLA_F_NESTED);
	if (!nest)
		fatal("out of memory");
#define PUT(attr, type, v) \
	if (f->mask & FILTER_BIT(attr)) \
		bad |= nla_put_##type(msg, attr, v)
	PUT(STACKLAT_FILTER_A_TGID, u32, f->tgid);
	PUT(STACKLAT_FILTER_A_TID, u32, f->tid);
	PUT(STACKLAT_FILTER_A_LPORT, u16, f->lport);
	PUT(STACKLAT_FILTER_A_RPORT, u16, f->rport);
	PUT(STACKLAT_FILTER_A_PROTO, u8, f->proto);
	PUT(STACKLAT_FILTER_A_IFINDEX, u32, f->ifindex);
	PUT(STACKLAT_FILTER_A_DEV, u32, f->dev);
	PUT(STACKLAT_FILTER_A_OP, u32, f->op);
	PUT(STACKLAT_FILTER_A_FS, u32, f->fs);
	PUT(STACKLAT_FILTER_A_CGROUP, u64, f->cgroup);
#undef PUT
	if (bad)
		fatal("out of memory");
	/* an empty nest clears the filter: keep it (nla_nest_end drops it) */
	if (nla_nest_end_keep_empty(msg, nest))
		fatal("out of memory");
	change(msg, "filter %s", pipe);
}

void sl_nl_reset(const char *pipe)
{
	change(change_msg(STACKLAT_CMD_RESET, pipe), "reset%s%s", pipe ? " " : "",
	       pipe ? pipe : "");
}

void sl_nl_func(bool add, const char *symbol)
{
	struct nl_msg *msg = change_msg(add ? STACKLAT_CMD_FUNC_ADD : STACKLAT_CMD_FUNC_DEL,
					NULL);

	put_name(msg, STACKLAT_A_FUNC_SYMBOL, symbol);
	change(msg, "func %s %s", add ? "add" : "del", symbol);
}

/* ---- kernel stacks (issue 28) ----------------------------------------------- */

void sl_nl_point(const char *pipe, bool add, const char *symbol)
{
	struct nl_msg *msg = change_msg(add ? STACKLAT_CMD_FUNC_ADD : STACKLAT_CMD_FUNC_DEL,
					pipe);

	put_name(msg, STACKLAT_A_FUNC_SYMBOL, symbol);
	change(msg, "%s %s %s", pipe, add ? "add" : "del", symbol);
}
