/* SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT */
/*
 * The filter grammar and the symbol syntax, one implementation shared
 * verbatim by the kernel module (control file), the stacklat tool
 * (command line) and the unit tests, as stacklat_hist.h shares the bucket
 * math.
 *
 * A filter is "clear", one or more words KEY=VALUE (each key at most
 * once), or "clear" first and then KEY=VALUE words (clear, then set those:
 * the control file adds to the current filter, a netlink request replaces
 * it, so for the tool "clear" in front changes nothing):
 *
 *   tgid=N tid=N     1..4194304
 *   lport=N rport=N  1..65535
 *   proto=tcp|udp
 *   ifindex=N        1..2147483647
 *   iface=NAME       a network interface name (resolved by the caller)
 *   dev=MAJ:MIN      major 0..4095, minor 0..1048575, not both 0
 *   dev=NAME         a block device /dev/NAME, or a path /... (resolved by
 *                    the caller)
 *   op=read|write|open|fsync
 *   fs=ext4|xfs|btrfs|bdev, a decimal 1..4294967295 or 0x + 1..8 hex digits
 *   cgroup=N         a cgroup v2 id, 1..2^63-1 (its directory's inode number)
 *   cgroup=/PATH     a cgroup v2 directory (resolved by the caller): the
 *                    tasks in that cgroup itself, not in its descendants
 *
 * Numbers are decimal only: digits, no sign, no spaces; leading zeros do
 * not make them octal (tgid=010 is 10).  Only fs= takes hexadecimal, and
 * only with an explicit 0x.
 *
 * Pure C: no allocation, no library call, no floating point; the caller
 * provides snprintf (the kernel's or libc's) for the error text.
 */
#ifndef _UAPI_STACKLAT_FILTER_H
#define _UAPI_STACKLAT_FILTER_H

#include <linux/types.h>
#include "stacklat.h"

#define STACKLAT_PID_LIMIT	4194304U	/* PID_MAX_LIMIT, 64-bit */
#define STACKLAT_DEV_MAJOR_MAX	0xfffU
#define STACKLAT_DEV_MINOR_MAX	0xfffffU
#define STACKLAT_DEV_MINORBITS	20
#define STACKLAT_DEV_NAME_MAX	48	/* dev=NAME, without "/dev/" */
#define STACKLAT_IFNAME_MAX	15	/* IFNAMSIZ - 1 */
#define STACKLAT_CGROUP_PATH_MAX 255	/* cgroup=/PATH */
#define STACKLAT_FS_MAGIC_EXT4	0xef53U
#define STACKLAT_FS_MAGIC_XFS	0x58465342U
#define STACKLAT_FS_MAGIC_BTRFS	0x9123683eU
#define STACKLAT_FS_MAGIC_BDEV	0x62646576U
#define STACKLAT_PROTO_TCP	6	/* IPPROTO_TCP */
#define STACKLAT_PROTO_UDP	17	/* IPPROTO_UDP */

/* How many characters of a user's word an error message quotes. */
#define STACKLAT_QUOTE_MAX	32

/* A parsed filter.  Names to resolve point into the caller's words. */
struct stacklat_filter_spec {
	__u32 mask;		/* 1 << STACKLAT_FILTER_A_* of the keys given */
	__u8 clear;		/* "clear" */
	__u8 proto;
	__u16 lport, rport;
	__u32 tgid, tid, ifindex, dev, op, fs;
	__u64 cgroup;
	const char *iface_name;	/* iface=NAME: ifindex still to resolve */
	const char *dev_name;	/* dev=NAME: dev still to resolve */
	const char *cgroup_name; /* cgroup=/PATH: cgroup still to resolve */
};

/* Keys, in the order of the grammar; iface and ifindex are one attribute. */
enum stacklat_filter_key {
	STACKLAT_FK_TGID,
	STACKLAT_FK_TID,
	STACKLAT_FK_LPORT,
	STACKLAT_FK_RPORT,
	STACKLAT_FK_PROTO,
	STACKLAT_FK_IFINDEX,
	STACKLAT_FK_IFACE,
	STACKLAT_FK_DEV,
	STACKLAT_FK_OP,
	STACKLAT_FK_FS,
	STACKLAT_FK_CGROUP,
	__STACKLAT_FK_MAX
};

