/*
 * runner.c - the client side of the runner protocol (engines/runner.h):
 * starting a runner per process, framing requests and replies, and the
 * engine ops every runner adapter shares.
 *
 * Build options: RXB_RUNNER_DIR, the build directory's runners/ (where
 * CMake puts the runner programs), the fallback when no runners/ sits
 * beside the running binary.  Linux only (PR_SET_PDEATHSIG, /proc).
 */
#define _GNU_SOURCE
#include "engines/runner.h"

#include "harness/fdio.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#ifndef RXB_RUNNER_DIR
#define RXB_RUNNER_DIR "runners"
#endif

#define RUNNER_MAX_DEFS 8
#define RUNNER_MAX_MSG (1u << 30)

/* A runner started by this process. */
struct runner_conn {
	const struct runner_def *def;
	pid_t owner;          /* the process that started it */
	pid_t child;          /* 0: none */
	int fd;               /* our end of the socket */
	unsigned long serial; /* which start of the runner this is */
};

/* A compiled set: what the handle of a runner engine is. */
struct runner_set {
	const struct runner_def *def;
	uint32_t id;
	unsigned flags;
	size_t n;
	struct engine_span *pat; /* copies */
	pid_t pid;                /* compiled in the runner of (pid, serial) */
	unsigned long serial;
	struct runner_job *jobs;  /* runner_add_work()'s, owned */
	int world;                /* runner_world_new()'s */
	struct runner_msg *load;  /* a world's: its request, once loaded */
	int load_reply;           /* and the reply's type */
};

/* A copy of a work, owned by the set it was added to. */
struct runner_job {
	struct engine_job base; /* first: the job engine_job's users see */
	struct runner_job *next;
	struct runner_set *owner;
	struct engine_work w;   /* arrays owned */
	struct runner_msg *req; /* runner_add_request()'s, owned; else 'W' */
};

static struct runner_conn conns[RUNNER_MAX_DEFS];
static unsigned long next_serial;
static uint32_t next_id;

/* --- messages -------------------------------------------------------- */

static void msg_put(struct runner_msg *m, const void *p, size_t n)
{
	if (m->oom || n == 0)
		return;
	if (m->n + n > m->cap) {
		size_t cap = m->cap ? m->cap : 256;
		unsigned char *g;
		while (cap < m->n + n)
			cap *= 2;
		g = realloc(m->p, cap);
		if (g == NULL) {
			m->oom = 1;
			return;
		}
		m->p = g;
		m->cap = cap;
	}
	memcpy(m->p + m->n, p, n);
	m->n += n;
}

static void msg_u8(struct runner_msg *m, unsigned v)
{
	unsigned char b = (unsigned char)v;
	msg_put(m, &b, 1);
}

static void msg_u32(struct runner_msg *m, uint32_t v)
{
	unsigned char b[4];
	for (int i = 0; i < 4; i++)
		b[i] = (unsigned char)(v >> (8 * i));
	msg_put(m, b, 4);
}

static void msg_u64(struct runner_msg *m, uint64_t v)
{
	msg_u32(m, (uint32_t)v);
	msg_u32(m, (uint32_t)(v >> 32));
}

static void msg_bytes(struct runner_msg *m, const char *p, size_t n)
{
	if (n > RUNNER_MAX_MSG) {
		m->oom = 1;
		return;
	}
	msg_u32(m, (uint32_t)n);
	msg_put(m, p, n);
}

/* Reading a reply: a short one sets m->oom (malformed). */
static const unsigned char *msg_take(struct runner_msg *m, size_t n)
{
	const unsigned char *p = m->p + m->at;

	if (m->oom || n > m->n - m->at) {
		m->oom = 1;
		return NULL;
	}
	m->at += n;
	return p;
}

static uint64_t msg_get(struct runner_msg *m, int bytes)
{
	const unsigned char *p = msg_take(m, (size_t)bytes);
	uint64_t v = 0;

	for (int i = bytes - 1; p != NULL && i >= 0; i--)
		v = v << 8 | p[i];
	return v;
}

static double msg_f64(struct runner_msg *m)
{
	uint64_t bits = msg_get(m, 8);
	double d;

	memcpy(&d, &bits, sizeof(d));
	return d;
}

