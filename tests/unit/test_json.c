// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of tool/json.c (the one JSON schema, built with json-c) and
 * tool/metrics.c (the Prometheus / OpenMetrics exposition).
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
#include "json.h"
#include "metrics.h"
#include "parse.h"
#include "render.h"
#include "stacks.h"
#include "stacklat_event.h"

static char *text(struct json_object *o)
{
	static char *buf;
	size_t len = 0;
	FILE *f;

	free(buf);
	buf = NULL;
	f = open_memstream(&buf, &len);
	assert_non_null(f);
	json_emit(f, o);
	fclose(f);
	return buf;
}

static char *str(const char *s)
{
	return text(json_str(s));
}

static void test_json_string(void **state)
{
	(void)state;
	assert_string_equal(str(""), "\"\"\n");
	assert_string_equal(str("vda.D2C"), "\"vda.D2C\"\n");
	assert_string_equal(str("a\"b\\c"), "\"a\\\"b\\\\c\"\n");
	assert_string_equal(str("\n\r\t\b\f"), "\"\\n\\r\\t\\b\\f\"\n");
	assert_string_equal(str("x\x01y\x1f"), "\"x\\u0001y\\u001f\"\n");
	assert_string_equal(str("/"), "\"/\"\n");
	/* valid UTF-8 passes through */
	assert_string_equal(str("\xc3\xa9t\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80"),
			    "\"\xc3\xa9t\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80\"\n");
	/* invalid bytes become U+FFFD, one each */
#define FFFD "\xef\xbf\xbd"
	assert_string_equal(str("a\xff" "b"), "\"a" FFFD "b\"\n");
	assert_string_equal(str("\xc3"), "\"" FFFD "\"\n");		/* truncated */
	assert_string_equal(str("\xc0\xaf"), "\"" FFFD FFFD "\"\n");	/* overlong */
	assert_string_equal(str("\xed\xa0\x80"), "\"" FFFD FFFD FFFD "\"\n");	/* surrogate */
	assert_string_equal(str("\xf4\x90\x80\x80"), "\"" FFFD FFFD FFFD FFFD "\"\n");
}

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

static struct hist hs[2];
static struct pipe_info pi = { .name = "func", .enabled = true, .generation = 3 };

static void setup_hists(void)
{
	memset(hs, 0, sizeof(hs));
	fill(&hs[0], 3, 1000, 100);
	fill(&hs[0], 3, 50000, 1);
	strcpy(hs[0].pipeline, "func");
	strcpy(hs[0].stage, "__x64_sys_getppid");
	strcpy(hs[1].pipeline, "func");
	hs[1].generation = 3;
	hs[1].index = 1;
	hs[1].min_exact = hs[1].max_exact = true;
	strcpy(hs[1].stage, "vfs_read");
}

#define STAGE0 \
	"{\"name\":\"__x64_sys_getppid\",\"index\":0,\"unit\":\"ns\",\"count\":101,\"sum\":150000," \
	"\"min\":1000,\"max\":50000,\"avg\":1485,\"p50\":1008,\"p90\":1008,\"p99\":1008," \
	"\"p999\":50000,\"overflow\":0,\"min_exact\":true,\"max_exact\":true,\"sum_ns\":150000," \
	"\"min_ns\":1000,\"max_ns\":50000,\"avg_ns\":1485,\"p50_ns\":1008,\"p90_ns\":1008," \
	"\"p99_ns\":1008,\"p999_ns\":50000"
#define STAGE1 \
	"{\"name\":\"vfs_read\",\"index\":1,\"unit\":\"ns\",\"count\":0,\"sum\":0,\"min\":0," \
	"\"max\":0,\"avg\":0,\"p50\":0,\"p90\":0,\"p99\":0,\"p999\":0,\"overflow\":0," \
	"\"min_exact\":true,\"max_exact\":true,\"sum_ns\":0,\"min_ns\":0,\"max_ns\":0," \
	"\"avg_ns\":0,\"p50_ns\":0,\"p90_ns\":0,\"p99_ns\":0,\"p999_ns\":0"

static void test_json_show(void **state)
{
	struct json_object *env, *arr;

	(void)state;
	setup_hists();
	/* p50..p99: mid(111) = 1008; p99.9: mid(200) 50176 clamped to the max */
	env = json_envelope("show", 1700000000123456789ULL, 0);
	arr = json_object_new_array();
	json_object_array_add(arr, json_pipe_hists("func", &pi, hs, 2, false));
	json_object_object_add(env, "pipelines", arr);
	assert_string_equal(text(env),
		"{\"schema\":1,\"command\":\"show\",\"time_ns\":1700000000123456789,"
		"\"interval_ns\":null,\"pipelines\":[{\"pipeline\":\"func\",\"generation\":3,"
		"\"enabled\":true,\"reset\":false,\"stages\":[" STAGE0 "}," STAGE1 "}]}]}\n");

	/* an interval: the same shape, interval_ns set, reset noted */
	hs[0].max_exact = false;
	hs[0].kind = HIST_BASELINE_RESET;
	env = json_envelope("show", 5, 1000000000);
	arr = json_object_new_array();
	json_object_array_add(arr, json_pipe_hists("fu\"nc", NULL, hs, 1, false));
	json_object_object_add(env, "pipelines", arr);
	assert_non_null(strstr(text(env),
		"\"interval_ns\":1000000000,\"pipelines\":[{\"pipeline\":\"fu\\\"nc\","
		"\"generation\":3,\"reset\":true,\"stages\":[{\"name\":\"__x64_sys_getppid\""));

	/* no stages */
	assert_string_equal(text(json_pipe_hists("func", &pi, NULL, 0, false)),
		"{\"pipeline\":\"func\",\"generation\":3,\"enabled\":true,\"reset\":false,"
		"\"stages\":[]}\n");
}