static inline const char *stacklat_filter_key_name(unsigned int k)
{
	switch (k) {
	case STACKLAT_FK_TGID: return "tgid";
	case STACKLAT_FK_TID: return "tid";
	case STACKLAT_FK_LPORT: return "lport";
	case STACKLAT_FK_RPORT: return "rport";
	case STACKLAT_FK_PROTO: return "proto";
	case STACKLAT_FK_IFINDEX: return "ifindex";
	case STACKLAT_FK_IFACE: return "iface";
	case STACKLAT_FK_DEV: return "dev";
	case STACKLAT_FK_OP: return "op";
	case STACKLAT_FK_FS: return "fs";
	case STACKLAT_FK_CGROUP: return "cgroup";
	}
	return "?";
}

static inline const char *stacklat_filter_key_hint(unsigned int k)
{
	switch (k) {
	case STACKLAT_FK_TGID: return "a process id, 1..4194304";
	case STACKLAT_FK_TID: return "a thread id, 1..4194304";
	case STACKLAT_FK_LPORT:
	case STACKLAT_FK_RPORT: return "a port, 1..65535";
	case STACKLAT_FK_PROTO: return "tcp or udp";
	case STACKLAT_FK_IFINDEX: return "an interface index, 1..2147483647";
	case STACKLAT_FK_IFACE:
		return "a network interface name, 1..15 characters";
	case STACKLAT_FK_DEV:
		return "MAJ:MIN, major <= 4095, minor <= 1048575, or a block device name";
	case STACKLAT_FK_OP: return "read, write, open or fsync";
	case STACKLAT_FK_FS:
		return "ext4, xfs, btrfs, bdev or a magic number";
	case STACKLAT_FK_CGROUP:
		return "a cgroup v2 directory (/PATH) or id";
	}
	return "?";
}

static inline unsigned int stacklat_filter_key_attr(unsigned int k)
{
	switch (k) {
	case STACKLAT_FK_TGID: return STACKLAT_FILTER_A_TGID;
	case STACKLAT_FK_TID: return STACKLAT_FILTER_A_TID;
	case STACKLAT_FK_LPORT: return STACKLAT_FILTER_A_LPORT;
	case STACKLAT_FK_RPORT: return STACKLAT_FILTER_A_RPORT;
	case STACKLAT_FK_PROTO: return STACKLAT_FILTER_A_PROTO;
	case STACKLAT_FK_IFINDEX:
	case STACKLAT_FK_IFACE: return STACKLAT_FILTER_A_IFINDEX;
	case STACKLAT_FK_DEV: return STACKLAT_FILTER_A_DEV;
	case STACKLAT_FK_OP: return STACKLAT_FILTER_A_OP;
	case STACKLAT_FK_FS: return STACKLAT_FILTER_A_FS;
	case STACKLAT_FK_CGROUP: return STACKLAT_FILTER_A_CGROUP;
	}
	return STACKLAT_FILTER_A_UNSPEC;
}

/* The name of operation @op (enum stacklat_op), or NULL. */
static inline const char *stacklat_op_name(__u32 op)
{
	switch (op) {
	case STACKLAT_OP_READ: return "read";
	case STACKLAT_OP_WRITE: return "write";
	case STACKLAT_OP_OPEN: return "open";
	case STACKLAT_OP_FSYNC: return "fsync";
	}
	return (const char *)0;
}

/* The name of a filesystem the storage pipeline knows by @magic, or NULL. */
static inline const char *stacklat_fs_name(__u32 magic)
{
	switch (magic) {
	case STACKLAT_FS_MAGIC_EXT4: return "ext4";
	case STACKLAT_FS_MAGIC_XFS: return "xfs";
	case STACKLAT_FS_MAGIC_BTRFS: return "btrfs";
	case STACKLAT_FS_MAGIC_BDEV: return "bdev";
	}
	return (const char *)0;
}

static inline int stacklat_streq(const char *a, const char *b)
{
	while (*a && *a == *b) {
		a++;
		b++;
	}
	return *a == *b;
}

static inline __u64 stacklat_strlen(const char *s)
{
	__u64 n = 0;

	while (s[n])
		n++;
	return n;
}

/*
 * Unsigned decimal [@min, @max] of the @n characters at @s: digits only.
 * Returns 0, or -1 (empty, another character, overflow, out of range).
 */
static inline int stacklat_parse_dec(const char *s, __u64 n, __u64 min,
				     __u64 max, __u64 *out)
{
	__u64 v = 0, i;

	if (!n)
		return -1;
	for (i = 0; i < n; i++) {
		if (s[i] < '0' || s[i] > '9')
			return -1;
		if (v > (~0ULL - (__u64)(s[i] - '0')) / 10)
			return -1;
		v = v * 10 + (__u64)(s[i] - '0');
	}
	if (v < min || v > max)
		return -1;
	*out = v;
	return 0;
}

