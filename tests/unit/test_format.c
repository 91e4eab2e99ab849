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

static const char *val(uint32_t unit, uint64_t v)
{
	static char b[FMT_NS_LEN];

	fmt_val(b, sizeof(b), unit, v);
	return b;
}

static void test_fmt_val(void **state)
{
	(void)state;
	assert_string_equal(val(STACKLAT_UNIT_NS, 1234), "1.23us");
	assert_string_equal(val(STACKLAT_UNIT_BYTES, 0), "0B");
	assert_string_equal(val(STACKLAT_UNIT_BYTES, 1023), "1023B");
	assert_string_equal(val(STACKLAT_UNIT_BYTES, 1024), "1.00KiB");
	assert_string_equal(val(STACKLAT_UNIT_BYTES, 1535), "1.49KiB");	/* truncated */
	assert_string_equal(val(STACKLAT_UNIT_BYTES, 10240), "10.0KiB");
	assert_string_equal(val(STACKLAT_UNIT_BYTES, 65536), "64.0KiB");
	assert_string_equal(val(STACKLAT_UNIT_BYTES, 102400), "100KiB");
	assert_string_equal(val(STACKLAT_UNIT_BYTES, 1048575), "1023KiB");
	assert_string_equal(val(STACKLAT_UNIT_BYTES, 1048576), "1.00MiB");
	assert_string_equal(val(STACKLAT_UNIT_BYTES, 1ULL << 36), "64.0GiB");
	assert_string_equal(val(STACKLAT_UNIT_BYTES, UINT64_MAX), "16777215TiB");
	assert_string_equal(val(STACKLAT_UNIT_COUNT, 0), "0");
	assert_string_equal(val(STACKLAT_UNIT_COUNT, 4), "4");
	assert_string_equal(val(STACKLAT_UNIT_COUNT, UINT64_MAX), "18446744073709551615");
	assert_string_equal(val(99, 7), "7");
	assert_string_equal(unit_name(STACKLAT_UNIT_NS), "ns");
	assert_string_equal(unit_name(STACKLAT_UNIT_BYTES), "bytes");
	assert_string_equal(unit_name(STACKLAT_UNIT_COUNT), "count");
	assert_string_equal(unit_name(99), "?");
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
		cmocka_unit_test(test_fmt_val),
		cmocka_unit_test(test_errno_text),
		cmocka_unit_test(test_color),
	};

	return cmocka_run_group_tests_name("format", tests, NULL, NULL);
}