static void test_json_hist_buckets(void **state)
{
	(void)state;
	setup_hists();
	fill(&hs[0], 3, 1ULL << 40, 2);		/* overflow: p99 (rank 102 of 103) and p99.9 are the max */
	/* bucket 111 = [992, 1024), 200 = [49152, 51200) */
	assert_string_equal(text(json_stage(&hs[0], true)),
		"{\"name\":\"__x64_sys_getppid\",\"index\":0,\"unit\":\"ns\",\"count\":103,"
		"\"sum\":2199023405552,\"min\":1000,\"max\":1099511627776,\"avg\":21349741801,"
		"\"p50\":1008,\"p90\":1008,\"p99\":1099511627776,\"p999\":1099511627776,\"overflow\":2,"
		"\"min_exact\":true,\"max_exact\":true,\"sum_ns\":2199023405552,\"min_ns\":1000,"
		"\"max_ns\":1099511627776,\"avg_ns\":21349741801,\"p50_ns\":1008,\"p90_ns\":1008,"
		"\"p99_ns\":1099511627776,\"p999_ns\":1099511627776,"
		"\"buckets\":[[992,1024,100],[49152,51200,1]]}\n");
}

static void test_json_status(void **state)
{
	struct hook_info hooks[] = {
		{ .name = "entry", .target = "netif_receive_skb", .state = STACKLAT_HOOK_ARMED,
		  .kind = STACKLAT_HOOK_KIND_TRACEPOINT, .hits = 123456 },
		{ .name = "tcp", .target = "tcp_v4_rcv", .state = STACKLAT_HOOK_FAILED,
		  .kind = STACKLAT_HOOK_KIND_KPROBE, .error = ENOENT },
		{ .name = "sock_queue", .target = "", .state = STACKLAT_HOOK_UNAVAILABLE },
	};
	struct stage_info stages[] = { { .index = 0, .name = "ip->tcp", .from = "ip", .to = "tcp" } };
	struct pipe_info p = {
		.name = "net_rx", .desc = "packet receive", .key = STACKLAT_KEY_SKB,
		.enabled = true, .generation = 2, .nstages = 1, .stages = stages,
		.hooks = hooks, .nhooks = 3, .has_filter = true,
		.filter = { .mask = FILTER_BIT(STACKLAT_FILTER_A_LPORT) |
				    FILTER_BIT(STACKLAT_FILTER_A_PROTO),
			    .lport = 80, .proto = 6 },
		.loss_mask = 1U << STACKLAT_LOSS_A_NMISSED | 1U << STACKLAT_LOSS_A_STALE,
	};
	struct status_info st = {
		.version = "0.1.0", .release = "6.1.0-13-amd64",
		.clock = "ktime_get_mono_fast_ns", .nr_pipelines = 1,
		.has_flight = true, .flight_size = 16384, .flight_used = 12,
		.flight_max_age_ns = 10000000000ULL, .flight_inserts = 1234,
		.flight_full = 0, .flight_stale = 5,
		.has_events = true, .events_ring = 512, .events_rings = 2, .events_ring_start = 128, .events_ring_now = 512, .events_bytes = 311296, .events_written = 10,
		.events_read = 8, .ncpus = 2,
	};
	struct pipe_list pl = { .p = &p, .n = 1 };
	struct json_object *env;
	uint64_t over[2] = { 3, 4 };

	(void)state;
	st.overruns = over;
	p.threshold_ns = 5000000;
	p.loss[STACKLAT_LOSS_A_NMISSED] = 7;
	p.loss[STACKLAT_LOSS_A_STALE] = 2;
	env = json_envelope("status", 9, 0);
	json_status(env, &st, &pl);
	assert_string_equal(text(env),
		"{\"schema\":1,\"command\":\"status\",\"time_ns\":9,\"interval_ns\":null,"
		"\"module\":{\"version\":\"0.1.0\",\"kernel\":\"6.1.0-13-amd64\","
		"\"clock\":\"ktime_get_mono_fast_ns\",\"nr_pipelines\":1},"
		"\"flight\":{\"size\":16384,\"used\":12,\"max_age_ns\":10000000000,"
		"\"inserts\":1234,\"full\":0,\"stale\":5},"
		"\"events\":{\"ring\":512,\"rings\":2,\"ring_start\":128,\"ring_now\":512,\"bytes\":311296,\"written\":10,\"read\":8,\"overruns\":7,"
		"\"overruns_per_cpu\":[3,4]},"
		"\"pipelines\":[{\"pipeline\":\"net_rx\",\"desc\":\"packet receive\",\"key\":\"skb\","
		"\"enabled\":true,\"generation\":2,\"filter\":{\"lport\":80,\"proto\":\"tcp\"},"
		"\"threshold_ns\":5000000,"
		"\"losses\":{\"nmissed\":7,\"stale\":2},"
		"\"stages\":[{\"index\":0,\"name\":\"ip->tcp\",\"from\":\"ip\",\"to\":\"tcp\"}],"
		"\"hooks\":[{\"name\":\"entry\",\"kind\":\"tracepoint\",\"target\":\"netif_receive_skb\","
		"\"state\":\"armed\",\"error\":null,\"hits\":123456,\"nmissed\":0},"
		"{\"name\":\"tcp\",\"kind\":\"kprobe\",\"target\":\"tcp_v4_rcv\",\"state\":\"failed\","
		"\"error\":\"ENOENT: No such file or directory\",\"hits\":0,\"nmissed\":0},"
		"{\"name\":\"sock_queue\",\"kind\":\"-\",\"target\":null,\"state\":\"not available\","
		"\"error\":null,\"hits\":0,\"nmissed\":0}]}]}\n");
}

