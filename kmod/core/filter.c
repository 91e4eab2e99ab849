// SPDX-License-Identifier: GPL-2.0
/*
 * Filters shared by all pipelines.  Each pipeline says which keys it
 * honours (filter_caps); setting a key a pipeline cannot honour is an error,
 * never a silent accept.
 */
#include <linux/kernel.h>
#include <linux/string.h>
#include <linux/kdev_t.h>
#include <linux/in.h>
#include <linux/fs.h>
#include <linux/blkdev.h>
#include <linux/magic.h>
#include <net/netlink.h>

#include "sl.h"

static const char * const sl_op_names[__STACKLAT_OP_MAX] = {
	[STACKLAT_OP_ANY] = "any",
	[STACKLAT_OP_READ] = "read",
	[STACKLAT_OP_WRITE] = "write",
	[STACKLAT_OP_OPEN] = "open",
	[STACKLAT_OP_FSYNC] = "fsync",
};

/* Filesystems the storage pipeline has hooks for, by name (fs=). */
static const struct {
	const char *name;
	u32 magic;
} sl_fs_names[] = {
	{ "ext4", EXT4_SUPER_MAGIC },	/* also ext2 and ext3 */
	{ "xfs", XFS_SUPER_MAGIC },
	{ "btrfs", BTRFS_SUPER_MAGIC },
	{ "bdev", BDEVFS_MAGIC },	/* a block device read directly */
};

/* dev=NAME: the block device /dev/NAME (or the path NAME). */
static int sl_filter_dev_name(const char *val, u32 *dev)
{
	char path[64];
	dev_t d;
	int ret;

	if (snprintf(path, sizeof(path), "%s%s", val[0] == '/' ? "" : "/dev/",
		     val) >= sizeof(path))
		return -EINVAL;
	ret = sl_compat_lookup_bdev(path, &d);
	if (ret)
		return ret;
	*dev = d;
	return 0;
}

static const struct {
	const char *name;
	u32 cap;
} sl_filter_keys[] = {
	{ "tgid", SL_F_TGID },
	{ "tid", SL_F_TID },
	{ "lport", SL_F_LPORT },
	{ "rport", SL_F_RPORT },
	{ "proto", SL_F_PROTO },
	{ "ifindex", SL_F_IFINDEX },
	{ "dev", SL_F_DEV },
	{ "op", SL_F_OP },
	{ "fs", SL_F_FS },
};

static int sl_filter_set(struct sl_pipeline *p, struct sl_filter *f,
			 const char *key, const char *val)
{
	unsigned int i, ma, mi;
	u32 cap = 0, v32;
	u16 v16;
	char extra;

	for (i = 0; i < ARRAY_SIZE(sl_filter_keys); i++)
		if (!strcmp(key, sl_filter_keys[i].name))
			cap = sl_filter_keys[i].cap;
	if (!cap) {
		sl_err("filter: unknown key '%s'\n", key);
		return -EINVAL;
	}
	if (!(p->filter_caps & cap)) {
		sl_err("filter: pipeline %s has no '%s' filter\n", p->name, key);
		return -EINVAL;
	}
	switch (cap) {
	case SL_F_TGID:
	case SL_F_TID:
	case SL_F_IFINDEX:
		if (kstrtou32(val, 0, &v32) || !v32)
			goto bad;
		if (cap == SL_F_TGID)
			f->tgid = v32;
		else if (cap == SL_F_TID)
			f->tid = v32;
		else
			f->ifindex = v32;
		return 0;
	case SL_F_LPORT:
	case SL_F_RPORT:
		if (kstrtou16(val, 0, &v16) || !v16)
			goto bad;
		if (cap == SL_F_LPORT)
			f->lport = v16;
		else
			f->rport = v16;
		return 0;
	case SL_F_PROTO:
		if (!strcmp(val, "tcp"))
			f->proto = IPPROTO_TCP;
		else if (!strcmp(val, "udp"))
			f->proto = IPPROTO_UDP;
		else
			goto bad;
		return 0;
	case SL_F_DEV:
		if (sscanf(val, "%u:%u%c", &ma, &mi, &extra) == 2) {
			if (ma > 0xfff || mi > 0xfffff || (!ma && !mi))
				goto bad;
			f->dev = MKDEV(ma, mi);
			return 0;
		}
		if (!sl_filter_dev_name(val, &f->dev))
			return 0;
		goto bad;
	case SL_F_OP:
		for (i = STACKLAT_OP_READ; i < __STACKLAT_OP_MAX; i++)
			if (!strcmp(val, sl_op_names[i]))
				f->op = i;
		if (!f->op)
			goto bad;
		return 0;
	case SL_F_FS:
		v32 = 0;
		for (i = 0; i < ARRAY_SIZE(sl_fs_names); i++)
			if (!strcmp(val, sl_fs_names[i].name))
				v32 = sl_fs_names[i].magic;
		if (!v32 && (kstrtou32(val, 0, &v32) || !v32))
			goto bad;
		f->fs = v32;
		return 0;
	}
bad:
	sl_err("filter: bad value '%s' for '%s'\n", val, key);
	return -EINVAL;
}

