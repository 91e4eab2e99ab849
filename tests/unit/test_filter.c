// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of uapi/stacklat_filter.h, the one filter grammar the module's
 * control file and the tool both run (issue 10: op=bogus accepted after an
 * op filter, tgid=010 read as octal, "vfs_read<TAB>junk" taken as a symbol).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "stacklat_filter.h"

static struct stacklat_filter_spec f;
static struct stacklat_filter_error e;
static char msg[256];

static int parse(const char *line)
{
	static char buf[512];
	const char *w[32];
	char *t;
	int n = 0;

	snprintf(buf, sizeof(buf), "%s", line);
	for (t = strtok(buf, " \t"); t && n < 32; t = strtok(NULL, " \t"))
		w[n++] = t;
	msg[0] = '\0';
	if (stacklat_filter_parse(n, w, &f, &e)) {
		stacklat_filter_strerror(&e, n ? w : NULL, msg, sizeof(msg));
		return -1;
	}
	return 0;
}

#define BIT(a)	(1U << STACKLAT_FILTER_A_##a)

static void test_op(void **state)
{
	(void)state;
	assert_int_equal(parse("op=read"), 0);
	assert_int_equal(f.op, STACKLAT_OP_READ);
	assert_int_equal(f.mask, BIT(OP));
	/* the old kernel parser kept a prior op and took these */
	assert_int_equal(parse("op=bogus"), -1);
	assert_string_equal(msg, "bad value 'bogus' for 'op' (read, write, open or fsync)");
	assert_int_equal(parse("op=open op=bogus"), -1);
	assert_int_equal(e.code, STACKLAT_FE_TWICE);
	assert_int_equal(parse("op=bogus op=open"), -1);
	assert_int_equal(e.code, STACKLAT_FE_BAD_VALUE);
	assert_int_equal(parse("op=any"), -1);
	assert_int_equal(parse("op="), -1);
	assert_int_equal(parse("op=READ"), -1);
	assert_int_equal(parse("op=fsync"), 0);
	assert_int_equal(f.op, STACKLAT_OP_FSYNC);
}

static void test_decimal(void **state)
{
	(void)state;
	assert_int_equal(parse("tgid=010"), 0);
	assert_int_equal(f.tgid, 10);	/* decimal, never octal */
	assert_int_equal(parse("tid=0008"), 0);
	assert_int_equal(f.tid, 8);
	assert_int_equal(parse("lport=00080"), 0);
	assert_int_equal(f.lport, 80);
	assert_int_equal(parse("tgid=0x10"), -1);
	assert_int_equal(parse("tgid=1e3"), -1);
	assert_int_equal(parse("tgid= 1"), -1);
	assert_int_equal(parse("tgid=-1"), -1);
	assert_int_equal(parse("tgid=4194304"), 0);
	assert_int_equal(parse("tgid=4194305"), -1);
	assert_int_equal(parse("ifindex=2147483647"), 0);
	assert_int_equal(parse("ifindex=18446744073709551616"), -1);
	assert_int_equal(parse("dev=008:001"), 0);
	assert_int_equal(f.dev, 8U << 20 | 1);
	assert_int_equal(parse("fs=0xEF53"), 0);
	assert_int_equal(f.fs, 0xef53);
	assert_int_equal(parse("fs=61267"), 0);
	assert_int_equal(f.fs, 0xef53);
}

/* cgroup=: an id (u64) or a directory the caller resolves */
static void test_cgroup(void **state)
{
	(void)state;
	assert_int_equal(parse("cgroup=1234"), 0);
	assert_true(f.cgroup == 1234 && !f.cgroup_name);
	assert_int_equal(f.mask, BIT(CGROUP));
	assert_int_equal(parse("cgroup=9223372036854775807"), 0);
	assert_true(f.cgroup == 0x7fffffffffffffffULL);
	assert_int_equal(parse("cgroup=9223372036854775808"), -1);
	assert_int_equal(parse("cgroup=0"), -1);
	assert_int_equal(parse("cgroup=a"), -1);
	assert_string_equal(msg, "bad value 'a' for 'cgroup' (a cgroup v2 directory (/PATH) or id)");
	assert_int_equal(parse("cgroup=/sys/fs/cgroup/a tgid=5"), 0);
	assert_string_equal(f.cgroup_name, "/sys/fs/cgroup/a");
	assert_int_equal(f.mask, BIT(CGROUP) | BIT(TGID));
	assert_int_equal(parse("cgroup=/a cgroup=/b"), -1);
	assert_int_equal(e.code, STACKLAT_FE_TWICE);
}

