/* SPDX-License-Identifier: GPL-2.0 */
/* Formatting for readers (fmt.c): durations and values in their units. */
#ifndef _STACKLAT_FMT_H
#define _STACKLAT_FMT_H

#include <linux/types.h>
#include <linux/printk.h>

/* pr_fmt ("stacklat: ") and SL_VERSION (the VERSION file) come from Kbuild */
#define sl_info(fmt, ...)	pr_info(fmt, ##__VA_ARGS__)
#define sl_err(fmt, ...)	pr_err(fmt, ##__VA_ARGS__)

void sl_fmt_ns(char *buf, size_t len, u64 ns);
void sl_fmt_val(char *buf, size_t len, u32 unit, u64 v);
/*
 * A symbol as %pS writes it, "function+0xOFF/0xLEN [module]", made one
 * word in place: "function+0xOFF[module]" (no length, no blank).
 */
void sl_fmt_sym_word(char *s);

struct sl_pipeline;
const char *sl_pt_name(const struct sl_pipeline *p, unsigned int pt);

#endif /* _STACKLAT_FMT_H */
