/*
 * file.h - reading user files whole, with errors that name the file.
 */
#ifndef RXB_FILE_H
#define RXB_FILE_H

#include <stddef.h>

/* A byte buffer; data is NUL-terminated past len for convenience. */
struct corpus {
	char *data;
	size_t len;
};

/*
 * Read all of `path` into c.  0, or -1 with a one-line message in err
 * naming the file and the reason (missing, a directory, unreadable, too
 * big).  An empty file is valid (len 0).  Release with corpus_release().
 */
int corpus_load_file(struct corpus *c, const char *path, char *err,
		     size_t errsize);
void corpus_release(struct corpus *c);

/* A line of a corpus, without its '\n' (and without a '\r' before it). */
struct line {
	const char *p;
	size_t len;
};

/*
 * Split c into lines (a last line without '\n' counts).  Returns the
 * number of lines and a malloc'd array in *out, or -1 out of memory.
 */
long corpus_lines(const struct corpus *c, struct line **out);

/*
 * The same, but a '\r' before '\n' stays in the line, as GNU grep keeps
 * it: the lines a grep model matches.
 */
long corpus_lines_exact(const struct corpus *c, struct line **out);

/*
 * Make a message that quotes bytes from a user's file safe to print as
 * one line: each control byte (a newline from a JSON or YAML string, an
 * escape sequence for the terminal) becomes "\xNN".  In place in the
 * NUL-terminated msg of `size` bytes; the end is cut when it no longer
 * fits.  Every reader's error formatter calls it.
 */
void msg_escape_controls(char *msg, size_t size);

/*
 * The same for bytes p[0..len) that may hold NUL (a query name), into
 * out[0..size), NUL-terminated; cut when it no longer fits.
 */
void msg_escape_bytes(const char *p, size_t len, char *out, size_t size);

/*
 * Up to max bytes of a user's text p[0..len) (a pattern, a selector) for
 * a message, into out[0..size), "..." after a longer one: control bytes
 * as "\xNN", and when p is not UTF-8 each byte above 0x7e too, so the
 * line is valid text that names the bytes (0xe9 of a Latin-1 "café"
 * printed raw was a replacement character); UTF-8 stays as it is.
 */
void msg_quote_text(const char *p, size_t len, size_t max, char *out,
		    size_t size);

#endif
