// SPDX-License-Identifier: GPL-2.0
/*
 * sl-sys: an exact number of system calls, for the syscalls pipeline.
 *
 *   sl-sys calls -n N -m M [-k K] [-g GO] [-q QUIT] [-o OUT]
 *       N getppid(2), M stat(2) of a path that does not exist (ENOENT)
 *       and K getppid through int 0x80 (the i386 ABI, number 64), all as
 *       raw syscalls (syscall(2): SYS_getppid 110 and SYS_stat 4 on
 *       x86-64, no libc wrapper that could pick another call).  With -g
 *       it waits for the file GO to exist before calling, with -q for QUIT
 *       before it exits (so that its rows are read while it lives), and
 *       it writes to OUT (default stdout) "ready PID" before waiting and
 *       "done PID I386" after the calls, I386 1 if int 0x80 worked.  The
 *       waits poll with access(2) and nanosleep(2): neither is counted.
 *   sl-sys fork P [C]
 *       P short-lived processes, at most C (default 8) alive at once, each
 *       making 3 getppid and 1 failing stat, then _exit: prints
 *       "forked P".
 */
#define _GNU_SOURCE
#include <errno.h>
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define MISSING		"/nonexistent-sl-sys/none"
#define I386_GETPPID	64

static void die(const char *what)
{
	fprintf(stderr, "sl-sys: %s: %s\n", what, strerror(errno));
	exit(1);
}

static void wait_file(const char *f)
{
	struct timespec ts = { 0, 20 * 1000 * 1000 };

	while (f && access(f, F_OK))
		nanosleep(&ts, NULL);
}

static sigjmp_buf no_i386;

static void on_segv(int sig)
{
	(void)sig;
	siglongjmp(no_i386, 1);
}

static long i386_getppid(void);

/*
 * @k getppid calls through int 0x80; 1 if each returned @ppid (any parent
 * when 0).  A kernel without IA32 emulation faults the first: SIGSEGV, 0.
 */
static int i386_calls(long k, long ppid)
{
	volatile int ok = 1;
	long i, r;

	signal(SIGSEGV, on_segv);
	if (sigsetjmp(no_i386, 1)) {
		signal(SIGSEGV, SIG_DFL);
		return 0;
	}
	for (i = 0; i < k; i++) {
		r = i386_getppid();
		if (r <= 0 || (ppid && r != ppid))
			ok = 0;
	}
	signal(SIGSEGV, SIG_DFL);
	return ok;
}

/* getppid in the i386 ABI, from this 64-bit process */
static long i386_getppid(void)
{
#if defined(__x86_64__)
	long ret = I386_GETPPID;

	__asm__ volatile ("int $0x80" : "+a"(ret) : :
			  "r8", "r9", "r10", "r11", "memory");
	return ret;
#else
	return -ENOSYS;
#endif
}

static void stat_missing(void)
{
	struct stat st;

	if (syscall(SYS_stat, MISSING, &st) != -1 || errno != ENOENT)
		die("stat of a missing path did not fail with ENOENT");
}

static int cmd_calls(int argc, char **argv)
{
	long n = 0, m = 0, k = 0, i, ppid = 0;
	const char *go = NULL, *quit = NULL, *out = NULL;
	int o, i386;
	FILE *f = stdout;

	while ((o = getopt(argc, argv, "n:m:k:g:q:o:")) != -1) {
		switch (o) {
		case 'n':
			n = atol(optarg);
			break;
		case 'm':
			m = atol(optarg);
			break;
		case 'k':
			k = atol(optarg);
			break;
		case 'g':
			go = optarg;
			break;
		case 'q':
			quit = optarg;
			break;
		case 'o':
			out = optarg;
			break;
		default:
			return 2;
		}
	}
	if (out) {
		f = fopen(out, "w");
		if (!f)
			die(out);
	}
	fprintf(f, "ready %d\n", getpid());
	fflush(f);
	wait_file(go);
	for (i = 0; i < n; i++)
		ppid = syscall(SYS_getppid);
	for (i = 0; i < m; i++)
		stat_missing();
	i386 = i386_calls(k, n ? ppid : 0);
	fprintf(f, "done %d %d\n", getpid(), k ? i386 : 0);
	fflush(f);
	wait_file(quit);
	return 0;
}

static int cmd_fork(long p, long c)
{
	long started = 0, alive = 0;
	pid_t pid;
	int st;

	while (started < p || alive) {
		if (started < p && alive < c) {
			pid = fork();
			if (pid < 0)
				die("fork");
			if (!pid) {
				syscall(SYS_getppid);
				syscall(SYS_getppid);
				syscall(SYS_getppid);
				stat_missing();
				_exit(0);
			}
			started++;
			alive++;
			continue;
		}
		if (wait(&st) < 0)
			die("wait");
		if (!WIFEXITED(st) || WEXITSTATUS(st))
			die("a child failed");
		alive--;
	}
	printf("forked %ld\n", p);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc >= 2 && !strcmp(argv[1], "calls"))
		return cmd_calls(argc - 1, argv + 1);
	if (argc >= 3 && !strcmp(argv[1], "fork"))
		return cmd_fork(atol(argv[2]), argc > 3 ? atol(argv[3]) : 8);
	fprintf(stderr, "usage: sl-sys calls -n N -m M [-k K] [-g GO] [-q QUIT] [-o OUT]\n"
		"       sl-sys fork P [C]\n");
	return 2;
}
