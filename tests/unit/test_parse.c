// SPDX-License-Identifier: GPL-2.0
/* Unit tests of tool/parse.c: filters, intervals, show/hist arguments. */
#include <net/if.h>
#include <netinet/in.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "parse.h"

static char err[256];
static struct filter_spec f;

/* Parse the space-separated words of @line as "filter PIPE <line>". */
static int filt(const char *line)
{
	static char buf[512];
	char *argv[32], *w;
	int argc = 0;

	snprintf(buf, sizeof(buf), "%s", line);
	for (w = strtok(buf, " "); w && argc < 32; w = strtok(NULL, " "))
		argv[argc++] = w;
	err[0] = '\0';
	return parse_filter(argc, argv, &f, err, sizeof(err));
}

#define BIT(a) FILTER_BIT(STACKLAT_FILTER_A_##a)

static void test_filter_good(void **state)
{
	char out[256];

	(void)state;
	assert_int_equal(filt("tgid=42"), 0);
	assert_int_equal(f.mask, BIT(TGID));
	assert_int_equal(f.tgid, 42);
	assert_false(f.clear);

	assert_int_equal(filt("tgid=1 tid=4194304 lport=8080 rport=1 proto=udp ifindex=3 dev=8:16 op=fsync fs=xfs"), 0);
	assert_int_equal(f.mask, BIT(TGID) | BIT(TID) | BIT(LPORT) | BIT(RPORT) |
			 BIT(PROTO) | BIT(IFINDEX) | BIT(DEV) | BIT(OP) | BIT(FS));
	assert_int_equal(f.tgid, 1);
	assert_int_equal(f.tid, 4194304);
	assert_int_equal(f.lport, 8080);
	assert_int_equal(f.rport, 1);
	assert_int_equal(f.proto, IPPROTO_UDP);
	assert_int_equal(f.ifindex, 3);
	assert_int_equal(f.dev, (8u << 20) | 16);
	assert_int_equal(f.op, STACKLAT_OP_FSYNC);
	assert_int_equal(f.fs, 0x58465342);
	filter_format(&f, out, sizeof(out));
	assert_string_equal(out, " tgid=1 tid=4194304 lport=8080 rport=1 proto=udp ifindex=3 dev=8:16 op=fsync fs=xfs");

	assert_int_equal(filt("proto=tcp lport=65535"), 0);
	assert_int_equal(f.proto, IPPROTO_TCP);
	assert_int_equal(f.lport, 65535);
	assert_int_equal(f.mask, BIT(PROTO) | BIT(LPORT));

	/* the kernel's dev_t: 12-bit major, 20-bit minor */
	assert_int_equal(filt("dev=254:0"), 0);
	assert_int_equal(f.dev, 254u << 20);
	assert_int_equal(filt("dev=0:1"), 0);
	assert_int_equal(f.dev, 1);
	assert_int_equal(filt("dev=4095:1048575"), 0);
	assert_int_equal(f.dev, 0xffffffffu);

	assert_int_equal(filt("op=read"), 0);
	assert_int_equal(f.op, STACKLAT_OP_READ);
	assert_int_equal(filt("op=write"), 0);
	assert_int_equal(f.op, STACKLAT_OP_WRITE);
	assert_int_equal(filt("op=open"), 0);
	assert_int_equal(f.op, STACKLAT_OP_OPEN);

	assert_int_equal(filt("fs=ext4"), 0);
	assert_int_equal(f.fs, 0xef53);
	assert_int_equal(filt("fs=btrfs"), 0);
	assert_int_equal(f.fs, 0x9123683e);
	assert_int_equal(filt("fs=bdev"), 0);
	assert_int_equal(f.fs, 0x62646576);
	assert_int_equal(filt("fs=0x01021994"), 0);
	assert_int_equal(f.fs, 0x01021994);
	assert_int_equal(filt("fs=0XABCDEF12"), 0);
	assert_int_equal(f.fs, 0xabcdef12);
	filter_format(&f, out, sizeof(out));
	assert_string_equal(out, " fs=0xabcdef12");
	assert_int_equal(filt("fs=61267"), 0);		/* decimal ext4 */
	assert_int_equal(f.fs, 0xef53);

	/* iface=NAME is converted with if_nametoindex */
	assert_int_equal(filt("iface=lo"), 0);
	assert_int_equal(f.mask, BIT(IFINDEX));
	assert_int_equal(f.ifindex, if_nametoindex("lo"));
	assert_true(f.ifindex > 0);

	assert_int_equal(filt("clear"), 0);
	assert_true(f.clear);
	assert_int_equal(f.mask, 0);
	filter_format(&f, out, sizeof(out));
	assert_string_equal(out, " none");
}

