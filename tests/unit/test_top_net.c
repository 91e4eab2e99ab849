// SPDX-License-Identifier: GPL-2.0
/*
 * "stacklat top net" (tool/top_net.c): its words, proto rows per process
 * and protocol, -P per process, -r peer rows, the addresses as shown,
 * JSON, and the delta of an interval keyed by process, kind, protocol
 * and peer.
 */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
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

static void nt_fill(struct nt_row *r, uint32_t tgid, uint32_t kind,
		    uint32_t proto, uint64_t sends, uint64_t sbytes,
		    uint64_t recvs, uint64_t rbytes)
{
	memset(r, 0, sizeof(*r));
	r->tgid = tgid;
	r->kind = kind;
	r->proto = proto;
	snprintf(r->comm, sizeof(r->comm), "p%u", tgid);
	r->sends = sends;
	r->send_bytes = sbytes;
	r->recvs = recvs;
	r->recv_bytes = rbytes;
}

static void test_args(void **state)
{
	struct top_args a;
	char err[200];

	(void)state;
	assert_int_equal(parse("net", &a, err), 0);
	assert_int_equal(a.what, TOP_NET);
	assert_int_equal(a.sort, TOP_SORT_BYTES);
	assert_false(a.peers);
	assert_int_equal(parse("net -r -s sent -p 7 2 3", &a, err), 0);
	assert_true(a.peers);
	assert_int_equal(a.sort, TOP_SORT_SENT);
	assert_int_equal(a.pid, 7);
	assert_int_equal(parse("net --peers -s recv", &a, err), 0);
	assert_true(a.peers);
	assert_int_equal(a.sort, TOP_SORT_RECV);
	assert_int_equal(parse("net -P -s count", &a, err), 0);
	assert_int_equal(a.sort, TOP_SORT_COUNT);
	assert_int_equal(parse("net -P -r", &a, err), -1);
	assert_non_null(strstr(err, "-P and -r"));
	assert_int_equal(parse("net -x", &a, err), -1);
	assert_non_null(strstr(err, "not for net"));
	assert_int_equal(parse("net -s reads", &a, err), -1);
	assert_int_equal(parse("net -s p99", &a, err), -1);
	assert_int_equal(parse("files -s sent", &a, err), -1);
	assert_non_null(strstr(err, "for net only"));
	assert_int_equal(parse("syscalls -r", &a, err), -1);
	assert_non_null(strstr(err, "-r: for net only"));
	assert_int_equal(parse("syscalls -s recv", &a, err), -1);
	assert_int_equal(parse("nets", &a, err), -1);
	assert_non_null(strstr(err, "'net'"));
}

static void test_addr(void **state)
{
	uint8_t a[16] = { 0 };
	char b[64];

	(void)state;
	assert_string_equal(nt_addr(a, b, sizeof(b)), "*");
	a[10] = a[11] = 0xff;
	assert_string_equal(nt_addr(a, b, sizeof(b)), "*");
	a[12] = 127;
	a[15] = 1;
	assert_string_equal(nt_addr(a, b, sizeof(b)), "127.0.0.1");
	memset(a, 0, sizeof(a));
	a[15] = 1;
	assert_string_equal(nt_addr(a, b, sizeof(b)), "::1");
	a[0] = 0xfd;
	a[15] = 2;
	assert_string_equal(nt_addr(a, b, sizeof(b)), "fd00::2");
}