static void test_events(void **state)
{
	struct stage_info stages[] = {
		{ .index = 0, .name = "udp->ip" }, { .index = 4, .name = "qdisc" },
	};
	struct pipe_info p[2] = { { .name = "net_rx" },
				  { .name = "net_tx", .stages = stages, .nstages = 2 } };
	struct pipe_list pl = { .p = p, .n = 2 };
	struct stacklat_event ev = {
		.time_ns = 12345678901234ULL, .total_ns = 41234567, .seq = 9,
		.tgid = 100, .tid = 101, .cpu = 1, .pipeline = 1, .nstages = 3,
		.comm = "py thon\x01\xff",
		.stages = { { .index = 0, .ns = 12000 }, { .index = 4, .ns = 41000000 },
			    { .index = 7, .ns = 999 } },
	};
	struct json_object *env;
	char line[512];
	uint64_t ns;

	(void)state;
	render_event(line, sizeof(line), &ev, &pl);
	assert_string_equal(line, "12345.678901 py?thon?? 100/101 net_tx total=41.2ms "
			    "udp->ip=12.0us qdisc=41.0ms stage7=999ns cgroup=-");
	env = json_envelope("events", 1, 0);
	json_event(env, &ev, &pl);
	assert_string_equal(text(env),
		"{\"schema\":1,\"command\":\"events\",\"time_ns\":1,\"interval_ns\":null,"
		"\"event\":{\"mono_ns\":12345678901234,\"pipeline\":\"net_tx\","
		"\"comm\":\"py thon\\u0001\xef\xbf\xbd\",\"tgid\":100,\"tid\":101,\"cpu\":1,"
		"\"seq\":9,\"total_ns\":41234567,\"stages\":[{\"name\":\"udp->ip\",\"index\":0,"
		"\"ns\":12000},{\"name\":\"qdisc\",\"index\":4,\"ns\":41000000},"
		"{\"name\":null,\"index\":7,\"ns\":999}],\"cgroup\":null,\"cgroup_id\":0}}\n");
	ev.pipeline = 9;		/* unknown: no names */
	render_event(line, sizeof(line), &ev, &pl);
	assert_non_null(strstr(line, " 100/101 ? total=41.2ms stage0=12.0us stage4="));
	/* a connect's result and a listener's queue (tcpconnect, tcpaccept lines) */
	ev.flags = STACKLAT_EVENT_F_RESULT | STACKLAT_EVENT_F_QUEUE;
	ev.result = 111;
	ev.qlen = 2;
	ev.qmax = 128;
	render_event(line, sizeof(line), &ev, &pl);
	assert_non_null(strstr(line, " result=111 qlen=2 qmax=128"));
	/* (text() emitted env, and put it) */
	env = json_envelope("events", 1, 0);
	json_event(env, &ev, &pl);
	assert_non_null(strstr(text(env), "\"result\":111,\"qlen\":2,\"qmax\":128,\"cgroup\":null,\"cgroup_id\":0}"));
	/* a drop's protocol and where (netdrop lines); a location of 63 bytes */
	ev.flags = STACKLAT_EVENT_F_PROTO | STACKLAT_EVENT_F_WHERE;
	ev.proto = 17;
	memcpy(ev.where, "__udp4_lib_rcv+0x5b2", 21);
	render_event(line, sizeof(line), &ev, &pl);
	assert_non_null(strstr(line, " proto=udp where=__udp4_lib_rcv+0x5b2"));
	ev.proto = 250;
	memset(ev.where, 'x', sizeof(ev.where));
	render_event(line, sizeof(line), &ev, &pl);
	assert_non_null(strstr(line, " proto=250 where=xxx"));
	assert_null(strstr(line, "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"));
	env = json_envelope("events", 1, 0);
	ev.proto = 6;
	memcpy(ev.where, "tcp_v4_rcv+0x10[nf_x]", 22);
	json_event(env, &ev, &pl);
	assert_non_null(strstr(text(env), "\"proto\":\"tcp\",\"where\":\"tcp_v4_rcv+0x10[nf_x]\",\"cgroup\":null"));
	ev.flags = 0;

	assert_int_equal(parse_duration("10ms", &ns), 0);
	assert_int_equal(ns, 10000000);
	assert_int_equal(parse_duration("250us", &ns), 0);
	assert_int_equal(ns, 250000);
	assert_int_equal(parse_duration("0", &ns), 0);
	assert_int_equal(ns, 0);
	assert_int_equal(parse_duration("3600s", &ns), 0);
	assert_int_equal(ns, 3600000000000ULL);
	assert_int_equal(parse_duration("3601s", &ns), -1);
	assert_int_equal(parse_duration("10", &ns), -1);
	assert_int_equal(parse_duration("1.5ms", &ns), -1);
	assert_int_equal(parse_duration("-1ms", &ns), -1);
	assert_int_equal(parse_duration("99999999999999999999999ns", &ns), -1);
	assert_int_equal(parse_duration("ms", &ns), -1);
}

