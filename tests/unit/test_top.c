// SPDX-License-Identifier: GPL-2.0
/*
 * "stacklat top syscalls" (tool/top.c): its command line, syscall and
 * errno names, deltas between samples, the summed and sorted table, its
 * text and its JSON; and "stacklat top disk": the same for the disktop
 * rows, and disk names from a sysfs tree; and "stacklat top sched"
 * (tool/top_sched.c): its arguments, quantiles from log2 buckets, threads
 * summed per process, sorting, deltas and JSON.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "format.h"
#include "top.h"

/* row @i of a keyed set of struct sc_row, of struct dk_row */
#define SC(s, i)	(((struct sc_row *)(s).r)[i])
#define DK(s, i)	(((struct dk_row *)(s).r)[i])
#define SD(s, i)	(((struct sd_row *)(s).r)[i])

static int parse(const char *line, struct top_args *a, char *err)
{
	char buf[256], *argv[32];
	int argc = 0;
	char *w, *save = NULL;

	snprintf(buf, sizeof(buf), "top %s", line);
	for (w = strtok_r(buf, " ", &save); w && argc < 31; w = strtok_r(NULL, " ", &save))
		argv[argc++] = w;
	argv[argc] = NULL;
	return parse_top_args(argc, argv, a, err, 160);
}

static void test_args(void **state)
{
	struct top_args a;
	char err[160];

	(void)state;
	assert_int_equal(parse("syscalls", &a, err), 0);
	assert_int_equal(a.top, 10);
	assert_false(a.json || a.errors || a.by_process || a.pid || a.interval_ns);
	assert_int_equal(parse("syscalls -p 42 -x -s time -n 3 -j 0.5 4", &a, err), 0);
	assert_int_equal(a.pid, 42);
	assert_true(a.errors && a.json);
	assert_int_equal(a.sort, TOP_SORT_TIME);
	assert_int_equal(a.top, 3);
	assert_int_equal(a.interval_ns, 500000000ULL);
	assert_int_equal(a.count, 4);
	assert_int_equal(parse("--pid 7 --errors --sort count --top 0 --json syscalls 2", &a, err), 0);
	assert_int_equal(a.pid, 7);
	assert_int_equal(a.top, 0);
	assert_int_equal(a.interval_ns, 2000000000ULL);
	assert_int_equal(parse("-P syscalls", &a, err), 0);
	assert_true(a.by_process);

	assert_int_equal(parse("", &a, err), -1);
	assert_int_equal(parse("disks", &a, err), -1);
	assert_non_null(strstr(err, "syscalls"));
	assert_non_null(strstr(err, "disk"));
	assert_int_equal(parse("syscalls -p 0", &a, err), -1);
	assert_int_equal(parse("syscalls -p x", &a, err), -1);
	assert_int_equal(parse("syscalls -s size", &a, err), -1);
	assert_int_equal(parse("syscalls -n -1", &a, err), -1);
	assert_int_equal(parse("syscalls -p", &a, err), -1);
	assert_non_null(strstr(err, "needs a value"));
	assert_int_equal(parse("syscalls -q", &a, err), -1);
	assert_int_equal(parse("syscalls 1 2 3", &a, err), -1);
	assert_int_equal(parse("syscalls 0", &a, err), -1);
	assert_int_equal(parse("syscalls 1 0", &a, err), -1);
	assert_int_equal(parse("syscalls -P -p 3", &a, err), -1);
}

static void test_names(void **state)
{
	char b[48], e[24];

	(void)state;
	assert_string_equal(sc_name(STACKLAT_SC_ABI_NATIVE, 110, b, sizeof(b)), "getppid");
	assert_string_equal(sc_name(STACKLAT_SC_ABI_NATIVE, 4, b, sizeof(b)), "stat");
	assert_string_equal(sc_name(STACKLAT_SC_ABI_NATIVE, 0, b, sizeof(b)), "read");
	assert_string_equal(sc_name(STACKLAT_SC_ABI_COMPAT, 64, b, sizeof(b)), "i386:getppid");
	assert_string_equal(sc_name(STACKLAT_SC_ABI_X32, 512, b, sizeof(b)), "x32:rt_sigaction");
	assert_string_equal(sc_name(STACKLAT_SC_ABI_X32, 0, b, sizeof(b)), "x32:read");
	assert_string_equal(sc_name(STACKLAT_SC_ABI_NATIVE, 9999, b, sizeof(b)), "syscall_9999");
	/* from 424 on, the common table of every ABI */
	assert_string_equal(sc_name(STACKLAT_SC_ABI_NATIVE, 435, b, sizeof(b)), "clone3");
	assert_string_equal(sc_name(STACKLAT_SC_ABI_COMPAT, 435, b, sizeof(b)), "i386:clone3");
	assert_string_equal(sc_name(STACKLAT_SC_ABI_X32, 435, b, sizeof(b)), "x32:clone3");
	assert_string_equal(sc_name(__STACKLAT_SC_ABI_MAX, 435, b, sizeof(b)), "abi?:syscall_435");
	assert_string_equal(sc_name(STACKLAT_SC_ABI_NATIVE, STACKLAT_SC_NR_INVALID, b,
				    sizeof(b)), "(invalid)");
	assert_string_equal(errno_name(ENOENT, e, sizeof(e)), "ENOENT");
	assert_string_equal(errno_name(-EACCES, e, sizeof(e)), "EACCES");
	assert_string_equal(errno_name(512, e, sizeof(e)), "ERESTARTSYS");
	assert_string_equal(errno_name(516, e, sizeof(e)), "ERESTART_RESTARTBLOCK");
	assert_string_equal(errno_name(4000, e, sizeof(e)), "errno4000");
}

static struct sc_row row(uint32_t tgid, uint32_t abi, uint32_t nr, uint64_t count,
			 uint64_t errors, uint64_t time_ns, uint32_t err)
{
	struct sc_row r;

	memset(&r, 0, sizeof(r));
	r.tgid = tgid;
	r.abi = abi;
	r.nr = nr;
	snprintf(r.comm, sizeof(r.comm), "p%u", tgid);
	r.count = count;
	r.errors = errors;
	r.time_ns = time_ns;
	r.max_ns = count ? time_ns / count * 2 : 0;
	if (errors) {
		r.nerr = 1;
		r.errs[0].err = err;
		r.errs[0].count = errors;
	}
	r.hist[stacklat_sc_bucket(count ? time_ns / count : 0)] = count;
	return r;
}

static void set(struct keyed_set *s, const struct sc_row *r, size_t n, uint64_t gen)
{
	s->r = malloc(n * sizeof(*r) + 1);
	memcpy(s->r, r, n * sizeof(*r));
	s->n = s->cap = n;
	s->generation = gen;
}

