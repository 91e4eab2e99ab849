// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer harness of the tool's pure parsers, built with clang on the
 * host (tests/fuzz/Makefile, `make fuzz-tool`):
 *
 *   byte 0 % 7 picks the target, the rest is its input:
 *   0  parse_filter()        words split at NUL, space or newline
 *   1  parse_show_args()     (the same words after "show")
 *   2  parse_hist_args()     (after "hist")
 *   3  parse_interval(), parse_u64_range(), is_number_word(), valid_name()
 *   4  stacklat_filter_parse() and stacklat_valid_symbol() directly, and
 *      filter_format() of what parsed
 *   5  the GET_STATUS and GET_CPU_STATUS reply parsers, on the bytes as a
 *      netlink message
 *   6  the GET_PIPELINES, GET_HIST and GET_KEYED (syscalls and disktop rows)
 *      reply parsers, the same way
 *
 * Besides the sanitizers' verdicts it checks invariants: a filter that
 * parses has only known keys in its mask and values in range; a value the
 * tool's parse_u64_range() takes is within its bounds.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../../tool/nl.c"
#include "../../tool/nl_keyed.c"
#include "parse.h"
#include "histo.h"
#include "stacklat_filter.h"

#define MAXW 24

static int split(char *buf, size_t n, char **argv)
{
	int argc = 0;
	size_t i = 0;

	while (i < n && argc < MAXW) {
		while (i < n && (buf[i] == '\0' || buf[i] == ' ' || buf[i] == '\n'))
			buf[i++] = '\0';
		if (i < n)
			argv[argc++] = &buf[i];
		while (i < n && buf[i] != '\0' && buf[i] != ' ' && buf[i] != '\n')
			i++;
	}
	if (i < n)
		buf[i] = '\0';
	return argc;
}

static void check_filter(const struct filter_spec *f)
{
	char out[256];

	if (f->mask & ~(((1U << (STACKLAT_FILTER_A_MAX + 1)) - 1) & ~1U))
		abort();
	if ((f->mask & FILTER_BIT(STACKLAT_FILTER_A_TGID)) &&
	    (!f->tgid || f->tgid > STACKLAT_PID_LIMIT))
		abort();
	if ((f->mask & FILTER_BIT(STACKLAT_FILTER_A_OP)) && !stacklat_op_name(f->op))
		abort();
	if ((f->mask & FILTER_BIT(STACKLAT_FILTER_A_LPORT)) && !f->lport)
		abort();
	filter_format(f, out, sizeof(out));
	if (strlen(out) >= sizeof(out))
		abort();
}

static void reply(const uint8_t *d, size_t n, int which)
{
	struct nlmsghdr *h;
	struct nl_msg *msg;

	if (n < NLMSG_HDRLEN + GENL_HDRLEN || n > 65536)
		return;
	h = malloc(n);
	if (!h)
		return;
	memcpy(h, d, n);
	h->nlmsg_len = (uint32_t)n;	/* the socket layer guarantees this */
	msg = nlmsg_convert(h);
	free(h);
	if (!msg)
		return;
	if (which == 5) {
		struct status_info st;

		memset(&st, 0, sizeof(st));
		parse_status(msg, &st);
		free(st.overruns);
		/* the same bytes as a GET_CPU_STATUS message, for its CPUs */
		st.ncpus = st.cpus % 4096;
		st.overruns = calloc(st.ncpus + 1, 8);
		if (st.overruns)
			parse_cpu_status(msg, &st);
		free(st.overruns);
	} else {
		struct pipe_list pl = { 0 };
		struct hist_set hs;

		memset(&hs, 0, sizeof(hs));
		parse_pipeline(msg, &pl);
		pipe_list_free(&pl);
		parse_hist(msg, &hs);
		hist_set_free(&hs);
		{
			struct keyed_set ks = { 0 };
			struct keyed_dump sc = { sizeof(struct sc_row), fill_sc_row, &ks };
			struct keyed_dump dk = { sizeof(struct dk_row), fill_dk_row, &ks };

			parse_keyed_row(msg, &sc);
			keyed_set_free(&ks);
			parse_keyed_row(msg, &dk);
			keyed_set_free(&ks);
		}
	}
	nlmsg_free(msg);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char buf[1024], *argv[MAXW + 1], err[256];
	struct filter_spec f;
	int argc, which;
	size_t n;

	if (!size)
		return 0;
	which = data[0] % 7;
	if (which >= 5) {
		reply(data + 1, size - 1, which);
		return 0;
	}
	n = size - 1 < sizeof(buf) - 1 ? size - 1 : sizeof(buf) - 1;
	memcpy(buf, data + 1, n);
	buf[n] = '\0';
	switch (which) {
	case 0:
		argc = split(buf, n, argv);
		if (!parse_filter(argc, argv, &f, err, sizeof(err)))
			check_filter(&f);
		break;
	case 1: {
		struct show_args a;

		argv[0] = "show";
		argc = split(buf, n, argv + 1) + 1;
		parse_show_args(argc, argv, &a, err, sizeof(err));
		break;
	}
	case 2: {
		struct hist_args a;

		argv[0] = "hist";
		argc = split(buf, n, argv + 1) + 1;
		parse_hist_args(argc, argv, &a, err, sizeof(err));
		break;
	}
	case 3: {
		uint64_t v, ns;

		if (!parse_u64_range(buf, 5, 1000, &v) && (v < 5 || v > 1000))
			abort();
		if (!parse_interval(buf, &ns) &&
		    (ns < 1000000ULL || ns > 86400ULL * 1000000000ULL))
			abort();
		is_number_word(buf);
		valid_name(buf);
		break;
	}
	case 4: {
		struct stacklat_filter_spec s;
		struct stacklat_filter_error e;
		char msg[256];

		argc = split(buf, n, argv);
		if (stacklat_filter_parse(argc, (const char *const *)argv, &s, &e))
			stacklat_filter_strerror(&e, argc ? (const char *const *)argv : NULL,
						 msg, sizeof(msg));
		else if (s.tid > STACKLAT_PID_LIMIT || (s.op && !stacklat_op_name(s.op)))
			abort();
		stacklat_valid_symbol(buf);
		break;
	}
	}
	return 0;
}