static void test_rows(void **state)
{
	struct nt_row rows[5], old[5];
	struct keyed_set s = { rows, 5, 5, 1 }, p = { old, 5, 5, 1 }, d = { 0 };
	struct json_object *env;
	const char *js;
	struct top_args a;
	struct nt_table t;
	char err[200], *buf = NULL;
	size_t len = 0;
	FILE *f;

	(void)state;
	/* process 10: tcp4 and udp6, and its tcp4 peer; 20: udp4 */
	nt_fill(&rows[0], 10, STACKLAT_NT_KIND_PROTO, STACKLAT_NT_TCP4, 40, 400000, 1, 1);
	nt_fill(&rows[1], 10, STACKLAT_NT_KIND_PROTO, STACKLAT_NT_UDP6, 15, 18000, 0, 0);
	nt_fill(&rows[2], 10, STACKLAT_NT_KIND_PEER, STACKLAT_NT_TCP4, 40, 400000, 1, 1);
	rows[2].lport = 40000;
	rows[2].rport = 15011;
	rows[2].raddr[10] = rows[2].raddr[11] = 0xff;
	rows[2].raddr[12] = 127;
	rows[2].raddr[15] = 1;
	nt_fill(&rows[3], 20, STACKLAT_NT_KIND_PROTO, STACKLAT_NT_UDP4, 0, 0, 500, 500000);
	nt_fill(&rows[4], 30, STACKLAT_NT_KIND_PROTO, STACKLAT_NT_TCP6, 1, 1, 0, 0);
	assert_int_equal(parse("net -n 0", &a, err), 0);
	assert_int_equal(nt_build(&s, &a, &t), 0);
	assert_int_equal(t.n, 4);
	assert_int_equal(t.r[0].tgid, 20);
	assert_int_equal(t.r[1].tgid, 10);
	assert_int_equal(t.r[1].row->proto, STACKLAT_NT_TCP4);
	assert_int_equal(t.r[2].row->proto, STACKLAT_NT_UDP6);
	assert_int_equal(t.sends, 56);
	assert_int_equal(t.recv_bytes, 500001);
	env = json_object_new_object();
	nt_json(env, &t, &a);
	js = json_object_to_json_string_ext(env, JSON_C_TO_STRING_PLAIN);
	assert_non_null(strstr(js, "\"what\":\"net\",\"by\":\"proto\""));
	assert_non_null(strstr(js, "{\"tgid\":10,\"comm\":\"p10\",\"proto\":\"tcp4\",\"sends\":40,\"send_errors\":0,\"send_bytes\":400000,\"recvs\":1"));
	json_object_put(env);
	nt_table_free(&t);
	/* -s sent -n 1: process 10's tcp4 first, the rest counted */
	assert_int_equal(parse("net -s sent -n 1", &a, err), 0);
	assert_int_equal(nt_build(&s, &a, &t), 0);
	assert_int_equal(t.n, 1);
	assert_int_equal(t.total, 4);
	f = open_memstream(&buf, &len);
	nt_render(f, &t, &a);
	fclose(f);
	assert_non_null(strstr(buf, "PROTO    SENDS      TX_KB    RECVS      RX_KB\n"));
	assert_non_null(strstr(buf, "10       p10              tcp4        40        390        1          0\n"));
	assert_non_null(strstr(buf, "(3 more not shown"));
	free(buf);
	nt_table_free(&t);
	/* -P: 10's protocols summed */
	assert_int_equal(parse("net -P -s count", &a, err), 0);
	assert_int_equal(nt_build(&s, &a, &t), 0);
	assert_int_equal(t.n, 3);
	assert_int_equal(t.r[0].tgid, 20);
	assert_int_equal(t.r[1].tgid, 10);
	assert_int_equal(t.r[1].sends, 55);
	assert_int_equal(t.r[1].recvs, 1);
	assert_null(t.r[1].row);
	nt_table_free(&t);
	/* -r: the peer rows only */
	assert_int_equal(parse("net -r", &a, err), 0);
	assert_int_equal(nt_build(&s, &a, &t), 0);
	assert_int_equal(t.n, 1);
	buf = NULL;
	f = open_memstream(&buf, &len);
	nt_render(f, &t, &a);
	fclose(f);
	assert_non_null(strstr(buf, " 40000 127.0.0.1:15011\n"));
	free(buf);
	env = json_object_new_object();
	nt_json(env, &t, &a);
	js = json_object_to_json_string_ext(env, JSON_C_TO_STRING_PLAIN);
	assert_non_null(strstr(js, "\"lport\":40000,\"raddr\":\"127.0.0.1\",\"rport\":15011,\"alias\":0"));
	json_object_put(env);
	nt_table_free(&t);
	/* an interval: what happened since; a row that went down counts whole */
	memcpy(old, rows, sizeof(rows));
	rows[0].sends += 2;
	rows[0].send_bytes += 20000;
	rows[2].sends += 2;
	rows[2].send_bytes += 20000;
	assert_int_equal(nt_delta(&s, &p, &d), 0);
	assert_int_equal(d.n, 2);
	assert_int_equal(((struct nt_row *)d.r)[0].kind, STACKLAT_NT_KIND_PROTO);
	assert_int_equal(((struct nt_row *)d.r)[0].send_bytes, 20000);
	assert_int_equal(((struct nt_row *)d.r)[1].kind, STACKLAT_NT_KIND_PEER);
	assert_int_equal(((struct nt_row *)d.r)[1].sends, 2);
	free(d.r);
	memset(&d, 0, sizeof(d));
	old[3].recvs = 1000;
	assert_int_equal(nt_delta(&s, &p, &d), 0);
	assert_int_equal(d.n, 3);
	free(d.r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_args),
		cmocka_unit_test(test_addr),
		cmocka_unit_test(test_rows),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