static void test_delta(void **state)
{
	struct sc_row p[] = {
		row(1, 0, 110, 100, 0, 1000, 0),
		row(1, 0, 4, 10, 10, 500, ENOENT),
		row(2, 0, 110, 5, 0, 50, 0),		/* gone next time */
	};
	struct sc_row c[] = {
		row(1, 0, 4, 30, 30, 1500, ENOENT),
		row(1, 0, 110, 150, 0, 1600, 0),
		row(3, 0, 110, 7, 0, 70, 0),		/* new */
		row(1, 1, 64, 3, 0, 30, 0),		/* i386, apart */
	};
	struct keyed_set sp, sc, d = { 0 };

	(void)state;
	set(&sp, p, 3, 5);
	set(&sc, c, 4, 5);
	assert_int_equal(sc_delta(&sc, &sp, &d), 0);
	assert_int_equal(d.n, 4);
	assert_int_equal(SC(d, 0).count, 20);
	assert_int_equal(SC(d, 0).errors, 20);
	assert_int_equal(SC(d, 0).errs[0].count, 20);
	assert_int_equal(SC(d, 0).time_ns, 1000);
	assert_int_equal(SC(d, 0).max_ns, 0);		/* unknown for an interval */
	assert_int_equal(SC(d, 1).count, 50);
	assert_int_equal(SC(d, 1).time_ns, 600);
	assert_int_equal(SC(d, 2).count, 7);
	assert_int_equal(SC(d, 3).count, 3);
	/* a reset in between: the current counts whole */
	sc.generation = 6;
	assert_int_equal(sc_delta(&sc, &sp, &d), 0);
	assert_int_equal(SC(d, 1).count, 150);
	/* a row that went down (re-created): counted whole */
	sc.generation = 5;
	SC(sc, 1).count = 40;
	assert_int_equal(sc_delta(&sc, &sp, &d), 0);
	assert_int_equal(SC(d, 1).count, 40);
	/* nothing new: no row */
	assert_int_equal(sc_delta(&sp, &sp, &d), 0);
	assert_int_equal(d.n, 0);
	free(sp.r);
	free(sc.r);
	free(d.r);
}

static void test_build_render(void **state)
{
	struct sc_row r[] = {
		row(10, 0, 110, 5000, 0, 1200000, 0),
		row(11, 0, 110, 1000, 0, 9000000, 0),
		row(10, 0, 4, 300, 300, 600000, ENOENT),
		row(11, 0, 4, 20, 20, 40000, EACCES),
		row(11, 1, 64, 7, 0, 700, 0),
		row(12, 0, 0, 2, 0, 100, 0),
	};
	struct keyed_set s;
	struct top_args a;
	struct top_table t;
	struct json_object *env, *rows, *o, *x;
	char err[160], *buf = NULL;
	size_t len = 0;
	FILE *f;

	(void)state;
	/* process 10's calls before its exec: under the shell's name */
	strcpy(r[0].comm, "sl-sys");
	strcpy(r[2].comm, "sl-sys");
	strcpy(r[5].comm, "sh");
	r[5].tgid = 10;
	set(&s, r, 6, 1);
	assert_int_equal(parse("syscalls", &a, err), 0);
	assert_int_equal(top_build(&s, &a, &t), 0);
	assert_int_equal(t.n, 4);
	assert_int_equal(t.calls, 6329);
	assert_int_equal(t.errors, 320);
	assert_int_equal(t.r[0].nr, 110);
	assert_int_equal(t.r[0].count, 6000);
	assert_int_equal(t.r[1].nr, 4);
	assert_int_equal(t.r[1].count, 320);
	assert_int_equal(t.r[1].nerr, 2);
	assert_int_equal(t.r[1].errs[0].err, ENOENT);	/* most first */
	assert_int_equal(t.r[2].abi, STACKLAT_SC_ABI_COMPAT);
	f = open_memstream(&buf, &len);
	top_render(f, &t, &a, true);
	fclose(f);
	assert_non_null(strstr(buf, "SYSCALL"));
	assert_non_null(strstr(buf, "getppid"));
	assert_non_null(strstr(buf, "ENOENT:300 EACCES:20"));
	assert_non_null(strstr(buf, "i386:getppid"));
	free(buf);
	buf = NULL;
	top_table_free(&t);

	/* time order */
	assert_int_equal(parse("syscalls -s time", &a, err), 0);
	top_build(&s, &a, &t);
	assert_int_equal(t.r[0].nr, 110);
	assert_int_equal(t.r[0].time_ns, 10200000);
	assert_int_equal(t.r[1].nr, 4);
	top_table_free(&t);

	/* one process, failures only, cut to 1 */
	assert_int_equal(parse("syscalls -p 11 -x -n 1", &a, err), 0);
	top_build(&s, &a, &t);
	assert_int_equal(t.total, 1);
	assert_int_equal(t.n, 1);
	assert_int_equal(t.r[0].nr, 4);
	assert_int_equal(t.r[0].errors, 20);
	assert_int_equal(t.calls, 20);
	f = open_memstream(&buf, &len);
	top_render(f, &t, &a, false);
	fclose(f);
	assert_non_null(strstr(buf, "EACCES:20"));
	assert_null(strstr(buf, "ENOENT"));
	free(buf);
	buf = NULL;
	top_table_free(&t);

	/* by process */
	assert_int_equal(parse("syscalls -P -n 2", &a, err), 0);
	top_build(&s, &a, &t);
	assert_int_equal(t.total, 2);
	assert_int_equal(t.n, 2);
	assert_int_equal(t.r[0].tgid, 10);
	assert_int_equal(t.r[0].count, 5302);
	assert_int_equal(t.r[0].nsys, 3);
	/* the name on the most calls, not the last row's */
	assert_string_equal(t.r[0].comm, "sl-sys");
	assert_int_equal(t.r[1].tgid, 11);
	assert_int_equal(t.r[1].nsys, 3);
	f = open_memstream(&buf, &len);
	top_render(f, &t, &a, true);
	fclose(f);
	assert_non_null(strstr(buf, "sl-sys"));
	assert_non_null(strstr(buf, "p11"));
	free(buf);
	top_table_free(&t);

	/* JSON */
	assert_int_equal(parse("syscalls -p 10 -j", &a, err), 0);
	top_build(&s, &a, &t);
	env = json_object_new_object();
	top_json(env, &t, &a, true);
	assert_true(json_object_object_get_ex(env, "rows", &rows));
	assert_int_equal(json_object_array_length(rows), 3);
	o = json_object_array_get_idx(rows, 1);
	assert_true(json_object_object_get_ex(o, "syscall", &x));
	assert_string_equal(json_object_get_string(x), "stat");
	assert_true(json_object_object_get_ex(o, "tgid", &x));
	assert_int_equal(json_object_get_uint64(x), 10);
	assert_true(json_object_object_get_ex(o, "errnos", &x));
	x = json_object_array_get_idx(x, 0);
	assert_true(json_object_object_get_ex(x, "name", &x));
	assert_string_equal(json_object_get_string(x), "ENOENT");
	assert_true(json_object_object_get_ex(o, "hist", &x));
	assert_int_equal(json_object_array_length(x), 1);
	assert_true(json_object_object_get_ex(env, "calls", &x));
	assert_int_equal(json_object_get_uint64(x), 5302);
	json_object_put(env);
	top_table_free(&t);
	free(s.r);
}

