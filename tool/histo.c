// SPDX-License-Identifier: GPL-2.0
/* Histogram logic of the stacklat tool: rows, deltas, bars (no libnl). */
#include <stdlib.h>
#include <string.h>

#include "format.h"
#include "histo.h"

const uint32_t show_pcts[NPCTS] = { 5000, 9000, 9900, 9990 };
const char * const show_pct_names[NPCTS] = { "p50", "p90", "p99", "p99.9" };
const char * const show_pct_keys[NPCTS] = { "p50_ns", "p90_ns", "p99_ns", "p999_ns" };

void hist_stats(const struct hist *h, struct hist_stats *st)
{
	int i;

	memset(st, 0, sizeof(*st));
	st->count = h->count;
	st->sum = h->sum;
	st->overflow = h->overflow;
	st->min_exact = h->min_exact;
	st->max_exact = h->max_exact;
	if (!h->count)
		return;
	st->min = h->min;
	st->max = h->max;
	st->avg = h->sum / h->count;
	for (i = 0; i < NPCTS; i++)
		st->pct[i] = stacklat_hist_percentile(h->buckets, 0,
						      STACKLAT_HIST_NBUCKETS,
						      h->count, h->overflow,
						      h->min, h->max,
						      show_pcts[i]);
}

int hist_load_buckets(struct hist *h, uint32_t nbuckets, uint32_t first,
		      const void *data, size_t len, char *err, size_t errlen)
{
	size_t n = len / sizeof(__u64);

	memset(h->buckets, 0, sizeof(h->buckets));
	if (nbuckets != STACKLAT_HIST_NBUCKETS) {
		snprintf(err, errlen,
			 "the module's histograms have %u buckets, this tool's %u: tool and module are from different versions",
			 nbuckets, (unsigned int)STACKLAT_HIST_NBUCKETS);
		return -1;
	}
	if (!len)
		return 0;
	if (len % sizeof(__u64) || first >= STACKLAT_HIST_NBUCKETS ||
	    n > STACKLAT_HIST_NBUCKETS - first) {
		snprintf(err, errlen,
			 "malformed histogram from the module: %zu bytes of buckets from index %u",
			 len, first);
		return -1;
	}
	memcpy(&h->buckets[first], data, n * sizeof(__u64));
	return 0;
}

struct hist *hist_set_append(struct hist_set *s)
{
	struct hist *h;

	if (s->n == s->cap) {
		size_t cap = s->cap ? s->cap * 2 : 16;

		h = realloc(s->h, cap * sizeof(*h));
		if (!h)
			return NULL;
		s->h = h;
		s->cap = cap;
	}
	h = &s->h[s->n++];
	memset(h, 0, sizeof(*h));
	return h;
}

void hist_set_free(struct hist_set *s)
{
	free(s->h);
	memset(s, 0, sizeof(*s));
}

int hist_set_copy(struct hist_set *dst, const struct hist_set *src)
{
	size_t i;

	dst->n = 0;
	for (i = 0; i < src->n; i++) {
		struct hist *h = hist_set_append(dst);

		if (!h)
			return -1;
		*h = src->h[i];
	}
	return 0;
}

const struct hist *hist_set_find(const struct hist_set *s, const char *pipe,
				 uint32_t index, const char *stage)
{
	size_t i;

	for (i = 0; i < s->n; i++)
		if (s->h[i].index == index && !strcmp(s->h[i].pipeline, pipe) &&
		    !strcmp(s->h[i].stage, stage))
			return &s->h[i];
	return NULL;
}

static uint64_t bucket_last(uint32_t i)
{
	return stacklat_hist_lower(i) + stacklat_hist_width(i) - 1;
}

enum hist_kind hist_delta(const struct hist *cur, const struct hist *prev,
			  struct hist *out)
{
	int i, lo = -1, hi = -1;
	bool back;

	*out = *cur;
	back = cur->generation != prev->generation || cur->count < prev->count ||
	       cur->sum < prev->sum || cur->overflow < prev->overflow;
	for (i = 0; !back && i < (int)STACKLAT_HIST_NBUCKETS; i++)
		back = cur->buckets[i] < prev->buckets[i];
	if (back) {
		out->kind = HIST_BASELINE_RESET;
		return out->kind;
	}
	out->kind = HIST_DELTA;
	out->count = cur->count - prev->count;
	out->sum = cur->sum - prev->sum;
	out->overflow = cur->overflow - prev->overflow;
	for (i = 0; i < (int)STACKLAT_HIST_NBUCKETS; i++) {
		out->buckets[i] = cur->buckets[i] - prev->buckets[i];
		if (out->buckets[i]) {
			if (lo < 0)
				lo = i;
			hi = i;
		}
	}
	if (!out->count) {
		out->min = out->max = 0;
		out->min_exact = out->max_exact = true;
		return out->kind;
	}
	/* min */
	if (!prev->count || cur->min < prev->min) {
		out->min = cur->min;
		out->min_exact = true;
	} else if (lo >= 0) {
		out->min = stacklat_hist_lower((uint32_t)lo);
		out->min_exact = stacklat_hist_width((uint32_t)lo) == 1;
		if (out->min < cur->min)
			out->min = cur->min;
	} else {	/* only overflowed samples */
		out->min = cur->min > STACKLAT_HIST_MAX_NS ? cur->min : STACKLAT_HIST_MAX_NS;
		out->min_exact = false;
	}
	/* max */
	if (!prev->count || cur->max > prev->max) {
		out->max = cur->max;
		out->max_exact = true;
	} else if (out->overflow || hi < 0) {
		out->max = cur->max;
		out->max_exact = false;
	} else {
		out->max = bucket_last((uint32_t)hi);
		out->max_exact = stacklat_hist_width((uint32_t)hi) == 1;
		if (out->max > cur->max)
			out->max = cur->max;
	}
	if (out->min > out->max)
		out->min = out->max;
	return out->kind;
}

