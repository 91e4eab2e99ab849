/* SPDX-License-Identifier: GPL-2.0 */
/* Number, duration, error and JSON string formatting (no libnl). */
#ifndef STACKLAT_TOOL_FORMAT_H
#define STACKLAT_TOOL_FORMAT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* Longest fmt_ns() output plus NUL ("18446744073709551s"). */
#define FMT_NS_LEN	24

/*
 * @ns in ns, us, ms or s with three significant digits, truncated (not
 * rounded), exactly as the module's debugfs files print it: 999ns, 1.00us,
 * 12.3us, 123us, 5.00ms, 61.0s, 4000s.
 */
void fmt_ns(char *buf, size_t len, uint64_t ns);

/* @s as a JSON string literal (quotes included); invalid UTF-8 -> U+FFFD. */
void json_string(FILE *f, const char *s);

/* "ENOENT: No such file or directory"; kernel-internal errnos named too. */
const char *errno_text(int err, char *buf, size_t len);

/*
 * Colour or not: @mode is $STACKLAT_COLOR ("always", "never", "auto" or
 * NULL = auto), @no_color is $NO_COLOR (any non-empty value turns auto off),
 * @is_tty whether the output is a terminal.
 */
bool color_decide(const char *mode, const char *no_color, bool is_tty);

#endif
