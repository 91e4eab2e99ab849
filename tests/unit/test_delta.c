// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of tool/histo.c and tool/render.c: interval deltas (generation
 * changes, counters going backwards, new stages, min/max exactness), the
 * bucket array of a GET_HIST reply, text bars, the show table, the status
 * view (JSON: test_json.c).
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "histo.h"
#include "render.h"

static struct hist a, b, c, d, e;

static void fill(struct hist *h, uint64_t gen, uint64_t v, uint64_t n)
{
	uint32_t i = stacklat_hist_bucket(v);

	h->generation = gen;
	if (i < STACKLAT_HIST_NBUCKETS)
		h->buckets[i] += n;
	else
		h->overflow += n;
	if (!h->count || v < h->min)
		h->min = v;
	if (!h->count || v > h->max)
		h->max = v;
	h->count += n;
	h->sum += v * n;
	h->min_exact = h->max_exact = true;
	h->kind = HIST_CUMULATIVE;
}

static void reset_all(void)
{
	memset(&a, 0, sizeof(a));
	memset(&b, 0, sizeof(b));
	memset(&c, 0, sizeof(c));
	memset(&d, 0, sizeof(d));
	memset(&e, 0, sizeof(e));
}

static void test_bucket_ids(void **state)
{
	(void)state;
	/* the buckets the tests below rely on */
	assert_int_equal(stacklat_hist_bucket(1000), 111);
	assert_int_equal(stacklat_hist_lower(111), 992);
	assert_int_equal(stacklat_hist_width(111), 32);
	assert_int_equal(stacklat_hist_bucket(20000), 179);
	assert_int_equal(stacklat_hist_lower(179), 19456);
	assert_int_equal(stacklat_hist_bucket(50000), 200);
	assert_int_equal(stacklat_hist_lower(200), 49152);
	assert_int_equal(stacklat_hist_width(200), 2048);
	assert_int_equal(stacklat_hist_bucket(3000), 135);
	assert_int_equal(stacklat_hist_lower(135), 2944);
}

static void test_delta_basic(void **state)
{
	struct hist_stats st;
	int i;

	(void)state;
	reset_all();
	fill(&a, 1, 1000, 100);
	b = a;
	fill(&b, 1, 50000, 10);
	assert_int_equal(hist_delta(&b, &a, &d), HIST_DELTA);
	assert_int_equal(d.kind, HIST_DELTA);
	assert_int_equal(d.count, 10);
	assert_int_equal(d.sum, 500000);
	assert_int_equal(d.overflow, 0);
	assert_int_equal(d.buckets[200], 10);
	assert_int_equal(d.buckets[111], 0);
	/* a new cumulative max: exact; min only from the bucket */
	assert_int_equal(d.max, 50000);
	assert_true(d.max_exact);
	assert_int_equal(d.min, 49152);
	assert_false(d.min_exact);
	assert_int_equal(d.generation, 1);
	hist_stats(&d, &st);
	assert_int_equal(st.avg, 50000);
	for (i = 0; i < NPCTS; i++)	/* mid 50176 clamped to the max */
		assert_int_equal(st.pct[i], 50000);

	/* samples between the cumulative min and max: both from buckets */
	c = b;
	fill(&c, 1, 20000, 5);
	assert_int_equal(hist_delta(&c, &b, &d), HIST_DELTA);
	assert_int_equal(d.count, 5);
	assert_int_equal(d.sum, 100000);
	assert_int_equal(d.min, 19456);
	assert_int_equal(d.max, 20479);
	assert_false(d.min_exact);
	assert_false(d.max_exact);
	hist_stats(&d, &st);
	assert_int_equal(st.avg, 20000);
	assert_int_equal(st.pct[0], 19968);	/* the bucket's midpoint */
	assert_int_equal(st.pct[3], 19968);

	/* nothing happened */
	assert_int_equal(hist_delta(&c, &c, &d), HIST_DELTA);
	assert_int_equal(d.count, 0);
	assert_int_equal(d.sum, 0);
	assert_int_equal(d.min, 0);
	assert_int_equal(d.max, 0);
	hist_stats(&d, &st);
	assert_int_equal(st.avg, 0);
	assert_int_equal(st.pct[2], 0);

	/* from an empty previous sample: exact min and max */
	memset(&e, 0, sizeof(e));
	e.generation = 1;
	assert_int_equal(hist_delta(&c, &e, &d), HIST_DELTA);
	assert_int_equal(d.count, 115);
	assert_int_equal(d.min, 1000);
	assert_int_equal(d.max, 50000);
	assert_true(d.min_exact && d.max_exact);
}