/* "clear" or a list of key=value words; @args is modified. */
int sl_filter_parse(struct sl_pipeline *p, char *args, struct sl_filter *f)
{
	char *word, *val;
	int ret;

	*f = p->filter;
	while ((word = strsep(&args, " \t")) != NULL) {
		if (!*word)
			continue;
		if (!strcmp(word, "clear")) {
			memset(f, 0, sizeof(*f));
			continue;
		}
		val = strchr(word, '=');
		if (!val || !val[1]) {
			sl_err("filter: '%s' is not key=value\n", word);
			return -EINVAL;
		}
		*val++ = '\0';
		ret = sl_filter_set(p, f, word, val);
		if (ret)
			return ret;
	}
	return 0;
}

static const struct nla_policy sl_filter_policy[STACKLAT_FILTER_A_MAX + 1] = {
	[STACKLAT_FILTER_A_TGID] = { .type = NLA_U32 },
	[STACKLAT_FILTER_A_TID] = { .type = NLA_U32 },
	[STACKLAT_FILTER_A_LPORT] = { .type = NLA_U16 },
	[STACKLAT_FILTER_A_RPORT] = { .type = NLA_U16 },
	[STACKLAT_FILTER_A_PROTO] = { .type = NLA_U8 },
	[STACKLAT_FILTER_A_IFINDEX] = { .type = NLA_U32 },
	[STACKLAT_FILTER_A_DEV] = { .type = NLA_U32 },
	[STACKLAT_FILTER_A_OP] = { .type = NLA_U32 },
	[STACKLAT_FILTER_A_FS] = { .type = NLA_U32 },
};

static const u32 sl_filter_attr_cap[STACKLAT_FILTER_A_MAX + 1] = {
	[STACKLAT_FILTER_A_TGID] = SL_F_TGID,
	[STACKLAT_FILTER_A_TID] = SL_F_TID,
	[STACKLAT_FILTER_A_LPORT] = SL_F_LPORT,
	[STACKLAT_FILTER_A_RPORT] = SL_F_RPORT,
	[STACKLAT_FILTER_A_PROTO] = SL_F_PROTO,
	[STACKLAT_FILTER_A_IFINDEX] = SL_F_IFINDEX,
	[STACKLAT_FILTER_A_DEV] = SL_F_DEV,
	[STACKLAT_FILTER_A_OP] = SL_F_OP,
	[STACKLAT_FILTER_A_FS] = SL_F_FS,
};

/* A netlink filter nest replaces the whole filter; an empty one clears it. */
int sl_filter_from_nla(struct sl_pipeline *p, const struct nlattr *nla,
		       struct sl_filter *f, struct netlink_ext_ack *extack)
{
	struct nlattr *tb[STACKLAT_FILTER_A_MAX + 1];
	int i, ret;

