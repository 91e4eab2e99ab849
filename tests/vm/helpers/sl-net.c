// SPDX-License-Identifier: GPL-2.0
/*
 * sl-net: an exact number of TCP and UDP sends and receives, for the
 * nettop pipeline (issue 29, "top net").  Every socket call is counted by
 * the helper itself (calls, bytes returned): that is the ground truth.
 *
 *   sl-net server ADDR TPORT UPORT BYTES K OUT QUIT
 *       listens on TCP ADDR:TPORT, binds UDP ADDR:UPORT, writes "ready
 *       PID" to OUT; accepts one connection, recv(2)s until BYTES bytes
 *       came, reads TCP_INFO's tcpi_bytes_received (before any FIN), sends
 *       one byte back, recv(2)s until end of file; then recvfrom(2)s K
 *       datagrams.  Writes "done PID TRECVS TRBYTES TSENDS TSBYTES URECVS
 *       URBYTES TCPI_BYTES_RECEIVED TPEERPORT UPEERPORT" to OUT and waits
 *       for the file QUIT before it exits.
 *   sl-net client ADDR TPORT UPORT N M K L OUT QUIT
 *       connects to TCP ADDR:TPORT, send(2)s N x M bytes (a short send
 *       goes on with the rest: every call counted), recv(2)s the server's
 *       byte, reads TCP_INFO's tcpi_bytes_sent - tcpi_bytes_retrans,
 *       closes; sendto(2)s K datagrams of L bytes to UDP ADDR:UPORT from
 *       an unconnected socket.  Writes "done PID TSENDS TSBYTES TRECVS
 *       TRBYTES USENDS USBYTES TCPI_BYTES_SENT TLPORT ULPORT" to OUT and
 *       waits for QUIT.
 * ADDR is IPv4 or IPv6 (has a ':').  OUT is written with write(2).
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/tcp.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

static void die(const char *what)
{
	fprintf(stderr, "sl-net: %s: %s\n", what, strerror(errno));
	exit(1);
}

static void wait_file(const char *f)
{
	struct timespec ts = { 0, 20 * 1000 * 1000 };

	while (access(f, F_OK))
		nanosleep(&ts, NULL);
}

static void say(const char *out, const char *line)
{
	int fd = open(out, O_WRONLY | O_CREAT | O_APPEND, 0644);
	size_t n = strlen(line);

	if (fd < 0 || write(fd, line, n) != (ssize_t)n)
		die("OUT");
	close(fd);
}

static socklen_t addr(const char *a, const char *port,
		      struct sockaddr_storage *ss)
{
	struct sockaddr_in6 *s6 = (struct sockaddr_in6 *)ss;
	struct sockaddr_in *s4 = (struct sockaddr_in *)ss;

	memset(ss, 0, sizeof(*ss));
	if (strchr(a, ':')) {
		s6->sin6_family = AF_INET6;
		s6->sin6_port = htons((unsigned short)atoi(port));
		if (inet_pton(AF_INET6, a, &s6->sin6_addr) != 1)
			die("ADDR");
		return sizeof(*s6);
	}
	s4->sin_family = AF_INET;
	s4->sin_port = htons((unsigned short)atoi(port));
	if (inet_pton(AF_INET, a, &s4->sin_addr) != 1)
		die("ADDR");
	return sizeof(*s4);
}

static unsigned int port_of(const struct sockaddr_storage *ss)
{
	if (ss->ss_family == AF_INET6)
		return ntohs(((const struct sockaddr_in6 *)ss)->sin6_port);
	return ntohs(((const struct sockaddr_in *)ss)->sin_port);
}

static unsigned int local_port(int fd)
{
	struct sockaddr_storage ss;
	socklen_t len = sizeof(ss);

	if (getsockname(fd, (struct sockaddr *)&ss, &len))
		die("getsockname");
	return port_of(&ss);
}

static struct tcp_info info(int fd)
{
	struct tcp_info ti;
	socklen_t len = sizeof(ti);

	memset(&ti, 0, sizeof(ti));
	if (getsockopt(fd, IPPROTO_TCP, TCP_INFO, &ti, &len))
		die("TCP_INFO");
	return ti;
}

static char buf[65536];

static int server(char **v)
{
	long long want = atoll(v[3]), k = atoll(v[4]), i, got = 0;
	long long trecvs = 0, tsends = 0, tsbytes = 0, urecvs = 0, urbytes = 0;
	struct sockaddr_storage ss, peer;
	socklen_t len = addr(v[0], v[1], &ss), plen;
	unsigned int tpeer, upeer = 0;
	int l, u, c, one = 1;
	struct tcp_info ti;
	char line[256];
	ssize_t n;

	l = socket(ss.ss_family, SOCK_STREAM, 0);
	if (l < 0 || setsockopt(l, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one)) ||
	    bind(l, (struct sockaddr *)&ss, len) || listen(l, 1))
		die("TCP listen");
	len = addr(v[0], v[2], &ss);
	u = socket(ss.ss_family, SOCK_DGRAM, 0);
	if (u < 0 || bind(u, (struct sockaddr *)&ss, len))
		die("UDP bind");
	snprintf(line, sizeof(line), "ready %d\n", getpid());
	say(v[5], line);
	plen = sizeof(peer);
	c = accept(l, (struct sockaddr *)&peer, &plen);
	if (c < 0)
		die("accept");
	tpeer = port_of(&peer);
	while (got < want) {
		n = recv(c, buf, sizeof(buf), 0);
		trecvs++;
		if (n <= 0)
			die("recv (short)");
		got += n;
	}
	ti = info(c);
	n = send(c, "x", 1, 0);
	tsends++;
	if (n != 1)
		die("send");
	tsbytes += n;
	do {
		n = recv(c, buf, sizeof(buf), 0);
		trecvs++;
		if (n < 0)
			die("recv");
		got += n;
	} while (n > 0);
	close(c);
	close(l);
	for (i = 0; i < k; i++) {
		plen = sizeof(peer);
		n = recvfrom(u, buf, sizeof(buf), 0, (struct sockaddr *)&peer,
			     &plen);
		urecvs++;
		if (n < 0)
			die("recvfrom");
		urbytes += n;
		upeer = port_of(&peer);
	}
	snprintf(line, sizeof(line), "done %d %lld %lld %lld %lld %lld %lld %llu %u %u\n",
		 getpid(), trecvs, got, tsends, tsbytes, urecvs, urbytes,
		 (unsigned long long)ti.tcpi_bytes_received, tpeer, upeer);
	say(v[5], line);
	wait_file(v[6]);
	return 0;
}

static int client(char **v)
{
	long long nn = atoll(v[3]), m = atoll(v[4]), k = atoll(v[5]);
	long long l = atoll(v[6]), i, left;
	long long tsends = 0, tsbytes = 0, trecvs = 0, trbytes = 0;
	long long usends = 0, usbytes = 0;
	struct sockaddr_storage ss;
	socklen_t len = addr(v[0], v[1], &ss);
	unsigned int tl, ul = 0;
	struct tcp_info ti;
	char line[256];
	ssize_t n;
	int c, u;

	if (m <= 0 || m > (long long)sizeof(buf) || l <= 0 ||
	    l > (long long)sizeof(buf))
		return 2;
	memset(buf, 'n', sizeof(buf));
	c = socket(ss.ss_family, SOCK_STREAM, 0);
	if (c < 0 || connect(c, (struct sockaddr *)&ss, len))
		die("connect");
	tl = local_port(c);
	for (i = 0; i < nn; i++) {
		for (left = m; left > 0; left -= n) {
			n = send(c, buf, (size_t)left, 0);
			tsends++;
			if (n <= 0)
				die("send");
			tsbytes += n;
		}
	}
	n = recv(c, buf, 1, 0);
	trecvs++;
	if (n < 0)
		die("recv");
	trbytes += n;
	if (trbytes != 1)
		die("recv: no byte back");
	ti = info(c);
	close(c);
	len = addr(v[0], v[2], &ss);
	u = socket(ss.ss_family, SOCK_DGRAM, 0);
	if (u < 0)
		die("UDP socket");
	for (i = 0; i < k; i++) {
		n = sendto(u, buf, (size_t)l, 0, (struct sockaddr *)&ss, len);
		usends++;
		if (n != l)
			die("sendto");
		usbytes += n;
		if (!i)
			ul = local_port(u);
	}
	snprintf(line, sizeof(line), "done %d %lld %lld %lld %lld %lld %lld %llu %u %u\n",
		 getpid(), tsends, tsbytes, trecvs, trbytes, usends, usbytes,
		 (unsigned long long)(ti.tcpi_bytes_sent - ti.tcpi_bytes_retrans),
		 tl, ul);
	say(v[7], line);
	wait_file(v[8]);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 9 && !strcmp(argv[1], "server"))
		return server(argv + 2);
	if (argc == 11 && !strcmp(argv[1], "client"))
		return client(argv + 2);
	fprintf(stderr, "usage: sl-net server ADDR TPORT UPORT BYTES K OUT QUIT\n"
		"       sl-net client ADDR TPORT UPORT N M K L OUT QUIT\n");
	return 2;
}
