// SPDX-License-Identifier: GPL-2.0
/* Unit tests of tool/format.c: durations, JSON strings, errnos, colour. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "format.h"

static const char *ns(uint64_t v)
{
	static char b[FMT_NS_LEN];

	fmt_ns(b, sizeof(b), v);
	return b;
}

static void test_fmt_ns(void **state)
{
	(void)state;
	assert_string_equal(ns(0), "0ns");
	assert_string_equal(ns(1), "1ns");
	assert_string_equal(ns(999), "999ns");
	assert_string_equal(ns(1000), "1.00us");
	assert_string_equal(ns(1009), "1.00us");	/* truncated, not rounded */
	assert_string_equal(ns(1234), "1.23us");
	assert_string_equal(ns(1999), "1.99us");
	assert_string_equal(ns(9999), "9.99us");
	assert_string_equal(ns(10000), "10.0us");
	assert_string_equal(ns(12345), "12.3us");
	assert_string_equal(ns(99999), "99.9us");
	assert_string_equal(ns(100000), "100us");
	assert_string_equal(ns(123456), "123us");
	assert_string_equal(ns(999999), "999us");
	assert_string_equal(ns(1000000), "1.00ms");
	assert_string_equal(ns(5000000), "5.00ms");
	assert_string_equal(ns(25500000), "25.5ms");
	assert_string_equal(ns(999999999), "999ms");
	assert_string_equal(ns(1000000000), "1.00s");
	assert_string_equal(ns(61000000000ULL), "61.0s");
	assert_string_equal(ns(68719476736ULL), "68.7s");	/* 2^36 */
	assert_string_equal(ns(4000000000000ULL), "4000s");
	assert_string_equal(ns(UINT64_MAX), "18446744073s");
}

static void test_fmt_ns_small_buffer(void **state)
{
	char b[4];

	(void)state;
	fmt_ns(b, sizeof(b), 123456);
	assert_string_equal(b, "123");	/* truncated, still terminated */
}

static char *json(const char *s)
{
	static char *buf;
	size_t len = 0;
	FILE *f;

	free(buf);
	buf = NULL;
	f = open_memstream(&buf, &len);
	assert_non_null(f);
	json_string(f, s);
	fclose(f);
	return buf;
}

static void test_json_string(void **state)
{
	(void)state;
	assert_string_equal(json(""), "\"\"");
	assert_string_equal(json("vda.D2C"), "\"vda.D2C\"");
	assert_string_equal(json("a\"b\\c"), "\"a\\\"b\\\\c\"");
	assert_string_equal(json("\n\r\t\b\f"), "\"\\n\\r\\t\\b\\f\"");
	assert_string_equal(json("x\x01y\x1f\x7f"), "\"x\\u0001y\\u001f\\u007f\"");
	assert_string_equal(json("/"), "\"/\"");
	/* valid UTF-8 passes through */
	assert_string_equal(json("\xc3\xa9t\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80"),
			    "\"\xc3\xa9t\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80\"");
	/* invalid bytes become U+FFFD, one each */
	assert_string_equal(json("a\xff" "b"), "\"a\\ufffdb\"");
	assert_string_equal(json("\xc3"), "\"\\ufffd\"");		/* truncated */
	assert_string_equal(json("\xc0\xaf"), "\"\\ufffd\\ufffd\"");	/* overlong */
	assert_string_equal(json("\xed\xa0\x80"), "\"\\ufffd\\ufffd\\ufffd\"");	/* surrogate */
	assert_string_equal(json("\xf4\x90\x80\x80"), "\"\\ufffd\\ufffd\\ufffd\\ufffd\"");
}

static void test_errno_text(void **state)
{
	char b[128];

	(void)state;
	assert_string_equal(errno_text(ENOENT, b, sizeof(b)),
			    "ENOENT: No such file or directory");
	assert_string_equal(errno_text(-EBUSY, b, sizeof(b)),
			    "EBUSY: Device or resource busy");
	assert_string_equal(errno_text(524, b, sizeof(b)),
			    "ENOTSUPP: Operation is not supported");
	assert_string_equal(errno_text(99999, b, sizeof(b)), "error 99999");
}

static void test_color(void **state)
{
	(void)state;
	assert_true(color_decide(NULL, NULL, true));
	assert_false(color_decide(NULL, NULL, false));
	assert_true(color_decide("auto", NULL, true));
	assert_false(color_decide("auto", "1", true));
	assert_true(color_decide(NULL, "", true));	/* empty NO_COLOR: ignored */
	assert_true(color_decide("always", NULL, false));
	assert_true(color_decide("always", "1", false));
	assert_false(color_decide("never", NULL, true));
	assert_true(color_decide("bogus", NULL, true));	/* unknown: auto */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fmt_ns),
		cmocka_unit_test(test_fmt_ns_small_buffer),
		cmocka_unit_test(test_json_string),
		cmocka_unit_test(test_errno_text),
		cmocka_unit_test(test_color),
	};

	return cmocka_run_group_tests_name("format", tests, NULL, NULL);
}
