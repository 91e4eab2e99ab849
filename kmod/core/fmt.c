// SPDX-License-Identifier: GPL-2.0
/*
 * Formatting shared by the readers (debugfs, netlink, the events file)
 * and the pipelines that name things for them: durations and values in
 * their units, with three significant digits, and the names of points.
 */
#include <linux/kernel.h>

#include "stacklat.h"
#include "types.h"
#include "fmt.h"

/* @v counted in @scale (1: as it is), three significant digits, @unit */
static void sl_fmt_sig3(char *buf, size_t len, u64 v, u64 scale,
			const char *unit)
{
	if (scale == 1 || v / scale >= 100)
		snprintf(buf, len, "%llu%s", v / scale, unit);
	else if (v / scale >= 10)
		snprintf(buf, len, "%llu.%llu%s", v / scale,
			 v % scale * 10 / scale, unit);
	else
		snprintf(buf, len, "%llu.%02llu%s", v / scale,
			 v % scale * 100 / scale, unit);
}

/* Three significant digits in ns, us, ms or s. */
void sl_fmt_ns(char *buf, size_t len, u64 ns)
{
	static const char * const unit[] = { "ns", "us", "ms", "s" };
	u64 scale = 1;
	int u = 0;

	while (u < 3 && ns >= scale * 1000) {
		scale *= 1000;
		u++;
	}
	sl_fmt_sig3(buf, len, ns, scale, unit[u]);
}

/*
 * A value of a stage in its unit: a time as sl_fmt_ns() does, bytes with
 * three significant digits in B, KiB, MiB, GiB or TiB (truncated), a
 * count as it is.
 */
void sl_fmt_val(char *buf, size_t len, u32 unit, u64 v)
{
	static const char * const bu[] = { "B", "KiB", "MiB", "GiB", "TiB" };
	u64 scale = 1;
	int u = 0;

	if (unit == STACKLAT_UNIT_NS) {
		sl_fmt_ns(buf, len, v);
		return;
	}
	if (unit != STACKLAT_UNIT_BYTES) {
		snprintf(buf, len, "%llu", v);
		return;
	}
	while (u < 4 && v / scale >= 1024) {
		scale *= 1024;
		u++;
	}
	sl_fmt_sig3(buf, len, v, scale, bu[u]);
}

/* The name of point @pt of @p, from the stages that start or end there. */
const char *sl_pt_name(const struct sl_pipeline *p, unsigned int pt)
{
	unsigned int i;

	for (i = 0; i < p->nstages; i++) {
		if (p->stages[i].from_pt == pt && p->stages[i].from)
			return p->stages[i].from;
		if (p->stages[i].to_pt == pt && p->stages[i].to)
			return p->stages[i].to;
	}
	return NULL;
}

void sl_fmt_sym_word(char *s)
{
	char *src, *dst;

	for (src = s, dst = s; *src; src++) {
		if (*src == '/') {
			while (src[1] && src[1] != ' ')
				src++;	/* "/0xLEN" */
			continue;
		}
		if (*src != ' ')
			*dst++ = *src;
	}
	*dst = '\0';
}