/* the events stream's writer prints exactly what the slow path prints */
static void test_event_writer(void **state)
{
	struct stage_info stages[] = {
		{ .index = 0, .name = "udp->ip" }, { .index = 4, .name = "qdisc" },
	};
	struct pipe_info p[2] = { { .name = "net_rx" },
				  { .name = "net_tx", .stages = stages, .nstages = 2 } };
	struct pipe_list pl = { .p = p, .n = 2 };
	static const char * const comms[] = { "sl-spin", "py thon\x01\xff", "", "a\xc3\xa9" "b" };
	struct json_event_writer *w = json_event_writer_new(&pl);
	char *fast = NULL, *slow;
	size_t len = 0, i, k;
	FILE *f;

	(void)state;
	assert_non_null(w);
	/* 40 shapes come and go through 8 slots, values change every line */
	for (i = 0; i < 400; i++) {
		struct stacklat_event ev = {
			.time_ns = 1000000 + i * 7, .total_ns = 5000 + i, .seq = i,
			.tgid = 100 + i % 3, .tid = 200 + i, .cpu = i % 2,
			.pipeline = i % 3 ? 1 : 0, .nstages = 1 + i % 5,
			.sport = 7000 + i, .dport = 9, .dev = (8u << 20) | (i % 16),
			.op = i % 4, .sector = i * 8, .bytes = 4096 * (i % 3),
		};
		struct json_object *env;

		ev.flags = (i / 5) % 8 == 0 ? 0 :
			   (i / 5) % 8 == 1 ? STACKLAT_EVENT_F_IF | STACKLAT_EVENT_F_PORTS :
			   (i / 5) % 8 == 2 ? STACKLAT_EVENT_F_DEV | STACKLAT_EVENT_F_OP |
					      STACKLAT_EVENT_F_IO :
			   STACKLAT_EVENT_F_IF;
		strncpy(ev.comm, comms[i % 4], sizeof(ev.comm));
		snprintf(ev.ifname, sizeof(ev.ifname), i % 2 ? "veth%zu" : "lo", i % 7);
		for (k = 0; k < ev.nstages; k++) {
			ev.stages[k].index = (k + i / 11) % 6;
			ev.stages[k].ns = i * 1000 + k;
		}
		f = open_memstream(&fast, &len);
		assert_non_null(f);
		json_event_write(w, f, &ev, 77 + i);
		fclose(f);
		env = json_envelope("events", 77 + i, 0);
		json_event(env, &ev, &pl);
		slow = text(env);
		assert_string_equal(fast, slow);
		free(fast);
		fast = NULL;
	}
	json_event_writer_free(w);
}

/* GET_EVENTS' compact record: packed by the module, unpacked by the tool */
static void test_event_compact(void **state)
{
	struct stacklat_event ev = {
		.time_ns = 1, .total_ns = 2, .seq = 3, .tgid = 4, .tid = 5, .cpu = 6,
		.pipeline = 7, .nstages = 2, .comm = "abc", .flags = STACKLAT_EVENT_F_IF,
		.dev = 8, .sport = 9, .dport = 10, .op = 1, .sector = 11, .bytes = 12,
		.ifname = "veth0",
		.stages = { { .index = 1, .ns = 100 }, { .index = 3, .ns = 300 } },
	}, out;
	unsigned char buf[sizeof(ev)];
	unsigned int n;

	(void)state;
	n = stacklat_event_compact_len(&ev);
	assert_int_equal(n, sizeof(ev) - 14 * sizeof(ev.stages[0]));
	stacklat_event_pack(buf, &ev);
	assert_int_equal(stacklat_event_unpack(&out, buf, n), 0);
	assert_memory_equal(&out, &ev, sizeof(ev));
	/* a length that does not match its nstages, or too many stages */
	assert_int_equal(stacklat_event_unpack(&out, buf, n - 1), -1);
	assert_int_equal(stacklat_event_unpack(&out, buf, 20), -1);
	ev.nstages = STACKLAT_EVENT_STAGES;
	stacklat_event_pack(buf, &ev);
	assert_int_equal(stacklat_event_unpack(&out, buf, sizeof(ev)), 0);
	((struct stacklat_event *)buf)->nstages = STACKLAT_EVENT_STAGES + 1;
	assert_int_equal(stacklat_event_unpack(&out, buf, sizeof(ev)), -1);
}