static void test_delta_small_values_exact(void **state)
{
	(void)state;
	reset_all();
	fill(&a, 4, 1000, 10);
	b = a;
	fill(&b, 4, 5, 1);		/* new min */
	assert_int_equal(hist_delta(&b, &a, &d), HIST_DELTA);
	assert_int_equal(d.min, 5);
	assert_true(d.min_exact);
	assert_int_equal(d.max, 5);	/* bucket 5 holds one value */
	assert_true(d.max_exact);
	c = b;
	fill(&c, 4, 7, 2);
	assert_int_equal(hist_delta(&c, &b, &d), HIST_DELTA);
	assert_int_equal(d.min, 7);
	assert_int_equal(d.max, 7);
	assert_true(d.min_exact && d.max_exact);
}

static void test_delta_reset(void **state)
{
	(void)state;
	reset_all();
	fill(&a, 1, 1000, 100);
	fill(&a, 1, 50000, 10);
	/* someone reset: generation 2, three samples since */
	fill(&b, 2, 1000, 3);
	assert_int_equal(hist_delta(&b, &a, &d), HIST_BASELINE_RESET);
	assert_int_equal(d.kind, HIST_BASELINE_RESET);
	assert_int_equal(d.count, 3);
	assert_int_equal(d.sum, 3000);
	assert_int_equal(d.min, 1000);
	assert_int_equal(d.max, 1000);
	assert_int_equal(d.generation, 2);
	assert_int_equal(d.buckets[111], 3);

	/* the same generation but fewer samples: never a negative delta */
	c = a;
	c.count -= 1;
	c.buckets[111] -= 1;
	assert_int_equal(hist_delta(&c, &a, &d), HIST_BASELINE_RESET);
	assert_int_equal(d.count, 109);
	/* a bucket going backwards alone is enough */
	c = a;
	c.buckets[111] -= 1;
	c.buckets[112] += 1;
	assert_int_equal(hist_delta(&c, &a, &d), HIST_BASELINE_RESET);
	/* so is the sum, or the overflow count */
	c = a;
	c.sum -= 1;
	assert_int_equal(hist_delta(&c, &a, &d), HIST_BASELINE_RESET);
	c = a;
	a.overflow = 1;
	assert_int_equal(hist_delta(&c, &a, &d), HIST_BASELINE_RESET);
}

static void test_delta_overflow(void **state)
{
	struct hist_stats st;

	(void)state;
	reset_all();
	fill(&a, 1, 1000, 10);
	b = a;
	fill(&b, 1, 100000000000ULL, 2);	/* 100 s: overflow */
	assert_int_equal(b.overflow, 2);
	assert_int_equal(hist_delta(&b, &a, &d), HIST_DELTA);
	assert_int_equal(d.count, 2);
	assert_int_equal(d.overflow, 2);
	assert_true(d.max == 100000000000ULL && d.max_exact);
	assert_true(d.min == STACKLAT_HIST_MAX_NS && !d.min_exact);
	c = b;
	fill(&c, 1, 90000000000ULL, 1);
	assert_int_equal(hist_delta(&c, &b, &d), HIST_DELTA);
	assert_int_equal(d.count, 1);
	assert_int_equal(d.overflow, 1);
	assert_true(d.max == 100000000000ULL);	/* only the cumulative is known */
	assert_false(d.max_exact);
	hist_stats(&d, &st);
	assert_true(st.pct[0] == 100000000000ULL);	/* the rank is in overflow */
	/* one in-range sample and one overflowed: p50 in range, p90 overflow */
	e = c;
	fill(&e, 1, 1000, 1);
	fill(&e, 1, 80000000000ULL, 1);
	assert_int_equal(hist_delta(&e, &c, &d), HIST_DELTA);
	hist_stats(&d, &st);
	assert_int_equal(st.pct[0], 1008);
	assert_true(st.pct[1] == 100000000000ULL);
}