	ret = nla_parse_nested(tb, STACKLAT_FILTER_A_MAX, nla, sl_filter_policy,
			       extack);
	if (ret)
		return ret;
	memset(f, 0, sizeof(*f));
	for (i = 1; i <= STACKLAT_FILTER_A_MAX; i++) {
		if (!tb[i])
			continue;
		if (!(p->filter_caps & sl_filter_attr_cap[i])) {
			NL_SET_ERR_MSG_ATTR(extack, tb[i],
					    "this pipeline has no such filter");
			return -EINVAL;
		}
	}
	if (tb[STACKLAT_FILTER_A_TGID])
		f->tgid = nla_get_u32(tb[STACKLAT_FILTER_A_TGID]);
	if (tb[STACKLAT_FILTER_A_TID])
		f->tid = nla_get_u32(tb[STACKLAT_FILTER_A_TID]);
	if (tb[STACKLAT_FILTER_A_LPORT])
		f->lport = nla_get_u16(tb[STACKLAT_FILTER_A_LPORT]);
	if (tb[STACKLAT_FILTER_A_RPORT])
		f->rport = nla_get_u16(tb[STACKLAT_FILTER_A_RPORT]);
	if (tb[STACKLAT_FILTER_A_PROTO]) {
		f->proto = nla_get_u8(tb[STACKLAT_FILTER_A_PROTO]);
		if (f->proto != IPPROTO_TCP && f->proto != IPPROTO_UDP) {
			NL_SET_ERR_MSG_ATTR(extack, tb[STACKLAT_FILTER_A_PROTO],
					    "proto must be TCP or UDP");
			return -EINVAL;
		}
	}
	if (tb[STACKLAT_FILTER_A_IFINDEX])
		f->ifindex = nla_get_u32(tb[STACKLAT_FILTER_A_IFINDEX]);
	if (tb[STACKLAT_FILTER_A_DEV])
		f->dev = nla_get_u32(tb[STACKLAT_FILTER_A_DEV]);
	if (tb[STACKLAT_FILTER_A_OP]) {
		f->op = nla_get_u32(tb[STACKLAT_FILTER_A_OP]);
		if (f->op >= __STACKLAT_OP_MAX) {
			NL_SET_ERR_MSG_ATTR(extack, tb[STACKLAT_FILTER_A_OP],
					    "unknown operation");
			return -EINVAL;
		}
	}
	if (tb[STACKLAT_FILTER_A_FS])
		f->fs = nla_get_u32(tb[STACKLAT_FILTER_A_FS]);
	return 0;
}

int sl_filter_fmt(const struct sl_filter *f, char *buf, size_t len)
{
	int n = 0;

	buf[0] = '\0';
	if (f->tgid)
		n += scnprintf(buf + n, len - n, " tgid=%u", f->tgid);
	if (f->tid)
		n += scnprintf(buf + n, len - n, " tid=%u", f->tid);
	if (f->lport)
		n += scnprintf(buf + n, len - n, " lport=%u", f->lport);
	if (f->rport)
		n += scnprintf(buf + n, len - n, " rport=%u", f->rport);
	if (f->proto)
		n += scnprintf(buf + n, len - n, " proto=%s",
			       f->proto == IPPROTO_TCP ? "tcp" : "udp");
	if (f->ifindex)
		n += scnprintf(buf + n, len - n, " ifindex=%u", f->ifindex);
	if (f->dev)
		n += scnprintf(buf + n, len - n, " dev=%u:%u", MAJOR(f->dev),
			       MINOR(f->dev));
	if (f->op)
		n += scnprintf(buf + n, len - n, " op=%s", sl_op_names[f->op]);
	if (f->fs) {
		const char *name = NULL;
		unsigned int i;

		for (i = 0; i < ARRAY_SIZE(sl_fs_names); i++)
			if (f->fs == sl_fs_names[i].magic)
				name = sl_fs_names[i].name;
		if (name)
			n += scnprintf(buf + n, len - n, " fs=%s", name);
		else
			n += scnprintf(buf + n, len - n, " fs=0x%x", f->fs);
	}
	if (!n)
		n = scnprintf(buf, len, " none");
	return n;
}