/* A printable word without blanks, quotes or backslashes, 1..@max long. */
static inline int stacklat_plain_word(const char *s, __u64 max)
{
	__u64 n = 0;

	for (; s[n]; n++)
		if (s[n] <= ' ' || s[n] >= 0x7f || s[n] == '\'' ||
		    s[n] == '"' || s[n] == '\\')
			return 0;
	return n && n <= max;
}

/*
 * A kernel function name for "func add|del": 1..STACKLAT_SYM_MAX-1
 * characters of [A-Za-z0-9_.], not starting with a digit or a dot
 * (compiler suffixes such as foo.isra.0 or foo.cold are allowed), with
 * optionally one "MODULE:" prefix of the same characters.
 */
static inline int stacklat_valid_symbol(const char *s)
{
	__u64 n = 0, seg = 0;
	int colons = 0;

	for (; s[n]; n++) {
		char c = s[n];

		if (c == ':') {
			if (!seg || colons++)
				return 0;
			seg = 0;
			continue;
		}
		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		      c == '_' || ((c >= '0' && c <= '9') || c == '.')))
			return 0;
		if (!seg && ((c >= '0' && c <= '9') || c == '.'))
			return 0;
		seg++;
	}
	return seg && n < STACKLAT_SYM_MAX;
}

/*
 * A user-space function for "func add|del" (issue 27):
 * "/PATH:0xOFFSET[:NAME]", the file (absolute, printable, no blank, quote
 * or backslash), the file offset of the function's first instruction (hex,
 * 1..16 digits) and optionally the name it is shown by
 * ([A-Za-z_$][A-Za-z0-9_.$]*), all under STACKLAT_SYM_MAX.  Returns the
 * length of "/PATH:0xOFFSET", which names the point, or 0 if @s is not
 * one.  (The tool resolves LIB:SYMBOL and PATH:SYMBOL to it.)
 */
static inline __u64 stacklat_hexoff_ok(const char *s, __u64 n)
{
	__u64 i;

	if (n < 3 || n > 18 || s[0] != '0' || s[1] != 'x')
		return 0;
	for (i = 2; i < n; i++)
		if (!((s[i] >= '0' && s[i] <= '9') ||
		      (s[i] >= 'a' && s[i] <= 'f') ||
		      (s[i] >= 'A' && s[i] <= 'F')))
			return 0;
	return 1;
}

static inline __u64 stacklat_valid_upoint(const char *s)
{
	__u64 n = stacklat_strlen(s), c1, c2, i;

	if (n < 6 || n >= STACKLAT_SYM_MAX || s[0] != '/' ||
	    !stacklat_plain_word(s, STACKLAT_SYM_MAX - 1))
		return 0;
	for (c1 = n; c1 > 0 && s[c1 - 1] != ':'; c1--)
		;
	if (c1 < 3)
		return 0;
	if (stacklat_hexoff_ok(s + c1, n - c1))
		return n;		/* no NAME */
	for (i = c1; i < n; i++) {
		char c = s[i];

		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		      c == '_' || c == '$' ||
		      (i > c1 && ((c >= '0' && c <= '9') || c == '.'))))
			return 0;
	}
	if (c1 == n)
		return 0;		/* an empty NAME */
	for (c2 = c1 - 1; c2 > 0 && s[c2 - 1] != ':'; c2--)
		;
	if (c2 < 3 || !stacklat_hexoff_ok(s + c2, c1 - 1 - c2))
		return 0;
	return c1 - 1;
}

/* An interface name as the kernel allows one (dev_valid_name()). */
static inline int stacklat_valid_ifname(const char *s)
{
	if (!stacklat_plain_word(s, STACKLAT_IFNAME_MAX) ||
	    stacklat_streq(s, ".") || stacklat_streq(s, ".."))
		return 0;
	for (; *s; s++)
		if (*s == '/' || *s == ':')
			return 0;
	return 1;
}

enum stacklat_filter_err {
	STACKLAT_FE_OK,
	STACKLAT_FE_EMPTY,		/* no word at all */
	STACKLAT_FE_CLEAR,		/* "clear" after the first word */
	STACKLAT_FE_NOT_KV,		/* no '=' */
	STACKLAT_FE_UNKNOWN_KEY,
	STACKLAT_FE_TWICE,		/* a key given twice */
	STACKLAT_FE_BAD_VALUE,
};