static void test_set_delta(void **state)
{
	struct hist_set cur = { 0 }, prev = { 0 }, out = { 0 }, copy = { 0 };
	struct hist *h;

	(void)state;
	h = hist_set_append(&prev);
	fill(h, 1, 1000, 10);
	strcpy(h->pipeline, "func");
	strcpy(h->stage, "vfs_read");
	h->index = 0;
	h = hist_set_append(&prev);
	fill(h, 1, 1000, 10);
	strcpy(h->pipeline, "func");
	strcpy(h->stage, "vfs_write");
	h->index = 1;

	assert_int_equal(hist_set_copy(&cur, &prev), 0);
	assert_int_equal(cur.n, 2);
	fill(&cur.h[0], 1, 1000, 5);
	/* vfs_write deleted, vfs_fsync added in the same slot */
	strcpy(cur.h[1].stage, "vfs_fsync");
	h = hist_set_append(&cur);
	strcpy(h->pipeline, "net_rx");
	strcpy(h->stage, "ip");
	fill(h, 7, 3000, 2);

	assert_int_equal(hist_set_delta(&cur, &prev, &out), 0);
	assert_int_equal(out.n, 3);
	assert_int_equal(out.h[0].kind, HIST_DELTA);
	assert_int_equal(out.h[0].count, 5);
	assert_string_equal(out.h[0].stage, "vfs_read");
	assert_int_equal(out.h[1].kind, HIST_BASELINE_NEW);
	assert_int_equal(out.h[1].count, 10);
	assert_int_equal(out.h[2].kind, HIST_BASELINE_NEW);
	assert_string_equal(out.h[2].pipeline, "net_rx");

	assert_non_null(hist_set_find(&cur, "net_rx", 0, "ip"));
	assert_null(hist_set_find(&cur, "net_rx", 1, "ip"));
	assert_null(hist_set_find(&cur, "func", 1, "vfs_write"));
	assert_int_equal(hist_set_copy(&copy, &cur), 0);
	assert_int_equal(copy.n, 3);
	assert_memory_equal(copy.h, cur.h, 3 * sizeof(*copy.h));

	/* many appends grow the set */
	for (int i = 0; i < 300; i++)
		assert_non_null(hist_set_append(&copy));
	assert_int_equal(copy.n, 303);
	assert_string_equal(copy.h[2].pipeline, "net_rx");
	hist_set_free(&cur);
	hist_set_free(&prev);
	hist_set_free(&out);
	hist_set_free(&copy);
	assert_int_equal(copy.n, 0);
	assert_null(copy.h);
}

static void test_load_buckets(void **state)
{
	__u64 raw[3] = { 3, 0, 4 };
	char err[200];
	int i;

	(void)state;
	memset(&a, 0xff, sizeof(a));
	assert_int_equal(hist_load_buckets(&a, STACKLAT_HIST_NBUCKETS, 111, raw,
					   sizeof(raw), err, sizeof(err)), 0);
	for (i = 0; i < (int)STACKLAT_HIST_NBUCKETS; i++)
		assert_int_equal(a.buckets[i], i == 111 ? 3 : i == 113 ? 4 : 0);
	/* the last bucket exactly */
	assert_int_equal(hist_load_buckets(&a, STACKLAT_HIST_NBUCKETS,
					   STACKLAT_HIST_NBUCKETS - 3, raw,
					   sizeof(raw), err, sizeof(err)), 0);
	assert_int_equal(a.buckets[STACKLAT_HIST_NBUCKETS - 1], 4);
	/* no BUCKETS attribute: an empty histogram */
	assert_int_equal(hist_load_buckets(&a, STACKLAT_HIST_NBUCKETS, 0, NULL, 0,
					   err, sizeof(err)), 0);
	assert_int_equal(a.buckets[STACKLAT_HIST_NBUCKETS - 1], 0);

	assert_int_equal(hist_load_buckets(&a, STACKLAT_HIST_NBUCKETS,
					   STACKLAT_HIST_NBUCKETS - 2, raw,
					   sizeof(raw), err, sizeof(err)), -1);
	assert_string_equal(err, "malformed histogram from the module: 24 bytes of buckets from index 526");
	assert_int_equal(hist_load_buckets(&a, STACKLAT_HIST_NBUCKETS, 0, raw, 7,
					   err, sizeof(err)), -1);
	assert_int_equal(hist_load_buckets(&a, STACKLAT_HIST_NBUCKETS,
					   STACKLAT_HIST_NBUCKETS, raw, 8, err,
					   sizeof(err)), -1);
	assert_int_equal(hist_load_buckets(&a, 512, 0, raw, 8, err, sizeof(err)), -1);
	assert_string_equal(err, "the module's histograms have 512 buckets, this tool's 528: tool and module are from different versions");
}

static char *capture(void (*fn)(FILE *, void *), void *arg)
{
	static char *buf;
	size_t len = 0;
	FILE *f;

	free(buf);
	buf = NULL;
	f = open_memstream(&buf, &len);
	assert_non_null(f);
	fn(f, arg);
	fclose(f);
	return buf;
}

