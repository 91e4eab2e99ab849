// SPDX-License-Identifier: GPL-2.0
/* Strict parsing of the command line (no libnl, no kernel access). */
#include <errno.h>
#include <net/if.h>
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <linux/magic.h>

#include "parse.h"

#define PID_LIMIT	4194304U	/* PID_MAX_LIMIT on 64-bit kernels */
#define KDEV_MINORBITS	20		/* the kernel's internal dev_t */
#define KDEV_MAJOR_MAX	0xfffU
#define KDEV_MINOR_MAX	0xfffffU

int parse_u64_range(const char *s, uint64_t min, uint64_t max, uint64_t *out)
{
	uint64_t v = 0;
	const char *p;

	if (!*s)
		return -1;
	for (p = s; *p; p++) {
		if (*p < '0' || *p > '9')
			return -1;
		if (v > (UINT64_MAX - (uint64_t)(*p - '0')) / 10)
			return -1;
		v = v * 10 + (uint64_t)(*p - '0');
	}
	if (v < min || v > max)
		return -1;
	*out = v;
	return 0;
}

bool is_number_word(const char *s)
{
	bool digit = false, dot = false;

	for (; *s; s++) {
		if (*s >= '0' && *s <= '9')
			digit = true;
		else if (*s == '.' && !dot)
			dot = true;
		else
			return false;
	}
	return digit;
}

int parse_interval(const char *s, uint64_t *ns)
{
	uint64_t whole = 0, frac = 0, scale = 100000000, v;
	const char *p = s;
	bool digits = false;

	for (; *p >= '0' && *p <= '9'; p++) {
		digits = true;
		if (whole > 86400)
			return -1;
		whole = whole * 10 + (uint64_t)(*p - '0');
	}
	if (*p == '.') {
		for (p++; *p >= '0' && *p <= '9'; p++) {
			digits = true;
			if (!scale)
				return -1;	/* finer than a nanosecond */
			frac += (uint64_t)(*p - '0') * scale;
			scale /= 10;
		}
	}
	if (*p || !digits || whole > 86400)
		return -1;
	v = whole * 1000000000ULL + frac;
	if (v < 1000000ULL || v > 86400ULL * 1000000000ULL)
		return -1;
	*ns = v;
	return 0;
}

bool valid_name(const char *s)
{
	size_t n = strlen(s);

	if (!n || n >= STACKLAT_NAME_MAX)
		return false;
	for (; *s; s++)
		if (*s <= ' ' || *s >= 0x7f || *s == '=' || *s == '/')
			return false;
	return true;
}

static const char * const op_names[] = {
	[STACKLAT_OP_READ] = "read",
	[STACKLAT_OP_WRITE] = "write",
	[STACKLAT_OP_OPEN] = "open",
	[STACKLAT_OP_FSYNC] = "fsync",
};

static const struct {
	const char *name;
	uint32_t magic;
} fs_names[] = {
	{ "ext4", EXT4_SUPER_MAGIC },
	{ "xfs", XFS_SUPER_MAGIC },
	{ "btrfs", BTRFS_SUPER_MAGIC },
	{ "bdev", BDEVFS_MAGIC },
};

/* dev=MAJ:MIN or dev=NAME (/dev/NAME) or dev=/path: the kernel's dev_t. */
static int parse_dev(const char *val, uint32_t *dev, char *err, size_t errlen)
{
	char path[256];
	const char *colon = strchr(val, ':');
	uint64_t ma, mi;
	struct stat st;

	if (colon) {
		char major[16];
		size_t n = (size_t)(colon - val);

		if (n >= sizeof(major))
			goto bad;
		memcpy(major, val, n);
		major[n] = '\0';
		if (parse_u64_range(major, 0, KDEV_MAJOR_MAX, &ma) ||
		    parse_u64_range(colon + 1, 0, KDEV_MINOR_MAX, &mi) ||
		    (!ma && !mi))
			goto bad;
		*dev = (uint32_t)(ma << KDEV_MINORBITS | mi);
		return 0;
	}
	if (snprintf(path, sizeof(path), "%s%s", val[0] == '/' ? "" : "/dev/",
		     val) >= (int)sizeof(path))
		goto bad;
	if (stat(path, &st)) {
		snprintf(err, errlen, "dev=%s: %s: %s", val, path, strerror(errno));
		return -1;
	}
	if (!S_ISBLK(st.st_mode)) {
		snprintf(err, errlen, "dev=%s: %s is not a block device", val, path);
		return -1;
	}
	if (major(st.st_rdev) > KDEV_MAJOR_MAX || minor(st.st_rdev) > KDEV_MINOR_MAX)
		goto bad;
	*dev = (uint32_t)(major(st.st_rdev) << KDEV_MINORBITS | minor(st.st_rdev));
	return 0;
bad:
	snprintf(err, errlen,
		 "bad value '%s' for 'dev' (MAJ:MIN, major <= %u, minor <= %u, or a block device name)",
		 val, KDEV_MAJOR_MAX, KDEV_MINOR_MAX);
	return -1;
}

