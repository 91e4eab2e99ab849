// SPDX-License-Identifier: GPL-2.0
/*
 * sl-rrserver: a TCP request/response server and client with known
 * injected times, the ground truth of the reqresp scenarios.
 *
 *   sl-rrserver server PORT MODE THREADS CONNS X_US Y_US [XSTEP_US]
 *       MODE epoll | poll | blocking.  Accepts CONNS connections, deals
 *       them to THREADS threads (connection i to thread i % THREADS), and
 *       answers each request (whatever one read returns, up to 4 KiB) with
 *       as many bytes.  Y_US: busy work after the wait returns, before the
 *       read (the queue stage); X_US (+ i * XSTEP_US for the i-th connection,
 *       counted thread by thread: thread 0's connections first):
 *       busy work between the read and the write (the app stage).  Exits
 *       when every connection reached end of file and prints
 *       "requests=N x_ns=SUM y_ns=SUM tids=T0,T1,... thread_requests=..
 *       thread_x_ns=.. thread_xo_ns=..": the queue busy work and the
 *       application time (from the read's return to the write, as the
 *       server sees them) measured, in all and per thread, and per thread
 *       the time from before each read to after its response's write (the
 *       kernel's read return and write entry lie between the two).  Prints "listening" once it listens (on stdout, flushed).
 *       With RR_HOLD=FILE in the environment, prints "workers=T0,T1,..."
 *       once its threads exist and waits for FILE to exist before they
 *       start (a filter on a thread can be set before any request).
 *       Each worker first writes one byte on each of its connections, which
 *       the client waits for: no request waits for a worker to start.
 *   sl-rrserver client HOST PORT CONNS N SIZE [burst]
 *       Opens CONNS connections (TCP_NODELAY), reads the server's byte on
 *       each, and makes N requests of SIZE
 *       bytes, round robin over the connections, each waiting for its whole
 *       response (burst: a request on every connection at once, then
 *       every response); then closes them.  RR_GAP_US=G in the
 *       environment: a pause of G us after each response (the server is
 *       back asleep when the next request comes).  RR_SLEEPER=PID: after
 *       each response, until every thread of PID is in an interruptible
 *       sleep (the server's worker back in its wait).  Prints
 *       "requests=N lports=P0,P1,..." (the client's ports).
 *   sl-rrserver hog CPU ON_US OFF_US SECONDS
 *       Pinned to CPU: busy for ON_US, asleep for OFF_US, over and over
 *       for SECONDS (run it under chrt -f: a CPU hog that a woken thread
 *       of that CPU waits for).
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <dirent.h>
#include <errno.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#define MAXC	64
#define BUFSZ	4096

static int mode;		/* 0 epoll, 1 poll, 2 blocking */
static long long xns, yns, xstep;
static int nthreads, nconns;
static int fds[MAXC];
static long long tot_req, tot_x, tot_y, thr_x[MAXC], thr_req[MAXC];
static long long thr_xo[MAXC];
static int tids[MAXC];
static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_barrier_t ready, go;

static long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

/* busy work for @ns, returns the time it took */
static long long spin(long long ns)
{
	long long t0 = now_ns(), t;

	if (ns <= 0)
		return 0;
	do
		t = now_ns();
	while (t - t0 < ns);
	return t - t0;
}

static void die(const char *what)
{
	perror(what);
	exit(1);
}

struct worker {
	int idx;
	int conn[MAXC];
	int n;
	long long req, x, y;
	long long xo;	/* from before each read to after its response's write */
};

/* one request on connection @c (index @ci): 0 at end of file */
static int serve(struct worker *w, int c, int ci, int waited)
{
	char buf[BUFSZ];
	long long t0, tr;
	ssize_t r, off;

	if (waited)
		w->y += spin(yns);
	tr = now_ns();
	r = read(c, buf, sizeof(buf));
	t0 = now_ns();
	if (r < 0 && errno == EAGAIN)
		return 1;
	if (r < 0)
		die("read");
	if (!r)
		return 0;
	spin(xns + ci * xstep);
	/* the application time: from the read's return to the write */
	w->x += now_ns() - t0;
	for (off = 0; off < r; ) {
		ssize_t s = write(c, buf + off, r - off);

		if (s < 0)
			die("write");
		off += s;
	}
	w->xo += now_ns() - tr;
	w->req++;
	return 1;
}