/* Where and why a filter was refused. */
struct stacklat_filter_error {
	int code;			/* enum stacklat_filter_err */
	int word;			/* index of the offending word */
	unsigned int key;		/* enum stacklat_filter_key, if known */
};

static inline int stacklat_filter_value(unsigned int k, const char *val,
					struct stacklat_filter_spec *f)
{
	__u64 n = stacklat_strlen(val), v, ma, i;

	if (!n)
		return -1;
	switch (k) {
	case STACKLAT_FK_TGID:
	case STACKLAT_FK_TID:
		if (stacklat_parse_dec(val, n, 1, STACKLAT_PID_LIMIT, &v))
			return -1;
		if (k == STACKLAT_FK_TGID)
			f->tgid = (__u32)v;
		else
			f->tid = (__u32)v;
		return 0;
	case STACKLAT_FK_LPORT:
	case STACKLAT_FK_RPORT:
		if (stacklat_parse_dec(val, n, 1, 65535, &v))
			return -1;
		if (k == STACKLAT_FK_LPORT)
			f->lport = (__u16)v;
		else
			f->rport = (__u16)v;
		return 0;
	case STACKLAT_FK_PROTO:
		if (stacklat_streq(val, "tcp"))
			f->proto = STACKLAT_PROTO_TCP;
		else if (stacklat_streq(val, "udp"))
			f->proto = STACKLAT_PROTO_UDP;
		else
			return -1;
		return 0;
	case STACKLAT_FK_IFINDEX:
		if (stacklat_parse_dec(val, n, 1, 0x7fffffff, &v))
			return -1;
		f->ifindex = (__u32)v;
		return 0;
	case STACKLAT_FK_IFACE:
		if (!stacklat_valid_ifname(val))
			return -1;
		f->iface_name = val;
		return 0;
	case STACKLAT_FK_DEV:
		for (i = 0; i < n && val[i] != ':'; i++)
			;
		if (i < n) {
			if (stacklat_parse_dec(val, i, 0, STACKLAT_DEV_MAJOR_MAX,
					       &ma) ||
			    stacklat_parse_dec(val + i + 1, n - i - 1, 0,
					       STACKLAT_DEV_MINOR_MAX, &v) ||
			    (!ma && !v))
				return -1;
			f->dev = (__u32)(ma << STACKLAT_DEV_MINORBITS | v);
			return 0;
		}
		if (!stacklat_plain_word(val, STACKLAT_DEV_NAME_MAX))
			return -1;
		f->dev_name = val;
		return 0;
	case STACKLAT_FK_OP:
		for (i = STACKLAT_OP_READ; i < __STACKLAT_OP_MAX; i++) {
			if (stacklat_streq(val, stacklat_op_name((__u32)i))) {
				f->op = (__u32)i;
				return 0;
			}
		}
		return -1;	/* whatever op= was before */
	case STACKLAT_FK_FS:
		if (stacklat_streq(val, "ext4"))
			v = STACKLAT_FS_MAGIC_EXT4;
		else if (stacklat_streq(val, "xfs"))
			v = STACKLAT_FS_MAGIC_XFS;
		else if (stacklat_streq(val, "btrfs"))
			v = STACKLAT_FS_MAGIC_BTRFS;
		else if (stacklat_streq(val, "bdev"))
			v = STACKLAT_FS_MAGIC_BDEV;
		else if (val[0] == '0' && (val[1] == 'x' || val[1] == 'X')) {
			if (n < 3 || n > 10)
				return -1;
			for (v = 0, i = 2; i < n; i++) {
				char c = val[i];
				int d = (c >= '0' && c <= '9') ? c - '0' :
					(c >= 'a' && c <= 'f') ? c - 'a' + 10 :
					(c >= 'A' && c <= 'F') ? c - 'A' + 10 :
					-1;

				if (d < 0)
					return -1;
				v = v << 4 | (__u64)d;
			}
		} else if (stacklat_parse_dec(val, n, 1, 0xffffffffU, &v)) {
			return -1;
		}
		if (!v)
			return -1;
		f->fs = (__u32)v;
		return 0;
	case STACKLAT_FK_CGROUP:
		if (val[0] == '/') {
			if (!stacklat_plain_word(val, STACKLAT_CGROUP_PATH_MAX))
				return -1;
			f->cgroup_name = val;
			return 0;
		}
		if (stacklat_parse_dec(val, n, 1, 0x7fffffffffffffffULL, &v))
			return -1;
		f->cgroup = v;
		return 0;
	}
	return -1;
}