static void test_buckets(void **state)
{
	(void)state;
	assert_int_equal(stacklat_sc_bucket(0), 0);
	assert_int_equal(stacklat_sc_bucket(255), 0);
	assert_int_equal(stacklat_sc_bucket(256), 1);
	assert_int_equal(stacklat_sc_bucket(511), 1);
	assert_int_equal(stacklat_sc_bucket(512), 2);
	assert_int_equal(stacklat_sc_bucket(1ULL << 30), STACKLAT_SC_NBUCKETS - 1);
	assert_int_equal(stacklat_sc_bucket(~0ULL), STACKLAT_SC_NBUCKETS - 1);
	assert_int_equal(stacklat_sc_lower(0), 0);
	assert_int_equal(stacklat_sc_lower(1), 256);
	assert_int_equal(stacklat_sc_lower(STACKLAT_SC_NBUCKETS - 1), 1ULL << 30);
}

/* ---- top disk ----------------------------------------------------------- */

#define DEV(ma, mi)	((uint32_t)(ma) << 20 | (mi))

static struct dk_row dkrow(uint32_t tgid, uint32_t dev, const char *comm,
			   uint64_t rb, uint64_t ro, uint64_t wb, uint64_t wo)
{
	struct dk_row r = { .tgid = tgid, .dev = dev, .read_bytes = rb,
			    .read_ops = ro, .write_bytes = wb, .write_ops = wo,
			    .ops = ro + wo };

	snprintf(r.comm, sizeof(r.comm), "%s", comm);
	return r;
}

static void dkset(struct keyed_set *s, struct dk_row *r, size_t n, uint64_t gen)
{
	s->r = r;
	s->n = n;
	s->cap = n;
	s->generation = gen;
}

static void test_disk_args(void **state)
{
	struct top_args a;
	char err[160];

	(void)state;
	assert_int_equal(parse("disk", &a, err), 0);
	assert_int_equal(a.what, TOP_DISK);
	assert_int_equal(a.top, 10);
	assert_int_equal(parse("syscalls", &a, err), 0);
	assert_int_equal(a.what, TOP_SYSCALLS);
	assert_int_equal(parse("disk -p 9 -j -n 0 1 1", &a, err), 0);
	assert_int_equal(a.what, TOP_DISK);
	assert_int_equal(a.pid, 9);
	assert_true(a.json);
	assert_int_equal(a.top, 0);
	assert_int_equal(a.interval_ns, 1000000000ULL);
	assert_int_equal(a.count, 1);
	assert_int_equal(parse("disk -x", &a, err), -1);
	assert_non_null(strstr(err, "-x"));
	assert_int_equal(parse("disk -P", &a, err), -1);
	assert_int_equal(parse("disk -s count", &a, err), -1);
	assert_non_null(strstr(err, "-s"));
	assert_int_equal(parse("disk 1 2 3", &a, err), -1);
}

static void test_disk_delta(void **state)
{
	struct dk_row c[] = {
		dkrow(10, DEV(254, 0), "dd", 0, 0, 8 << 20, 128),
		dkrow(10, DEV(251, 0), "dd", 4096, 1, 0, 0),
		dkrow(11, DEV(254, 0), "kworker/u4:1", 0, 0, 1 << 20, 3),
		dkrow(12, DEV(254, 0), "new", 512, 1, 0, 0),
	};
	struct dk_row p[] = {
		dkrow(11, DEV(254, 0), "kworker/u4:1", 0, 0, 1 << 20, 3),
		dkrow(10, DEV(254, 0), "dd", 0, 0, 4 << 20, 64),
		dkrow(10, DEV(251, 0), "dd", 8192, 2, 0, 0),	/* went down */
		dkrow(13, DEV(254, 0), "gone", 1, 1, 0, 0),
	};
	struct keyed_set cur, prev, out = { 0 };

	(void)state;
	dkset(&cur, c, 4, 3);
	dkset(&prev, p, 4, 3);
	assert_int_equal(dk_delta(&cur, &prev, &out), 0);
	/* 11 did nothing: left out; 13 gone: left out */
	assert_int_equal(out.n, 3);
	assert_int_equal(DK(out, 0).tgid, 10);
	assert_int_equal(DK(out, 0).write_bytes, 4 << 20);
	assert_int_equal(DK(out, 0).write_ops, 64);
	assert_int_equal(DK(out, 1).read_bytes, 4096);	/* counted anew */
	assert_int_equal(DK(out, 2).tgid, 12);
	assert_int_equal(DK(out, 2).read_bytes, 512);
	/* a reset in between: all whole */
	prev.generation = 2;
	assert_int_equal(dk_delta(&cur, &prev, &out), 0);
	assert_int_equal(out.n, 4);
	assert_int_equal(DK(out, 0).write_bytes, 8 << 20);
	assert_int_equal(dk_delta(&cur, NULL, &out), 0);
	assert_int_equal(out.n, 4);
	free(out.r);
}

/* a sysfs tree with dev/block/MAJ:MIN/uevent for two disks */
static char *fake_sysfs(void)
{
	char *root = strdup("/tmp/sl-top-sysfs-XXXXXX");
	static const struct { const char *dev, *text; } d[] = {
		{ "254:0", "MAJOR=254\nMINOR=0\nDEVNAME=vda\nDEVTYPE=disk\nDISKSEQ=9\n" },
		{ "251:1", "MAJOR=251\nMINOR=1\nDEVNAME=nullb1\nDEVTYPE=disk\n" },
	};
	char path[256];
	unsigned int i;
	FILE *f;

	assert_non_null(root);
	assert_non_null(mkdtemp(root));
	snprintf(path, sizeof(path), "%s/dev", root);
	assert_int_equal(mkdir(path, 0700), 0);
	snprintf(path, sizeof(path), "%s/dev/block", root);
	assert_int_equal(mkdir(path, 0700), 0);
	for (i = 0; i < 2; i++) {
		snprintf(path, sizeof(path), "%s/dev/block/%s", root, d[i].dev);
		assert_int_equal(mkdir(path, 0700), 0);
		snprintf(path, sizeof(path), "%s/dev/block/%s/uevent", root, d[i].dev);
		f = fopen(path, "w");
		assert_non_null(f);
		fputs(d[i].text, f);
		fclose(f);
	}
	return root;
}

static void rm_sysfs(char *root)
{
	char cmd[300];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	assert_int_equal(system(cmd), 0);
	free(root);
}

