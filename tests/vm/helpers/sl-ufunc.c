// SPDX-License-Identifier: GPL-2.0
/*
 * sl-ufunc N US M: the user-space function of 97-ufunc.  Waits for
 * SIGUSR1 (the probes are armed by then), then calls sl_ufunc_work(US),
 * which sleeps US microseconds, N times and libc's getppid() M times,
 * and prints "calls=N sum_ns=S" where S is the time the calls took by
 * this process's own clock (CLOCK_MONOTONIC around each call: the probed
 * entry-to-return lies inside each bracket).
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

static volatile sig_atomic_t go;

static void on_usr1(int sig)
{
	(void)sig;
	go = 1;
}

/* in .symtab as itself: no inlining, no clone (.constprop, .isra) */
__attribute__((noinline, noipa)) int sl_ufunc_work(unsigned int us)
{
	struct timespec ts = { us / 1000000, (long)(us % 1000000) * 1000 };

	while (nanosleep(&ts, &ts))
		;
	return 0;
}

static long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

int main(int argc, char **argv)
{
	long n, us, m, i, ppid = 0;
	long long sum = 0, t0;
	sigset_t mask, old;

	if (argc != 4) {
		fprintf(stderr, "usage: sl-ufunc N US M\n");
		return 2;
	}
	n = atol(argv[1]);
	us = atol(argv[2]);
	m = atol(argv[3]);
	sigemptyset(&mask);
	sigaddset(&mask, SIGUSR1);
	sigprocmask(SIG_BLOCK, &mask, &old);
	signal(SIGUSR1, on_usr1);
	while (!go)
		sigsuspend(&old);
	for (i = 0; i < n; i++) {
		t0 = now_ns();
		sl_ufunc_work((unsigned int)us);
		sum += now_ns() - t0;
	}
	for (i = 0; i < m; i++)
		ppid += getppid();
	printf("calls=%ld sum_ns=%lld ppid=%ld\n", n, sum, m ? ppid / m : 0);
	return 0;
}