/*
 * A 0.2/0.3 module's compact record: the object ends before family (56
 * bytes shorter); read with the 0.4 fields unset.  A 0.4 record's are
 * kept.
 */
static void test_event_compact_old(void **state)
{
	struct stacklat_event ev = {
		.time_ns = 1, .nstages = 1, .flags = STACKLAT_EVENT_F_PORTS | STACKLAT_EVENT_F_ADDR,
		.sport = 9, .dport = 10, .family = 2, .saddr = { 10, 0, 0, 1 },
		.daddr = { 10, 0, 0, 2 }, .tcp_state = 1, .rto_us = 200000,
		.stages = { { .index = 1, .ns = 100 } },
	}, out;
	unsigned char buf[sizeof(ev)], old[sizeof(ev)];
	unsigned int n = stacklat_event_compact_len(&ev), o;

	(void)state;
	assert_int_equal(STACKLAT_EVENT_OBJ_LEN_0_4 - STACKLAT_EVENT_OBJ_LEN_0_2, 56);
	assert_int_equal(STACKLAT_EVENT_OBJ_LEN_0_5 - STACKLAT_EVENT_OBJ_LEN_0_4, 8);
	assert_int_equal(STACKLAT_EVENT_OBJ_LEN_0_6 - STACKLAT_EVENT_OBJ_LEN_0_5, 72);
	assert_int_equal(STACKLAT_EVENT_OBJ_LEN - STACKLAT_EVENT_OBJ_LEN_0_6, 8);
	stacklat_event_pack(buf, &ev);
	assert_int_equal(stacklat_event_unpack(&out, buf, n), 0);
	assert_int_equal(out.family, 2);
	assert_int_equal(out.rto_us, 200000);
	assert_int_equal(out.daddr[3], 2);
	/* the old layout: head, the short object, the stage */
	o = STACKLAT_EVENT_HEAD_LEN + STACKLAT_EVENT_OBJ_LEN_0_2;
	memcpy(old, buf, o);
	memcpy(old + o, buf + STACKLAT_EVENT_HEAD_LEN + STACKLAT_EVENT_OBJ_LEN,
	       STACKLAT_EVENT_STAGE_LEN);
	assert_int_equal(stacklat_event_unpack(&out, old, o + STACKLAT_EVENT_STAGE_LEN), 0);
	assert_int_equal(out.sport, 9);
	assert_int_equal(out.dport, 10);
	assert_int_equal(out.family, 0);
	assert_int_equal(out.rto_us, 0);
	assert_int_equal(out.stages[0].ns, 100);
	assert_int_equal(stacklat_event_unpack(&out, old, o + STACKLAT_EVENT_STAGE_LEN - 1), -1);
	/* a 0.4 module's: no queue */
	ev.flags |= STACKLAT_EVENT_F_RESULT | STACKLAT_EVENT_F_QUEUE;
	ev.result = 111;
	ev.qlen = 3;
	ev.qmax = 128;
	stacklat_event_pack(buf, &ev);
	assert_int_equal(stacklat_event_unpack(&out, buf, n), 0);
	assert_int_equal(out.result, 111);
	assert_int_equal(out.qmax, 128);
	o = STACKLAT_EVENT_HEAD_LEN + STACKLAT_EVENT_OBJ_LEN_0_4;
	memcpy(old, buf, o);
	memcpy(old + o, buf + STACKLAT_EVENT_HEAD_LEN + STACKLAT_EVENT_OBJ_LEN,
	       STACKLAT_EVENT_STAGE_LEN);
	assert_int_equal(stacklat_event_unpack(&out, old, o + STACKLAT_EVENT_STAGE_LEN), 0);
	assert_int_equal(out.rto_us, 200000);
	assert_int_equal(out.result, 111);
	assert_int_equal(out.qlen, 0);
	assert_int_equal(out.qmax, 0);
	assert_int_equal(out.stages[0].ns, 100);
	/* a 0.6 or 0.7 module's: no cgroup */
	ev.cgroup = 4242;
	stacklat_event_pack(buf, &ev);
	assert_int_equal(stacklat_event_unpack(&out, buf, n), 0);
	assert_int_equal(out.cgroup, 4242);
	o = STACKLAT_EVENT_HEAD_LEN + STACKLAT_EVENT_OBJ_LEN_0_6;
	memcpy(old, buf, o);
	memcpy(old + o, buf + STACKLAT_EVENT_HEAD_LEN + STACKLAT_EVENT_OBJ_LEN,
	       STACKLAT_EVENT_STAGE_LEN);
	assert_int_equal(stacklat_event_unpack(&out, old, o + STACKLAT_EVENT_STAGE_LEN), 0);
	assert_int_equal(out.qmax, 128);
	assert_int_equal(out.cgroup, 0);
	assert_int_equal(out.stages[0].ns, 100);
	/* a 0.5 module's: no protocol, no location */
	ev.flags |= STACKLAT_EVENT_F_PROTO | STACKLAT_EVENT_F_WHERE;
	ev.proto = 17;
	memcpy(ev.where, "udp_rcv+0x1c", 13);
	stacklat_event_pack(buf, &ev);
	assert_int_equal(stacklat_event_unpack(&out, buf, n), 0);
	assert_int_equal(out.proto, 17);
	assert_string_equal(out.where, "udp_rcv+0x1c");
	o = STACKLAT_EVENT_HEAD_LEN + STACKLAT_EVENT_OBJ_LEN_0_5;
	memcpy(old, buf, o);
	memcpy(old + o, buf + STACKLAT_EVENT_HEAD_LEN + STACKLAT_EVENT_OBJ_LEN,
	       STACKLAT_EVENT_STAGE_LEN);
	assert_int_equal(stacklat_event_unpack(&out, old, o + STACKLAT_EVENT_STAGE_LEN), 0);
	assert_int_equal(out.qmax, 128);
	assert_int_equal(out.proto, 0);
	assert_int_equal(out.where[0], 0);
	assert_int_equal(out.stages[0].ns, 100);
}