static void *worker_fn(void *arg)
{
	struct worker *w = arg;
	int open = w->n, i;

	tids[w->idx] = (int)syscall(SYS_gettid);
	pthread_barrier_wait(&ready);
	pthread_barrier_wait(&go);
	/* one byte on each connection: the worker is ready (not a response) */
	for (i = 0; i < w->n; i++)
		if (write(w->conn[i], "g", 1) != 1)
			die("write go");
	if (mode == 0) {
		int ep = epoll_create1(0);
		struct epoll_event ev[MAXC];

		for (i = 0; i < w->n; i++) {
			struct epoll_event e = { .events = EPOLLIN,
						 .data.u32 = i };

			if (epoll_ctl(ep, EPOLL_CTL_ADD, w->conn[i], &e))
				die("epoll_ctl");
		}
		while (open > 0) {
			int n = epoll_wait(ep, ev, MAXC, -1), k;

			if (n < 0)
				die("epoll_wait");
			for (k = 0; k < n; k++) {
				int j = ev[k].data.u32;

				if (!serve(w, w->conn[j], w->idx * w->n + j,
					   k == 0)) {
					epoll_ctl(ep, EPOLL_CTL_DEL, w->conn[j],
						  NULL);
					close(w->conn[j]);
					open--;
				}
			}
		}
		close(ep);
	} else if (mode == 1) {
		struct pollfd pf[MAXC];

		for (i = 0; i < w->n; i++) {
			pf[i].fd = w->conn[i];
			pf[i].events = POLLIN;
		}
		while (open > 0) {
			int n = poll(pf, w->n, -1), first = 1;

			if (n < 0)
				die("poll");
			for (i = 0; i < w->n; i++) {
				if (pf[i].fd < 0 || !pf[i].revents)
					continue;
				if (!serve(w, pf[i].fd, w->idx * w->n + i,
					   first)) {
					close(pf[i].fd);
					pf[i].fd = -1;
					open--;
				}
				first = 0;
			}
		}
	} else {
		/* blocking: the connections in turn (the client goes round robin) */
		while (open > 0) {
			for (i = 0; i < w->n; i++) {
				if (w->conn[i] < 0)
					continue;
				if (!serve(w, w->conn[i], w->idx * w->n + i,
					   0)) {
					close(w->conn[i]);
					w->conn[i] = -1;
					open--;
				}
			}
		}
	}
	pthread_mutex_lock(&mu);
	tot_req += w->req;
	tot_x += w->x;
	tot_y += w->y;
	thr_x[w->idx] = w->x;
	thr_xo[w->idx] = w->xo;
	thr_req[w->idx] = w->req;
	pthread_mutex_unlock(&mu);
	return NULL;
}