static const char *msg_get_bytes(struct runner_msg *m, size_t *len)
{
	*len = (size_t)msg_get(m, 4);
	return (const char *)msg_take(m, *len);
}

/* --- the process ----------------------------------------------------- */

/* The runner's path into buf: beside this binary, else the build's. */
static void runner_path(const struct runner_def *def, char *buf, size_t size)
{
	char self[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	char *slash;

	if (n > 0) {
		self[n] = '\0';
		slash = strrchr(self, '/');
		if (slash != NULL) {
			*slash = '\0';
			snprintf(buf, size, "%s/runners/%s", self, def->program);
			if (access(buf, R_OK) == 0)
				return;
		}
	}
	snprintf(buf, size, "%s/%s", RXB_RUNNER_DIR, def->program);
}

/* In the child: become the runner (stdin and stdout on fd), or exit 127. */
static void runner_exec(const struct runner_def *def, int fd, pid_t parent)
{
	char path[PATH_MAX + 64];

	/* dies with the process that started it (a killed measuring child) */
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() != parent)
		_exit(127);
	if (dup2(fd, 0) < 0 || dup2(fd, 1) < 0)
		_exit(127);
	runner_path(def, path, sizeof(path));
	if (def->interp != NULL)
		execl(def->interp, def->interp, path, (char *)NULL);
	else
		execl(path, path, (char *)NULL);
	fprintf(stderr, "rxbench: runner %s: cannot run %s: %s\n", def->name,
		path, strerror(errno));
	_exit(127);
}

static void conn_close(struct runner_conn *c)
{
	if (c->child > 0) {
		close(c->fd);
		if (c->owner == getpid()) /* EOF ends it; reap it */
			waitpid(c->child, NULL, 0);
	}
	c->child = 0;
	c->fd = -1;
}

/* This process's runner for def, started when it has none.  NULL when it
 * cannot start (why filled). */
static struct runner_conn *conn_get(const struct runner_def *def, char *why,
				    size_t size)
{
	struct runner_conn *c = NULL;
	int sv[2];
	pid_t self = getpid(), pid;

	for (size_t i = 0; i < RUNNER_MAX_DEFS && c == NULL; i++)
		if (conns[i].def == def || conns[i].def == NULL)
			c = &conns[i];
	if (c == NULL) {
		snprintf(why, size, "too many runners");
		return NULL;
	}
	c->def = def;
	if (c->child > 0 && c->owner != self)
		conn_close(c); /* the parent's: not ours to talk to */
	if (c->child > 0)
		return c;
	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) != 0) {
		snprintf(why, size, "socketpair: %s", strerror(errno));
		return NULL;
	}
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		snprintf(why, size, "fork: %s", strerror(errno));
		close(sv[0]);
		close(sv[1]);
		return NULL;
	}
	if (pid == 0)
		runner_exec(def, sv[1], self);
	close(sv[1]);
	*c = (struct runner_conn){def, self, pid, sv[0], ++next_serial};
	return c;
}

/*
 * Send request m and read the reply into m (reset for reading).  0, or
 * STATUS_CRASHED when the runner is gone or its reply is malformed: it is
 * then stopped, and why says so.
 */
static int conn_call(struct runner_conn *c, struct runner_msg *m, char *why,
		     size_t size)
{
	unsigned char hdr[4];
	uint32_t len;

	if (m->oom) {
		snprintf(why, size, "out of memory for a request");
		return ENGINE_ERR_NOMEM;
	}
	for (int i = 0; i < 4; i++)
		hdr[i] = (unsigned char)(m->n >> (8 * i));
	if (fdio_write_all(c->fd, hdr, 4) != 0 || fdio_write_all(c->fd, m->p, m->n) != 0 ||
	    fdio_read_all(c->fd, hdr, 4) != 0)
		goto dead;
	len = (uint32_t)hdr[0] | (uint32_t)hdr[1] << 8 |
	      (uint32_t)hdr[2] << 16 | (uint32_t)hdr[3] << 24;
	if (len == 0 || len > RUNNER_MAX_MSG)
		goto dead;
	m->n = 0;
	m->at = 1;
	if (m->cap < len) {
		unsigned char *g = realloc(m->p, len);
		if (g == NULL)
			goto dead;
		m->p = g;
		m->cap = len;
	}
	if (fdio_read_all(c->fd, m->p, len) != 0)
		goto dead;
	m->n = len;
	return 0;
dead:
	snprintf(why, size, "runner %s (pid %d) exited or broke the protocol",
		 c->def->name, (int)c->child);
	conn_close(c);
	return STATUS_CRASHED;
}