static void bars_coarse(FILE *f, void *h)
{
	hist_bars(f, h, false);
}

static void bars_fine(FILE *f, void *h)
{
	hist_bars(f, h, true);
}

#define HDR "                   range : count      distribution\n"

static void test_bars(void **state)
{
	(void)state;
	reset_all();
	fill(&a, 1, 1000, 40);
	fill(&a, 1, 3000, 10);
	assert_string_equal(capture(bars_coarse, &a),
		HDR
		"      512ns -> 1.02us    : 40         |****************************************|\n"
		"     1.02us -> 2.04us    : 0          |                                        |\n"
		"     2.04us -> 4.09us    : 10         |**********                              |\n");
	assert_string_equal(capture(bars_fine, &a),
		HDR
		"      992ns -> 1.02us    : 40         |****************************************|\n"
		"                     ... :\n"
		"     2.94us -> 3.07us    : 10         |**********                              |\n");

	/* a lone outlier keeps one star; overflow is the last row */
	fill(&a, 1, 3001, 1);
	fill(&a, 1, 100000000000ULL, 1);
	assert_string_equal(capture(bars_coarse, &a),
		HDR
		"      512ns -> 1.02us    : 40         |****************************************|\n"
		"     1.02us -> 2.04us    : 0          |                                        |\n"
		"     2.04us -> 4.09us    : 11         |***********                             |\n"
		"                     ... :\n"
		"      68.7s -> inf       : 1          |*                                       |\n");

	/* values below 16 ns: one value per bucket */
	reset_all();
	fill(&a, 1, 0, 2);
	fill(&a, 1, 3, 4);
	assert_string_equal(capture(bars_fine, &a),
		HDR
		"        0ns -> 1ns       : 2          |********************                    |\n"
		"                     ... :\n"
		"        3ns -> 4ns       : 4          |****************************************|\n");
	assert_string_equal(capture(bars_coarse, &a),
		HDR
		"        0ns -> 16ns      : 6          |****************************************|\n");

	/* the top bucket */
	reset_all();
	fill(&a, 1, STACKLAT_HIST_MAX_NS - 1, 1);
	assert_string_equal(capture(bars_coarse, &a),
		HDR
		"      34.3s -> 68.7s     : 1          |****************************************|\n");

	reset_all();
	assert_string_equal(capture(bars_coarse, &a), "  (no samples)\n");
	assert_string_equal(capture(bars_fine, &a), "  (no samples)\n");
}

static struct pipe_info pi = {
	.name = "func", .enabled = true, .generation = 3,
};

static void table(FILE *f, void *arg)
{
	struct hist *hs = arg;

	render_show_table(f, "func", &pi, hs, 2);
}

static void table_nopi(FILE *f, void *arg)
{
	render_show_table(f, "func", NULL, arg, 2);
}

static void test_render_show(void **state)
{
	struct hist hs[2];

	(void)state;
	memset(hs, 0, sizeof(hs));
	fill(&hs[0], 3, 1000, 100);
	fill(&hs[0], 3, 50000, 1);
	strcpy(hs[0].stage, "__x64_sys_getppid");
	hs[1].generation = 3;
	hs[1].index = 1;
	hs[1].min_exact = hs[1].max_exact = true;
	strcpy(hs[1].stage, "vfs_read");
	/* p50..p99: mid(111) = 1008 (1.00us); p99.9: mid(200) 50176 clamped to the max */
	assert_string_equal(capture(table, hs),
		"func (enabled)\n"
		"stage                  count       avg       p50       p90       p99     p99.9       max\n"
		"__x64_sys_getppid        101    1.48us    1.00us    1.00us    1.00us    50.0us    50.0us\n"
		"vfs_read                   0         -         -         -         -         -         -\n");

	/* interval rows: an inexact max gets '~', a reset is noted */
	hs[0].max_exact = false;
	hs[1].kind = HIST_BASELINE_RESET;
	assert_string_equal(capture(table_nopi, hs),
		"func: reset during the interval, these are the counts since the reset\n"
		"stage                  count       avg       p50       p90       p99     p99.9       max\n"
		"__x64_sys_getppid        101    1.48us    1.00us    1.00us    1.00us    50.0us   ~50.0us\n"
		"vfs_read                   0         -         -         -         -         -         -\n");
	hs[1].kind = HIST_BASELINE_NEW;
	assert_non_null(strstr(capture(table_nopi, hs), "func: new stages, counted since they appeared\n"));
}

