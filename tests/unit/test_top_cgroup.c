// SPDX-License-Identifier: GPL-2.0
/*
 * --by cgroup (tool/top_cgroup.c): its words, the fold of net's and
 * syscalls' rows per cgroup (sums, processes, net's peer rows left out),
 * the names from a directory tree standing for the cgroup2 mount (inode
 * numbers as ids), a removed id, no cgroup, the sort, -n, -p and JSON.
 */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "top.h"

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
	static const char * const ok[] = {
		"syscalls --by cgroup", "syscalls --by cgroup -s time -n 3 -j 1 2",
		"disk --by cgroup", "files --by cgroup -s opens", "net --by cgroup -s sent",
		"net --by cgroup -p 5",
	};
	static const char * const bad[] = {
		"sched --by cgroup", "lock --by cgroup", "syscalls --by cgroup -P",
		"syscalls --by cgroup -x", "net --by cgroup -r", "net --by process",
		"files --by", "syscalls --by cgroup -s sent", "disk --by cgroup -s count",
	};
	struct top_args a;
	char err[200];
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(ok) / sizeof(ok[0]); i++) {
		if (parse(ok[i], &a, err))
			fail_msg("'%s' refused: %s", ok[i], err);
		assert_true(a.by_cgroup);
	}
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		if (!parse(bad[i], &a, err))
			fail_msg("'%s' taken", bad[i]);
	assert_int_equal(parse("net --by cgroup -r", &a, err), -1);
	assert_non_null(strstr(err, "--by cgroup"));
}

/* a tree: ROOT, ROOT/a, ROOT/a/b; their inode numbers */
struct tree {
	char root[64];
	uint64_t id_root, id_a, id_b;
};

static uint64_t ino(const char *p)
{
	struct stat st;

	assert_int_equal(stat(p, &st), 0);
	return (uint64_t)st.st_ino;
}

static void tree_make(struct tree *t)
{
	char p[128];

	snprintf(t->root, sizeof(t->root), "/tmp/sl-cgtest.XXXXXX");
	assert_non_null(mkdtemp(t->root));
	snprintf(p, sizeof(p), "%s/a", t->root);
	assert_int_equal(mkdir(p, 0700), 0);
	t->id_a = ino(p);
	snprintf(p, sizeof(p), "%s/a/b", t->root);
	assert_int_equal(mkdir(p, 0700), 0);
	t->id_b = ino(p);
	t->id_root = ino(t->root);
}

static void tree_rm(struct tree *t)
{
	char p[128];

	snprintf(p, sizeof(p), "%s/a/b", t->root);
	rmdir(p);
	snprintf(p, sizeof(p), "%s/a", t->root);
	rmdir(p);
	rmdir(t->root);
}

static void nt(struct nt_row *r, uint32_t tgid, uint32_t kind, uint64_t cg,
	       uint64_t sends, uint64_t sbytes, uint64_t recvs, uint64_t rbytes)
{
	memset(r, 0, sizeof(*r));
	r->tgid = tgid;
	r->kind = kind;
	r->cgroup_id = cg;
	r->sends = sends;
	r->send_bytes = sbytes;
	r->recvs = recvs;
	r->recv_bytes = rbytes;
}

