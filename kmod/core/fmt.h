/* SPDX-License-Identifier: GPL-2.0 */
/* Formatting for readers (fmt.c): durations and values in their units. */
#ifndef _STACKLAT_FMT_H
#define _STACKLAT_FMT_H

#include <linux/types.h>

void sl_fmt_ns(char *buf, size_t len, u64 ns);
void sl_fmt_val(char *buf, size_t len, u32 unit, u64 v);

#endif /* _STACKLAT_FMT_H */