/*
 * Value histograms (sizes, depths): the same buckets and percentiles,
 * printed in their unit; 100 x 1 KiB and 100 x 64 KiB come back exactly
 * (each is the lower bound of its bucket, percentiles clamp to min/max).
 */
static void test_render_values(void **state)
{
	struct hist hs[2];
	struct hist_stats st;

	(void)state;
	memset(hs, 0, sizeof(hs));
	fill(&hs[0], 1, 1024, 100);
	fill(&hs[0], 1, 65536, 100);
	hs[0].unit = STACKLAT_UNIT_BYTES;
	strcpy(hs[0].stage, "tcp.sendmsg");
	fill(&hs[1], 1, 4, 6);
	fill(&hs[1], 1, 1, 4);
	hs[1].index = 1;
	hs[1].unit = STACKLAT_UNIT_COUNT;
	strcpy(hs[1].stage, "acceptq");
	hist_stats(&hs[0], &st);
	assert_int_equal(st.count, 200);
	assert_int_equal(st.min, 1024);
	assert_int_equal(st.max, 65536);
	assert_int_equal(st.avg, (1024 + 65536) / 2);
	assert_int_equal(st.pct[0], 1024 + 32);	/* mid of [1024, 1088) */
	assert_int_equal(st.pct[1], 65536);	/* mid 67584 clamped to max */
	assert_string_equal(capture(table, hs),
		"func (enabled)\n"
		"stage            count       avg       p50       p90       p99     p99.9       max\n"
		"tcp.sendmsg        200   32.5KiB   1.03KiB   64.0KiB   64.0KiB   64.0KiB   64.0KiB\n"
		"acceptq             10         2         4         4         4         4         4\n");
	assert_string_equal(capture(bars_coarse, &hs[0]),
		HDR
		"    1.00KiB -> 2.00KiB   : 100        |****************************************|\n"
		"    2.00KiB -> 4.00KiB   : 0          |                                        |\n"
		"    4.00KiB -> 8.00KiB   : 0          |                                        |\n"
		"    8.00KiB -> 16.0KiB   : 0          |                                        |\n"
		"    16.0KiB -> 32.0KiB   : 0          |                                        |\n"
		"    32.0KiB -> 64.0KiB   : 0          |                                        |\n"
		"    64.0KiB -> 128KiB    : 100        |****************************************|\n");
	assert_string_equal(capture(bars_fine, &hs[1]),
		HDR
		"          1 -> 2         : 4          |**************************              |\n"
		"                     ... :\n"
		"          4 -> 5         : 6          |****************************************|\n");
	/* an interval keeps the unit */
	memcpy(&b, &hs[0], sizeof(b));
	fill(&hs[0], 1, 1024, 1);
	assert_int_equal(hist_delta(&hs[0], &b, &c), HIST_DELTA);
	assert_int_equal(c.unit, STACKLAT_UNIT_BYTES);
	assert_int_equal(c.count, 1);
}

static void no_stages(FILE *f, void *arg)
{
	(void)arg;
	render_show_table(f, "func", &pi, NULL, 0);
}

static void test_render_no_stages(void **state)
{
	(void)state;
	assert_string_equal(capture(no_stages, NULL),
		"func (enabled)\n  (no stages)\n");
}

static void status(FILE *f, void *arg)
{
	struct status_info st = {
		.version = "0.1.0", .release = "6.1.0-13-amd64",
		.clock = "ktime_get_mono_fast_ns", .nr_pipelines = 1,
		.has_flight = true, .flight_size = 16384, .flight_used = 12,
		.flight_max_age_ns = 10000000000ULL, .flight_inserts = 1234,
		.flight_full = 0, .flight_stale = 5,
	};
	struct pipe_list pl = { .p = arg, .n = 1 };

	render_status(f, &st, &pl, false);
}

static void status_short(FILE *f, void *arg)
{
	struct status_info st = { .nr_pipelines = 3 };
	struct pipe_info *p = arg;
	struct pipe_list pl = { .p = arg, .n = 1 };

	p->nhooks = 0;
	p->has_filter = false;
	p->loss_mask = 0;
	p->desc[0] = '\0';
	render_status(f, &st, &pl, false);
}

