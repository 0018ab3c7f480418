/*
 * io.c - loading results files and atomic output (see io.h).
 */
#include "report/io.h"

#include "report/gotext_read.h"
#include "report/json_read.h"

#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The whole of f into a new buffer (*len bytes).  NULL with errno set. */
static char *read_all(FILE *f, size_t *len)
{
	size_t cap = 1 << 16, n = 0;
	char *buf = malloc(cap);

	while (buf != NULL) {
		size_t got = fread(buf + n, 1, cap - n, f);
		n += got;
		if (got == 0)
			break;
		if (n == cap) {
			char *grown;
			if (cap >= REPORT_MAX_INPUT) {
				free(buf);
				errno = EFBIG;
				return NULL;
			}
			grown = realloc(buf, cap * 2);
			if (grown == NULL)
				free(buf);
			buf = grown;
			cap *= 2;
		}
	}
	if (buf != NULL && ferror(f)) {
		int saved = errno ? errno : EIO;
		free(buf);
		errno = saved;
		return NULL;
	}
	*len = n;
	return buf;
}

/* 1 when path names a journal (json.h): it ends with ".journal". */
static int is_journal(const char *path)
{
	size_t n = strlen(path);

	return n > 8 && strcmp(path + n - 8, ".journal") == 0;
}

static int load_file(const char *path, struct results *res, char *err,
		     size_t errsize);

int report_load(const char *path, struct results *res, char *err,
		size_t errsize)
{
	char journal[4096];

	/* a journal beside the file: the run writing it never ended, and
	   the journal holds what it finished (the file, if any, is older) */
	if (strcmp(path, "-") != 0 && !is_journal(path) &&
	    snprintf(journal, sizeof(journal), "%s.journal", path) <
		    (int)sizeof(journal) &&
	    access(journal, F_OK) == 0) {
		fprintf(stderr, "rxbench: %s: the run writing it did not finish; "
			"reading what it finished from %s\n", path, journal);
		return load_file(journal, res, err, errsize);
	}
	return load_file(path, res, err, errsize);
}

static int load_file(const char *path, struct results *res, char *err,
		     size_t errsize)
{
	int is_stdin = strcmp(path, "-") == 0;
	FILE *f = is_stdin ? stdin : fopen(path, "r");
	const char *name = is_stdin ? "<stdin>" : path;
	char *buf = NULL;
	size_t len = 0, i = 0;
	int rc = -1;

	if (f == NULL) {
		snprintf(err, errsize, "%s: %s", name, strerror(errno));
		return -1;
	}
	errno = 0;
	buf = read_all(f, &len);
	if (buf == NULL) {
		snprintf(err, errsize, "%s: %s", name,
			 errno == EFBIG ? "larger than 256 MiB"
			 : errno == EISDIR ? "is a directory"
					   : strerror(errno));
		goto out;
	}
	while (i < len && (buf[i] == ' ' || buf[i] == '\t' || buf[i] == '\n' ||
			   buf[i] == '\r'))
		i++;
	if (i < len && buf[i] == '{' && is_journal(path))
		rc = json_read_journal(buf, len, name, res, err, errsize);
	else if (i < len && buf[i] == '{')
		rc = json_read_results(buf, len, name, res, err, errsize);
	else
		rc = gotext_read_results(buf, len, name, res, err, errsize);
	if (rc == 0 && res->n == 0) {
		snprintf(err, errsize, "%s: no benchmark results in it", name);
		rc = -1;
	}
out:
	free(buf);
	if (!is_stdin)
		fclose(f);
	return rc;
}

/*
 * A new file at tmp for writing: created here (O_EXCL, so never a
 * symlink or a file someone else has open), after removing a leftover
 * of a process that had this pid and was killed while writing.
 */
static FILE *create_tmp(const char *tmp)
{
	int fd;
	FILE *f;

	unlink(tmp);
	fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
	if (fd < 0)
		return NULL;
	f = fdopen(fd, "w");
	if (f == NULL) {
		close(fd);
		unlink(tmp);
	}
	return f;
}

/* Flush the directory holding path, so the rename survives a crash. */
static void sync_dir(const char *path)
{
	const char *slash = strrchr(path, '/');
	char dir[4096];
	int fd;

	if (slash == NULL)
		snprintf(dir, sizeof(dir), ".");
	else
		snprintf(dir, sizeof(dir), "%.*s", (int)(slash - path + 1), path);
	fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd >= 0) {
		fsync(fd);
		close(fd);
	}
}

/*
 * Write straight into path: standard output ("-"), or something that is
 * not a regular file (/dev/stdout, a FIFO), which a rename would replace.
 */
static int save_direct(const char *path, report_write_fn write,
		       const void *arg)
{
	FILE *f = strcmp(path, "-") == 0 ? stdout : fopen(path, "w");
	int rc;

	if (f == NULL)
		return -1;
	rc = write(f, arg);
	if (fflush(f) != 0)
		rc = -1;
	if (f != stdout && fclose(f) != 0)
		rc = -1;
	return rc;
}

int report_save_atomic(const char *path, report_write_fn write,
		       const void *arg)
{
	size_t len = strlen(path) + 32;
	struct stat st;
	char *tmp;
	FILE *f;
	int rc = -1, saved;

	if (strcmp(path, "-") == 0 ||
	    (stat(path, &st) == 0 && !S_ISREG(st.st_mode) &&
	     !S_ISDIR(st.st_mode)))
		return save_direct(path, write, arg);
	tmp = malloc(len);
	if (tmp == NULL)
		return -1;
	snprintf(tmp, len, "%s.tmp.%ld", path, (long)getpid());
	f = create_tmp(tmp);
	if (f == NULL)
		goto out;
	rc = write(f, arg);
	if (fflush(f) != 0 || fsync(fileno(f)) != 0)
		rc = -1;
	if (fclose(f) != 0)
		rc = -1;
	if (rc == 0 && rename(tmp, path) != 0)
		rc = -1;
	if (rc == 0)
		sync_dir(path);
	if (rc != 0) {
		saved = errno;
		unlink(tmp);
		errno = saved;
	}
out:
	free(tmp);
	return rc;
}
