// SPDX-License-Identifier: GPL-2.0
/* Strict parsing of the command line (no libnl, no kernel access). */
#include <dirent.h>
#include <errno.h>
#include <net/if.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/sysmacros.h>

#include "parse.h"
#include "stacklat_filter.h"

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

/* dev=NAME (/dev/NAME) or dev=/path: the kernel's dev_t of a block device. */
static int resolve_dev(const char *val, uint32_t *dev, char *err, size_t errlen)
{
	char path[STACKLAT_DEV_NAME_MAX + 8];
	struct stat st;

	snprintf(path, sizeof(path), "%s%s", val[0] == '/' ? "" : "/dev/", val);
	if (stat(path, &st)) {
		snprintf(err, errlen, "dev=%s: %s: %s", val, path, strerror(errno));
		return -1;
	}
	if (!S_ISBLK(st.st_mode)) {
		snprintf(err, errlen, "dev=%s: %s is not a block device", val, path);
		return -1;
	}
	if (major(st.st_rdev) > STACKLAT_DEV_MAJOR_MAX ||
	    minor(st.st_rdev) > STACKLAT_DEV_MINOR_MAX) {
		snprintf(err, errlen, "dev=%s: device number too large", val);
		return -1;
	}
	*dev = (uint32_t)(major(st.st_rdev) << STACKLAT_DEV_MINORBITS |
			  minor(st.st_rdev));
	return 0;
}

#ifndef CGROUP2_SUPER_MAGIC
#define CGROUP2_SUPER_MAGIC 0x63677270
#endif

const char *cgroup2_mount(char *buf, size_t len)
{
	char dev[64], dir[256], type[32];
	const char *found = NULL;
	FILE *m = fopen("/proc/self/mounts", "r");

	if (!m)
		return NULL;
	while (fscanf(m, "%63s %255s %31s %*[^\n]", dev, dir, type) == 3) {
		if (!strcmp(type, "cgroup2")) {
			snprintf(buf, len, "%s", dir);
			found = buf;
			break;
		}
	}
	fclose(m);
	return found;
}

/* ---- a cgroup v2 id's path: the directories under the mount ---- */

static int cg_name_add(struct cg_names *n, uint64_t id, const char *path)
{
	if (n->n == n->cap) {
		size_t cap = n->cap ? 2 * n->cap : 64;
		struct cg_name *e = realloc(n->e, cap * sizeof(*e));

		if (!e)
			return -1;
		n->e = e;
		n->cap = cap;
	}
	n->e[n->n].id = id;
	n->e[n->n].path = strdup(path);
	if (!n->e[n->n].path)
		return -1;
	n->n++;
	return 0;
}

/* @dir's subdirectories, @rel its path under the mount ("" for the root) */
static int cg_walk(struct cg_names *n, const char *dir, const char *rel,
		   unsigned int depth)
{
	char sub[4096], srel[4096];
	struct dirent *e;
	struct stat st;
	int ret = 0;
	DIR *d;

	d = opendir(dir);
	if (!d)
		return 0;	/* gone while we walked: as if removed */
	while (!ret && (e = readdir(d))) {
		if (e->d_type != DT_DIR && e->d_type != DT_UNKNOWN)
			continue;
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		if ((size_t)snprintf(sub, sizeof(sub), "%s/%s", dir, e->d_name) >= sizeof(sub) ||
		    (size_t)snprintf(srel, sizeof(srel), "%s/%s", rel, e->d_name) >= sizeof(srel))
			continue;
		if (stat(sub, &st) || !S_ISDIR(st.st_mode))
			continue;
		ret = cg_name_add(n, (uint64_t)st.st_ino, srel);
		if (!ret && depth < 64)
			ret = cg_walk(n, sub, srel, depth + 1);
	}
	closedir(d);
	return ret;
}

static int cg_name_cmp(const void *x, const void *y)
{
	const struct cg_name *a = x, *b = y;

	return a->id < b->id ? -1 : a->id > b->id;
}

static void cg_names_clear(struct cg_names *n)
{
	size_t i;

	for (i = 0; i < n->n; i++)
		free(n->e[i].path);
	n->n = 0;
}

int cg_names_load(struct cg_names *n)
{
	struct stat st;
	int ret;

	cg_names_clear(n);
	n->loaded = true;
	ret = stat(n->root, &st) || cg_name_add(n, (uint64_t)st.st_ino, "/") ||
	      cg_walk(n, n->root, "", 0) ? -1 : 0;
	/* what was found, in order, even when the walk stopped */
	if (n->n)
		qsort(n->e, n->n, sizeof(*n->e), cg_name_cmp);
	return ret;
}

void cg_names_free(struct cg_names *n)
{
	cg_names_clear(n);
	free(n->e);
	n->e = NULL;
	n->cap = 0;
	n->loaded = false;
}

/* The path of cgroup @id, or NULL when the walk does not have it. */
const char *cg_names_find(const struct cg_names *n, uint64_t id)
{
	struct cg_name k = { .id = id }, *e;

	e = n->n ? bsearch(&k, n->e, n->n, sizeof(*n->e), cg_name_cmp) : NULL;
	return e ? e->path : NULL;
}