static void test_disk_names(void **state)
{
	char name[64], *sys;

	(void)state;
	assert_int_equal(dk_uevent_name("MAJOR=8\nMINOR=0\nDEVNAME=sda\nDEVTYPE=disk\n",
					 name, sizeof(name)), 0);
	assert_string_equal(name, "sda");
	assert_int_equal(dk_uevent_name("DEVNAME=nvme0n1", name, sizeof(name)), 0);
	assert_string_equal(name, "nvme0n1");
	assert_int_equal(dk_uevent_name("MAJOR=8\nXDEVNAME=sdb\n", name, sizeof(name)), -1);
	assert_int_equal(dk_uevent_name("DEVNAME=\n", name, sizeof(name)), -1);
	assert_int_equal(dk_uevent_name("", name, sizeof(name)), -1);
	assert_int_equal(dk_uevent_name("DEVNAME=averyveryverylongname", name, 8), -1);
	sys = fake_sysfs();
	assert_string_equal(dk_disk_name(sys, DEV(254, 0), name, sizeof(name)), "vda");
	assert_string_equal(dk_disk_name(sys, DEV(251, 1), name, sizeof(name)), "nullb1");
	assert_string_equal(dk_disk_name(sys, DEV(259, 1048575), name, sizeof(name)),
			    "259:1048575");
	rm_sysfs(sys);
}

static void test_disk_build_render(void **state)
{
	struct dk_row r[] = {
		dkrow(10, DEV(254, 0), "dd", 0, 0, 4 << 20, 64),
		dkrow(11, DEV(251, 1), "writer", 0, 0, 12 << 20, 192),
		dkrow(10, DEV(251, 1), "dd", 2 << 20, 16, 0, 0),
		dkrow(12, DEV(254, 0), "tiny", 512, 1, 0, 0),
		dkrow(13, DEV(254, 0), "flush", 0, 0, 0, 0),
	};
	struct keyed_set s;
	struct top_args a;
	struct dk_table t;
	struct json_object *env, *rows, *o, *x;
	char err[160], *buf = NULL, *sys;
	size_t len = 0;
	FILE *f;

	(void)state;
	r[4].flush_ops = 3;
	r[4].ops = 3;
	dkset(&s, r, 5, 1);
	sys = fake_sysfs();
	assert_int_equal(parse("disk", &a, err), 0);
	assert_int_equal(dk_build(&s, &a, &t), 0);
	assert_int_equal(t.n, 5);
	assert_int_equal(t.read_bytes, (2 << 20) + 512);
	assert_int_equal(t.write_bytes, 16 << 20);
	assert_int_equal(t.read_ops, 17);
	assert_int_equal(t.write_ops, 256);
	/* by bytes, then operations */
	assert_int_equal(t.r[0].tgid, 11);
	assert_int_equal(t.r[1].tgid, 10);
	assert_int_equal(t.r[1].dev, DEV(254, 0));
	assert_int_equal(t.r[2].read_bytes, 2 << 20);
	assert_int_equal(t.r[3].tgid, 12);
	assert_int_equal(t.r[4].tgid, 13);

	f = open_memstream(&buf, &len);
	dk_render(f, &t, sys);
	fclose(f);
	assert_non_null(strstr(buf, "PID      COMM             DISK          READ_KB   WRITE_KB    R_OPS    W_OPS\n"));
	assert_non_null(strstr(buf, "\n11       writer           nullb1              0      12288        0      192\n"));
	assert_non_null(strstr(buf, "\n10       dd               vda                 0       4096        0       64\n"));
	assert_non_null(strstr(buf, "\n10       dd               nullb1           2048          0       16        0\n"));
	assert_non_null(strstr(buf, "\n12       tiny             vda                 0          0        1        0\n"));
	free(buf);
	buf = NULL;

	env = json_object_new_object();
	dk_json(env, &t, &a, sys);
	assert_string_equal(json_object_get_string(json_object_object_get(env, "what")), "disk");
	assert_int_equal(json_object_get_uint64(json_object_object_get(env, "write_bytes")),
			 16 << 20);
	assert_int_equal(json_object_get_uint64(json_object_object_get(env, "total")), 5);
	rows = json_object_object_get(env, "rows");
	assert_int_equal(json_object_array_length(rows), 5);
	o = json_object_array_get_idx(rows, 0);
	assert_int_equal(json_object_get_uint64(json_object_object_get(o, "tgid")), 11);
	assert_string_equal(json_object_get_string(json_object_object_get(o, "comm")), "writer");
	assert_string_equal(json_object_get_string(json_object_object_get(o, "disk")), "nullb1");
	assert_int_equal(json_object_get_uint64(json_object_object_get(o, "major")), 251);
	assert_int_equal(json_object_get_uint64(json_object_object_get(o, "minor")), 1);
	assert_int_equal(json_object_get_uint64(json_object_object_get(o, "write_ops")), 192);
	x = json_object_array_get_idx(rows, 4);
	assert_int_equal(json_object_get_uint64(json_object_object_get(x, "flush_ops")), 3);
	assert_int_equal(json_object_get_uint64(json_object_object_get(x, "ops")), 3);
	json_object_put(env);
	dk_table_free(&t);

	/* -p and -n */
	assert_int_equal(parse("disk -p 10 -n 1", &a, err), 0);
	assert_int_equal(dk_build(&s, &a, &t), 0);
	assert_int_equal(t.n, 1);
	assert_int_equal(t.total, 2);
	assert_int_equal(t.write_bytes, 4 << 20);
	assert_int_equal(t.read_bytes, 2 << 20);
	f = open_memstream(&buf, &len);
	dk_render(f, &t, sys);
	fclose(f);
	assert_non_null(strstr(buf, "(1 more not shown: -n 0 shows all)\n"));
	free(buf);
	dk_table_free(&t);
	rm_sysfs(sys);
}

static void test_sched_args(void **state)
{
	struct top_args a;
	char err[160];

	(void)state;
	assert_int_equal(parse("sched", &a, err), 0);
	assert_int_equal(a.what, TOP_SCHED);
	assert_int_equal(a.sort, TOP_SORT_TIME);	/* total */
	assert_int_equal(parse("sched -s p99 -p 9 -j 1 2", &a, err), 0);
	assert_int_equal(a.sort, TOP_SORT_P99);
	assert_int_equal(a.pid, 9);
	assert_int_equal(a.count, 2);
	assert_int_equal(parse("-s max sched", &a, err), 0);
	assert_int_equal(a.sort, TOP_SORT_MAX);
	assert_int_equal(parse("sched -s count", &a, err), 0);
	assert_int_equal(a.sort, TOP_SORT_COUNT);
	assert_int_equal(parse("sched -s total", &a, err), 0);
	assert_int_equal(a.sort, TOP_SORT_TIME);
	assert_int_equal(parse("sched -s size", &a, err), -1);
	assert_int_equal(parse("sched -x", &a, err), -1);
	assert_int_equal(parse("sched -P", &a, err), -1);
	assert_int_equal(parse("syscalls -s p99", &a, err), -1);
	assert_non_null(strstr(err, "sched, offcpu, cpu, futex and lock only"));
	assert_int_equal(parse("scheds", &a, err), -1);
	assert_non_null(strstr(err, "sched"));
}