static int parse_fs(const char *val, uint32_t *magic)
{
	uint64_t v = 0;
	const char *p;
	size_t i;

	for (i = 0; i < sizeof(fs_names) / sizeof(fs_names[0]); i++) {
		if (!strcmp(val, fs_names[i].name)) {
			*magic = fs_names[i].magic;
			return 0;
		}
	}
	if (val[0] == '0' && (val[1] == 'x' || val[1] == 'X')) {
		if (!val[2] || strlen(val + 2) > 8)
			return -1;
		for (p = val + 2; *p; p++) {
			int d = (*p >= '0' && *p <= '9') ? *p - '0' :
				(*p >= 'a' && *p <= 'f') ? *p - 'a' + 10 :
				(*p >= 'A' && *p <= 'F') ? *p - 'A' + 10 : -1;

			if (d < 0)
				return -1;
			v = v << 4 | (uint64_t)d;
		}
	} else if (parse_u64_range(val, 1, UINT32_MAX, &v)) {
		return -1;
	}
	if (!v)
		return -1;
	*magic = (uint32_t)v;
	return 0;
}

static const struct {
	const char *key;
	int attr;
	const char *hint;
} filter_keys[] = {
	{ "tgid", STACKLAT_FILTER_A_TGID, "a process id, 1..4194304" },
	{ "tid", STACKLAT_FILTER_A_TID, "a thread id, 1..4194304" },
	{ "lport", STACKLAT_FILTER_A_LPORT, "a port, 1..65535" },
	{ "rport", STACKLAT_FILTER_A_RPORT, "a port, 1..65535" },
	{ "proto", STACKLAT_FILTER_A_PROTO, "tcp or udp" },
	{ "ifindex", STACKLAT_FILTER_A_IFINDEX, "an interface index, 1..2147483647" },
	{ "iface", STACKLAT_FILTER_A_IFINDEX, "an existing network interface" },
	{ "dev", STACKLAT_FILTER_A_DEV, "MAJ:MIN or a block device name" },
	{ "op", STACKLAT_FILTER_A_OP, "read, write, open or fsync" },
	{ "fs", STACKLAT_FILTER_A_FS, "ext4, xfs, btrfs, bdev or a magic number" },
};

#define NKEYS (sizeof(filter_keys) / sizeof(filter_keys[0]))