static void test_filter_bad(void **state)
{
	(void)state;
	/* a failed parse leaves the output alone */
	assert_int_equal(filt("tgid=7"), 0);

	assert_int_equal(filt("tgid=abc"), -1);
	assert_string_equal(err, "bad value 'abc' for 'tgid' (a process id, 1..4194304)");
	assert_int_equal(f.tgid, 7);
	assert_int_equal(filt("tgid=0"), -1);
	assert_int_equal(filt("tgid=-1"), -1);
	assert_int_equal(filt("tgid=+1"), -1);
	assert_int_equal(filt("tgid=0x10"), -1);
	assert_int_equal(filt("tgid=1.5"), -1);
	assert_int_equal(filt("tgid=4194305"), -1);
	assert_int_equal(filt("tgid=99999999999999999999999"), -1);
	assert_int_equal(filt("tgid="), -1);
	assert_string_equal(err, "bad value '' for 'tgid' (a process id, 1..4194304)");
	assert_int_equal(filt("tid=0"), -1);
	assert_int_equal(filt("lport=0"), -1);
	assert_int_equal(filt("lport=65536"), -1);
	assert_string_equal(err, "bad value '65536' for 'lport' (a port, 1..65535)");
	assert_int_equal(filt("rport=http"), -1);
	assert_int_equal(filt("proto=icmp"), -1);
	assert_string_equal(err, "bad value 'icmp' for 'proto' (tcp or udp)");
	assert_int_equal(filt("proto=TCP"), -1);
	assert_int_equal(filt("ifindex=0"), -1);
	assert_int_equal(filt("ifindex=2147483648"), -1);
	assert_int_equal(filt("iface=no-such-if0"), -1);
	assert_string_equal(err, "iface=no-such-if0: no such network interface");
	assert_int_equal(filt("iface=aaaaaaaaaaaaaaaaaaaaaaaaaaaa"), -1);
	assert_string_equal(err, "bad value 'aaaaaaaaaaaaaaaaaaaaaaaaaaaa' for 'iface' (a network interface name, 1..15 characters)");
	assert_int_equal(filt("dev=8"), -1);	/* no such /dev/8 */
	assert_string_equal(err, "dev=8: /dev/8: No such file or directory");
	assert_int_equal(filt("dev=null"), -1);
	assert_string_equal(err, "dev=null: /dev/null is not a block device");
	assert_int_equal(filt("dev=0:0"), -1);
	assert_string_equal(err, "bad value '0:0' for 'dev' (MAJ:MIN, major <= 4095, minor <= 1048575, or a block device name)");
	assert_int_equal(filt("dev=4096:0"), -1);
	assert_int_equal(filt("dev=1:1048576"), -1);
	assert_int_equal(filt("dev=8:"), -1);
	assert_int_equal(filt("dev=:1"), -1);
	assert_int_equal(filt("dev=8:1:2"), -1);
	assert_int_equal(filt("dev=-8:1"), -1);
	assert_int_equal(filt("op=unlink"), -1);
	assert_string_equal(err, "bad value 'unlink' for 'op' (read, write, open or fsync)");
	assert_int_equal(filt("op=any"), -1);
	assert_int_equal(filt("fs=ntfs"), -1);
	assert_string_equal(err, "bad value 'ntfs' for 'fs' (ext4, xfs, btrfs, bdev or a magic number)");
	assert_int_equal(filt("fs=0x"), -1);
	assert_int_equal(filt("fs=0x0"), -1);
	assert_int_equal(filt("fs=0"), -1);
	assert_int_equal(filt("fs=0x123456789"), -1);
	assert_int_equal(filt("fs=0xefg3"), -1);
	assert_int_equal(filt("fs=4294967296"), -1);

	assert_int_equal(filt("port=1"), -1);
	assert_string_equal(err, "unknown filter key 'port' (keys: tgid tid lport rport proto ifindex iface dev op fs)");
	assert_int_equal(filt("TGID=1"), -1);
	assert_int_equal(filt("=1"), -1);
	assert_string_equal(err, "unknown filter key '' (keys: tgid tid lport rport proto ifindex iface dev op fs)");
	assert_int_equal(filt("tgid"), -1);
	assert_string_equal(err, "'tgid' is not KEY=VALUE");
	assert_int_equal(filt("tgid=1 tgid=2"), -1);
	assert_string_equal(err, "filter key 'tgid' given twice");
	assert_int_equal(filt("ifindex=1 iface=lo"), -1);
	assert_string_equal(err, "filter key 'iface' given twice (ifindex and iface are one key)");
	assert_int_equal(filt("tgid=1 clear"), -1);
	assert_string_equal(err, "'clear' comes first (clear, then KEY=VALUE...)");
	assert_int_equal(filt(""), -1);
	assert_string_equal(err, "no filter given: 'clear' or KEY=VALUE...");
	/* still the last good one */
	assert_int_equal(f.mask, BIT(TGID));
	assert_int_equal(f.tgid, 7);
}

