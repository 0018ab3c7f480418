/*
 * file.c - whole-file reader and line splitter (see file.h).
 */
#define _GNU_SOURCE
#include "corpora/file.h"

#include "engines/pattern.h" /* engine_utf8_invalid */

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Corpora larger than this are refused rather than swapping. */
#define CORPUS_MAX_BYTES (4ull << 30)

static int read_all(int fd, struct corpus *c, size_t hint)
{
	size_t cap = hint + 1, len = 0;
	char *buf = malloc(cap);

	if (buf == NULL)
		return -1;
	for (;;) {
		ssize_t got;
		if (len + 1 == cap) {
			char *grown;
			if (cap > CORPUS_MAX_BYTES) {
				errno = EFBIG;
				goto fail;
			}
			grown = realloc(buf, cap * 2);
			if (grown == NULL)
				goto fail;
			buf = grown;
			cap *= 2;
		}
		got = read(fd, buf + len, cap - 1 - len);
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0)
			goto fail;
		if (got == 0)
			break;
		len += (size_t)got;
	}
	buf[len] = '\0';
	c->data = buf;
	c->len = len;
	return 0;
fail:
	free(buf);
	return -1;
}

int corpus_load_file(struct corpus *c, const char *path, char *err,
		     size_t errsize)
{
	struct stat st;
	int fd, rc = -1;

	c->data = NULL;
	c->len = 0;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		snprintf(err, errsize, "%s: %s", path, strerror(errno));
		return -1;
	}
	if (fstat(fd, &st) != 0) {
		snprintf(err, errsize, "%s: %s", path, strerror(errno));
		goto out;
	}
	if (S_ISDIR(st.st_mode)) {
		snprintf(err, errsize, "%s: is a directory, not a file", path);
		goto out;
	}
	if ((unsigned long long)st.st_size > CORPUS_MAX_BYTES) {
		snprintf(err, errsize, "%s: larger than %llu bytes", path,
			 CORPUS_MAX_BYTES);
		goto out;
	}
	if (read_all(fd, c, S_ISREG(st.st_mode) ? (size_t)st.st_size : 4096) != 0) {
		snprintf(err, errsize, "%s: %s", path, strerror(errno));
		goto out;
	}
	rc = 0;
out:
	close(fd);
	return rc;
}

void msg_escape_bytes(const char *p, size_t len, char *out, size_t size)
{
	size_t o = 0;

	if (size == 0)
		return;
	for (size_t i = 0; i < len && o + 1 < size; i++) {
		unsigned char c = (unsigned char)p[i];
		if (c >= 0x20 && c != 0x7f) {
			out[o++] = (char)c;
			continue;
		}
		if (o + 5 > size)
			break;
		snprintf(out + o, size - o, "\\x%02x", c);
		o += 4;
	}
	out[o] = '\0';
}

void msg_quote_text(const char *p, size_t len, size_t max, char *out,
		    size_t size)
{
	size_t n = len > max ? max : len, o = 0;
	int hex = engine_utf8_invalid(p, len) >= 0;

	if (size == 0)
		return;
	for (size_t i = 0; i < n && o + 5 < size; i++) {
		unsigned char c = (unsigned char)p[i];
		if (c < 0x20 || c == 0x7f || (hex && c > 0x7e))
			o += (size_t)snprintf(out + o, size - o, "\\x%02x", c);
		else
			out[o++] = (char)c;
	}
	snprintf(out + o, size - o, "%s", len > max ? "..." : "");
}

void msg_escape_controls(char *msg, size_t size)
{
	char copy[1024];

	if (size == 0)
		return;
	snprintf(copy, sizeof(copy), "%s", msg);
	msg_escape_bytes(copy, strlen(copy), msg, size);
}

void corpus_release(struct corpus *c)
{
	free(c->data);
	c->data = NULL;
	c->len = 0;
}

/* Split at '\n'; keep_cr: a '\r' before it stays part of the line. */
static long lines_split(const struct corpus *c, struct line **out,
			int keep_cr)
{
	size_t n = 0, cap = 64;
	struct line *v = malloc(cap * sizeof(*v));
	const char *p = c->data, *end = c->data + c->len;

	if (v == NULL)
		return -1;
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t len = nl ? (size_t)(nl - p) : (size_t)(end - p);
		if (n == cap) {
			struct line *grown = realloc(v, cap * 2 * sizeof(*v));
			if (grown == NULL) {
				free(v);
				return -1;
			}
			v = grown;
			cap *= 2;
		}
		v[n].p = p;
		v[n].len = (!keep_cr && len > 0 && p[len - 1] == '\r') ? len - 1
								      : len;
		n++;
		p += len + (nl != NULL);
	}
	*out = v;
	return (long)n;
}

long corpus_lines(const struct corpus *c, struct line **out)
{
	return lines_split(c, out, 0);
}

long corpus_lines_exact(const struct corpus *c, struct line **out)
{
	return lines_split(c, out, 1);
}