static int filter_word(const char *word, struct filter_spec *f, char *err,
		       size_t errlen)
{
	const char *eq = strchr(word, '='), *val;
	uint64_t v;
	size_t i, klen;
	int attr = -1;

	if (!eq) {
		snprintf(err, errlen, "'%s' is not KEY=VALUE", word);
		return -1;
	}
	klen = (size_t)(eq - word);
	val = eq + 1;
	for (i = 0; i < NKEYS; i++) {
		if (strlen(filter_keys[i].key) == klen &&
		    !strncmp(word, filter_keys[i].key, klen)) {
			attr = filter_keys[i].attr;
			break;
		}
	}
	if (attr < 0) {
		snprintf(err, errlen,
			 "unknown filter key '%.*s' (keys: tgid tid lport rport proto ifindex iface dev op fs)",
			 (int)klen, word);
		return -1;
	}
	if (f->mask & FILTER_BIT(attr)) {
		snprintf(err, errlen, "filter key '%.*s' given twice%s", (int)klen, word,
			 attr == STACKLAT_FILTER_A_IFINDEX ? " (ifindex and iface are one key)" : "");
		return -1;
	}
	if (!*val)
		goto bad;
	switch (attr) {
	case STACKLAT_FILTER_A_TGID:
	case STACKLAT_FILTER_A_TID:
		if (parse_u64_range(val, 1, PID_LIMIT, &v))
			goto bad;
		if (attr == STACKLAT_FILTER_A_TGID)
			f->tgid = (uint32_t)v;
		else
			f->tid = (uint32_t)v;
		break;
	case STACKLAT_FILTER_A_LPORT:
	case STACKLAT_FILTER_A_RPORT:
		if (parse_u64_range(val, 1, 65535, &v))
			goto bad;
		if (attr == STACKLAT_FILTER_A_LPORT)
			f->lport = (uint16_t)v;
		else
			f->rport = (uint16_t)v;
		break;
	case STACKLAT_FILTER_A_PROTO:
		if (!strcmp(val, "tcp"))
			f->proto = IPPROTO_TCP;
		else if (!strcmp(val, "udp"))
			f->proto = IPPROTO_UDP;
		else
			goto bad;
		break;
	case STACKLAT_FILTER_A_IFINDEX:
		if (klen == 7) {	/* ifindex= */
			if (parse_u64_range(val, 1, INT32_MAX, &v))
				goto bad;
			f->ifindex = (uint32_t)v;
		} else {		/* iface= */
			if (strlen(val) >= IF_NAMESIZE) {
				snprintf(err, errlen, "iface=%s: name too long", val);
				return -1;
			}
			f->ifindex = if_nametoindex(val);
			if (!f->ifindex) {
				snprintf(err, errlen, "iface=%s: no such network interface", val);
				return -1;
			}
		}
		break;
	case STACKLAT_FILTER_A_DEV:
		if (parse_dev(val, &f->dev, err, errlen))
			return -1;
		break;
	case STACKLAT_FILTER_A_OP:
		f->op = 0;
		for (i = STACKLAT_OP_READ; i < __STACKLAT_OP_MAX; i++)
			if (!strcmp(val, op_names[i]))
				f->op = (uint32_t)i;
		if (!f->op)
			goto bad;
		break;
	case STACKLAT_FILTER_A_FS:
		if (parse_fs(val, &f->fs))
			goto bad;
		break;
	}
	f->mask |= FILTER_BIT(attr);
	return 0;
bad:
	for (i = 0; i < NKEYS; i++)
		if (filter_keys[i].attr == attr &&
		    strlen(filter_keys[i].key) == klen &&
		    !strncmp(word, filter_keys[i].key, klen))
			break;
	snprintf(err, errlen, "bad value '%s' for '%.*s' (%s)", val, (int)klen,
		 word, i < NKEYS ? filter_keys[i].hint : "?");
	return -1;
}

int parse_filter(int argc, char **argv, struct filter_spec *out, char *err,
		 size_t errlen)
{
	struct filter_spec f;
	int i;

	memset(&f, 0, sizeof(f));
	if (argc < 1) {
		snprintf(err, errlen, "no filter given: 'clear' or KEY=VALUE...");
		return -1;
	}
	if (!strcmp(argv[0], "clear")) {
		if (argc > 1) {
			snprintf(err, errlen, "'clear' takes no KEY=VALUE (a filter replaces the old one anyway)");
			return -1;
		}
		f.clear = true;
		*out = f;
		return 0;
	}
	for (i = 0; i < argc; i++) {
		if (!strcmp(argv[i], "clear")) {
			snprintf(err, errlen, "'clear' takes no KEY=VALUE (a filter replaces the old one anyway)");
			return -1;
		}
		if (filter_word(argv[i], &f, err, errlen))
			return -1;
	}
	*out = f;
	return 0;
}

