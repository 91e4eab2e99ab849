// SPDX-License-Identifier: GPL-2.0
/*
 * sl-files: an exact number of opens, reads and writes of a named file,
 * for the files pipeline (issue 29, "top files").
 *
 *   sl-files FILE BYTES CALLS MISSING FAILS GO QUIT OUT
 *       writes "ready PID" to OUT, waits for the file GO to exist, then:
 *       opens FILE (created, truncated: one open), writes BYTES bytes to
 *       it in CALLS write(2) calls of BYTES / CALLS bytes, reads them back
 *       from its start in CALLS read(2) calls of as many bytes (pread64 is
 *       vfs_read too; read(2) keeps it plain), closes it, and tries FAILS
 *       times to open MISSING, which must not exist (ENOENT each time);
 *       writes "done PID" to OUT and waits for QUIT before it exits (so
 *       that its rows, and /proc/PID/io, are read while it lives).  The
 *       waits poll with access(2) and nanosleep(2): neither reads nor
 *       writes.  OUT is written with write(2) only.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static void die(const char *what)
{
	fprintf(stderr, "sl-files: %s: %s\n", what, strerror(errno));
	exit(1);
}

static void wait_file(const char *f)
{
	struct timespec ts = { 0, 20 * 1000 * 1000 };

	while (access(f, F_OK))
		nanosleep(&ts, NULL);
}

static void say(int fd, const char *what)
{
	char line[64];
	int n = snprintf(line, sizeof(line), "%s %d\n", what, getpid());

	if (write(fd, line, (size_t)n) != n)
		die("OUT");
}

int main(int argc, char **argv)
{
	long bytes, calls, fails, i, each;
	char *buf;
	int fd, out;

	if (argc != 9) {
		fprintf(stderr, "usage: sl-files FILE BYTES CALLS MISSING FAILS GO QUIT OUT\n");
		return 2;
	}
	bytes = atol(argv[2]);
	calls = atol(argv[3]);
	fails = atol(argv[5]);
	if (calls <= 0 || bytes <= 0 || bytes % calls)
		return 2;
	each = bytes / calls;
	buf = malloc((size_t)each);
	if (!buf)
		die("malloc");
	memset(buf, 'f', (size_t)each);
	out = open(argv[8], O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (out < 0)
		die(argv[8]);
	say(out, "ready");
	wait_file(argv[6]);
	fd = open(argv[1], O_RDWR | O_CREAT | O_TRUNC, 0644);
	if (fd < 0)
		die(argv[1]);
	for (i = 0; i < calls; i++)
		if (write(fd, buf, (size_t)each) != each)
			die("write");
	if (lseek(fd, 0, SEEK_SET))
		die("lseek");
	for (i = 0; i < calls; i++)
		if (read(fd, buf, (size_t)each) != each)
			die("read");
	close(fd);
	for (i = 0; i < fails; i++)
		if (open(argv[4], O_RDONLY) >= 0 || errno != ENOENT)
			die("open of MISSING did not fail with ENOENT");
	say(out, "done");
	wait_file(argv[7]);
	return 0;
}
