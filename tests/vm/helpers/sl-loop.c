// SPDX-License-Identifier: GPL-2.0
/*
 * sl-loop: tight loops of one real operation, for the bench.
 *
 *   sl-loop udp N        N request/response rounds of 64 bytes over UDP on
 *                        127.0.0.1 (a server thread echoes): per round two
 *                        datagrams go down net_tx and up net_rx.  Both
 *                        threads are pinned to CPU 0: a round is then two
 *                        local wakeups, not a cross-CPU hand-off (which
 *                        under emulation costs far more than the stack)
 *   sl-loop pread FILE N N pread(2)s of 4 KiB at offset 0 of FILE (page
 *                        cache hits: syscall, VFS and filesystem, no I/O)
 *
 * Prints one line: ops=<N> ns_per_op=<wall time per operation>
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

static void die(const char *what)
{
	fprintf(stderr, "sl-loop: %s: %s\n", what, strerror(errno));
	exit(1);
}

static unsigned long n_ops;
static int srv_fd;

static void *echo(void *arg)
{
	char buf[64];
	struct sockaddr_in peer;
	socklen_t len;
	unsigned long i;

	(void)arg;
	for (i = 0; i < n_ops; i++) {
		len = sizeof(peer);
		if (recvfrom(srv_fd, buf, sizeof(buf), 0,
			     (struct sockaddr *)&peer, &len) != sizeof(buf))
			die("server recvfrom");
		if (sendto(srv_fd, buf, sizeof(buf), 0,
			   (struct sockaddr *)&peer, len) != sizeof(buf))
			die("server sendto");
	}
	return NULL;
}

static double udp_rr(void)
{
	struct sockaddr_in a = { .sin_family = AF_INET };
	socklen_t len = sizeof(a);
	char buf[64] = { 0 };
	pthread_t t;
	cpu_set_t cpu0;
	unsigned long i;
	double t0, t1;
	int c;

	CPU_ZERO(&cpu0);
	CPU_SET(0, &cpu0);
	if (sched_setaffinity(0, sizeof(cpu0), &cpu0))
		die("sched_setaffinity");
	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	srv_fd = socket(AF_INET, SOCK_DGRAM, 0);
	c = socket(AF_INET, SOCK_DGRAM, 0);
	if (srv_fd < 0 || c < 0)
		die("socket");
	if (bind(srv_fd, (struct sockaddr *)&a, sizeof(a)) ||
	    getsockname(srv_fd, (struct sockaddr *)&a, &len) ||
	    connect(c, (struct sockaddr *)&a, sizeof(a)))
		die("bind/connect");
	pthread_create(&t, NULL, echo, NULL);
	t0 = now();
	for (i = 0; i < n_ops; i++) {
		if (send(c, buf, sizeof(buf), 0) != sizeof(buf))
			die("send");
		if (recv(c, buf, sizeof(buf), 0) != sizeof(buf))
			die("recv");
	}
	t1 = now();
	pthread_join(t, NULL);
	return t1 - t0;
}

static double pread_loop(const char *file)
{
	static char buf[4096];
	unsigned long i;
	double t0, t1;
	int fd = open(file, O_RDONLY);

	if (fd < 0)
		die(file);
	if (pread(fd, buf, sizeof(buf), 0) < 0)
		die("pread");
	t0 = now();
	for (i = 0; i < n_ops; i++)
		if (pread(fd, buf, sizeof(buf), 0) < 0)
			die("pread");
	t1 = now();
	close(fd);
	return t1 - t0;
}

int main(int argc, char **argv)
{
	double ns;

	if (argc == 3 && !strcmp(argv[1], "udp")) {
		n_ops = strtoul(argv[2], NULL, 0);
		ns = udp_rr();
	} else if (argc == 4 && !strcmp(argv[1], "pread")) {
		n_ops = strtoul(argv[3], NULL, 0);
		ns = pread_loop(argv[2]);
	} else {
		fprintf(stderr, "usage: sl-loop udp N | sl-loop pread FILE N\n");
		return 2;
	}
	if (!n_ops)
		return 2;
	printf("ops=%lu ns_per_op=%.1f\n", n_ops, ns / (double)n_ops);
	return 0;
}