static int server(int argc, char **argv)
{
	struct sockaddr_in a = { .sin_family = AF_INET };
	pthread_t th[MAXC];
	struct worker *w;
	int ls, one = 1, i;

	if (argc < 8)
		return 2;
	a.sin_port = htons(atoi(argv[2]));
	mode = !strcmp(argv[3], "epoll") ? 0 : !strcmp(argv[3], "poll") ? 1 :
	       !strcmp(argv[3], "blocking") ? 2 : -1;
	nthreads = atoi(argv[4]);
	nconns = atoi(argv[5]);
	xns = atoll(argv[6]) * 1000;
	yns = atoll(argv[7]) * 1000;
	xstep = argc > 8 ? atoll(argv[8]) * 1000 : 0;
	if (mode < 0 || nthreads < 1 || nthreads > MAXC || nconns < 1 ||
	    nconns > MAXC)
		return 2;
	ls = socket(AF_INET, SOCK_STREAM, 0);
	setsockopt(ls, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (bind(ls, (struct sockaddr *)&a, sizeof(a)) || listen(ls, MAXC))
		die("bind/listen");
	printf("listening\n");
	fflush(stdout);
	for (i = 0; i < nconns; i++) {
		fds[i] = accept(ls, NULL, NULL);
		if (fds[i] < 0)
			die("accept");
	}
	close(ls);
	w = calloc(nthreads, sizeof(*w));
	for (i = 0; i < nconns; i++) {
		struct worker *t = &w[i % nthreads];

		t->conn[t->n++] = fds[i];
	}
	pthread_barrier_init(&ready, NULL, nthreads + 1);
	pthread_barrier_init(&go, NULL, nthreads + 1);
	for (i = 0; i < nthreads; i++) {
		w[i].idx = i;
		pthread_create(&th[i], NULL, worker_fn, &w[i]);
	}
	pthread_barrier_wait(&ready);
	/* $RR_HOLD: tell the workers' ids, wait for that file to exist */
	if (getenv("RR_HOLD")) {
		printf("workers=");
		for (i = 0; i < nthreads; i++)
			printf("%s%d", i ? "," : "", tids[i]);
		printf("\n");
		fflush(stdout);
		while (access(getenv("RR_HOLD"), F_OK))
			usleep(10000);
	}
	pthread_barrier_wait(&go);
	for (i = 0; i < nthreads; i++)
		pthread_join(th[i], NULL);
	printf("requests=%lld x_ns=%lld y_ns=%lld tids=", tot_req, tot_x,
	       tot_y);
	for (i = 0; i < nthreads; i++)
		printf("%s%d", i ? "," : "", tids[i]);
	printf(" thread_requests=");
	for (i = 0; i < nthreads; i++)
		printf("%s%lld", i ? "," : "", thr_req[i]);
	printf(" thread_x_ns=");
	for (i = 0; i < nthreads; i++)
		printf("%s%lld", i ? "," : "", thr_x[i]);
	printf(" thread_xo_ns=");
	for (i = 0; i < nthreads; i++)
		printf("%s%lld", i ? "," : "", thr_xo[i]);
	printf("\n");
	return 0;
}

/*
 * Until every thread of process @pid is in an interruptible sleep (state
 * S in /proc: the server's workers back in their wait, its main thread in
 * pthread_join).  A worker is S from the moment its wait sets its state,
 * before it schedules: data arriving then still wakes it (sched_waking),
 * as it does a sleeping one.
 */
static void wait_asleep(int pid)
{
	char path[320], line[512];
	long long end = now_ns() + 10000000000LL;

	for (;;) {
		DIR *d;
		struct dirent *de;
		int awake = 0;

		snprintf(path, sizeof(path), "/proc/%d/task", pid);
		d = opendir(path);
		if (!d)
			die("opendir /proc/PID/task");
		while ((de = readdir(d))) {
			FILE *f;
			char *c;

			if (de->d_name[0] == '.')
				continue;
			snprintf(path, sizeof(path), "/proc/%d/task/%s/stat",
				 pid, de->d_name);
			f = fopen(path, "r");
			if (!f)
				continue;
			c = fgets(line, sizeof(line), f) ? strrchr(line, ')') :
							   NULL;
			fclose(f);
			if (!c || c[1] != ' ' || c[2] != 'S')
				awake = 1;
		}
		closedir(d);
		if (!awake)
			return;
		if (now_ns() > end) {
			fprintf(stderr, "server %d not asleep in 10 s\n", pid);
			exit(1);
		}
		usleep(100);
	}
}

static int client(int argc, char **argv)
{
	struct addrinfo hints = { .ai_socktype = SOCK_STREAM }, *ai;
	int conns, n, size, i, one = 1, burst, gap, sleeper;
	char buf[BUFSZ];

	if (argc < 7)
		return 2;
	conns = atoi(argv[4]);
	n = atoi(argv[5]);
	size = atoi(argv[6]);
	burst = argc > 7 && !strcmp(argv[7], "burst");
	gap = getenv("RR_GAP_US") ? atoi(getenv("RR_GAP_US")) : 0;
	sleeper = getenv("RR_SLEEPER") ? atoi(getenv("RR_SLEEPER")) : 0;
	if (conns < 1 || conns > MAXC || size < 1 || size > BUFSZ)
		return 2;
	if (getaddrinfo(argv[2], argv[3], &hints, &ai))
		die("getaddrinfo");
	for (i = 0; i < conns; i++) {
		fds[i] = socket(ai->ai_family, SOCK_STREAM, 0);
		setsockopt(fds[i], IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
		if (connect(fds[i], ai->ai_addr, ai->ai_addrlen))
			die("connect");
	}
	/* every worker of the server is in its loop */
	for (i = 0; i < conns; i++)
		if (read(fds[i], buf, 1) != 1)
			die("client read go");
	/*
	 * A worker writes its go byte before it adds the connections to its
	 * epoll set: the first request must wait, like every other, until the
	 * worker is asleep in its wait, or it finds the worker busy.
	 */
	if (sleeper)
		wait_asleep(sleeper);
	memset(buf, 'q', sizeof(buf));
	for (i = 0; i < n; i += burst ? conns : 1) {
		int k, m = burst ? conns : 1;

		/* burst: a request on every connection, then the responses */
		for (k = 0; k < m && i + k < n; k++)
			if (write(fds[(i + k) % conns], buf, size) != size)
				die("client write");
		for (k = 0; k < m && i + k < n; k++) {
			int c = fds[(i + k) % conns], got = 0;

			while (got < size) {
				ssize_t r = read(c, buf, size - got);

				if (r <= 0)
					die("client read");
				got += r;
			}
		}
		if (gap)
			usleep(gap);
		if (sleeper)
			wait_asleep(sleeper);
	}
	printf("requests=%d lports=", n);
	for (i = 0; i < conns; i++) {
		struct sockaddr_storage ss;
		socklen_t l = sizeof(ss);

		getsockname(fds[i], (struct sockaddr *)&ss, &l);
		printf("%s%d", i ? "," : "",
		       ntohs(((struct sockaddr_in *)&ss)->sin_port));
		close(fds[i]);
	}
	printf("\n");
	return 0;
}

static int hog(int argc, char **argv)
{
	long long on, off, end;
	cpu_set_t set;

	if (argc < 6)
		return 2;
	CPU_ZERO(&set);
	CPU_SET(atoi(argv[2]), &set);
	if (sched_setaffinity(0, sizeof(set), &set))
		die("sched_setaffinity");
	on = atoll(argv[3]) * 1000;
	off = atoll(argv[4]) * 1000;
	end = now_ns() + atoll(argv[5]) * 1000000000LL;
	while (now_ns() < end) {
		struct timespec ts = { off / 1000000000, off % 1000000000 };

		spin(on);
		nanosleep(&ts, NULL);
	}
	return 0;
}

int main(int argc, char **argv)
{
	int r = 2;

	if (argc > 1 && !strcmp(argv[1], "server"))
		r = server(argc, argv);
	else if (argc > 1 && !strcmp(argv[1], "client"))
		r = client(argc, argv);
	else if (argc > 1 && !strcmp(argv[1], "hog"))
		r = hog(argc, argv);
	if (r == 2)
		fprintf(stderr, "usage: see the comment at the top of sl-rrserver.c\n");
	return r;
}