void filter_format(const struct filter_spec *f, char *buf, size_t len)
{
	size_t n = 0, i;

#define ADD(...) do { \
		int r_ = snprintf(buf + n, len - n, __VA_ARGS__); \
		if (r_ > 0) \
			n = n + (size_t)r_ < len ? n + (size_t)r_ : len - 1; \
	} while (0)
	buf[0] = '\0';
	if (!len)
		return;
	if (f->mask & FILTER_BIT(STACKLAT_FILTER_A_TGID))
		ADD(" tgid=%u", f->tgid);
	if (f->mask & FILTER_BIT(STACKLAT_FILTER_A_TID))
		ADD(" tid=%u", f->tid);
	if (f->mask & FILTER_BIT(STACKLAT_FILTER_A_LPORT))
		ADD(" lport=%u", f->lport);
	if (f->mask & FILTER_BIT(STACKLAT_FILTER_A_RPORT))
		ADD(" rport=%u", f->rport);
	if (f->mask & FILTER_BIT(STACKLAT_FILTER_A_PROTO)) {
		if (f->proto == IPPROTO_TCP)
			ADD(" proto=tcp");
		else if (f->proto == IPPROTO_UDP)
			ADD(" proto=udp");
		else
			ADD(" proto=%u", f->proto);
	}
	if (f->mask & FILTER_BIT(STACKLAT_FILTER_A_IFINDEX))
		ADD(" ifindex=%u", f->ifindex);
	if (f->mask & FILTER_BIT(STACKLAT_FILTER_A_DEV))
		ADD(" dev=%u:%u", f->dev >> KDEV_MINORBITS, f->dev & KDEV_MINOR_MAX);
	if (f->mask & FILTER_BIT(STACKLAT_FILTER_A_OP)) {
		if (f->op > 0 && f->op < __STACKLAT_OP_MAX)
			ADD(" op=%s", op_names[f->op]);
		else if (f->op)
			ADD(" op=%u", f->op);
	}
	if (f->mask & FILTER_BIT(STACKLAT_FILTER_A_FS)) {
		const char *name = NULL;

		for (i = 0; i < sizeof(fs_names) / sizeof(fs_names[0]); i++)
			if (fs_names[i].magic == f->fs)
				name = fs_names[i].name;
		if (name)
			ADD(" fs=%s", name);
		else
			ADD(" fs=0x%x", f->fs);
	}
	if (!n)
		ADD(" none");
#undef ADD
}

int parse_show_args(int argc, char **argv, struct show_args *a, char *err,
		    size_t errlen)
{
	int i, k;

	memset(a, 0, sizeof(*a));
	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "-j") || !strcmp(argv[i], "--json")) {
			a->json = true;
			continue;
		}
		if (argv[i][0] == '-') {
			snprintf(err, errlen, "unknown option '%s'", argv[i]);
			return -1;
		}
		if (is_number_word(argv[i]))
			break;
		if (!valid_name(argv[i])) {
			snprintf(err, errlen, "'%s' is not a pipeline name", argv[i]);
			return -1;
		}
		for (k = 0; k < a->npipes; k++)
			if (!strcmp(a->pipes[k], argv[i]))
				break;
		if (k < a->npipes)
			continue;
		if (a->npipes >= SHOW_MAX_PIPES) {
			snprintf(err, errlen, "more than %d pipelines", SHOW_MAX_PIPES);
			return -1;
		}
		a->pipes[a->npipes++] = argv[i];
	}
	if (i < argc) {
		if (parse_interval(argv[i], &a->interval_ns)) {
			snprintf(err, errlen,
				 "bad INTERVAL '%s' (seconds, 0.001 to 86400)", argv[i]);
			return -1;
		}
		for (i++; i < argc; i++) {
			if (!strcmp(argv[i], "-j") || !strcmp(argv[i], "--json")) {
				a->json = true;
				continue;
			}
			if (a->count || parse_u64_range(argv[i], 1, 1000000000, &a->count)) {
				snprintf(err, errlen, a->count ?
					 "unexpected '%s' after COUNT" :
					 "bad COUNT '%s' (a positive integer)", argv[i]);
				return -1;
			}
		}
	}
	return 0;
}

int parse_hist_args(int argc, char **argv, struct hist_args *a, char *err,
		    size_t errlen)
{
	int i;

	memset(a, 0, sizeof(*a));
	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--fine") || !strcmp(argv[i], "-f")) {
			a->fine = true;
		} else if (argv[i][0] == '-') {
			snprintf(err, errlen, "unknown option '%s'", argv[i]);
			return -1;
		} else if (!a->pipe) {
			if (!valid_name(argv[i])) {
				snprintf(err, errlen, "'%s' is not a pipeline name", argv[i]);
				return -1;
			}
			a->pipe = argv[i];
		} else if (!a->stage) {
			a->stage = argv[i];
		} else {
			snprintf(err, errlen, "unexpected '%s'", argv[i]);
			return -1;
		}
	}
	if (!a->pipe) {
		snprintf(err, errlen, "which pipeline?");
		return -1;
	}
	return 0;
}