/* an event's stack: frames as a line writes them, and its JSON members */
static void test_event_stack(void **state)
{
	char *fr[] = { "__schedule+0x5d7/0x1540", "pipe_read+0x345/0x4a0",
		       "nft_do_chain+0x1a/0x600 [nf_tables]" };
	struct stack_row r = { .id = 7, .nr = 3, .frames = fr };
	struct stack_set set = { .r = &r, .n = 1 };
	struct stacklat_event ev;
	struct pipe_list pl = { 0 };
	struct pipe_info pi = { 0 };
	char buf[256], *out = NULL;
	size_t len = 0;
	FILE *f;

	(void)state;
	strcpy(r.pipe, "offcpu");
	stack_frame_compact(buf, sizeof(buf), fr[2]);
	assert_string_equal(buf, "nft_do_chain+0x1a[nf_tables]");
	len = stack_fold(buf, sizeof(buf), &r);
	assert_int_equal(len, strlen(buf));
	assert_string_equal(buf, "__schedule+0x5d7;pipe_read+0x345;nft_do_chain+0x1a[nf_tables]");
	/* cut to the buffer, NUL-terminated */
	assert_true(stack_fold(buf, 12, &r) < 12);
	assert_string_equal(buf, "__schedule+");
	assert_ptr_equal(stacks_find(&set, "offcpu", 7), &r);
	assert_null(stacks_find(&set, "offcpu", 8));
	assert_null(stacks_find(&set, "lock", 7));

	memset(&ev, 0, sizeof(ev));
	ev.flags = STACKLAT_EVENT_F_STACK;
	ev.stack_id = 7;
	ev.total_ns = 52000000;
	strcpy(pi.name, "offcpu");
	pl.p = &pi;
	pl.n = 1;
	f = open_memstream(&out, &len);
	assert_non_null(f);
	json_event_write_stack(f, &ev, &pl, 1, r.frames, r.nr);
	fclose(f);
	assert_non_null(strstr(out, "\"stack_id\":7"));
	assert_non_null(strstr(out, "\"stack\":[\"__schedule+0x5d7/0x1540\",\"pipe_read+0x345/0x4a0\""));
	free(out);
	out = NULL;
	f = open_memstream(&out, &len);
	json_event_write_stack(f, &ev, &pl, 1, NULL, 0);
	fclose(f);
	assert_non_null(strstr(out, "\"stack\":[]"));
	free(out);
}

/* addresses as debugfs and the tool print them (RFC 5952 for IPv6) */
static void test_addr_fmt(void **state)
{
	static const struct {
		unsigned char a[16];
		const char *s;
	} v6[] = {
		{ { 0 }, "::" },
		{ { [15] = 1 }, "::1" },
		{ { 0xfe, 0x80, [15] = 1 }, "fe80::1" },
		{ { 0xfd, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2 }, "fd00::2" },
		{ { 0x20, 0x01, 0x0d, 0xb8, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 1 }, "2001:db8:0:1::1" },
		{ { 0x20, 0x01, 0x0d, 0xb8, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 1 }, "2001:db8::1:0:0:1" },
		{ { 0x20, 0x01, 0x0d, 0xb8, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 0 },
		  "2001:db8:1:1:1:1:1:0" },
		{ { 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0 }, "1::" },
	};
	const unsigned char v4[4] = { 10, 0, 0, 254 };
	char b[48];
	unsigned int i;

	(void)state;
	stacklat_addr_fmt(b, sizeof(b), 2, v4);
	assert_string_equal(b, "10.0.0.254");
	for (i = 0; i < sizeof(v6) / sizeof(v6[0]); i++) {
		stacklat_addr_fmt(b, sizeof(b), 10, v6[i].a);
		assert_string_equal(b, v6[i].s);
	}
	/* a short buffer: cut, terminated */
	stacklat_addr_fmt(b, 6, 10, v6[4].a);
	assert_string_equal(b, "2001:");
	assert_string_equal(stacklat_tcp_state_name(1), "ESTAB");
	assert_string_equal(stacklat_tcp_state_name(99), "?");
}

