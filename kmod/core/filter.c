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
#include <linux/namei.h>
#include <linux/path.h>
#include <net/netlink.h>
#include <linux/netdevice.h>
#include <net/net_namespace.h>

#include "filter.h"
#include "fmt.h"
#include "stacklat_filter.h"

/* dev=NAME: the block device /dev/NAME (or the path NAME). */
static int sl_filter_dev_name(const char *val, u32 *dev)
{
	char path[STACKLAT_DEV_NAME_MAX + 8];
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

/* iface=NAME: an interface of the initial network namespace. */
static int sl_filter_iface(const char *name, u32 *ifindex)
{
	struct net_device *dev = dev_get_by_name(&init_net, name);

	if (!dev)
		return -ENODEV;
	*ifindex = dev->ifindex;
	dev_put(dev);
	return 0;
}

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
	/* in the same task test as tgid= (filter.h): where tgid= is */
	[STACKLAT_FILTER_A_CGROUP] = SL_F_TGID,
};

#define SL_FILTER_WORDS	16

/*
 * cgroup=/PATH: a directory of the cgroup v2 hierarchy (the caller's path,
 * e.g. /sys/fs/cgroup/a); its id is the directory's inode number (kernfs).
 */
static int sl_filter_cgroup_path(const char *val, u64 *id)
{
	struct path path;
	struct inode *inode;
	int ret;

	ret = kern_path(val, LOOKUP_FOLLOW | LOOKUP_DIRECTORY, &path);
	if (ret)
		return ret;
	inode = d_inode(path.dentry);
	if (inode->i_sb->s_magic != CGROUP2_SUPER_MAGIC)
		ret = -ENOTDIR;
	else
		*id = inode->i_ino;
	path_put(&path);
	return ret;
}

/*
 * "clear" or a list of key=value words, merged into a copy of the current
 * filter; @args is modified.  The grammar is uapi/stacklat_filter.h, the
 * code the tool runs on its command line.  Nothing is applied here: the
 * caller sets the result.
 */
int sl_filter_parse(struct sl_pipeline *p, char *args, struct sl_filter *f)
{
	const char *words[SL_FILTER_WORDS];
	struct stacklat_filter_spec s;
	struct stacklat_filter_error e;
	char *word, msg[160];
	unsigned int a, k;
	int n = 0, ret;

	while ((word = strsep(&args, " \t")) != NULL) {
		if (!*word)
			continue;
		if (n == SL_FILTER_WORDS) {
			sl_err("filter: more than %d words\n", SL_FILTER_WORDS);
			return -EINVAL;
		}
		words[n++] = word;
	}
	if (stacklat_filter_parse(n, words, &s, &e)) {
		stacklat_filter_strerror(&e, n ? words : NULL, msg, sizeof(msg));
		sl_err("filter: %*pE\n", (int)strlen(msg), msg);
		return -EINVAL;
	}
	for (k = 0; k < __STACKLAT_FK_MAX; k++) {
		a = stacklat_filter_key_attr(k);
		if ((s.mask & BIT(a)) && !(p->filter_caps & sl_filter_attr_cap[a])) {
			if (a == STACKLAT_FILTER_A_IFINDEX &&
			    (k == STACKLAT_FK_IFACE) != !!s.iface_name)
				continue;
			sl_err("filter: pipeline %s has no '%s' filter\n", p->name,
			       stacklat_filter_key_name(k));
			return -EINVAL;
		}
	}
	if (s.iface_name && sl_filter_iface(s.iface_name, &s.ifindex)) {
		sl_err("filter: iface=%*pE: no such network interface\n",
		       (int)strlen(s.iface_name), s.iface_name);
		return -ENODEV;
	}
	if (s.dev_name) {
		ret = sl_filter_dev_name(s.dev_name, &s.dev);
		if (ret) {
			sl_err("filter: dev=%*pE: not a block device (%d)\n",
			       (int)strlen(s.dev_name), s.dev_name, ret);
			return ret == -ENOMEM ? ret : -ENODEV;
		}
	}
	if (s.cgroup_name) {
		ret = sl_filter_cgroup_path(s.cgroup_name, &s.cgroup);
		if (ret) {
			sl_err("filter: cgroup=%*pE: not a cgroup v2 directory (%d)\n",
			       (int)strlen(s.cgroup_name), s.cgroup_name, ret);
			return ret == -ENOMEM ? ret : -ENOENT;
		}
	}
	*f = p->priv.filter;
	if (s.clear)
		memset(f, 0, sizeof(*f));
	if (s.mask & BIT(STACKLAT_FILTER_A_TGID))
		f->tgid = s.tgid;
	if (s.mask & BIT(STACKLAT_FILTER_A_TID))
		f->tid = s.tid;
	if (s.mask & BIT(STACKLAT_FILTER_A_LPORT))
		f->lport = s.lport;
	if (s.mask & BIT(STACKLAT_FILTER_A_RPORT))
		f->rport = s.rport;
	if (s.mask & BIT(STACKLAT_FILTER_A_PROTO))
		f->proto = s.proto;
	if (s.mask & BIT(STACKLAT_FILTER_A_IFINDEX))
		f->ifindex = s.ifindex;
	if (s.mask & BIT(STACKLAT_FILTER_A_DEV))
		f->dev = s.dev;
	if (s.mask & BIT(STACKLAT_FILTER_A_OP))
		f->op = s.op;
	if (s.mask & BIT(STACKLAT_FILTER_A_FS))
		f->fs = s.fs;
	if (s.mask & BIT(STACKLAT_FILTER_A_CGROUP))
		f->cgroup = s.cgroup;
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
	[STACKLAT_FILTER_A_CGROUP] = { .type = NLA_U64 },
};