static void test_net(void **state)
{
	struct nt_row rows[7];
	struct keyed_set s = { rows, 7, 7, 1 };
	struct cg_names names = { 0 };
	struct json_object *env, *o, *r;
	struct cg_table t;
	struct top_args a;
	struct tree tr;
	char err[200];

	(void)state;
	tree_make(&tr);
	/* two processes in a/b, one in a, one in the root, one removed */
	nt(&rows[0], 10, STACKLAT_NT_KIND_PROTO, tr.id_b, 5, 500, 1, 10);
	nt(&rows[1], 10, STACKLAT_NT_KIND_PEER, tr.id_b, 5, 500, 1, 10);
	nt(&rows[2], 11, STACKLAT_NT_KIND_PROTO, tr.id_b, 2, 200, 0, 0);
	nt(&rows[3], 10, STACKLAT_NT_KIND_PROTO, tr.id_b, 0, 0, 3, 4096);
	nt(&rows[4], 12, STACKLAT_NT_KIND_PROTO, tr.id_a, 1, 5000, 0, 0);
	nt(&rows[5], 13, STACKLAT_NT_KIND_PROTO, tr.id_root, 1, 1, 1, 1);
	nt(&rows[6], 14, STACKLAT_NT_KIND_PROTO, 987654321987ULL, 1, 100, 0, 0);
	snprintf(names.root, sizeof(names.root), "%s", tr.root);
	assert_int_equal(parse("net --by cgroup", &a, err), 0);
	assert_int_equal(cg_build(&cg_net, &s, &a, &names, &t), 0);
	assert_int_equal(t.n, 4);
	assert_int_equal(t.total, 4);
	/* by bytes: a (5000), a/b (700 + 4106), removed (100), root (2) */
	assert_string_equal(t.r[0].path, "/a");
	assert_int_equal(t.r[0].procs, 1);
	assert_string_equal(t.r[1].path, "/a/b");
	assert_int_equal(t.r[1].id, tr.id_b);
	assert_int_equal(t.r[1].procs, 2);
	assert_int_equal(t.r[1].v[0], 7);
	assert_int_equal(t.r[1].v[1], 700);
	assert_int_equal(t.r[1].v[2], 4);
	assert_int_equal(t.r[1].v[3], 4106);
	assert_false(t.r[1].removed);
	assert_string_equal(t.r[2].path, "cgroup:987654321987 (removed)");
	assert_true(t.r[2].removed);
	assert_string_equal(t.r[3].path, "/");
	assert_int_equal(t.v[1], 700 + 5000 + 1 + 100);
	env = json_object_new_object();
	cg_json(env, &cg_net, &t, &a);
	assert_string_equal(json_object_get_string(json_object_object_get(env, "by")), "cgroup");
	assert_string_equal(json_object_get_string(json_object_object_get(env, "sort")), "bytes");
	r = json_object_array_get_idx(json_object_object_get(env, "rows"), 1);
	assert_int_equal(json_object_get_uint64(json_object_object_get(r, "cgroup_id")), tr.id_b);
	assert_string_equal(json_object_get_string(json_object_object_get(r, "cgroup")), "/a/b");
	assert_int_equal(json_object_get_uint64(json_object_object_get(r, "processes")), 2);
	assert_int_equal(json_object_get_uint64(json_object_object_get(r, "recv_bytes")), 4106);
	o = json_object_object_get(json_object_array_get_idx(json_object_object_get(env, "rows"), 2),
				   "removed");
	assert_true(json_object_get_boolean(o));
	json_object_put(env);
	cg_table_free(&t);

	/* -s sent -n 2 -p 10: one process's rows, cut */
	assert_int_equal(parse("net --by cgroup -s recv -n 1 -p 10", &a, err), 0);
	assert_int_equal(cg_build(&cg_net, &s, &a, &names, &t), 0);
	assert_int_equal(t.n, 1);
	assert_int_equal(t.total, 1);
	assert_int_equal(t.r[0].v[3], 4106);
	assert_int_equal(t.r[0].procs, 1);
	cg_table_free(&t);

	/* a cgroup made after the first walk is found by the walk again */
	{
		char p[128];
		uint64_t id_c;

		snprintf(p, sizeof(p), "%s/c", tr.root);
		assert_int_equal(mkdir(p, 0700), 0);
		id_c = ino(p);
		rows[6].cgroup_id = id_c;
		assert_int_equal(parse("net --by cgroup -n 0", &a, err), 0);
		assert_int_equal(cg_build(&cg_net, &s, &a, &names, &t), 0);
		assert_int_equal(t.n, 4);
		assert_string_equal(t.r[2].path, "/c");
		assert_false(t.r[2].removed);
		cg_table_free(&t);
		rmdir(p);
	}
	cg_names_free(&names);
	tree_rm(&tr);
}

static void test_syscalls(void **state)
{
	struct sc_row rows[3];
	struct keyed_set s = { rows, 3, 3, 1 };
	struct cg_names names = { 0 };
	struct cg_table t;
	struct top_args a;
	struct tree tr;
	char err[200];

	(void)state;
	tree_make(&tr);
	memset(rows, 0, sizeof(rows));
	rows[0].tgid = 1;
	rows[0].cgroup_id = tr.id_a;
	rows[0].count = 10;
	rows[0].time_ns = 5;
	rows[1].tgid = 1;
	rows[1].cgroup_id = tr.id_a;
	rows[1].count = 3;
	rows[1].errors = 3;
	rows[1].time_ns = 5;
	rows[2].tgid = 2;
	rows[2].cgroup_id = 0;	/* none */
	rows[2].count = 1;
	rows[2].time_ns = 100;
	snprintf(names.root, sizeof(names.root), "%s", tr.root);
	assert_int_equal(parse("syscalls --by cgroup -s time", &a, err), 0);
	assert_int_equal(cg_build(&cg_syscalls, &s, &a, &names, &t), 0);
	assert_int_equal(t.n, 2);
	assert_string_equal(t.r[0].path, "-");
	assert_string_equal(t.r[1].path, "/a");
	assert_int_equal(t.r[1].procs, 1);
	assert_int_equal(t.r[1].v[0], 13);
	assert_int_equal(t.r[1].v[1], 3);
	assert_int_equal(t.r[1].v[2], 10);
	assert_string_equal(cg_sort_name(a.sort), "time");
	cg_table_free(&t);
	cg_names_free(&names);
	tree_rm(&tr);

	/* the mount gone: no name, every id "removed", no failure */
	snprintf(names.root, sizeof(names.root), "%s", tr.root);
	assert_int_equal(cg_build(&cg_syscalls, &s, &a, &names, &t), 0);
	assert_int_equal(t.n, 2);
	assert_true(t.r[1].removed);
	cg_table_free(&t);
	cg_names_free(&names);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_args),
		cmocka_unit_test(test_net),
		cmocka_unit_test(test_syscalls),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