static void test_metrics_decimal(void **state)
{
	char b[48];

	(void)state;
	metrics_decimal(b, sizeof(b), 0, 9);
	assert_string_equal(b, "0");
	metrics_decimal(b, sizeof(b), 1, 9);
	assert_string_equal(b, "0.000000001");
	metrics_decimal(b, sizeof(b), 1023, 9);
	assert_string_equal(b, "0.000001023");
	metrics_decimal(b, sizeof(b), 1000, 9);
	assert_string_equal(b, "0.000001");
	metrics_decimal(b, sizeof(b), 68719476735ULL, 9);
	assert_string_equal(b, "68.719476735");
	metrics_decimal(b, sizeof(b), 3000000000ULL, 9);
	assert_string_equal(b, "3");
	metrics_decimal(b, sizeof(b), 18446744073709551615ULL, 9);
	assert_string_equal(b, "18446744073.709551615");
}

static void test_metrics(void **state)
{
	struct pipe_info p[2] = {
		{ .name = "func", .enabled = true,
		  .loss_mask = 1U << STACKLAT_LOSS_A_STALE },
		{ .name = "net_rx", .enabled = false },
	};
	struct pipe_list pl = { .p = p, .n = 2 };
	struct hist h3[3];
	struct hist_set set = { .h = h3, .n = 3 };
	char *buf = NULL, *l;
	size_t len = 0;
	FILE *f;

	(void)state;
	p[0].loss[STACKLAT_LOSS_A_STALE] = 4;
	setup_hists();
	strcpy(hs[1].stage, "a\"b");
	fill(&hs[1], 3, 1ULL << 40, 2);		/* overflow: only in +Inf */
	fill(&hs[1], 3, 1023, 1);		/* bucket [1008,1024): le 1023 */
	fill(&hs[1], 3, 1024, 5);		/* [1024,1088): le 2047 */
	memcpy(h3, hs, sizeof(hs));
	memset(&h3[2], 0, sizeof(h3[2]));
	strcpy(h3[2].pipeline, "net_rx");	/* disabled: not exported */
	strcpy(h3[2].stage, "total");
	f = open_memstream(&buf, &len);
	assert_non_null(f);
	metrics_render(f, &pl, &set, NULL);
	fclose(f);
	assert_non_null(strstr(buf, "# TYPE stacklat_stage_seconds histogram\n"));
	/* cumulative: 1000 x100 is in [992,1024) -> le 0.000001023 and on */
	assert_non_null(strstr(buf,
		"stacklat_stage_seconds_bucket{pipeline=\"func\",stage=\"__x64_sys_getppid\",le=\"0.000000511\"} 0\n"
		"stacklat_stage_seconds_bucket{pipeline=\"func\",stage=\"__x64_sys_getppid\",le=\"0.000001023\"} 100\n"));
	assert_non_null(strstr(buf,
		"stacklat_stage_seconds_bucket{pipeline=\"func\",stage=\"__x64_sys_getppid\",le=\"0.000032767\"} 100\n"
		"stacklat_stage_seconds_bucket{pipeline=\"func\",stage=\"__x64_sys_getppid\",le=\"0.000065535\"} 101\n"));
	assert_non_null(strstr(buf,
		"stacklat_stage_seconds_bucket{pipeline=\"func\",stage=\"__x64_sys_getppid\",le=\"+Inf\"} 101\n"
		"stacklat_stage_seconds_sum{pipeline=\"func\",stage=\"__x64_sys_getppid\"} 0.00015\n"
		"stacklat_stage_seconds_count{pipeline=\"func\",stage=\"__x64_sys_getppid\"} 101\n"));
	/* an edge sample: 1023 ns is <= le 1023 ns, 1024 is not; overflow only in +Inf */
	assert_non_null(strstr(buf,
		"stacklat_stage_seconds_bucket{pipeline=\"func\",stage=\"a\\\"b\",le=\"0.000001023\"} 1\n"
		"stacklat_stage_seconds_bucket{pipeline=\"func\",stage=\"a\\\"b\",le=\"0.000002047\"} 6\n"));
	assert_non_null(strstr(buf,
		"stacklat_stage_seconds_bucket{pipeline=\"func\",stage=\"a\\\"b\",le=\"68.719476735\"} 6\n"
		"stacklat_stage_seconds_bucket{pipeline=\"func\",stage=\"a\\\"b\",le=\"+Inf\"} 8\n"));
	assert_null(strstr(buf, "net_rx"));
	assert_non_null(strstr(buf, "# TYPE stacklat_lost_stale_total counter\n"
				    "stacklat_lost_stale_total{pipeline=\"func\"} 4\n"));
	assert_non_null(strstr(buf, "stacklat_lost_nmissed_total{pipeline=\"func\"} 0\n"));
	/* 36 finite buckets and +Inf per stage, two stages */
	len = 0;
	for (l = buf; (l = strstr(l, "_bucket{")); l++)
		len++;
	assert_int_equal(len, 2 * (METRICS_POW_MAX - METRICS_POW_MIN + 2));
	assert_string_equal(buf + strlen(buf) - 6, "# EOF\n");
	/* no value stage: no family of sizes or of things */
	assert_null(strstr(buf, "stacklat_stage_bytes"));
	assert_null(strstr(buf, "stacklat_stage_items"));
	free(buf);
}

