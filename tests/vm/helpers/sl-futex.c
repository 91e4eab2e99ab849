// SPDX-License-Identifier: GPL-2.0
/*
 * sl-futex [-n N] [-r R] [-s MS] [-q QUITFILE]: a holder thread takes a
 * pthread mutex, lets N waiter threads (default 4) block on it, holds it
 * MS ms (default 50) and lets go, R times (default 10) - the ground truth
 * of the futex pipeline's test (98-futex).  A round: the holder locks,
 * publishes the round, sleeps MS ms and unlocks; each waiter, seeing the
 * round, calls pthread_mutex_lock() (blocking in FUTEX_WAIT on the mutex's
 * word), unlocks at once (waking the next waiter: glibc wakes one) and
 * says it is done; the holder starts the next round when all are.  The
 * rounds are published and awaited by polling with usleep(), so that the
 * mutex is the only futex the rounds wait on.  Each waiter times its
 * pthread_mutex_lock() calls on CLOCK_MONOTONIC (the clock stacklat
 * stamps on; both of its stamps of a wait lie inside the call):
 *   ready pid=P holder=TID mutex=ADDR waiters=TID,TID,...
 *   done locks=N*R lock_ns=SUM
 * then it waits until QUITFILE exists (usleep).  Exit 0, or 1.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#define MAXW 64

static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static int n = 4, rounds = 10, ms = 50;
static volatile int round_no, done, up;
static pid_t tids[MAXW];
static unsigned long long lock_ns[MAXW];
static unsigned long locks[MAXW];

static unsigned long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

/* every waiter is in futex() (its /proc syscall file: "202 ...") */
static int all_blocked(void)
{
	char path[64], buf[32];
	long i;
	FILE *f;
	int ok;

	for (i = 0; i < n; i++) {
		snprintf(path, sizeof(path), "/proc/self/task/%d/syscall",
			 (int)tids[i]);
		f = fopen(path, "r");
		if (!f)
			return 0;
		ok = fgets(buf, sizeof(buf), f) && !strncmp(buf, "202 ", 4);
		fclose(f);
		if (!ok)
			return 0;
	}
	return 1;
}

static void *waiter(void *arg)
{
	long i = (long)arg;
	unsigned long long t0;
	int r;

	tids[i] = (pid_t)syscall(SYS_gettid);
	__atomic_add_fetch(&up, 1, __ATOMIC_SEQ_CST);
	for (r = 1; r <= rounds; r++) {
		while (__atomic_load_n(&round_no, __ATOMIC_ACQUIRE) < r)
			usleep(1000);
		t0 = now_ns();
		pthread_mutex_lock(&m);
		lock_ns[i] += now_ns() - t0;
		locks[i]++;
		pthread_mutex_unlock(&m);
		__atomic_add_fetch(&done, 1, __ATOMIC_SEQ_CST);
	}
	return NULL;
}

int main(int argc, char **argv)
{
	pthread_t th[MAXW];
	const char *quit = NULL;
	unsigned long long sum = 0;
	unsigned long nl = 0;
	struct stat st;
	long i;
	int c, r;

	while ((c = getopt(argc, argv, "n:r:s:q:")) != -1) {
		switch (c) {
		case 'n': n = atoi(optarg); break;
		case 'r': rounds = atoi(optarg); break;
		case 's': ms = atoi(optarg); break;
		case 'q': quit = optarg; break;
		default: return 1;
		}
	}
	if (n < 1 || n > MAXW || rounds < 1 || ms < 1)
		return 1;
	for (i = 0; i < n; i++)
		if (pthread_create(&th[i], NULL, waiter, (void *)i))
			return 1;
	while (__atomic_load_n(&up, __ATOMIC_SEQ_CST) < n)
		usleep(1000);
	printf("ready pid=%d holder=%d mutex=%p waiters=", getpid(),
	       (int)syscall(SYS_gettid), (void *)&m);
	for (i = 0; i < n; i++)
		printf("%s%d", i ? "," : "", tids[i]);
	printf("\n");
	fflush(stdout);
	for (r = 1; r <= rounds; r++) {
		pthread_mutex_lock(&m);
		__atomic_store_n(&round_no, r, __ATOMIC_RELEASE);
		usleep(ms * 1000);
		/*
		 * unlock only with every waiter asleep in futex(): one still on
		 * its way (a loaded host) took the free mutex without a wait,
		 * and B counted 9 waits of 10 locks (6.12)
		 */
		for (c = 0; !all_blocked(); c++) {
			if (c == 10000) {
				fprintf(stderr, "sl-futex: waiters not blocked after 10 s\n");
				return 1;
			}
			usleep(1000);
		}
		pthread_mutex_unlock(&m);
		while (__atomic_load_n(&done, __ATOMIC_SEQ_CST) < r * n)
			usleep(1000);
	}
	for (i = 0; i < n; i++) {
		pthread_join(th[i], NULL);
		sum += lock_ns[i];
		nl += locks[i];
	}
	printf("done locks=%lu lock_ns=%llu\n", nl, sum);
	fflush(stdout);
	while (quit && stat(quit, &st))
		usleep(10000);
	return 0;
}