static void test_render_status(void **state)
{
	struct hook_info hooks[] = {
		{ .name = "entry", .target = "netif_receive_skb", .state = STACKLAT_HOOK_ARMED,
		  .kind = STACKLAT_HOOK_KIND_TRACEPOINT, .hits = 123456 },
		{ .name = "tcp", .target = "tcp_v4_rcv", .state = STACKLAT_HOOK_FAILED,
		  .kind = STACKLAT_HOOK_KIND_KPROBE, .error = ENOENT },
		{ .name = "sock_queue", .target = "", .state = STACKLAT_HOOK_UNAVAILABLE,
		  .kind = STACKLAT_HOOK_KIND_NONE },
		{ .name = "ret", .target = "tcp_recvmsg", .state = STACKLAT_HOOK_SKIPPED,
		  .kind = STACKLAT_HOOK_KIND_KRETPROBE, .nmissed = 7 },
		{ .name = "odd", .target = "x", .state = 99, .kind = 99 },
	};
	struct pipe_info p = {
		.name = "net_rx", .desc = "packet receive", .key = STACKLAT_KEY_SKB,
		.enabled = true, .generation = 2, .nstages = 3, .hooks = hooks,
		.nhooks = 5, .has_filter = true,
		.filter = { .mask = FILTER_BIT(STACKLAT_FILTER_A_LPORT) |
				    FILTER_BIT(STACKLAT_FILTER_A_PROTO),
			    .lport = 80, .proto = 6 },
		.loss_mask = 1U << STACKLAT_LOSS_A_NMISSED | 1U << STACKLAT_LOSS_A_STALE,
	};

	(void)state;
	p.loss[STACKLAT_LOSS_A_NMISSED] = 7;
	p.loss[STACKLAT_LOSS_A_STALE] = 2;
	assert_string_equal(capture(status, &p),
		"stacklat module 0.1.0 on Linux 6.1.0-13-amd64, clock ktime_get_mono_fast_ns, 1 pipeline\n"
		"in-flight table: 12 of 16384 slots used, stale after 10.0s; inserts=1234 full=0 stale=5\n"
		"\n"
		"pipeline net_rx: enabled, follows skb, generation 2, 3 stages\n"
		"  packet receive\n"
		"  filter: lport=80 proto=tcp\n"
		"  lost: nmissed=7 stale=2\n"
		"  hook        kind        target               hits  nmissed  state\n"
		"  entry       tracepoint  netif_receive_skb  123456        0  armed\n"
		"  tcp         kprobe      tcp_v4_rcv              0        0  failed (ENOENT: No such file or directory)\n"
		"  sock_queue  -           -                       0        0  not available\n"
		"  ret         kretprobe   tcp_recvmsg             0        7  skipped\n"
		"  odd         ?           x                       0        0  ?\n");
	/* fewer pipelines dumped than the module has: said so */
	assert_string_equal(capture(status_short, &p),
		"stacklat module ? on Linux ?, clock ?, 3 pipelines\n"
		"\n"
		"pipeline net_rx: enabled, follows skb, generation 2, 3 stages\n"
		"\n"
		"warning: the module has 3 pipelines, its dump listed 1\n");
	assert_string_equal(stacklat_hook_state_name(STACKLAT_HOOK_DISARMED), "disarmed");
	assert_string_equal(stacklat_hook_state_name(__STACKLAT_HOOK_STATE_MAX), "?");
	assert_string_equal(stacklat_hook_kind_name(STACKLAT_HOOK_KIND_FPROBE), "fprobe");
	assert_string_equal(stacklat_hook_kind_name(__STACKLAT_HOOK_KIND_MAX), "?");
	assert_string_equal(stacklat_key_name(STACKLAT_KEY_REQUEST), "request");
	assert_string_equal(stacklat_key_name(__STACKLAT_KEY_MAX), "?");
	assert_string_equal(stacklat_loss_name(STACKLAT_LOSS_A_DROPPED), "dropped");
	assert_string_equal(stacklat_loss_name(STACKLAT_LOSS_A_PAD), "?");
	assert_string_equal(stacklat_loss_name((uint32_t)-1), "?");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bucket_ids),
		cmocka_unit_test(test_delta_basic),
		cmocka_unit_test(test_delta_small_values_exact),
		cmocka_unit_test(test_delta_reset),
		cmocka_unit_test(test_delta_overflow),
		cmocka_unit_test(test_set_delta),
		cmocka_unit_test(test_load_buckets),
		cmocka_unit_test(test_bars),
		cmocka_unit_test(test_render_show),
		cmocka_unit_test(test_render_values),
		cmocka_unit_test(test_render_no_stages),
		cmocka_unit_test(test_render_status),
	};

	return cmocka_run_group_tests_name("delta", tests, NULL, NULL);
}