static void test_numbers(void **state)
{
	uint64_t v = 5;

	(void)state;
	assert_int_equal(parse_u64_range("0", 0, 10, &v), 0);
	assert_int_equal(v, 0);
	assert_int_equal(parse_u64_range("18446744073709551615", 0, UINT64_MAX, &v), 0);
	assert_true(v == UINT64_MAX);
	assert_int_equal(parse_u64_range("18446744073709551616", 0, UINT64_MAX, &v), -1);
	assert_int_equal(parse_u64_range("11", 0, 10, &v), -1);
	assert_int_equal(parse_u64_range("", 0, 10, &v), -1);
	assert_int_equal(parse_u64_range(" 1", 0, 10, &v), -1);
	assert_int_equal(parse_u64_range("1 ", 0, 10, &v), -1);
	assert_true(v == UINT64_MAX);

	assert_true(is_number_word("1"));
	assert_true(is_number_word("0.5"));
	assert_true(is_number_word(".5"));
	assert_true(is_number_word("5."));
	assert_false(is_number_word("."));
	assert_false(is_number_word(""));
	assert_false(is_number_word("net_rx"));
	assert_false(is_number_word("1.2.3"));
	assert_false(is_number_word("1s"));
}

static void test_interval(void **state)
{
	uint64_t ns = 0;

	(void)state;
	assert_int_equal(parse_interval("1", &ns), 0);
	assert_true(ns == 1000000000ULL);
	assert_int_equal(parse_interval("0.5", &ns), 0);
	assert_true(ns == 500000000ULL);
	assert_int_equal(parse_interval(".25", &ns), 0);
	assert_true(ns == 250000000ULL);
	assert_int_equal(parse_interval("2.", &ns), 0);
	assert_true(ns == 2000000000ULL);
	assert_int_equal(parse_interval("0.001", &ns), 0);
	assert_true(ns == 1000000ULL);
	assert_int_equal(parse_interval("1.000000001", &ns), 0);
	assert_true(ns == 1000000001ULL);
	assert_int_equal(parse_interval("86400", &ns), 0);
	assert_true(ns == 86400000000000ULL);

	assert_int_equal(parse_interval("0", &ns), -1);
	assert_int_equal(parse_interval("0.0009", &ns), -1);
	assert_int_equal(parse_interval("86400.1", &ns), -1);
	assert_int_equal(parse_interval("99999999999999999999", &ns), -1);
	assert_int_equal(parse_interval("1.0000000001", &ns), -1);
	assert_int_equal(parse_interval("-1", &ns), -1);
	assert_int_equal(parse_interval("1s", &ns), -1);
	assert_int_equal(parse_interval("1e3", &ns), -1);
	assert_int_equal(parse_interval("", &ns), -1);
	assert_int_equal(parse_interval(".", &ns), -1);
	assert_true(ns == 86400000000000ULL);
}

static int show(const char *line, struct show_args *a)
{
	static char buf[512];
	char *argv[48], *w;
	int argc = 0;

	snprintf(buf, sizeof(buf), "show %s", line);
	for (w = strtok(buf, " "); w && argc < 48; w = strtok(NULL, " "))
		argv[argc++] = w;
	err[0] = '\0';
	return parse_show_args(argc, argv, a, err, sizeof(err));
}

