// SPDX-License-Identifier: GPL-2.0
/*
 * "stacklat top lock" (tool/top_lock.c): its words, rows per (lock type,
 * caller) sorted and cut, JSON, the delta of an interval keyed by type and
 * caller name; and the lock rows in `stacklat metrics` (tool/metrics.c):
 * summed per type, no other label.
 */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "format.h"
#include "metrics.h"
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

static void lk_fill(struct lk_row *r, uint32_t flags, const char *type,
		    const char *caller, uint64_t n, uint64_t each)
{
	memset(r, 0, sizeof(*r));
	r->flags = flags;
	snprintf(r->type, sizeof(r->type), "%s", type);
	snprintf(r->caller, sizeof(r->caller), "%s", caller);
	r->count = n;
	r->time_ns = n * each;
	r->max_ns = each;
	r->stack_id = 3;
	r->hist[stacklat_sc_bucket(each)] = n;
}

static void test_lock_args(void **state)
{
	struct top_args a;
	char err[160];

	(void)state;
	assert_int_equal(parse("lock", &a, err), 0);
	assert_int_equal(a.what, TOP_LOCK);
	assert_int_equal(a.sort, TOP_SORT_TIME);
	assert_int_equal(a.top, 10);
	assert_int_equal(parse("lock -s count -n 0 -j 2 3", &a, err), 0);
	assert_int_equal(a.sort, TOP_SORT_COUNT);
	assert_int_equal(a.top, 0);
	assert_true(a.json);
	assert_int_equal(a.count, 3);
	assert_int_equal(parse("lock -s p99", &a, err), 0);
	assert_int_equal(a.sort, TOP_SORT_P99);
	assert_int_equal(parse("lock -p 1", &a, err), -1);
	assert_non_null(strstr(err, "-p: not for lock"));
	assert_int_equal(parse("lock -P", &a, err), -1);
	assert_non_null(strstr(err, "-P: not for lock"));
	assert_int_equal(parse("lock -x", &a, err), -1);
	assert_int_equal(parse("lock --stacks", &a, err), -1);
	assert_int_equal(parse("lock -s bytes", &a, err), -1);
	assert_int_equal(parse("locks", &a, err), -1);
	assert_non_null(strstr(err, "'lock'"));
}

