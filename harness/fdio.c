/*
 * fdio.c - whole reads and writes on a descriptor (see fdio.h).
 */
#define _GNU_SOURCE
#include "harness/fdio.h"

#include <errno.h>
#include <sys/socket.h>
#include <sys/types.h>
#include <unistd.h>

/* One write of p[0..n): send() on a socket, write() on anything else. */
static ssize_t write_some(int fd, const unsigned char *p, size_t n,
			  int *not_socket)
{
	ssize_t w;

	if (!*not_socket) {
		w = send(fd, p, n, MSG_NOSIGNAL);
		if (w >= 0 || errno != ENOTSOCK)
			return w;
		*not_socket = 1;
	}
	return write(fd, p, n);
}

int fdio_write_all(int fd, const void *buf, size_t n)
{
	const unsigned char *p = buf;
	int not_socket = 0;

	while (n > 0) {
		ssize_t w = write_some(fd, p, n, &not_socket);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return -1;
		p += w;
		n -= (size_t)w;
	}
	return 0;
}

int fdio_read_all(int fd, void *buf, size_t n)
{
	unsigned char *p = buf;

	while (n > 0) {
		ssize_t r = read(fd, p, n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return -1;
		p += r;
		n -= (size_t)r;
	}
	return 0;
}