static void test_words(void **state)
{
	(void)state;
	assert_int_equal(parse("clear"), 0);
	assert_true(f.clear);
	assert_int_equal(f.mask, 0);
	/* clear, then set (the control file's "filter P clear lport=N") */
	assert_int_equal(parse("clear tgid=1"), 0);
	assert_true(f.clear);
	assert_int_equal(f.mask, BIT(TGID));
	assert_int_equal(parse("tgid=1 clear"), -1);
	assert_int_equal(e.code, STACKLAT_FE_CLEAR);
	assert_int_equal(parse("clear clear"), -1);
	assert_int_equal(parse(""), -1);
	assert_int_equal(e.code, STACKLAT_FE_EMPTY);
	assert_int_equal(parse("tgid"), -1);
	assert_string_equal(msg, "'tgid' is not KEY=VALUE");
	assert_int_equal(parse("port=1"), -1);
	assert_int_equal(e.code, STACKLAT_FE_UNKNOWN_KEY);
	assert_int_equal(parse("tgidx=1"), -1);
	assert_int_equal(parse("tgi=1"), -1);
	assert_int_equal(parse("ifindex=2 iface=lo"), -1);
	assert_int_equal(e.code, STACKLAT_FE_TWICE);
	assert_int_equal(parse("iface=lo"), 0);
	assert_string_equal(f.iface_name, "lo");
	assert_int_equal(f.mask, BIT(IFINDEX));
	assert_int_equal(parse("iface=a/b"), -1);
	assert_int_equal(parse("iface=.."), -1);
	assert_int_equal(parse("iface=0123456789abcdef"), -1);
	assert_int_equal(parse("dev=vda"), 0);
	assert_string_equal(f.dev_name, "vda");
	assert_int_equal(parse("dev=0:0"), -1);
	assert_int_equal(parse("dev=4096:1"), -1);
	assert_int_equal(parse("dev=a'b"), -1);
	assert_int_equal(parse("proto=tcp lport=1 rport=2 tgid=3 tid=4 op=write fs=xfs dev=1:2 ifindex=5"), 0);
	assert_int_equal(f.mask, BIT(PROTO) | BIT(LPORT) | BIT(RPORT) | BIT(TGID) |
			 BIT(TID) | BIT(OP) | BIT(FS) | BIT(DEV) | BIT(IFINDEX));
	assert_int_equal(f.proto, 6);
	assert_int_equal(f.fs, STACKLAT_FS_MAGIC_XFS);
}

static void test_quote_limit(void **state)
{
	char word[200];

	(void)state;
	memset(word, 'x', sizeof(word));
	memcpy(word, "tgid=", 5);
	word[sizeof(word) - 1] = '\0';
	assert_int_equal(parse(word), -1);
	/* the value is quoted cut to STACKLAT_QUOTE_MAX characters */
	assert_true(strlen(msg) < 100);
}

/* found by tests/fuzz/tool_fuzz: no word, and argv[0] NULL */
static void test_no_words(void **state)
{
	const char *argv[1] = { NULL };

	(void)state;
	assert_int_equal(stacklat_filter_parse(0, argv, &f, &e), -1);
	stacklat_filter_strerror(&e, argv, msg, sizeof(msg));
	assert_string_equal(msg, "no filter given: 'clear' or KEY=VALUE...");
}