/* An 'E' reply as a status, with its message in why. */
static int reply_error(struct runner_msg *m, long *pattern, char *why, size_t size)
{
	uint32_t st = (uint32_t)msg_get(m, 4);
	uint32_t pat = (uint32_t)msg_get(m, 4);
	size_t len;
	const char *text = msg_get_bytes(m, &len);

	if (pattern != NULL)
		*pattern = pat == 0xffffffffu ? -1 : (long)pat;
	snprintf(why, size, "%.*s", text ? (int)len : 0, text ? text : "");
	if (st == 1)
		return ENGINE_ERR_COMPILE;
	return st == 2 ? ENGINE_ERR_UNSUPPORTED : ENGINE_ERR_MATCH;
}

/* The reply's type: `want`, or its error status (why filled). */
static int reply_check(struct runner_msg *m, int want, long *pattern, char *why,
		       size_t size)
{
	if (m->p[0] == want)
		return 0;
	if (m->p[0] == 'E')
		return reply_error(m, pattern, why, size);
	snprintf(why, size, "unexpected reply '%c'", m->p[0]);
	return STATUS_CRASHED;
}

/* Send one request and check its reply is `want`. 0 or <0 (why). */
static int call_expect(struct runner_conn *c, struct runner_msg *m, int want,
		       char *why, size_t size)
{
	int rc = conn_call(c, m, why, size);

	return rc != 0 ? rc : reply_check(m, want, NULL, why, size);
}

/*
 * Compile s in this process's runner when it is not there yet (a world:
 * send its request).  A world's reply goes to *reply when reply is not
 * NULL, read from after its type.
 */
static int set_load(struct runner_set *s, struct runner_conn **out, long *pat,
		    char *why, size_t size, struct runner_msg *reply)
{
	struct runner_conn *c = conn_get(s->def, why, size);
	struct runner_msg m = {0};
	int rc;

	if (c == NULL)
		return STATUS_SYSTEM;
	*out = c;
	if (s->pid == c->owner && s->serial == c->serial)
		return 0;
	if (s->world) {
		if (s->load == NULL) {
			snprintf(why, size, "a world not loaded");
			return ENGINE_ERR_MATCH;
		}
		msg_put(&m, s->load->p, s->load->n);
	} else {
		msg_u8(&m, 'C');
		msg_u32(&m, s->id);
		msg_u32(&m, s->flags);
		msg_u32(&m, (uint32_t)s->n);
		for (size_t i = 0; i < s->n; i++)
			msg_bytes(&m, s->pat[i].p, s->pat[i].len);
	}
	rc = conn_call(c, &m, why, size);
	if (rc == 0)
		rc = reply_check(&m, s->world ? s->load_reply : 'K', pat, why,
				 size);
	if (rc == 0) {
		s->pid = c->owner;
		s->serial = c->serial;
	}
	if (rc == 0 && reply != NULL) {
		*reply = m;
		reply->at = 1;
		return 0;
	}
	free(m.p);
	return rc;
}

/* --- the engine ops -------------------------------------------------- */

static void msg_free(struct runner_msg *m)
{
	if (m != NULL)
		free(m->p);
	free(m);
}

static void set_free(struct runner_set *s)
{
	for (size_t i = 0; i < s->n; i++)
		free((char *)s->pat[i].p);
	free(s->pat);
	msg_free(s->load);
	while (s->jobs != NULL) {
		struct runner_job *j = s->jobs;
		s->jobs = j->next;
		free((void *)j->w.sets);
		free((void *)j->w.names);
		free((void *)j->w.inputs);
		msg_free(j->req);
		free(j);
	}
	free(s);
}