const char *cgroup_path_of(uint64_t id, char *buf, size_t len)
{
	static struct cg_names cache;
	static uint64_t scanned_ns;	/* CLOCK_MONOTONIC of the last walk */
	struct timespec ts;
	const char *p;
	uint64_t now;

	if (!id)
		return "-";
	p = cg_names_find(&cache, id);
	if (p)
		return p;
	/* a miss walks the hierarchy again, at most every 100 ms */
	clock_gettime(CLOCK_MONOTONIC, &ts);
	now = (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
	if (!scanned_ns || now - scanned_ns >= 100000000ULL) {
		scanned_ns = now;
		if (cache.root[0] || cgroup2_mount(cache.root, sizeof(cache.root))) {
			cg_names_load(&cache);
			p = cg_names_find(&cache, id);
			if (p)
				return p;
		}
	}
	snprintf(buf, len, "%llu", (unsigned long long)id);
	return buf;
}

/*
 * cgroup=/PATH: a directory of the cgroup v2 hierarchy, as a path of the
 * hierarchy (/a/b, under where it is mounted) or of the file system
 * (/sys/fs/cgroup/a/b); its id is the directory's inode number.
 */
static int resolve_cgroup(const char *val, uint64_t *id, char *err, size_t errlen)
{
	char mnt[256], path[600];
	struct statfs sf;
	struct stat st;
	size_t ml;

	if (!cgroup2_mount(mnt, sizeof(mnt))) {
		snprintf(err, errlen, "cgroup=%s: not available: no cgroup v2 hierarchy is mounted (a cgroup v1-only host)",
			 val);
		return -1;
	}
	ml = strlen(mnt);
	if (!strncmp(val, mnt, ml) && (val[ml] == '/' || !val[ml]))
		snprintf(path, sizeof(path), "%s", val);
	else	/* a path of the hierarchy: under the mount */
		snprintf(path, sizeof(path), "%s%s", mnt, strcmp(val, "/") ? val : "");
	if (stat(path, &st) || !S_ISDIR(st.st_mode) || statfs(path, &sf) ||
	    (unsigned long)sf.f_type != CGROUP2_SUPER_MAGIC) {
		snprintf(err, errlen, "cgroup=%s: %s is not a cgroup v2 directory", val, path);
		return -1;
	}
	*id = (uint64_t)st.st_ino;
	return 0;
}

/*
 * The grammar is uapi/stacklat_filter.h, the same code the module runs
 * for its control file; only the names (iface=, dev=NAME) are resolved
 * here, in the caller's namespaces.
 */
int parse_filter(int argc, char **argv, struct filter_spec *out, char *err,
		 size_t errlen)
{
	struct stacklat_filter_spec s;
	struct stacklat_filter_error e;
	struct filter_spec f;

	if (stacklat_filter_parse(argc, (const char *const *)argv, &s, &e)) {
		stacklat_filter_strerror(&e, (const char *const *)argv, err, errlen);
		return -1;
	}
	if (s.iface_name) {
		s.ifindex = if_nametoindex(s.iface_name);
		if (!s.ifindex) {
			snprintf(err, errlen, "iface=%s: no such network interface",
				 s.iface_name);
			return -1;
		}
	}
	if (s.dev_name && resolve_dev(s.dev_name, &s.dev, err, errlen))
		return -1;
	if (s.cgroup_name) {
		uint64_t id;

		if (resolve_cgroup(s.cgroup_name, &id, err, errlen))
			return -1;
		s.cgroup = id;
	}
	memset(&f, 0, sizeof(f));
	f.mask = s.mask;
	f.clear = s.clear;
	f.tgid = s.tgid;
	f.tid = s.tid;
	f.lport = s.lport;
	f.rport = s.rport;
	f.proto = s.proto;
	f.ifindex = s.ifindex;
	f.dev = s.dev;
	f.op = s.op;
	f.fs = s.fs;
	f.cgroup = s.cgroup;
	*out = f;
	return 0;
}

void filter_format(const struct filter_spec *f, char *buf, size_t len)
{
	size_t n = 0;

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
		ADD(" dev=%u:%u", f->dev >> STACKLAT_DEV_MINORBITS,
		    f->dev & STACKLAT_DEV_MINOR_MAX);
	if (f->mask & FILTER_BIT(STACKLAT_FILTER_A_OP)) {
		if (stacklat_op_name(f->op))
			ADD(" op=%s", stacklat_op_name(f->op));
		else if (f->op)
			ADD(" op=%u", f->op);
	}
	if (f->mask & FILTER_BIT(STACKLAT_FILTER_A_FS)) {
		const char *name = stacklat_fs_name(f->fs);

		if (name)
			ADD(" fs=%s", name);
		else
			ADD(" fs=0x%x", f->fs);
	}
	if (f->mask & FILTER_BIT(STACKLAT_FILTER_A_CGROUP))
		ADD(" cgroup=%llu", (unsigned long long)f->cgroup);
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
		} else if (!strcmp(argv[i], "-j") || !strcmp(argv[i], "--json")) {
			a->json = true;
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

int parse_duration(const char *s, uint64_t *ns)
{
	static const struct { const char *u; uint64_t mul; } units[] = {
		{ "ns", 1 }, { "us", 1000 }, { "ms", 1000000 }, { "s", 1000000000 },
	};
	uint64_t v = 0;
	size_t i;

	if (!strcmp(s, "0")) {
		*ns = 0;
		return 0;
	}
	if (*s < '0' || *s > '9')
		return -1;
	for (; *s >= '0' && *s <= '9'; s++) {
		if (v > 3600000000000ULL)
			return -1;
		v = v * 10 + (uint64_t)(*s - '0');
	}
	for (i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
		if (strcmp(s, units[i].u))
			continue;
		if (v > 3600000000000ULL / units[i].mul)
			return -1;
		*ns = v * units[i].mul;
		return 0;
	}
	return -1;
}