/*
 * Parse the @n words of a filter into @out (cleared first).  Returns 0, or
 * -1 with @err filled; @out is then unspecified.
 */
static inline int stacklat_filter_parse(int n, const char *const *words,
					struct stacklat_filter_spec *out,
					struct stacklat_filter_error *err)
{
	__u8 *b = (__u8 *)out;
	unsigned int k;
	__u64 i;
	int w;

	for (i = 0; i < sizeof(*out); i++)
		b[i] = 0;
	out->iface_name = (const char *)0;
	out->dev_name = (const char *)0;
	out->cgroup_name = (const char *)0;
	err->code = STACKLAT_FE_OK;
	err->word = 0;
	err->key = __STACKLAT_FK_MAX;
	if (n < 1) {
		err->code = STACKLAT_FE_EMPTY;
		return -1;
	}
	for (w = 0; w < n; w++) {
		const char *word = words[w], *eq = word;

		err->word = w;
		if (stacklat_streq(word, "clear")) {
			if (w) {
				err->code = STACKLAT_FE_CLEAR;
				return -1;
			}
			out->clear = 1;
			continue;
		}
		while (*eq && *eq != '=')
			eq++;
		if (!*eq) {
			err->code = STACKLAT_FE_NOT_KV;
			return -1;
		}
		for (k = 0; k < __STACKLAT_FK_MAX; k++) {
			const char *name = stacklat_filter_key_name(k);

			i = stacklat_strlen(name);
			if ((__u64)(eq - word) == i) {
				while (i && word[i - 1] == name[i - 1])
					i--;
				if (!i)
					break;
			}
		}
		if (k == __STACKLAT_FK_MAX) {
			err->code = STACKLAT_FE_UNKNOWN_KEY;
			return -1;
		}
		err->key = k;
		if (out->mask & (1U << stacklat_filter_key_attr(k))) {
			err->code = STACKLAT_FE_TWICE;
			return -1;
		}
		if (stacklat_filter_value(k, eq + 1, out)) {
			err->code = STACKLAT_FE_BAD_VALUE;
			return -1;
		}
		out->mask |= 1U << stacklat_filter_key_attr(k);
	}
	return 0;
}

/*
 * The message for @err about @words, in @buf: the user's words are quoted
 * cut to STACKLAT_QUOTE_MAX characters (callers that log it escape what
 * is not printable).
 */
static inline void stacklat_filter_strerror(const struct stacklat_filter_error *err,
					    const char *const *words,
					    char *buf, __u64 len)
{
	const char *word = "", *eq;
	int klen;

	/* no word to quote when there was none (argv may hold NULL then) */
	if (words && err->code != STACKLAT_FE_EMPTY && words[err->word])
		word = words[err->word];
	eq = word;
	while (*eq && *eq != '=')
		eq++;
	klen = (int)(eq - word);
	if (klen > STACKLAT_QUOTE_MAX)
		klen = STACKLAT_QUOTE_MAX;
	switch (err->code) {
	case STACKLAT_FE_EMPTY:
		snprintf(buf, len, "no filter given: 'clear' or KEY=VALUE...");
		break;
	case STACKLAT_FE_CLEAR:
		snprintf(buf, len, "'clear' comes first (clear, then KEY=VALUE...)");
		break;
	case STACKLAT_FE_NOT_KV:
		snprintf(buf, len, "'%.*s' is not KEY=VALUE", STACKLAT_QUOTE_MAX,
			 word);
		break;
	case STACKLAT_FE_UNKNOWN_KEY:
		snprintf(buf, len,
			 "unknown filter key '%.*s' (keys: tgid tid lport rport proto ifindex iface dev op fs)",
			 klen, word);
		break;
	case STACKLAT_FE_TWICE:
		snprintf(buf, len, "filter key '%.*s' given twice%s", klen, word,
			 stacklat_filter_key_attr(err->key) ==
			 STACKLAT_FILTER_A_IFINDEX ?
			 " (ifindex and iface are one key)" : "");
		break;
	case STACKLAT_FE_BAD_VALUE:
		snprintf(buf, len, "bad value '%.*s' for '%.*s' (%s)",
			 STACKLAT_QUOTE_MAX, *eq ? eq + 1 : "", klen, word,
			 stacklat_filter_key_hint(err->key));
		break;
	default:
		snprintf(buf, len, "no error");
	}
}

#endif /* _UAPI_STACKLAT_FILTER_H */