static struct runner_set *set_new(const struct runner_def *def,
				  const struct engine_pattern *pats, size_t n,
				  unsigned flags)
{
	struct runner_set *s = calloc(1, sizeof(*s));

	if (s == NULL)
		return NULL;
	s->def = def;
	s->id = ++next_id;
	s->flags = flags;
	s->pat = calloc(n ? n : 1, sizeof(*s->pat));
	if (s->pat == NULL) {
		free(s);
		return NULL;
	}
	for (; s->n < n; s->n++) {
		char *p = malloc(pats[s->n].len + 1);
		if (p == NULL) {
			set_free(s);
			return NULL;
		}
		memcpy(p, pats[s->n].re, pats[s->n].len);
		s->pat[s->n] = (struct engine_span){p, pats[s->n].len};
	}
	return s;
}

int runner_compile(const struct runner_def *def,
		   const struct engine_pattern *pats, size_t n, unsigned flags,
		   void **out, struct engine_error *err)
{
	struct runner_set *s = set_new(def, pats, n, flags);
	struct runner_conn *c;
	char why[256] = "";
	long pat = -1;
	int rc;

	if (s == NULL) {
		engine_error_set(err, ENGINE_ERR_NOMEM, -1, -1, "out of memory");
		return ENGINE_ERR_NOMEM;
	}
	rc = set_load(s, &c, &pat, why, sizeof(why), NULL);
	if (rc != 0) {
		/* a runner that cannot start or broke down is this engine's
		   failure to compile, with the reason */
		if (rc != ENGINE_ERR_COMPILE && rc != ENGINE_ERR_UNSUPPORTED)
			rc = ENGINE_ERR_COMPILE;
		engine_error_set(err, rc, pat, -1, "%s", why);
		set_free(s);
		return rc;
	}
	*out = s;
	return 0;
}

/* One 'M' request: the value, ids filled for match_ids.  <0 on error. */
static long runner_match(void *h, int op, const char *data, size_t len,
			 unsigned char *ids)
{
	struct runner_set *s = h;
	struct runner_conn *c;
	struct runner_msg m = {0};
	char why[256];
	long v;
	int rc = set_load(s, &c, NULL, why, sizeof(why), NULL);

	if (rc != 0)
		return rc;
	msg_u8(&m, 'M');
	msg_u32(&m, s->id);
	msg_u8(&m, (unsigned)op);
	msg_bytes(&m, data, len);
	rc = conn_call(c, &m, why, sizeof(why));
	if (rc == 0)
		rc = reply_check(&m, 'R', NULL, why, sizeof(why));
	if (rc != 0) {
		free(m.p);
		return rc;
	}
	v = (long)msg_get(&m, 8);
	{
		size_t n;
		const char *p = msg_get_bytes(&m, &n);
		if (ids != NULL && p != NULL && n == s->n)
			memcpy(ids, p, n);
		else if (ids != NULL)
			v = STATUS_CRASHED;
	}
	if (m.oom)
		v = STATUS_CRASHED;
	free(m.p);
	return v;
}

int runner_is_match(void *h, const char *data, size_t len)
{
	return (int)runner_match(h, ENGINE_OP_IS_MATCH, data, len, NULL);
}

long runner_count(void *h, const char *data, size_t len)
{
	return runner_match(h, ENGINE_OP_COUNT, data, len, NULL);
}

long runner_match_ids(void *h, const char *data, size_t len,
		      unsigned char *ids)
{
	return runner_match(h, ENGINE_OP_MATCH_IDS, data, len, ids);
}

size_t runner_npatterns(const void *h)
{
	return ((const struct runner_set *)h)->n;
}

/* The 'A' request of op on in[0..n) for set s. */
static void answers_msg(const struct runner_set *s, enum engine_op op,
			const struct engine_span *in, size_t n, struct runner_msg *m)
{
	msg_u8(m, 'A');
	msg_u32(m, s->id);
	msg_u8(m, (unsigned)op);
	msg_u32(m, (uint32_t)n);
	for (size_t i = 0; i < n; i++)
		msg_bytes(m, in[i].p, in[i].len);
}