static void test_offcpu_args(void **state)
{
	struct top_args a;
	char err[160];

	(void)state;
	assert_int_equal(parse("offcpu", &a, err), 0);
	assert_int_equal(a.what, TOP_OFFCPU);
	assert_int_equal(a.sort, TOP_SORT_TIME);
	assert_false(a.stacks);
	assert_int_equal(parse("offcpu --stacks -p 7 -s max -j 1 2", &a, err), 0);
	assert_true(a.stacks);
	assert_int_equal(a.pid, 7);
	assert_int_equal(a.sort, TOP_SORT_MAX);
	assert_int_equal(parse("offcpu -x", &a, err), -1);
	assert_int_equal(parse("offcpu -P", &a, err), -1);
	assert_int_equal(parse("sched --stacks", &a, err), -1);
	assert_non_null(strstr(err, "offcpu only"));
}

static void oc_fill(struct oc_row *r, uint32_t tgid, uint32_t stack,
		    const char *reason, uint64_t n, uint64_t each)
{
	memset(r, 0, sizeof(*r));
	r->tgid = tgid;
	r->stack = stack;
	snprintf(r->comm, sizeof(r->comm), "p%u", tgid);
	snprintf(r->reason, sizeof(r->reason), "%s", reason);
	r->count = n;
	r->time_ns = n * each;
	r->max_ns = each;
	r->hist[stacklat_sc_bucket(each)] = n;
}

static void test_offcpu_build(void **state)
{
	struct oc_row rows[4];
	struct keyed_set s = { rows, 4, 4, 1 };
	struct top_args a;
	struct oc_table t;
	char err[160];

	(void)state;
	/* two stacks of process 10 under pipe_read: one row by reason */
	oc_fill(&rows[0], 10, 1, "pipe_read", 20, 50000000);
	oc_fill(&rows[1], 10, 2, "pipe_read", 5, 1000000);
	oc_fill(&rows[2], 10, 3, "ep_poll", 1, 2000000000);
	oc_fill(&rows[3], 20, 1, "pipe_read", 3, 1000);
	assert_int_equal(parse("offcpu", &a, err), 0);
	assert_int_equal(oc_build(&s, &a, true, &t), 0);
	assert_int_equal(t.n, 3);
	assert_string_equal(t.r[0].reason, "ep_poll");	/* 2 s, then 1.005 s */
	assert_string_equal(t.r[1].reason, "pipe_read");
	assert_int_equal(t.r[1].tgid, 10);
	assert_int_equal(t.r[1].count, 25);
	assert_int_equal(t.r[1].time_ns, 1005000000);
	assert_int_equal(t.r[1].max_ns, 50000000);
	assert_int_equal(t.count, 29);
	oc_table_free(&t);
	/* -p 10 --stacks -s count: a row per stack, the most blocks first */
	assert_int_equal(parse("offcpu -p 10 --stacks -s count", &a, err), 0);
	assert_int_equal(oc_build(&s, &a, true, &t), 0);
	assert_int_equal(t.n, 3);
	assert_int_equal(t.r[0].stack, 1);
	assert_int_equal(t.r[0].count, 20);
	assert_int_equal(t.r[1].stack, 2);
	oc_table_free(&t);
}

/* top futex: its words; rows per (process, futex) or with -P per process */
static void fx_fill(struct fx_row *r, uint32_t tgid, uint64_t uaddr,
		    uint64_t n, uint64_t each, uint64_t eagain, uint32_t waker)
{
	memset(r, 0, sizeof(*r));
	r->tgid = tgid;
	r->uaddr = uaddr;
	snprintf(r->comm, sizeof(r->comm), "p%u", tgid);
	r->count = n;
	r->eagain = eagain;
	r->time_ns = n * each;
	r->max_ns = each;
	r->waker = waker;
	r->hist[stacklat_sc_bucket(each)] = n;
}

static void test_futex(void **state)
{
	struct fx_row rows[3], old[3];
	struct keyed_set s = { rows, 3, 3, 1 }, p = { old, 3, 3, 1 }, d = { 0 };
	struct json_object *env;
	struct top_args a;
	struct fx_table t;
	char err[160];

	(void)state;
	assert_int_equal(parse("futex", &a, err), 0);
	assert_int_equal(a.what, TOP_FUTEX);
	assert_int_equal(a.sort, TOP_SORT_TIME);
	assert_int_equal(parse("futex -P -s max 2 3", &a, err), 0);
	assert_true(a.by_process);
	assert_int_equal(a.sort, TOP_SORT_MAX);
	assert_int_equal(parse("futex -x", &a, err), -1);
	assert_non_null(strstr(err, "not for futex"));
	assert_int_equal(parse("futex --stacks", &a, err), -1);
	assert_int_equal(parse("futexes", &a, err), -1);
	assert_non_null(strstr(err, "'futex'"));
	/* process 10: a hot futex and a cold one; process 20: one */
	fx_fill(&rows[0], 10, 0x7f0010, 100, 1000000, 7, 11);
	fx_fill(&rows[1], 10, 0x7f0020, 2, 30000000, 0, 12);
	fx_fill(&rows[2], 20, 0x5000, 1, 5000000, 0, 0);
	assert_int_equal(parse("futex", &a, err), 0);
	assert_int_equal(fx_build(&s, &a, true, &t), 0);
	assert_int_equal(t.n, 3);
	assert_int_equal(t.r[0].uaddr, 0x7f0010);	/* 100 ms, then 60 ms */
	assert_int_equal(t.r[0].waker, 11);
	assert_int_equal(t.r[1].uaddr, 0x7f0020);
	assert_int_equal(t.count, 103);
	assert_int_equal(t.eagain, 7);
	env = json_object_new_object();
	fx_json(env, &t, &a, true);
	assert_non_null(strstr(json_object_to_json_string_ext(env, JSON_C_TO_STRING_PLAIN),
			       "\"uaddr\":8323088,\"waker\":11,\"alias\":0,\"waits\":100,\"eagain\":7,\"time_ns\":100000000"));
	json_object_put(env);
	fx_table_free(&t);
	/* -P -s max: process 10's futexes summed, its longest wait first */
	assert_int_equal(parse("futex -P -s max", &a, err), 0);
	assert_int_equal(fx_build(&s, &a, true, &t), 0);
	assert_int_equal(t.n, 2);
	assert_int_equal(t.r[0].tgid, 10);
	assert_int_equal(t.r[0].futexes, 2);
	assert_int_equal(t.r[0].count, 102);
	assert_int_equal(t.r[0].time_ns, 160000000);
	assert_int_equal(t.r[0].max_ns, 30000000);
	fx_table_free(&t);
	/* an interval: what happened since the last sample, no max */
	memcpy(old, rows, sizeof(rows));
	rows[0].count += 5;
	rows[0].eagain += 1;
	rows[0].time_ns += 5000;
	rows[0].hist[stacklat_sc_bucket(1000)] += 5;
	assert_int_equal(fx_delta(&s, &p, &d), 0);
	assert_int_equal(d.n, 1);
	assert_int_equal(((struct fx_row *)d.r)[0].count, 5);
	assert_int_equal(((struct fx_row *)d.r)[0].eagain, 1);
	assert_int_equal(((struct fx_row *)d.r)[0].time_ns, 5000);
	assert_int_equal(((struct fx_row *)d.r)[0].max_ns, 0);
	free(d.r);
	/* a bucket went down (a reset): the row counts whole, unchanged */
	memset(&d, 0, sizeof(d));
	old[0].hist[stacklat_sc_bucket(1000000)] += 1000;
	assert_int_equal(fx_delta(&s, &p, &d), 0);
	assert_int_equal(((struct fx_row *)d.r)[0].count, 105);
	assert_int_equal(((struct fx_row *)d.r)[0].hist[stacklat_sc_bucket(1000000)], 100);
	free(d.r);
}