/*
 * Value stages (reqresp's segments: a count; netsize's bytes) are in the
 * family of their unit, in whole numbers of it, never in seconds.
 */
static void test_metrics_units(void **state)
{
	struct pipe_info p[1] = { { .name = "reqresp", .enabled = true } };
	struct pipe_list pl = { .p = p, .n = 1 };
	struct hist h3[3];
	struct hist_set set = { .h = h3, .n = 3 };
	char *buf = NULL, *l;
	size_t len = 0;
	FILE *f;

	(void)state;
	memset(h3, 0, sizeof(h3));
	fill(&h3[0], 1, 1000, 4);
	strcpy(h3[0].stage, "total");
	fill(&h3[1], 1, 1, 3);			/* [1,2): le 1 */
	fill(&h3[1], 1, 2, 1);			/* [2,3): le 3 */
	h3[1].unit = STACKLAT_UNIT_COUNT;
	strcpy(h3[1].stage, "segments");
	fill(&h3[2], 1, 1500, 2);		/* [1472,1536): le 2047 */
	h3[2].unit = STACKLAT_UNIT_BYTES;
	strcpy(h3[2].stage, "size");
	for (len = 0; len < 3; len++)
		strcpy(h3[len].pipeline, "reqresp");
	f = open_memstream(&buf, &len);
	assert_non_null(f);
	metrics_render(f, &pl, &set, NULL);
	fclose(f);
	assert_non_null(strstr(buf,
		"stacklat_stage_seconds_sum{pipeline=\"reqresp\",stage=\"total\"} 0.000004\n"));
	assert_null(strstr(buf, "stacklat_stage_seconds_bucket{pipeline=\"reqresp\",stage=\"segments\""));
	assert_null(strstr(buf, "stacklat_stage_seconds_bucket{pipeline=\"reqresp\",stage=\"size\""));
	assert_non_null(strstr(buf, "# TYPE stacklat_stage_items histogram\n"
		"stacklat_stage_items_bucket{pipeline=\"reqresp\",stage=\"segments\",le=\"1\"} 3\n"
		"stacklat_stage_items_bucket{pipeline=\"reqresp\",stage=\"segments\",le=\"3\"} 4\n"));
	assert_non_null(strstr(buf,
		"stacklat_stage_items_bucket{pipeline=\"reqresp\",stage=\"segments\",le=\"68719476735\"} 4\n"
		"stacklat_stage_items_bucket{pipeline=\"reqresp\",stage=\"segments\",le=\"+Inf\"} 4\n"
		"stacklat_stage_items_sum{pipeline=\"reqresp\",stage=\"segments\"} 5\n"
		"stacklat_stage_items_count{pipeline=\"reqresp\",stage=\"segments\"} 4\n"));
	assert_non_null(strstr(buf, "# TYPE stacklat_stage_bytes histogram\n"));
	assert_non_null(strstr(buf,
		"stacklat_stage_bytes_bucket{pipeline=\"reqresp\",stage=\"size\",le=\"1023\"} 0\n"
		"stacklat_stage_bytes_bucket{pipeline=\"reqresp\",stage=\"size\",le=\"2047\"} 2\n"));
	assert_non_null(strstr(buf,
		"stacklat_stage_bytes_sum{pipeline=\"reqresp\",stage=\"size\"} 3000\n"));
	/* each stage in one family only: 36 finite buckets and +Inf each */
	len = 0;
	for (l = buf; (l = strstr(l, "_bucket{")); l++)
		len++;
	assert_int_equal(len, 3 * (METRICS_POW_MAX - METRICS_POW_MIN + 2));
	free(buf);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_json_string),
		cmocka_unit_test(test_json_show),
		cmocka_unit_test(test_json_hist_buckets),
		cmocka_unit_test(test_json_status),
		cmocka_unit_test(test_events),
		cmocka_unit_test(test_event_writer),
		cmocka_unit_test(test_event_compact),
		cmocka_unit_test(test_event_compact_old),
		cmocka_unit_test(test_addr_fmt),
		cmocka_unit_test(test_event_stack),
		cmocka_unit_test(test_metrics_decimal),
		cmocka_unit_test(test_metrics),
		cmocka_unit_test(test_metrics_units),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
