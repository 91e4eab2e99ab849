// SPDX-License-Identifier: GPL-2.0
/* Pure logic of the stacklat tool: percentiles, deltas, formatting, parsing. */
#include <errno.h>
#include <limits.h>
#include <net/if.h>
#include <netinet/in.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sysmacros.h>

#include "histo.h"
#include "stacklat.h"

const uint32_t show_pcts[NPCTS] = { 5000, 9000, 9900, 9990 };

void hist_row(const struct hist *h, struct hist_row *r)
{
	int i;

	memset(r, 0, sizeof(*r));
	r->count = h->count;
	r->sum = h->sum;
	r->min = h->min;
	r->max = h->max;
	r->avg = h->count ? h->sum / h->count : 0;
	for (i = 0; i < NPCTS; i++)
		r->pct[i] = stacklat_hist_percentile(h->buckets, 0,
						     STACKLAT_HIST_NBUCKETS,
						     h->count, h->overflow,
						     h->min, h->max,
						     show_pcts[i]);
}

/*
 * The interval's histogram.  min and max cannot be subtracted: the
 * interval's min and max are taken as the bounds of its lowest and highest
 * non-empty buckets, clamped to the cumulative min and max.
 */
bool hist_delta(const struct hist *cur, const struct hist *prev, struct hist *d)
{
	int i, lo = -1, hi = -1;

	*d = *cur;
	if (cur->generation != prev->generation || cur->count < prev->count)
		return false;
	d->count = cur->count - prev->count;
	d->sum = cur->sum - prev->sum;
	d->overflow = cur->overflow - prev->overflow;
	for (i = 0; i < (int)STACKLAT_HIST_NBUCKETS; i++) {
		d->buckets[i] = cur->buckets[i] >= prev->buckets[i] ?
				cur->buckets[i] - prev->buckets[i] : 0;
		if (d->buckets[i]) {
			if (lo < 0)
				lo = i;
			hi = i;
		}
	}
	if (!d->count) {
		d->min = d->max = 0;
		return true;
	}
	d->min = lo < 0 ? cur->max : stacklat_hist_lower(lo);
	if (d->min < cur->min)
		d->min = cur->min;
	if (d->overflow || hi < 0)
		d->max = cur->max;
	else
		d->max = stacklat_hist_lower(hi) + stacklat_hist_width(hi) - 1;
	if (d->max > cur->max)
		d->max = cur->max;
	if (d->min > d->max)
		d->min = d->max;
	return true;
}

/* Three significant digits in ns, us, ms or s (the kernel prints the same). */
void fmt_ns(char *buf, size_t len, uint64_t ns)
{
	static const char * const unit[] = { "ns", "us", "ms", "s" };
	uint64_t scale = 1;
	int u = 0;

	while (u < 3 && ns >= scale * 1000) {
		scale *= 1000;
		u++;
	}
	if (!u || ns / scale >= 100)
		snprintf(buf, len, "%llu%s", (unsigned long long)(ns / scale), unit[u]);
	else if (ns / scale >= 10)
		snprintf(buf, len, "%llu.%llu%s", (unsigned long long)(ns / scale),
			 (unsigned long long)(ns % scale * 10 / scale), unit[u]);
	else
		snprintf(buf, len, "%llu.%02llu%s", (unsigned long long)(ns / scale),
			 (unsigned long long)(ns % scale * 100 / scale), unit[u]);
}

void json_str(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '"' || c == '\\')
			fprintf(f, "\\%c", c);
		else if (c == '\n')
			fputs("\\n", f);
		else if (c == '\t')
			fputs("\\t", f);
		else if (c < 0x20)
			fprintf(f, "\\u%04x", c);
		else
			fputc(c, f);
	}
	fputc('"', f);
}