static void test_show_args(void **state)
{
	struct show_args a;

	(void)state;
	assert_int_equal(show("", &a), 0);
	assert_false(a.json);
	assert_int_equal(a.npipes, 0);
	assert_true(a.interval_ns == 0);
	assert_true(a.count == 0);

	assert_int_equal(show("-j func", &a), 0);
	assert_true(a.json);
	assert_int_equal(a.npipes, 1);
	assert_string_equal(a.pipes[0], "func");

	assert_int_equal(show("storage block --json 0.5 10", &a), 0);
	assert_true(a.json);
	assert_int_equal(a.npipes, 2);
	assert_string_equal(a.pipes[0], "storage");
	assert_string_equal(a.pipes[1], "block");
	assert_true(a.interval_ns == 500000000ULL);
	assert_true(a.count == 10);

	assert_int_equal(show("net_rx net_rx 2", &a), 0);	/* duplicate once */
	assert_int_equal(a.npipes, 1);
	assert_true(a.interval_ns == 2000000000ULL);
	assert_true(a.count == 0);

	assert_int_equal(show("1 3 -j", &a), 0);
	assert_true(a.json);
	assert_true(a.count == 3);

	assert_int_equal(show("-x", &a), -1);
	assert_string_equal(err, "unknown option '-x'");
	assert_int_equal(show("func 0", &a), -1);
	assert_string_equal(err, "bad INTERVAL '0' (seconds, 0.001 to 86400)");
	assert_int_equal(show("func 1 0", &a), -1);
	assert_string_equal(err, "bad COUNT '0' (a positive integer)");
	assert_int_equal(show("func 1 2.5", &a), -1);
	assert_int_equal(show("func 1 x", &a), -1);
	assert_int_equal(show("1 func", &a), -1);
	assert_int_equal(show("func 1 2 3", &a), -1);
	assert_string_equal(err, "unexpected '3' after COUNT");
	assert_int_equal(show("a=b", &a), -1);
	assert_string_equal(err, "'a=b' is not a pipeline name");
	assert_int_equal(show("aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", &a), -1);
}

static void test_hist_args(void **state)
{
	char a0[] = "hist", a1[] = "func", a2[] = "vfs_write", a3[] = "--fine",
	     a4[] = "extra", a5[] = "-q";
	char *v1[] = { a0, a1 }, *v2[] = { a0, a3, a1, a2 }, *v3[] = { a0, a1, a2, a4 },
	     *v4[] = { a0 }, *v5[] = { a0, a5, a1 };
	struct hist_args h;

	(void)state;
	assert_int_equal(parse_hist_args(2, v1, &h, err, sizeof(err)), 0);
	assert_string_equal(h.pipe, "func");
	assert_null(h.stage);
	assert_false(h.fine);
	assert_int_equal(parse_hist_args(4, v2, &h, err, sizeof(err)), 0);
	assert_string_equal(h.pipe, "func");
	assert_string_equal(h.stage, "vfs_write");
	assert_true(h.fine);
	assert_int_equal(parse_hist_args(4, v3, &h, err, sizeof(err)), -1);
	assert_string_equal(err, "unexpected 'extra'");
	assert_int_equal(parse_hist_args(1, v4, &h, err, sizeof(err)), -1);
	assert_string_equal(err, "which pipeline?");
	assert_int_equal(parse_hist_args(3, v5, &h, err, sizeof(err)), -1);
	assert_string_equal(err, "unknown option '-q'");
}

static void test_names(void **state)
{
	(void)state;
	assert_true(valid_name("net_rx"));
	assert_true(valid_name("vda.D2C"));
	assert_true(valid_name("1234567890123456789012345678901"));		/* 31 */
	assert_false(valid_name("12345678901234567890123456789012"));	/* 32 */
	assert_false(valid_name(""));
	assert_false(valid_name("a b"));
	assert_false(valid_name("a=b"));
	assert_false(valid_name("../x"));
	assert_false(valid_name("\x1b[31m"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_filter_good),
		cmocka_unit_test(test_filter_bad),
		cmocka_unit_test(test_numbers),
		cmocka_unit_test(test_interval),
		cmocka_unit_test(test_show_args),
		cmocka_unit_test(test_hist_args),
		cmocka_unit_test(test_names),
	};

	return cmocka_run_group_tests_name("parse", tests, NULL, NULL);
}