/* The 'A' reply in m into values and ids.  0, or STATUS_CRASHED. */
static int answers_read(const struct runner_set *s, enum engine_op op,
			struct runner_msg *m, size_t n, long *values,
			unsigned char *ids)
{
	if (msg_get(m, 4) != n)
		return STATUS_CRASHED;
	for (size_t i = 0; i < n && !m->oom; i++) {
		size_t len;
		const char *p;
		values[i] = (long)msg_get(m, 8);
		p = msg_get_bytes(m, &len);
		if (op == ENGINE_OP_MATCH_IDS && (p == NULL || len != s->n))
			return STATUS_CRASHED;
		if (ids != NULL && op == ENGINE_OP_MATCH_IDS)
			memcpy(ids + i * s->n, p, len);
	}
	return m->oom ? STATUS_CRASHED : 0;
}

int runner_answers(void *h, enum engine_op op, const struct engine_span *in,
		   size_t n, long *values, unsigned char *ids)
{
	struct runner_set *s = h;
	struct runner_conn *c;
	struct runner_msg m = {0};
	char why[256];
	int rc = set_load(s, &c, NULL, why, sizeof(why), NULL);

	if (rc != 0)
		return rc;
	answers_msg(s, op, in, n, &m);
	rc = conn_call(c, &m, why, sizeof(why));
	if (rc == 0)
		rc = reply_check(&m, 'A', NULL, why, sizeof(why));
	if (rc == 0)
		rc = answers_read(s, op, &m, n, values, ids);
	free(m.p);
	return rc;
}

int runner_is_match_each(void *h, const struct engine_span *in, size_t n,
			 unsigned char *hit)
{
	long *v = malloc((n ? n : 1) * sizeof(*v));
	int rc = v == NULL ? ENGINE_ERR_NOMEM
			   : runner_answers(h, ENGINE_OP_IS_MATCH, in, n, v, NULL);

	for (size_t i = 0; rc == 0 && i < n; i++)
		hit[i] = v[i] != 0;
	free(v);
	return rc;
}

/* Free s in this process's runner, when it is there. */
static void set_unload(struct runner_set *s)
{
	for (size_t i = 0; i < RUNNER_MAX_DEFS; i++) {
		struct runner_conn *c = &conns[i];
		if (c->def == s->def && c->child > 0 && c->owner == getpid() &&
		    s->pid == c->owner && s->serial == c->serial) {
			struct runner_msg m = {0};
			char why[128];
			msg_u8(&m, 'F');
			msg_u32(&m, s->id);
			conn_call(c, &m, why, sizeof(why));
			free(m.p);
		}
	}
	s->pid = 0;
	s->serial = 0;
}

void runner_unload(void *h)
{
	if (h != NULL)
		set_unload(h);
}

void runner_free(void *h)
{
	if (h == NULL)
		return;
	set_unload(h); /* a set in this process's runner is freed there too */
	set_free(h);
}

const char *runner_version(const struct runner_def *def)
{
	static struct {
		const struct runner_def *def;
		char v[64];
	} cache[RUNNER_MAX_DEFS];
	size_t i = 0;
	struct runner_conn *c;
	struct runner_msg m = {0};
	char why[128];

	for (; i < RUNNER_MAX_DEFS && cache[i].def != NULL; i++)
		if (cache[i].def == def)
			return cache[i].v;
	if (i == RUNNER_MAX_DEFS)
		return "unknown";
	cache[i].def = def;
	snprintf(cache[i].v, sizeof(cache[i].v), "unknown");
	c = conn_get(def, why, sizeof(why));
	msg_u8(&m, 'H');
	if (c != NULL && conn_call(c, &m, why, sizeof(why)) == 0 &&
	    m.p[0] == 'H') {
		size_t len;
		const char *v = msg_get_bytes(&m, &len);
		if (v != NULL)
			snprintf(cache[i].v, sizeof(cache[i].v), "%.*s",
				 (int)len, v);
	}
	free(m.p);
	return cache[i].v;
}

/* --- a suite's own messages ------------------------------------------ */

void runner_msg_u8(struct runner_msg *m, unsigned v)
{
	msg_u8(m, v);
}