static void test_symbol(void **state)
{
	char longsym[STACKLAT_SYM_MAX + 1];

	(void)state;
	assert_true(stacklat_valid_symbol("vfs_read"));
	assert_true(stacklat_valid_symbol("__x64_sys_getppid"));
	assert_true(stacklat_valid_symbol("ext4_file_read_iter.cold"));
	assert_true(stacklat_valid_symbol("foo.isra.0"));
	assert_true(stacklat_valid_symbol("veth:veth_xmit"));
	assert_false(stacklat_valid_symbol("vfs_read\tjunk"));
	assert_false(stacklat_valid_symbol("vfs_read junk"));
	assert_false(stacklat_valid_symbol(""));
	assert_false(stacklat_valid_symbol("0abc"));
	assert_false(stacklat_valid_symbol(".abc"));
	assert_false(stacklat_valid_symbol("a:b:c"));
	assert_false(stacklat_valid_symbol(":abc"));
	assert_false(stacklat_valid_symbol("abc:"));
	assert_false(stacklat_valid_symbol("a\xff"));
	assert_false(stacklat_valid_symbol("a+0x10"));
	memset(longsym, 'a', sizeof(longsym));
	longsym[STACKLAT_SYM_MAX - 1] = '\0';
	assert_true(stacklat_valid_symbol(longsym));
	longsym[STACKLAT_SYM_MAX - 1] = 'a';
	longsym[STACKLAT_SYM_MAX] = '\0';
	assert_false(stacklat_valid_symbol(longsym));
}

/* a user function, "/PATH:0xOFFSET[:NAME]" (issue 27) */
static void test_upoint(void **state)
{
	char longp[STACKLAT_SYM_MAX + 8];

	(void)state;
	assert_int_equal(stacklat_valid_upoint("/bin/x:0x10"), 11);
	assert_int_equal(stacklat_valid_upoint("/bin/x:0x10:main"), 11);
	assert_int_equal(stacklat_valid_upoint("/a:b/x:0xAbC:_f.o$1"), 12);
	assert_int_equal(stacklat_valid_upoint("/l/libc.so.6:0xefc70:getaddrinfo"),
			 20);
	assert_int_equal(stacklat_valid_upoint("/x:0x1"), 6);
	assert_int_equal(stacklat_valid_upoint("bin/x:0x10"), 0);
	assert_int_equal(stacklat_valid_upoint("/bin/x:16"), 0);
	assert_int_equal(stacklat_valid_upoint("/bin/x:0x"), 0);
	assert_int_equal(stacklat_valid_upoint("/bin/x:0x10g"), 0);
	assert_int_equal(stacklat_valid_upoint("/bin/x:0x10:"), 0);
	assert_int_equal(stacklat_valid_upoint("/bin/x:0x10:1f"), 0);
	assert_int_equal(stacklat_valid_upoint("/bin/x:0x10:a b"), 0);
	assert_int_equal(stacklat_valid_upoint("/bin/x:main"), 0);
	assert_int_equal(stacklat_valid_upoint("/b x:0x10"), 0);
	assert_int_equal(stacklat_valid_upoint("/:0x10"), 0);
	assert_int_equal(stacklat_valid_upoint(":0x10"), 0);
	assert_int_equal(stacklat_valid_upoint("/bin/x:0x11112222333344445"), 0);
	assert_int_equal(stacklat_valid_upoint("/bin/x:0x1111222233334444"), 25);
	memset(longp, 'a', sizeof(longp));
	longp[0] = '/';
	memcpy(longp + STACKLAT_SYM_MAX - 5, ":0x1", 5);
	assert_int_equal(stacklat_valid_upoint(longp), STACKLAT_SYM_MAX - 1);
	memcpy(longp + STACKLAT_SYM_MAX - 4, ":0x1", 5);
	assert_int_equal(stacklat_valid_upoint(longp), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_op),
		cmocka_unit_test(test_decimal),
		cmocka_unit_test(test_cgroup),
		cmocka_unit_test(test_words),
		cmocka_unit_test(test_quote_limit),
		cmocka_unit_test(test_no_words),
		cmocka_unit_test(test_symbol),
		cmocka_unit_test(test_upoint),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
