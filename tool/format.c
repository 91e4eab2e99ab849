// SPDX-License-Identifier: GPL-2.0
/* Number, duration, error and JSON string formatting (no libnl). */
#define _GNU_SOURCE
#include <string.h>

#include "format.h"

void fmt_ns(char *buf, size_t len, uint64_t ns)
{
	static const char * const unit[] = { "ns", "us", "ms", "s" };
	uint64_t scale = 1, whole;
	int u = 0;

	while (u < 3 && ns / scale >= 1000) {
		scale *= 1000;
		u++;
	}
	whole = ns / scale;
	if (!u || whole >= 100)
		snprintf(buf, len, "%llu%s", (unsigned long long)whole, unit[u]);
	else if (whole >= 10)
		snprintf(buf, len, "%llu.%llu%s", (unsigned long long)whole,
			 (unsigned long long)(ns % scale / (scale / 10)), unit[u]);
	else
		snprintf(buf, len, "%llu.%02llu%s", (unsigned long long)whole,
			 (unsigned long long)(ns % scale / (scale / 100)), unit[u]);
}

/* Length of the valid UTF-8 sequence at @s, or 0 if it is not one. */
static size_t utf8_len(const unsigned char *s)
{
	size_t n, i;
	uint32_t cp;

	if (s[0] < 0x80)
		return 1;
	if (s[0] >= 0xc2 && s[0] <= 0xdf) {
		n = 2;
		cp = s[0] & 0x1f;
	} else if (s[0] >= 0xe0 && s[0] <= 0xef) {
		n = 3;
		cp = s[0] & 0x0f;
	} else if (s[0] >= 0xf0 && s[0] <= 0xf4) {
		n = 4;
		cp = s[0] & 0x07;
	} else {
		return 0;
	}
	for (i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (s[i] & 0x3f);
	}
	if ((n == 3 && (cp < 0x800 || (cp >= 0xd800 && cp <= 0xdfff))) ||
	    (n == 4 && (cp < 0x10000 || cp > 0x10ffff)))
		return 0;
	return n;
}

void json_string(FILE *f, const char *str)
{
	const unsigned char *s = (const unsigned char *)str;
	size_t n;

	fputc('"', f);
	while (*s) {
		switch (*s) {
		case '"':
			fputs("\\\"", f);
			break;
		case '\\':
			fputs("\\\\", f);
			break;
		case '\b':
			fputs("\\b", f);
			break;
		case '\f':
			fputs("\\f", f);
			break;
		case '\n':
			fputs("\\n", f);
			break;
		case '\r':
			fputs("\\r", f);
			break;
		case '\t':
			fputs("\\t", f);
			break;
		default:
			if (*s < 0x20 || *s == 0x7f) {
				fprintf(f, "\\u%04x", *s);
				break;
			}
			n = utf8_len(s);
			if (!n) {
				fputs("\\ufffd", f);
				break;
			}
			fwrite(s, 1, n, f);
			s += n;
			continue;
		}
		s++;
	}
	fputc('"', f);
}

const char *errno_text(int err, char *buf, size_t len)
{
	/* errnos the kernel uses internally, unknown to libc */
	static const struct {
		int err;
		const char *name, *text;
	} kern[] = {
		{ 512, "ERESTARTSYS", "Interrupted, to be restarted" },
		{ 517, "EPROBE_DEFER", "Driver requests probe retry" },
		{ 524, "ENOTSUPP", "Operation is not supported" },
	};
	const char *name;
	size_t i;

	if (err < 0)
		err = -err;
	for (i = 0; i < sizeof(kern) / sizeof(kern[0]); i++) {
		if (kern[i].err == err) {
			snprintf(buf, len, "%s: %s", kern[i].name, kern[i].text);
			return buf;
		}
	}
	name = strerrorname_np(err);
	if (name)
		snprintf(buf, len, "%s: %s", name, strerror(err));
	else
		snprintf(buf, len, "error %d", err);
	return buf;
}

bool color_decide(const char *mode, const char *no_color, bool is_tty)
{
	if (mode && !strcmp(mode, "always"))
		return true;
	if (mode && !strcmp(mode, "never"))
		return false;
	if (no_color && *no_color)
		return false;
	return is_tty;
}