void runner_msg_u32(struct runner_msg *m, uint32_t v)
{
	msg_u32(m, v);
}

void runner_msg_bytes(struct runner_msg *m, const char *p, size_t n)
{
	msg_bytes(m, p, n);
}

void runner_msg_put(struct runner_msg *m, const void *p, size_t n)
{
	msg_put(m, p, n);
}

uint64_t runner_msg_get(struct runner_msg *m, int bytes)
{
	return msg_get(m, bytes);
}

void runner_msg_release(struct runner_msg *m)
{
	free(m->p);
	*m = (struct runner_msg){0};
}

uint32_t runner_id(const void *h)
{
	return ((const struct runner_set *)h)->id;
}

void *runner_world_new(void *h)
{
	const struct runner_set *any = h;
	struct runner_set *s = set_new(any->def, NULL, 0, 0);

	if (s != NULL)
		s->world = 1;
	return s;
}

int runner_world_load(void *world, const struct runner_msg *req,
		      int reply_type, struct runner_msg *reply,
		      struct engine_error *err)
{
	struct runner_set *s = world;
	struct runner_msg *m = calloc(1, sizeof(*m));
	struct runner_conn *c;
	char why[256] = "";
	long pat = -1;
	int rc;

	if (m != NULL)
		msg_put(m, req->p, req->n);
	if (m == NULL || m->oom || req->oom) {
		msg_free(m);
		engine_error_set(err, ENGINE_ERR_NOMEM, -1, -1, "out of memory");
		return ENGINE_ERR_NOMEM;
	}
	msg_free(s->load);
	s->load = m;
	s->load_reply = reply_type;
	rc = set_load(s, &c, &pat, why, sizeof(why), reply);
	if (rc != 0)
		engine_error_set(err, rc, pat, -1, "%s", why);
	return rc;
}

int runner_call(void *h, struct runner_msg *m, int want, char *why,
		size_t size)
{
	struct runner_conn *c;
	int rc = m->oom ? ENGINE_ERR_NOMEM
			: set_load(h, &c, NULL, why, size, NULL);

	if (rc == ENGINE_ERR_NOMEM)
		snprintf(why, size, "out of memory");
	return rc != 0 ? rc : call_expect(c, m, want, why, size);
}

int runner_read_values(struct runner_msg *m, size_t n, long *values)
{
	return answers_read(NULL, ENGINE_OP_IS_MATCH, m, n, values, NULL);
}

/* --- timing ---------------------------------------------------------- */

static void *dup_array(const void *p, size_t n, size_t size)
{
	void *d = malloc(n ? n * size : 1);

	if (d != NULL && n > 0)
		memcpy(d, p, n * size);
	return d;
}

static int job_sample(struct engine_job *job, const struct engine_timing *t,
		      struct engine_sample *s, char *why, size_t size);

struct engine_job *runner_add_work(void *h, const struct engine_work *w)
{
	struct runner_set *s = h;
	struct runner_job *j = calloc(1, sizeof(*j));

	if (j == NULL)
		return NULL;
	j->base.sample = job_sample;
	j->w = *w;
	j->w.sets = dup_array(w->sets, w->nsets, sizeof(*w->sets));
	j->w.names = dup_array(w->names, w->nnames, sizeof(*w->names));
	j->w.inputs = dup_array(w->inputs, w->ninputs, sizeof(*w->inputs));

	j->owner = s;
	j->next = s->jobs;
	s->jobs = j; /* freed with s from here on */
	if (j->w.sets == NULL || j->w.names == NULL || j->w.inputs == NULL)
		return NULL;
	return &j->base;
}

void *runner_add_request(void *h, const struct runner_msg *req)
{
	void *sets[1] = {h};
	struct engine_work w = {.op = ENGINE_OP_NONE, .each = 1, .sets = sets,
				.nsets = 1};
	struct runner_job *j = (struct runner_job *)runner_add_work(h, &w);

	if (j == NULL)
		return NULL;
	j->req = calloc(1, sizeof(*j->req));
	if (j->req != NULL)
		msg_put(j->req, req->p, req->n);
	return j->req == NULL || j->req->oom || req->oom ? NULL : j;
}