static void test_lock_build(void **state)
{
	struct lk_row rows[3], old[3];
	struct keyed_set s = { rows, 3, 3, 1 }, p = { old, 3, 3, 1 }, d = { 0 };
	struct json_object *env;
	struct top_args a;
	struct lk_table t;
	char err[160];
	const char *js;

	(void)state;
	/* rwsem:W: 10 x 50 ms; spinlock: 1000 x 2 us; mutex: 3 x 1 ms */
	lk_fill(&rows[0], 0x4, "rwsem:W", "shmem_file_write_iter+0x3e", 10, 50000000);
	lk_fill(&rows[1], 0x1, "spinlock", "__queue_work+0x1a3", 1000, 2000);
	lk_fill(&rows[2], 0x20, "mutex", "pipe_write+0x5c", 3, 1000000);
	rows[1].nested = 4;
	assert_int_equal(parse("lock", &a, err), 0);
	assert_int_equal(lk_build(&s, &a, true, &t), 0);
	assert_int_equal(t.n, 3);
	assert_string_equal(t.r[0].row->type, "rwsem:W");	/* 500 ms */
	assert_string_equal(t.r[1].row->type, "mutex");	/* 3 ms, then 2 ms */
	assert_int_equal(t.count, 1013);
	assert_int_equal(t.time_ns, 505000000);
	assert_int_equal(t.max_ns, 50000000);
	env = json_object_new_object();
	lk_json(env, &t, &a, true);
	js = json_object_to_json_string_ext(env, JSON_C_TO_STRING_PLAIN);
	assert_non_null(strstr(js, "\"what\":\"lock\",\"sort\":\"total\",\"waits\":1013,"));
	assert_non_null(strstr(js, "{\"type\":\"rwsem:W\",\"flags\":4,\"caller\":\"shmem_file_write_iter+0x3e\",\"waits\":10,\"failed\":0,\"time_ns\":500000000,\"avg_ns\":50000000,\"max_ns\":50000000,"));
	assert_non_null(strstr(js, "\"nested\":4,\"alias\":0,\"stack_id\":3,"));
	json_object_put(env);
	lk_table_free(&t);
	/* -s count -n 1: the spinlock only, the rest counted as not shown */
	assert_int_equal(parse("lock -s count -n 1", &a, err), 0);
	assert_int_equal(lk_build(&s, &a, false, &t), 0);
	assert_int_equal(t.n, 1);
	assert_int_equal(t.total, 3);
	assert_string_equal(t.r[0].row->caller, "__queue_work+0x1a3");
	assert_int_equal(t.r[0].max_ns, 0);		/* not known: an interval */
	lk_table_free(&t);
	/* an interval: keyed by type and caller, whatever the rows' order */
	memcpy(old, rows, sizeof(rows));
	old[0] = rows[2];
	old[2] = rows[0];
	rows[0].count += 2;
	rows[0].time_ns += 120000000;
	rows[0].hist[stacklat_sc_bucket(60000000)] += 2;
	assert_int_equal(lk_delta(&s, &p, &d), 0);
	assert_int_equal(d.n, 1);
	assert_string_equal(((struct lk_row *)d.r)[0].type, "rwsem:W");
	assert_int_equal(((struct lk_row *)d.r)[0].count, 2);
	assert_int_equal(((struct lk_row *)d.r)[0].time_ns, 120000000);
	assert_int_equal(((struct lk_row *)d.r)[0].max_ns, 0);
	/* the same name of another type is another row: new, counted whole */
	old[0].flags = 0x8;
	assert_int_equal(lk_delta(&s, &p, &d), 0);
	assert_int_equal(d.n, 2);
	/* a reset in between (a count went down): the row counts whole */
	memcpy(old, rows, sizeof(rows));
	old[1].count = 5000;
	assert_int_equal(lk_delta(&s, &p, &d), 0);
	assert_int_equal(d.n, 1);
	assert_int_equal(((struct lk_row *)d.r)[0].count, 1000);
	free(d.r);
}

/* metrics: the lock rows per type only, while the pipeline is enabled */
static void test_lock_metrics(void **state)
{
	struct pipe_info pi[1];
	struct pipe_list pl = { pi, 1 };
	struct hist_set set = { 0 };
	struct lk_row rows[3];
	struct keyed_set s = { rows, 3, 3, 1 };
	char *buf = NULL;
	size_t len = 0;
	FILE *f;

	(void)state;
	memset(pi, 0, sizeof(pi));
	strcpy(pi[0].name, "lock");
	pi[0].enabled = true;
	lk_fill(&rows[0], 0x4, "rwsem:W", "shmem_file_write_iter+0x3e", 10, 50000000);
	lk_fill(&rows[1], 0x4, "rwsem:W", "do_truncate+0x60", 2, 1500);
	lk_fill(&rows[2], 0x1, "spinlock", "__queue_work+0x1a3", 7, 1000);
	f = open_memstream(&buf, &len);
	assert_non_null(f);
	metrics_render(f, &pl, &set, &s);
	fclose(f);
	assert_non_null(strstr(buf,
		"# TYPE stacklat_lock_contention_waits_total counter\n"
		"stacklat_lock_contention_waits_total{type=\"rwsem:W\"} 12\n"
		"stacklat_lock_contention_waits_total{type=\"spinlock\"} 7\n"));
	assert_non_null(strstr(buf,
		"stacklat_lock_contention_seconds_total{type=\"rwsem:W\"} 0.500003\n"
		"stacklat_lock_contention_seconds_total{type=\"spinlock\"} 0.000007\n"));
	assert_null(strstr(buf, "caller"));
	assert_non_null(strstr(buf, "# EOF\n"));
	free(buf);
	/* disabled: no lock family at all */
	pi[0].enabled = false;
	buf = NULL;
	f = open_memstream(&buf, &len);
	assert_non_null(f);
	metrics_render(f, &pl, &set, &s);
	fclose(f);
	assert_null(strstr(buf, "stacklat_lock"));
	free(buf);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_lock_args),
		cmocka_unit_test(test_lock_build),
		cmocka_unit_test(test_lock_metrics),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
