// SPDX-License-Identifier: GPL-2.0
/* Unit tests of the tool's pure logic: formatting, parsing, deltas, bars. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "histo.h"
#include "stacklat.h"

static void test_fmt_ns(void **state)
{
	char b[16];

	(void)state;
	fmt_ns(b, sizeof(b), 0);
	assert_string_equal(b, "0ns");
	fmt_ns(b, sizeof(b), 999);
	assert_string_equal(b, "999ns");
	fmt_ns(b, sizeof(b), 1000);
	assert_string_equal(b, "1.00us");
	fmt_ns(b, sizeof(b), 1234);
	assert_string_equal(b, "1.23us");
	fmt_ns(b, sizeof(b), 12345);
	assert_string_equal(b, "12.3us");
	fmt_ns(b, sizeof(b), 123456);
	assert_string_equal(b, "123us");
	fmt_ns(b, sizeof(b), 5000000);
	assert_string_equal(b, "5.00ms");
	fmt_ns(b, sizeof(b), 61000000000ULL);
	assert_string_equal(b, "61.0s");
	fmt_ns(b, sizeof(b), 4000000000000ULL);
	assert_string_equal(b, "4000s");
}

static void test_json_str(void **state)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	(void)state;
	json_str(f, "a\"b\\c\nd\x01");
	fclose(f);
	assert_string_equal(buf, "\"a\\\"b\\\\c\\nd\\u0001\"");
	free(buf);
}

static void test_filter_parse(void **state)
{
	struct filter_args fa = { 0 };
	char err[128];

	(void)state;
	assert_int_equal(parse_filter_word("tgid=42", &fa, err, sizeof(err)), 0);
	assert_int_equal(fa.tgid, 42);
	assert_int_equal(parse_filter_word("lport=8080", &fa, err, sizeof(err)), 0);
	assert_int_equal(fa.lport, 8080);
	assert_int_equal(parse_filter_word("proto=udp", &fa, err, sizeof(err)), 0);
	assert_int_equal(fa.proto, 17);
	assert_int_equal(parse_filter_word("dev=8:16", &fa, err, sizeof(err)), 0);
	assert_int_equal(fa.dev, (8u << 20) | 16);
	assert_int_equal(parse_filter_word("dev=254:0", &fa, err, sizeof(err)), 0);
	assert_int_equal(fa.dev, 254u << 20);
	assert_int_equal(parse_filter_word("op=fsync", &fa, err, sizeof(err)), 0);
	assert_int_equal(fa.op, STACKLAT_OP_FSYNC);
	assert_int_equal(parse_filter_word("clear", &fa, err, sizeof(err)), 0);
	assert_true(fa.clear);
	assert_int_equal(fa.tgid, 0);

	assert_int_equal(parse_filter_word("tgid=abc", &fa, err, sizeof(err)), -1);
	assert_string_equal(err, "bad value 'abc' for 'tgid'");
	assert_int_equal(parse_filter_word("tgid=0", &fa, err, sizeof(err)), -1);
	assert_int_equal(parse_filter_word("tgid=-1", &fa, err, sizeof(err)), -1);
	assert_int_equal(parse_filter_word("lport=65536", &fa, err, sizeof(err)), -1);
	assert_int_equal(parse_filter_word("proto=icmp", &fa, err, sizeof(err)), -1);
	assert_int_equal(parse_filter_word("dev=8", &fa, err, sizeof(err)), -1);
	assert_int_equal(parse_filter_word("dev=0:0", &fa, err, sizeof(err)), -1);
	assert_int_equal(parse_filter_word("op=unlink", &fa, err, sizeof(err)), -1);
	assert_int_equal(parse_filter_word("port=1", &fa, err, sizeof(err)), -1);
	assert_string_equal(err, "unknown filter key 'port'");
	assert_int_equal(parse_filter_word("tgid", &fa, err, sizeof(err)), -1);
	assert_string_equal(err, "'tgid' is not key=value");
	assert_int_equal(parse_filter_word("iface=no-such-if0", &fa, err, sizeof(err)), -1);
}

static void test_interval(void **state)
{
	(void)state;
	assert_int_equal(parse_interval_ms("1"), 1000);
	assert_int_equal(parse_interval_ms("0.5"), 500);
	assert_int_equal(parse_interval_ms("0"), -1);
	assert_int_equal(parse_interval_ms("-1"), -1);
	assert_int_equal(parse_interval_ms("x"), -1);
	assert_int_equal(parse_interval_ms("1s"), -1);
}

static struct hist a, b, d;

static void fill(struct hist *h, uint64_t gen, uint64_t v, uint64_t n)
{
	h->generation = gen;
	h->buckets[stacklat_hist_bucket(v)] += n;
	h->count += n;
	h->sum += v * n;
	if (!h->min || v < h->min)
		h->min = v;
	if (v > h->max)
		h->max = v;
}

static void test_delta(void **state)
{
	struct hist_row r;

	(void)state;
	memset(&a, 0, sizeof(a));
	fill(&a, 1, 1000, 100);
	b = a;
	fill(&b, 1, 50000, 10);
	assert_true(hist_delta(&b, &a, &d));
	assert_int_equal(d.count, 10);
	assert_int_equal(d.sum, 500000);
	hist_row(&d, &r);
	assert_int_equal(r.avg, 50000);
	/* the interval only saw 50 us samples: its percentiles say so */
	assert_true(r.pct[0] >= 50000 * 31 / 32 && r.pct[0] <= 50000 * 33 / 32);
	assert_true(d.min >= 48000 && d.min <= 50000);
	assert_int_equal(d.max, 50000);

	/* nothing happened */
	assert_true(hist_delta(&b, &b, &d));
	assert_int_equal(d.count, 0);

	/* a reset (generation bump) is a new baseline, not a negative delta */
	memset(&a, 0, sizeof(a));
	fill(&a, 2, 1000, 3);
	assert_false(hist_delta(&a, &b, &d));
	assert_int_equal(d.count, 3);
}

static void test_bars(void **state)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f;

	(void)state;
	memset(&a, 0, sizeof(a));
	fill(&a, 1, 1000, 40);
	fill(&a, 1, 3000, 10);
	f = open_memstream(&buf, &len);
	hist_bars(f, &a, false);
	fclose(f);
	assert_non_null(strstr(buf, "512ns -> 1.02us    : 40         |****************************************|"));
	assert_non_null(strstr(buf, "2.04us -> 4.09us    : 10         |**********                              |"));
	free(buf);

	memset(&a, 0, sizeof(a));
	f = open_memstream(&buf, &len);
	hist_bars(f, &a, false);
	fclose(f);
	assert_string_equal(buf, "  (no samples)\n");
	free(buf);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fmt_ns),
		cmocka_unit_test(test_json_str),
		cmocka_unit_test(test_filter_parse),
		cmocka_unit_test(test_interval),
		cmocka_unit_test(test_delta),
		cmocka_unit_test(test_bars),
	};

	return cmocka_run_group_tests_name("tool", tests, NULL, NULL);
}