/*
 * The ranges of the text grammar (uapi/stacklat_filter.h) for a netlink
 * attribute: 0 never means "any" here, leaving the attribute out does.
 */
static bool sl_filter_nla_ok(int type, const struct nlattr *a)
{
	u32 v;

	if (type == STACKLAT_FILTER_A_CGROUP)
		return nla_get_u64(a) && nla_get_u64(a) <= S64_MAX;
	v = type == STACKLAT_FILTER_A_PROTO ? nla_get_u8(a) :
		type == STACKLAT_FILTER_A_LPORT ||
		type == STACKLAT_FILTER_A_RPORT ? nla_get_u16(a) :
		nla_get_u32(a);

	switch (type) {
	case STACKLAT_FILTER_A_TGID:
	case STACKLAT_FILTER_A_TID:
		return v && v <= STACKLAT_PID_LIMIT;
	case STACKLAT_FILTER_A_IFINDEX:
		return v && v <= INT_MAX;
	case STACKLAT_FILTER_A_DEV:
		return v && (v >> STACKLAT_DEV_MINORBITS) <= STACKLAT_DEV_MAJOR_MAX;
	case STACKLAT_FILTER_A_OP:
		return stacklat_op_name(v);
	default:
		return v;	/* ports, fs magic; proto is checked below */
	}
}

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
	for (i = 1; i <= STACKLAT_FILTER_A_MAX; i++) {
		if (tb[i] && !sl_filter_nla_ok(i, tb[i])) {
			NL_SET_ERR_MSG_ATTR(extack, tb[i],
					    "filter value out of range");
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
	if (tb[STACKLAT_FILTER_A_CGROUP])
		f->cgroup = nla_get_u64(tb[STACKLAT_FILTER_A_CGROUP]);
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
		n += scnprintf(buf + n, len - n, " op=%s",
			       stacklat_op_name(f->op) ?: "?");
	if (f->fs) {
		const char *name = stacklat_fs_name(f->fs);

		if (name)
			n += scnprintf(buf + n, len - n, " fs=%s", name);
		else
			n += scnprintf(buf + n, len - n, " fs=0x%x", f->fs);
	}
	if (f->cgroup)
		n += scnprintf(buf + n, len - n, " cgroup=%llu", f->cgroup);
	if (!n)
		n = scnprintf(buf, len, " none");
	return n;
}
