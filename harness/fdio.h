/*
 * fdio.h - whole reads and writes on a file descriptor: a pipe or a
 * socket, through EINTR and short transfers.
 */
#ifndef RXB_FDIO_H
#define RXB_FDIO_H

#include <stddef.h>

/*
 * Write p[0..n) to fd.  A socket is written with MSG_NOSIGNAL, so a peer
 * gone is an error here rather than SIGPIPE; a pipe with write().
 * 0, or -1 when fd failed or no longer takes bytes.
 */
int fdio_write_all(int fd, const void *p, size_t n);

/* Read exactly n bytes into p.  0, or -1 on an error or at EOF first. */
int fdio_read_all(int fd, void *p, size_t n);

#endif
