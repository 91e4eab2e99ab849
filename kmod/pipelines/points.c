// SPDX-License-Identifier: GPL-2.0
/*
 * Points named at run time: what "func add" (func.c) and "span add"
 * (span.c) share (points.h).  Process context, sl_lock held.
 */
#include <linux/kernel.h>
#include <linux/string.h>
#include <linux/kprobes.h>

#include "sl.h"
#include "stacklat_filter.h"
#include "points.h"

/*
 * A disabled trial kprobe (no code is patched) tells a missing symbol
 * (ENOENT) from one kprobes refuse (EINVAL: the kprobe blacklist, noinstr
 * or entry code).
 */
int sl_points_why(const char *who, const char *sym, int err,
		  struct netlink_ext_ack *extack)
{
	static struct kprobe kp;	/* under sl_lock */
	int ret;

	lockdep_assert_held(&sl_lock);
	memset(&kp, 0, sizeof(kp));
	kp.symbol_name = sym;
	kp.flags = KPROBE_FLAG_DISABLED;
	ret = register_kprobe(&kp);
	if (!ret)
		unregister_kprobe(&kp);
	if (ret == -ENOENT) {
		NL_SET_ERR_MSG(extack, "no such function");
		sl_err("%s: %s: no such function\n", who, sym);
		return -ENOENT;
	}
	if (ret == -EINVAL) {
		NL_SET_ERR_MSG(extack, "cannot probe that function: blacklisted");
		sl_err("%s: cannot probe %s: blacklisted (kprobes refuse it)\n",
		       who, sym);
		return -EINVAL;
	}
	NL_SET_ERR_MSG(extack, "cannot probe that function");
	sl_err("%s: cannot probe %s (%d)\n", who, sym, ret ? ret : err);
	return ret ? ret : err;
}

void sl_points_user_names(const char *spec, char *target, char *stage)
{
	size_t n = stacklat_valid_upoint(spec);
	const char *base, *off;

	memcpy(target, spec, n);
	target[n] = '\0';
	if (spec[n]) {
		strscpy(stage, spec + n + 1, STACKLAT_NAME_MAX);
		return;
	}
	off = strrchr(target, ':');
	base = strrchr(target, '/') + 1;
	snprintf(stage, STACKLAT_NAME_MAX, "%.*s+%s",
		 (int)min_t(size_t, off - base, STACKLAT_NAME_MAX), base,
		 off + 1);
}

int sl_points_user_check(const char *who, const char *target,
			 struct netlink_ext_ack *extack)
{
	int ret = sl_uprobe_check(target);

	switch (ret) {
	case 0:
		return 0;
	case -ENOENT:
	case -ENOTDIR:
		NL_SET_ERR_MSG(extack, "no such file");
		sl_err("%s: %s: no such file\n", who, target);
		return -ENOENT;
	case -ENOEXEC:
		NL_SET_ERR_MSG(extack, "not a regular file");
		sl_err("%s: %s: not a regular file\n", who, target);
		return -EINVAL;
	case -ERANGE:
		NL_SET_ERR_MSG(extack, "offset beyond the end of the file");
		sl_err("%s: %s: offset beyond the end of the file\n", who,
		       target);
		return -ERANGE;
	}
	NL_SET_ERR_MSG(extack, "cannot look the file up");
	sl_err("%s: %s: cannot look the file up (%d)\n", who, target, ret);
	return ret;
}