/* top files: its words, rows per file and per process, errnos, intervals */
static void fl_fill(struct fl_row *r, uint32_t tgid, uint32_t dev, uint64_t ino,
		    const char *name, uint64_t reads, uint64_t rbytes,
		    uint64_t writes, uint64_t wbytes)
{
	memset(r, 0, sizeof(*r));
	r->tgid = tgid;
	r->dev = dev;
	r->ino = ino;
	snprintf(r->comm, sizeof(r->comm), "p%u", tgid);
	snprintf(r->name, sizeof(r->name), "%s", name);
	snprintf(r->fstype, sizeof(r->fstype), "%s", dev ? "ext4" : "");
	r->opens = dev ? 1 : 0;
	r->reads = reads;
	r->read_bytes = rbytes;
	r->writes = writes;
	r->write_bytes = wbytes;
}

static void test_files(void **state)
{
	struct fl_row rows[4], old[4];
	struct keyed_set s = { rows, 4, 4, 1 }, p = { old, 4, 4, 1 }, d = { 0 };
	struct json_object *env;
	struct top_args a;
	struct fl_table t;
	char err[200];

	(void)state;
	assert_int_equal(parse("files", &a, err), 0);
	assert_int_equal(a.what, TOP_FILES);
	assert_int_equal(a.sort, TOP_SORT_BYTES);
	assert_int_equal(parse("files -P -s reads 2 3", &a, err), 0);
	assert_true(a.by_process);
	assert_int_equal(a.sort, TOP_SORT_READS);
	assert_int_equal(parse("files -s count", &a, err), 0);
	assert_int_equal(a.sort, TOP_SORT_COUNT);
	assert_int_equal(parse("files -x", &a, err), -1);
	assert_non_null(strstr(err, "not for files"));
	assert_int_equal(parse("files -s p99", &a, err), -1);
	assert_int_equal(parse("files -P -p 3", &a, err), -1);
	assert_int_equal(parse("syscalls -s bytes", &a, err), -1);
	assert_non_null(strstr(err, "for files only"));
	assert_int_equal(parse("disk -s wbytes", &a, err), -1);
	/* process 10: a big file, a small one, a failed name; 20: one file */
	fl_fill(&rows[0], 10, 254 << 20, 12, "big", 64, 1048576, 64, 1048576);
	fl_fill(&rows[1], 10, 254 << 20, 13, "small", 3, 100, 0, 0);
	fl_fill(&rows[2], 10, 0, 0, "missing", 0, 0, 0, 0);
	rows[2].open_fails = 5;
	rows[2].nerr = 1;
	rows[2].errs[0].err = 2;
	rows[2].errs[0].count = 5;
	fl_fill(&rows[3], 20, 31, 2, "b", 75, 300000, 75, 300000);
	assert_int_equal(parse("files -n 0", &a, err), 0);
	assert_int_equal(fl_build(&s, &a, &t), 0);
	assert_int_equal(t.n, 4);
	assert_string_equal(t.r[0].row->name, "big");
	assert_string_equal(t.r[1].row->name, "b");
	assert_string_equal(t.r[2].row->name, "small");
	assert_string_equal(t.r[3].row->name, "missing");
	assert_int_equal(t.opens, 3);
	assert_int_equal(t.open_fails, 5);
	assert_int_equal(t.reads, 142);
	env = json_object_new_object();
	fl_json(env, &t, &a);
	assert_non_null(strstr(json_object_to_json_string_ext(env, JSON_C_TO_STRING_PLAIN),
			       "\"name\":\"missing\",\"fstype\":\"\",\"dev\":0,\"major\":0,\"minor\":0,\"ino\":0,\"errnos\":[{\"errno\":2,\"name\":\"ENOENT\",\"count\":5}]"));
	assert_non_null(strstr(json_object_to_json_string_ext(env, JSON_C_TO_STRING_PLAIN),
			       "\"name\":\"big\",\"fstype\":\"ext4\",\"dev\":266338304,\"major\":254,\"minor\":0,\"ino\":12"));
	json_object_put(env);
	fl_table_free(&t);
	/* -p 10 -s opens: its failed name first */
	assert_int_equal(parse("files -p 10 -s opens", &a, err), 0);
	assert_int_equal(fl_build(&s, &a, &t), 0);
	assert_int_equal(t.n, 3);
	assert_string_equal(t.r[0].row->name, "missing");
	fl_table_free(&t);
	/* -P: process 10's rows summed */
	assert_int_equal(parse("files -P", &a, err), 0);
	assert_int_equal(fl_build(&s, &a, &t), 0);
	assert_int_equal(t.n, 2);
	assert_int_equal(t.r[0].tgid, 10);
	assert_int_equal(t.r[0].files, 3);
	assert_int_equal(t.r[0].reads, 67);
	assert_int_equal(t.r[0].read_bytes, 1048676);
	assert_int_equal(t.r[0].open_fails, 5);
	assert_null(t.r[0].row);
	fl_table_free(&t);
	/* an interval: what happened since, errnos too */
	memcpy(old, rows, sizeof(rows));
	rows[0].reads += 2;
	rows[0].read_bytes += 8192;
	rows[2].open_fails += 2;
	rows[2].errs[0].count += 1;
	rows[2].errs[1].err = 13;
	rows[2].errs[1].count = 1;
	rows[2].nerr = 2;
	assert_int_equal(fl_delta(&s, &p, &d), 0);
	assert_int_equal(d.n, 2);
	assert_string_equal(((struct fl_row *)d.r)[0].name, "big");
	assert_int_equal(((struct fl_row *)d.r)[0].reads, 2);
	assert_int_equal(((struct fl_row *)d.r)[0].read_bytes, 8192);
	assert_int_equal(((struct fl_row *)d.r)[1].open_fails, 2);
	assert_int_equal(((struct fl_row *)d.r)[1].errs[0].count, 1);
	assert_int_equal(((struct fl_row *)d.r)[1].errs[1].count, 1);
	free(d.r);
	/* an errno count went down (a reset): the row counts whole */
	memset(&d, 0, sizeof(d));
	old[2].errs[0].count = 100;
	assert_int_equal(fl_delta(&s, &p, &d), 0);
	assert_int_equal(d.n, 2);
	assert_int_equal(((struct fl_row *)d.r)[1].open_fails, 7);
	free(d.r);
}

