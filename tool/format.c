// SPDX-License-Identifier: GPL-2.0
/* Number, duration, error and UTF-8 string formatting (no libnl). */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stdlib.h>
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

void fmt_val(char *buf, size_t len, uint32_t unit, uint64_t v)
{
	static const char * const bu[] = { "B", "KiB", "MiB", "GiB", "TiB" };
	uint64_t scale = 1, whole;
	int u = 0;

	if (unit == STACKLAT_UNIT_NS) {
		fmt_ns(buf, len, v);
		return;
	}
	if (unit != STACKLAT_UNIT_BYTES) {
		snprintf(buf, len, "%llu", (unsigned long long)v);
		return;
	}
	while (u < 4 && v / scale >= 1024) {
		scale *= 1024;
		u++;
	}
	whole = v / scale;
	if (!u || whole >= 100)
		snprintf(buf, len, "%llu%s", (unsigned long long)whole, bu[u]);
	else if (whole >= 10)
		snprintf(buf, len, "%llu.%llu%s", (unsigned long long)whole,
			 (unsigned long long)(v % scale * 10 / scale), bu[u]);
	else
		snprintf(buf, len, "%llu.%02llu%s", (unsigned long long)whole,
			 (unsigned long long)(v % scale * 100 / scale), bu[u]);
}

const char *unit_name(uint32_t unit)
{
	static const char * const names[] = {
		[STACKLAT_UNIT_NS] = "ns",
		[STACKLAT_UNIT_BYTES] = "bytes",
		[STACKLAT_UNIT_COUNT] = "count",
	};

	return unit < sizeof(names) / sizeof(names[0]) ? names[unit] : "?";
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

char *utf8_clean(const char *str)
{
	const unsigned char *s = (const unsigned char *)str;
	char *out = malloc(strlen(str) * 3 + 1), *o = out;
	size_t n;

	if (!out)
		return NULL;
	while (*s) {
		n = utf8_len(s);
		if (!n) {
			memcpy(o, "\xef\xbf\xbd", 3);	/* U+FFFD */
			o += 3;
			s++;
			continue;
		}
		memcpy(o, s, n);
		o += n;
		s += n;
	}
	*o = '\0';
	return out;
}

/* errnos the kernel uses internally, unknown to libc (include/linux/errno.h) */
static const struct {
	int err;
	const char *name, *text;
} kern_errnos[] = {
	{ 512, "ERESTARTSYS", "Interrupted, to be restarted" },
	{ 513, "ERESTARTNOINTR", "Interrupted, restarted" },
	{ 514, "ERESTARTNOHAND", "Interrupted, restarted if no handler" },
	{ 515, "ENOIOCTLCMD", "No ioctl command" },
	{ 516, "ERESTART_RESTARTBLOCK", "Interrupted, restarted by restart_syscall" },
	{ 517, "EPROBE_DEFER", "Driver requests probe retry" },
	{ 518, "EOPENSTALE", "Open found a stale dentry" },
	{ 519, "ENOPARAM", "Parameter not supported" },
	{ 521, "EBADHANDLE", "Illegal NFS file handle" },
	{ 522, "ENOTSYNC", "Update synchronization mismatch" },
	{ 523, "EBADCOOKIE", "Cookie is stale" },
	{ 524, "ENOTSUPP", "Operation is not supported" },
	{ 525, "ETOOSMALL", "Buffer or request is too small" },
	{ 526, "ESERVERFAULT", "An untranslatable error occurred" },
	{ 527, "EBADTYPE", "Type not supported by server" },
	{ 528, "EJUKEBOX", "Request initiated, but will not complete before timeout" },
	{ 529, "EIOCBQUEUED", "iocb queued, will get completion event" },
	{ 530, "ERECALLCONFLICT", "Conflict with recalled state" },
	{ 531, "ENOGRACE", "NFS file lock reclaim refused" },
};

const char *errno_name(int err, char *buf, size_t len)
{
	const char *name;
	size_t i;

	if (err < 0)
		err = -err;
	for (i = 0; i < sizeof(kern_errnos) / sizeof(kern_errnos[0]); i++)
		if (kern_errnos[i].err == err)
			return kern_errnos[i].name;
	name = strerrorname_np(err);
	if (name)
		return name;
	snprintf(buf, len, "errno%d", err);
	return buf;
}

const char *errno_text(int err, char *buf, size_t len)
{
	const char *name;
	size_t i;

	if (err < 0)
		err = -err;
	for (i = 0; i < sizeof(kern_errnos) / sizeof(kern_errnos[0]); i++) {
		if (kern_errnos[i].err == err) {
			snprintf(buf, len, "%s: %s", kern_errnos[i].name,
				 kern_errnos[i].text);
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

void fatal(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fputs("stacklat: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
	exit(1);
}