/* The request of job j ('W', or the suite's of runner_add_request()); its
 * sets are loaded in c already. */
static void work_msg(const struct runner_job *j, struct runner_msg *m)
{
	const struct engine_work *w = &j->w;

	if (j->req != NULL) {
		msg_put(m, j->req->p, j->req->n);
		return;
	}
	msg_u8(m, 'W');
	msg_u8(m, (unsigned)w->op);
	msg_u8(m, (w->each ? 1u : 0u) | w->rewrite);
	msg_u32(m, (uint32_t)w->nsets);
	for (size_t i = 0; i < w->nsets; i++)
		msg_u32(m, ((const struct runner_set *)w->sets[i])->id);
	msg_u32(m, (uint32_t)w->nnames);
	for (size_t i = 0; i < w->nnames; i++)
		msg_bytes(m, w->names[i].p, w->names[i].len);
	msg_u32(m, (uint32_t)w->ninputs);
	for (size_t i = 0; i < w->ninputs; i++)
		msg_bytes(m, w->inputs[i].p, w->inputs[i].len);
}

int runner_work_values(const struct engine_work *w, long *values, char *why,
		       size_t size)
{
	struct runner_job j = {{NULL}, NULL, NULL, *w, NULL};
	struct runner_conn *c = NULL;
	struct runner_msg m = {0};
	int rc = w->nsets == 0 ? ENGINE_ERR_MATCH : 0;

	if (rc != 0)
		snprintf(why, size, "a work without a set");
	for (size_t i = 0; rc == 0 && i < w->nsets; i++)
		rc = set_load(w->sets[i], &c, NULL, why, size, NULL);
	if (rc != 0)
		return rc;
	j.owner = w->sets[0];
	work_msg(&j, &m);
	rc = call_expect(c, &m, 'K', why, size);
	if (rc == 0) {
		m.n = 0;
		msg_u8(&m, 'V');
		rc = call_expect(c, &m, 'A', why, size);
	}
	if (rc == 0 && answers_read(j.owner, ENGINE_OP_IS_MATCH, &m,
				    w->ninputs, values, NULL) != 0) {
		snprintf(why, size, "runner %s sent malformed values",
			 j.owner->def->name);
		rc = STATUS_CRASHED;
	}
	free(m.p);
	return rc;
}

/* engine_job.sample of a runner job: one sample timed by the runner of
 * this process (its sets compiled there first).  STATUS_CRASHED: the
 * runner died. */
static int job_sample(struct engine_job *job, const struct engine_timing *t,
		      struct engine_sample *out, char *why, size_t size)
{
	const struct runner_job *j = (const struct runner_job *)job;
	struct runner_set *s = j->owner;
	const struct engine_work *w = &j->w;
	struct runner_conn *c = NULL;
	struct runner_msg m = {0};
	int rc = 0;

	for (size_t i = 0; rc == 0 && i < w->nsets; i++)
		rc = set_load(w->sets[i], &c, NULL, why, size, NULL);
	if (rc == 0)
		rc = set_load(s, &c, NULL, why, size, NULL);
	if (rc != 0)
		return rc;
	work_msg(j, &m);
	rc = call_expect(c, &m, 'K', why, size);
	if (rc == 0) {
		m.n = 0;
		msg_u8(&m, 'B');
		msg_u64(&m, (uint64_t)t->benchtime_ns);
		msg_u64(&m, t->fixed_n);
		msg_u64(&m, (uint64_t)t->warmup_ns);
		msg_u8(&m, s->def->mode ? (unsigned)*s->def->mode : 0);
		rc = call_expect(c, &m, 'S', why, size);
	}
	if (rc == 0) {
		out->n = msg_get(&m, 8);
		out->ns_per_op = msg_f64(&m);
		out->bytes_per_op = msg_f64(&m);
		out->allocs_per_op = msg_f64(&m);
		out->floor_ns_per_op = msg_f64(&m);
		out->heap_per_op = msg_f64(&m);
		if (m.oom || out->n == 0) {
			snprintf(why, size, "runner %s sent a malformed sample",
				 s->def->name);
			rc = STATUS_CRASHED;
		}
	}
	free(m.p);
	return rc;
}