/* top cpu: its words, and the split of on-CPU time as cputime_adjust() */
static void test_cpu_args_split(void **state)
{
	struct top_args a;
	uint64_t u, y;
	char err[160];

	(void)state;
	assert_int_equal(parse("cpu -p 9 5 3", &a, err), 0);
	assert_int_equal(a.what, TOP_CPU);
	assert_int_equal(a.sort, TOP_SORT_TIME);
	assert_int_equal(a.pid, 9);
	assert_int_equal(a.interval_ns, 5000000000ULL);
	assert_int_equal(a.count, 3);
	assert_int_equal(parse("cpu -s p99", &a, err), 0);
	assert_int_equal(a.sort, TOP_SORT_P99);
	assert_int_equal(parse("cpu -P", &a, err), -1);
	assert_non_null(strstr(err, "not for cpu"));
	assert_int_equal(parse("cpus", &a, err), -1);
	assert_non_null(strstr(err, "'cpu'"));
	/* 3 ticks user, 1 system: a quarter of 1 s system */
	cpu_split(1000000000ULL, 12000000, 4000000, &u, &y);
	assert_int_equal(y, 250000000ULL);
	assert_int_equal(u, 750000000ULL);
	/* no system sample: all user; no user sample: all system */
	cpu_split(7, 4000000, 0, &u, &y);
	assert_true(u == 7 && y == 0);
	cpu_split(7, 0, 4000000, &u, &y);
	assert_true(u == 0 && y == 7);
	cpu_split(7, 0, 0, &u, &y);
	assert_true(u == 7 && y == 0);
	/* no overflow: hours of CPU, many samples */
	cpu_split(36000000000000ULL, 1ULL << 40, 1ULL << 40, &u, &y);
	assert_int_equal(y, 18000000000000ULL);
}

static void test_sched_quantile(void **state)
{
	uint64_t h[STACKLAT_SC_NBUCKETS] = { 0 };
	unsigned int b50 = stacklat_sc_bucket(50000000);

	(void)state;
	assert_int_equal(sd_quantile(h, 0, 0, 0.99), 0);
	/* 99 waits of ~1 us, one of 50 ms: p99 in the 1 us bucket */
	h[stacklat_sc_bucket(1000)] = 99;
	h[b50] = 1;
	assert_int_equal(sd_quantile(h, 100, 0, 0.99), stacklat_sc_lower(stacklat_sc_bucket(1000) + 1));
	/* p99.5: the 50 ms bucket's upper bound, or the max when lower */
	assert_int_equal(sd_quantile(h, 100, 0, 0.995), stacklat_sc_lower(b50 + 1));
	assert_int_equal(sd_quantile(h, 100, 50000000, 0.995), 50000000);
	/* the last bucket: no upper bound, the max if known */
	memset(h, 0, sizeof(h));
	h[STACKLAT_SC_NBUCKETS - 1] = 1;
	assert_int_equal(sd_quantile(h, 1, 5000000000ULL, 0.99), 5000000000ULL);
	assert_int_equal(sd_quantile(h, 1, 0, 0.99), stacklat_sc_lower(STACKLAT_SC_NBUCKETS - 1));
}

static void sd_fill(struct sd_row *r, uint32_t tgid, uint32_t tid, const char *comm,
		    const char *tcomm, uint64_t n, uint64_t each)
{
	memset(r, 0, sizeof(*r));
	r->tgid = tgid;
	r->tid = tid;
	strcpy(r->comm, comm);
	strcpy(r->tcomm, tcomm);
	r->count = n;
	r->time_ns = n * each;
	r->max_ns = each;
	r->preempted = n / 2;
	r->hist[stacklat_sc_bucket(each)] = n;
}

static void test_sched_build(void **state)
{
	struct sd_row rows[4];
	struct keyed_set s = { rows, 4, 4, 1 }, p = { 0 }, d = { 0 };
	struct sd_row prow[1];
	struct top_args a;
	struct sd_table t;
	struct json_object *env, *o;
	char err[160], *text = NULL;
	size_t len = 0;
	FILE *f;

	(void)state;
	sd_fill(&rows[0], 10, 10, "db", "db", 100, 1000);		/* 100 us */
	sd_fill(&rows[1], 10, 11, "db", "db-worker", 10, 50000000);	/* 500 ms */
	sd_fill(&rows[2], 20, 20, "web", "web", 1000, 200000);	/* 200 ms */
	sd_fill(&rows[3], 30, 30, "cron", "cron", 1, 90000000);	/* 90 ms */

	/* by process: db's two threads summed, sorted by total */
	assert_int_equal(parse("sched", &a, err), 0);
	assert_int_equal(sd_build(&s, &a, true, &t), 0);
	assert_int_equal(t.n, 3);
	assert_int_equal(t.r[0].tgid, 10);
	assert_int_equal(t.r[0].threads, 2);
	assert_int_equal(t.r[0].count, 110);
	assert_int_equal(t.r[0].time_ns, 100000 + 500000000);
	assert_int_equal(t.r[0].max_ns, 50000000);
	assert_string_equal(t.r[0].comm, "db");
	assert_int_equal(t.r[1].tgid, 20);
	assert_int_equal(t.count, 1111);
	assert_int_equal(t.max_ns, 90000000);
	/* db: 10 of 110 at 50 ms, p99 in that bucket, bounded by the max */
	assert_int_equal(t.r[0].p99_ns, 50000000);
	sd_table_free(&t);

	/* by max, by p99, by count */
	assert_int_equal(parse("sched -s max", &a, err), 0);
	assert_int_equal(sd_build(&s, &a, true, &t), 0);
	assert_int_equal(t.r[0].tgid, 30);
	sd_table_free(&t);
	assert_int_equal(parse("sched -s p99", &a, err), 0);
	assert_int_equal(sd_build(&s, &a, true, &t), 0);
	assert_int_equal(t.r[0].tgid, 30);
	assert_int_equal(t.r[1].tgid, 10);
	sd_table_free(&t);
	assert_int_equal(parse("sched -s count -n 1", &a, err), 0);
	assert_int_equal(sd_build(&s, &a, true, &t), 0);
	assert_int_equal(t.n, 1);
	assert_int_equal(t.total, 3);
	assert_int_equal(t.r[0].tgid, 20);
	sd_table_free(&t);

	/* -p: that process's threads, named as threads */
	assert_int_equal(parse("sched -p 10", &a, err), 0);
	assert_int_equal(sd_build(&s, &a, true, &t), 0);
	assert_int_equal(t.n, 2);
	assert_int_equal(t.r[0].tid, 11);
	assert_string_equal(t.r[0].comm, "db-worker");
	assert_int_equal(t.count, 110);
	f = open_memstream(&text, &len);
	sd_render(f, &t, &a, true);
	fclose(f);
	assert_non_null(strstr(text, "TID"));
	assert_non_null(strstr(text, "db-worker"));
	assert_non_null(strstr(text, "500ms"));
	free(text);
	env = json_object_new_object();
	sd_json(env, &t, &a, true);
	assert_true(json_object_object_get_ex(env, "by", &o));
	assert_string_equal(json_object_get_string(o), "thread");
	assert_true(json_object_object_get_ex(env, "waits", &o));
	assert_int_equal(json_object_get_uint64(o), 110);
	assert_true(json_object_object_get_ex(env, "rows", &o));
	assert_int_equal(json_object_array_length(o), 2);
	o = json_object_array_get_idx(o, 0);
	assert_true(json_object_object_get_ex(o, "tid", &o));
	assert_int_equal(json_object_get_uint64(o), 11);
	json_object_put(env);
	sd_table_free(&t);

	/* a delta: the row's growth, no max; a reset counts whole */
	sd_fill(&prow[0], 20, 20, "web", "web", 400, 200000);
	p.r = prow;
	p.n = p.cap = 1;
	p.generation = 1;
	assert_int_equal(sd_delta(&s, &p, &d), 0);
	assert_int_equal(d.n, 4);
	assert_int_equal(SD(d, 2).count, 600);
	assert_int_equal(SD(d, 2).time_ns, 600 * 200000ULL);
	assert_int_equal(SD(d, 2).max_ns, 0);
	assert_int_equal(SD(d, 2).hist[stacklat_sc_bucket(200000)], 600);
	p.generation = 2;
	assert_int_equal(sd_delta(&s, &p, &d), 0);
	assert_int_equal(SD(d, 2).count, 1000);
	/* an interval's table: no max, -s max falls back to the p99 */
	assert_int_equal(parse("sched -s max", &a, err), 0);
	assert_int_equal(sd_build(&d, &a, false, &t), 0);
	assert_int_equal(t.max_ns, 0);
	assert_int_equal(t.r[0].max_ns, 0);
	assert_true(t.r[0].p99_ns > 0);
	sd_table_free(&t);
	free(d.r);
}