int hist_set_delta(const struct hist_set *cur, const struct hist_set *prev,
		   struct hist_set *out)
{
	const struct hist *p;
	struct hist *d;
	size_t i;

	out->n = 0;
	for (i = 0; i < cur->n; i++) {
		d = hist_set_append(out);
		if (!d)
			return -1;
		p = hist_set_find(prev, cur->h[i].pipeline, cur->h[i].index,
				  cur->h[i].stage);
		if (p) {
			hist_delta(&cur->h[i], p, d);
		} else {
			*d = cur->h[i];
			d->kind = HIST_BASELINE_NEW;
		}
	}
	return 0;
}

static void bar_row(FILE *f, uint32_t unit, uint64_t lo, uint64_t hi,
		    bool inf, uint64_t n, uint64_t peak)
{
	static const char stars[BAR_WIDTH + 1] =
		"****************************************";
	char a[FMT_NS_LEN], b[FMT_NS_LEN];
	unsigned int w;

	fmt_val(a, sizeof(a), unit, lo);
	if (inf)
		snprintf(b, sizeof(b), "inf");
	else
		fmt_val(b, sizeof(b), unit, hi);
	/* n * 40 cannot overflow for any count a histogram can hold */
	w = (unsigned int)(n > UINT64_MAX / BAR_WIDTH ? n / (peak / BAR_WIDTH) :
			   n * BAR_WIDTH / peak);
	if (n && !w)
		w = 1;
	fprintf(f, "  %9s -> %-9s : %-10llu |%.*s%*s|\n", a, b,
		(unsigned long long)n, (int)w, stars, (int)(BAR_WIDTH - w), "");
}

void hist_bars(FILE *f, const struct hist *h, bool fine)
{
	enum { NROWS = STACKLAT_HIST_NBUCKETS / STACKLAT_HIST_SUB };
	uint64_t rows[NROWS], peak = h->overflow;
	int i, first = -1, last = -1, prev = -1;

	if (fine) {
		for (i = 0; i < (int)STACKLAT_HIST_NBUCKETS; i++)
			if (h->buckets[i] > peak)
				peak = h->buckets[i];
	} else {
		memset(rows, 0, sizeof(rows));
		for (i = 0; i < (int)STACKLAT_HIST_NBUCKETS; i++)
			rows[i / STACKLAT_HIST_SUB] += h->buckets[i];
		for (i = 0; i < NROWS; i++) {
			if (!rows[i])
				continue;
			if (first < 0)
				first = i;
			last = i;
			if (rows[i] > peak)
				peak = rows[i];
		}
	}
	if (!peak) {
		fprintf(f, "  (no samples)\n");
		return;
	}
	fprintf(f, "  %22s : %-10s %s\n", "range", "count", "distribution");
	if (fine) {
		for (i = 0; i < (int)STACKLAT_HIST_NBUCKETS; i++) {
			if (!h->buckets[i])
				continue;
			if (prev >= 0 && i != prev + 1)
				fprintf(f, "  %22s :\n", "...");
			bar_row(f, h->unit, stacklat_hist_lower((uint32_t)i),
				stacklat_hist_lower((uint32_t)i) +
				stacklat_hist_width((uint32_t)i),
				false, h->buckets[i], peak);
			prev = i;
		}
		if (h->overflow && prev >= 0 && prev != STACKLAT_HIST_NBUCKETS - 1)
			fprintf(f, "  %22s :\n", "...");
	} else {
		for (i = first; first >= 0 && i <= last; i++)
			bar_row(f, h->unit, stacklat_hist_lower((uint32_t)i * STACKLAT_HIST_SUB),
				i + 1 < NROWS ?
				stacklat_hist_lower((uint32_t)(i + 1) * STACKLAT_HIST_SUB) :
				STACKLAT_HIST_MAX_NS, false, rows[i], peak);
		if (h->overflow && last >= 0 && last != NROWS - 1)
			fprintf(f, "  %22s :\n", "...");
	}
	if (h->overflow)
		bar_row(f, h->unit, STACKLAT_HIST_MAX_NS, 0, true, h->overflow, peak);
}
