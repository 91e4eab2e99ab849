// SPDX-License-Identifier: GPL-2.0
/*
 * Formatting shared by the readers (debugfs, the events file) and the
 * pipelines that name things for them: durations and values in their
 * units, with three significant digits.
 */
#include <linux/kernel.h>

#include "stacklat.h"
#include "fmt.h"

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
	if (!u || ns / scale >= 100)
		snprintf(buf, len, "%llu%s", ns / scale, unit[u]);
	else if (ns / scale >= 10)
		snprintf(buf, len, "%llu.%llu%s", ns / scale,
			 ns % scale * 10 / scale, unit[u]);
	else
		snprintf(buf, len, "%llu.%02llu%s", ns / scale,
			 ns % scale * 100 / scale, unit[u]);
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
	if (!u || v / scale >= 100)
		snprintf(buf, len, "%llu%s", v / scale, bu[u]);
	else if (v / scale >= 10)
		snprintf(buf, len, "%llu.%llu%s", v / scale,
			 v % scale * 10 / scale, bu[u]);
	else
		snprintf(buf, len, "%llu.%02llu%s", v / scale,
			 v % scale * 100 / scale, bu[u]);
}
