/* SPDX-License-Identifier: GPL-2.0 */
/* Number, duration, error and UTF-8 string formatting (no libnl). */
#ifndef STACKLAT_TOOL_FORMAT_H
#define STACKLAT_TOOL_FORMAT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "stacklat.h"

/* Longest fmt_ns() output plus NUL ("18446744073709551s"). */
#define FMT_NS_LEN	24

/*
 * @ns in ns, us, ms or s with three significant digits, truncated (not
 * rounded), exactly as the module's debugfs files print it: 999ns, 1.00us,
 * 12.3us, 123us, 5.00ms, 61.0s, 4000s.
 */
void fmt_ns(char *buf, size_t len, uint64_t ns);

/*
 * A copy of @s (malloc'ed, NULL when out of memory) in which every byte
 * that is not part of valid UTF-8 (overlong, surrogate, truncated, above
 * U+10FFFF) is replaced by U+FFFD, for JSON (tool/json.c).
 */
char *utf8_clean(const char *s);

/*
 * A value in @unit (enum stacklat_unit) as the module's debugfs files print
 * it: a time as fmt_ns(), bytes with three significant digits in B, KiB,
 * MiB, GiB or TiB (truncated: 1024B, 1.00KiB, 64.0KiB, 100MiB), a count as
 * it is.  An unknown unit prints the number.
 */
void fmt_val(char *buf, size_t len, uint32_t unit, uint64_t v);

/* "ns", "bytes", "count" ("?" for an unknown unit). */
const char *unit_name(uint32_t unit);

/*
 * "ENOENT" (the kernel-internal errnos too: ERESTARTSYS...), or "errnoN"
 * written to @buf for a number nothing names.
 */
const char *errno_name(int err, char *buf, size_t len);

/* "ENOENT: No such file or directory"; kernel-internal errnos named too. */
const char *errno_text(int err, char *buf, size_t len);

/*
 * Colour or not: @mode is $STACKLAT_COLOR ("always", "never", "auto" or
 * NULL = auto), @no_color is $NO_COLOR (any non-empty value turns auto off),
 * @is_tty whether the output is a terminal.
 */
bool color_decide(const char *mode, const char *no_color, bool is_tty);

/*
 * "stacklat: " and the message on stderr, then exit 1: a runtime error
 * (the module absent, the kernel refused, out of memory); bad usage exits
 * 2 (cmd_common.c's usage_error()).
 */
void __attribute__((noreturn, format(printf, 1, 2))) fatal(const char *fmt, ...);

#endif
