// SPDX-License-Identifier: GPL-2.0
/*
 * sl-span N US: the two points of 97-span.  Waits for SIGUSR1 (the
 * probes are armed by then), then N times: sl_span_mark() (noinline, in
 * its .symtab: a user-space point), getppid(2), a sleep of US
 * microseconds, getuid(2) - raw system calls, no libc wrapper that could
 * cache or pick another call.  Prints "calls=N sum_ns=S" where S is the
 * time from before each sl_span_mark() to after each getuid() by this
 * process's clock (CLOCK_MONOTONIC, the module's): any span between those
 * points lies inside each bracket.
 */
#define _GNU_SOURCE
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static volatile sig_atomic_t go;
static volatile int marks;

static void on_usr1(int sig)
{
	(void)sig;
	go = 1;
}

/* in .symtab as itself: no inlining, no clone (.constprop, .isra) */
__attribute__((noinline, noipa)) void sl_span_mark(void)
{
	marks++;
}

static long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

int main(int argc, char **argv)
{
	long n, us, i;
	long long sum = 0, t0;
	sigset_t mask, old;
	struct timespec ts;

	if (argc != 3) {
		fprintf(stderr, "usage: sl-span N US\n");
		return 2;
	}
	n = atol(argv[1]);
	us = atol(argv[2]);
	sigemptyset(&mask);
	sigaddset(&mask, SIGUSR1);
	sigprocmask(SIG_BLOCK, &mask, &old);
	signal(SIGUSR1, on_usr1);
	while (!go)
		sigsuspend(&old);
	for (i = 0; i < n; i++) {
		t0 = now_ns();
		sl_span_mark();
		syscall(SYS_getppid);
		ts.tv_sec = us / 1000000;
		ts.tv_nsec = (us % 1000000) * 1000;
		while (nanosleep(&ts, &ts))
			;
		syscall(SYS_getuid);
		sum += now_ns() - t0;
	}
	printf("calls=%ld sum_ns=%lld marks=%d\n", n, sum, marks);
	return 0;
}