/* top cpu: the samples summed per process, split, rendered, in JSON, a delta */
static void test_cpu_build(void **state)
{
	struct sd_row rows[2], prow[1];
	struct keyed_set s = { rows, 2, 2, 1 }, p = { prow, 1, 1, 1 }, d = { 0 };
	struct json_object *env, *o;
	struct top_args a;
	struct sd_table t;
	char err[160], *text = NULL;
	size_t len = 0;
	FILE *f;

	(void)state;
	/* 1 s on CPU: 3 user samples to 1 system; 1 s: all system */
	sd_fill(&rows[0], 10, 10, "burn", "burn", 100, 10000000);
	rows[0].user_tick_ns = 12000000;
	rows[0].sys_tick_ns = 4000000;
	sd_fill(&rows[1], 10, 11, "burn", "loop", 100, 10000000);
	rows[1].sys_tick_ns = 8000000;
	assert_int_equal(parse("cpu", &a, err), 0);
	assert_int_equal(sd_build(&s, &a, true, &t), 0);
	assert_int_equal(t.n, 1);
	assert_int_equal(t.r[0].threads, 2);
	assert_int_equal(t.r[0].user_tick_ns, 12000000);
	assert_int_equal(t.r[0].sys_tick_ns, 12000000);
	f = open_memstream(&text, &len);
	cpu_render(f, &t, &a, true);
	fclose(f);
	assert_non_null(strstr(text, "ONCPU"));
	assert_non_null(strstr(text, "SLICES"));
	assert_non_null(strstr(text, "2.00s"));		/* ONCPU */
	assert_non_null(strstr(text, "1.00s"));		/* half user, half system */
	free(text);
	sd_table_free(&t);
	assert_int_equal(parse("cpu -p 10", &a, err), 0);
	assert_int_equal(sd_build(&s, &a, true, &t), 0);
	env = json_object_new_object();
	cpu_json(env, &t, &a, true);
	assert_true(json_object_object_get_ex(env, "what", &o));
	assert_string_equal(json_object_get_string(o), "cpu");
	assert_true(json_object_object_get_ex(env, "slices", &o));
	assert_int_equal(json_object_get_uint64(o), 200);
	/* the first thread: 10 or 11, their totals equal */
	assert_true(json_object_object_get_ex(env, "rows", &o));
	o = json_object_array_get_idx(o, 0);
	{
		struct json_object *tid, *us, *sy;

		assert_true(json_object_object_get_ex(o, "tid", &tid));
		assert_true(json_object_object_get_ex(o, "user_ns", &us));
		assert_true(json_object_object_get_ex(o, "sys_ns", &sy));
		if (json_object_get_uint64(tid) == 10) {
			assert_int_equal(json_object_get_uint64(us), 750000000);
			assert_int_equal(json_object_get_uint64(sy), 250000000);
		} else {
			assert_int_equal(json_object_get_uint64(us), 0);
			assert_int_equal(json_object_get_uint64(sy), 1000000000);
		}
	}
	json_object_put(env);
	sd_table_free(&t);
	/* a delta subtracts the samples; fewer than before is a reset */
	prow[0] = rows[0];
	prow[0].count = 40;
	prow[0].time_ns = 400000000;
	prow[0].hist[stacklat_sc_bucket(10000000)] = 40;
	prow[0].user_tick_ns = 4000000;
	prow[0].sys_tick_ns = 4000000;
	assert_int_equal(sd_delta(&s, &p, &d), 0);
	assert_int_equal(SD(d, 0).user_tick_ns, 8000000);
	assert_int_equal(SD(d, 0).sys_tick_ns, 0);
	assert_int_equal(SD(d, 0).count, 60);
	prow[0].sys_tick_ns = 5000000;
	assert_int_equal(sd_delta(&s, &p, &d), 0);
	assert_int_equal(SD(d, 0).sys_tick_ns, 4000000);	/* whole */
	free(d.r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_args),
		cmocka_unit_test(test_names),
		cmocka_unit_test(test_delta),
		cmocka_unit_test(test_build_render),
		cmocka_unit_test(test_buckets),
		cmocka_unit_test(test_disk_args),
		cmocka_unit_test(test_disk_delta),
		cmocka_unit_test(test_disk_names),
		cmocka_unit_test(test_disk_build_render),
		cmocka_unit_test(test_sched_args),
		cmocka_unit_test(test_cpu_args_split),
		cmocka_unit_test(test_cpu_build),
		cmocka_unit_test(test_sched_quantile),
		cmocka_unit_test(test_sched_build),
		cmocka_unit_test(test_offcpu_args),
		cmocka_unit_test(test_offcpu_build),
		cmocka_unit_test(test_futex),
		cmocka_unit_test(test_files),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