void hist_bars(FILE *f, const struct hist *h, bool fine)
{
	enum { NROWS = STACKLAT_HIST_NBUCKETS };
	static uint64_t rows[NROWS + 1];
	static uint64_t lo[NROWS + 1], hi[NROWS + 1];
	int i, n = 0, first = -1, last = -1, w;
	uint64_t peak = 0;
	char a[16], b[16];

	memset(rows, 0, sizeof(rows));
	for (i = 0; i < (int)STACKLAT_HIST_NBUCKETS; i++) {
		int r = fine ? i : i / (int)STACKLAT_HIST_SUB;

		rows[r] += h->buckets[i];
		if (fine || i % STACKLAT_HIST_SUB == 0)
			lo[r] = stacklat_hist_lower(i);
		hi[r] = stacklat_hist_lower(i) + stacklat_hist_width(i);
	}
	n = fine ? STACKLAT_HIST_NBUCKETS : STACKLAT_HIST_NBUCKETS / STACKLAT_HIST_SUB;
	rows[n] = h->overflow;
	lo[n] = STACKLAT_HIST_MAX_NS;
	hi[n] = 0;
	for (i = 0; i <= n; i++) {
		if (!rows[i])
			continue;
		if (first < 0)
			first = i;
		last = i;
		if (rows[i] > peak)
			peak = rows[i];
	}
	if (first < 0) {
		fprintf(f, "  (no samples)\n");
		return;
	}
	fprintf(f, "  %21s : %-10s %s\n", "range", "count", "distribution");
	for (i = first; i <= last; i++) {
		if (fine && !rows[i])
			continue;
		fmt_ns(a, sizeof(a), lo[i]);
		if (hi[i])
			fmt_ns(b, sizeof(b), hi[i]);
		else
			snprintf(b, sizeof(b), "inf");
		w = (int)(rows[i] * 40 / peak);
		fprintf(f, "  %9s -> %-9s : %-10llu |%.*s%*s|\n", a, b,
			(unsigned long long)rows[i], w,
			"****************************************", 40 - w, "");
	}
}

static int parse_u32(const char *s, uint32_t max, uint32_t *out)
{
	char *end;
	unsigned long v;

	if (!*s || *s == '-' || *s == '+')
		return -1;
	errno = 0;
	v = strtoul(s, &end, 0);
	if (errno || *end || v == 0 || v > max)
		return -1;
	*out = (uint32_t)v;
	return 0;
}

int parse_filter_word(const char *word, struct filter_args *fa, char *err,
		      size_t errlen)
{
	static const char * const ops[] = { "read", "write", "open", "fsync" };
	const char *eq = strchr(word, '=');
	char key[16];
	const char *val;
	uint32_t v, mi;
	size_t klen;
	unsigned int i;

	if (!strcmp(word, "clear")) {
		memset(fa, 0, sizeof(*fa));
		fa->clear = true;
		return 0;
	}
	if (!eq || !eq[1]) {
		snprintf(err, errlen, "'%s' is not key=value", word);
		return -1;
	}
	klen = (size_t)(eq - word);
	if (klen >= sizeof(key)) {
		snprintf(err, errlen, "unknown filter key in '%s'", word);
		return -1;
	}
	memcpy(key, word, klen);
	key[klen] = '\0';
	val = eq + 1;
	if (!strcmp(key, "tgid") || !strcmp(key, "pid")) {
		if (parse_u32(val, INT32_MAX, &fa->tgid))
			goto bad;
	} else if (!strcmp(key, "tid")) {
		if (parse_u32(val, INT32_MAX, &fa->tid))
			goto bad;
	} else if (!strcmp(key, "lport") || !strcmp(key, "rport")) {
		if (parse_u32(val, 65535, &v))
			goto bad;
		if (key[0] == 'l')
			fa->lport = (uint16_t)v;
		else
			fa->rport = (uint16_t)v;
	} else if (!strcmp(key, "proto")) {
		if (!strcmp(val, "tcp"))
			fa->proto = IPPROTO_TCP;
		else if (!strcmp(val, "udp"))
			fa->proto = IPPROTO_UDP;
		else
			goto bad;
	} else if (!strcmp(key, "ifindex")) {
		if (parse_u32(val, INT32_MAX, &fa->ifindex))
			goto bad;
	} else if (!strcmp(key, "iface")) {
		fa->ifindex = if_nametoindex(val);
		if (!fa->ifindex)
			goto bad;
	} else if (!strcmp(key, "dev")) {
		char *end;
		unsigned long ma = strtoul(val, &end, 10);

		if (end == val || *end != ':' || ma > 0xfff)
			goto bad;
		if (parse_u32(end + 1, 0xfffff, &mi) && strcmp(end + 1, "0"))
			goto bad;
		if (!strcmp(end + 1, "0"))
			mi = 0;
		if (!ma && !mi)
			goto bad;
		/* the kernel's dev_t: 12-bit major, 20-bit minor */
		fa->dev = (uint32_t)(ma << 20 | mi);
	} else if (!strcmp(key, "op")) {
		for (i = 0; i < 4; i++)
			if (!strcmp(val, ops[i]))
				fa->op = STACKLAT_OP_READ + i;
		if (!fa->op)
			goto bad;
	} else {
		snprintf(err, errlen, "unknown filter key '%s'", key);
		return -1;
	}
	return 0;
bad:
	snprintf(err, errlen, "bad value '%s' for '%s'", val, key);
	return -1;
}

long parse_interval_ms(const char *s)
{
	char *end;
	double v;

	if (!*s || *s == '-')
		return -1;
	errno = 0;
	v = strtod(s, &end);
	if (errno || *end || v < 0.01 || v > 86400)
		return -1;
	return (long)(v * 1000 + 0.5);
}
