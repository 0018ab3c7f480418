/*
 * modsec_oracle.c - the real libmodsecurity3 (Debian's 3.0.9) deciding
 * rxbench's ModSecurity rules one by one, for tests/modsec_diff.py.
 * Built with the tests only when pkg-config finds modsecurity; never
 * installed, and nothing else links libmodsecurity.
 *
 *   modsec_oracle RULES LIST REQUESTS
 *
 * RULES is what rxbench's --rules reads (a .conf file, or a directory
 * whose *.conf and *.rules files are read in name order, named
 * "DIR/NAME" as corpora/rules.c names them).  LIST holds one line per
 * rule to decide, "NAME<TAB>FILE:LINE" (what `modsec_ref_cli --list`
 * prints after "run "): the SecRule whose logical line starts on line
 * LINE of FILE.  REQUESTS is a sequence of frames "<decimal length>\n"
 * followed by that many raw bytes of one HTTP/1.x request, so NUL, CR
 * and high bytes pass as they are.
 *
 * Prints one line per request, "req I:" then the NAMEs of the rules
 * that matched it, each after a space, in LIST's order; and before them
 * one line "norule NAME: error" per rule libmodsecurity refused to load
 * (those are never reported as matching).  Exit 0, or 2 with a message
 * on unusable input.
 *
 * Each rule alone.  A rule is loaded into a rule set of its own, its
 * VARIABLES and operator copied byte for byte from the file (Apache's
 * quoting is libmodsecurity's to read), its actions replaced by
 * "id:N,phase:P,deny,status:403" and its t: transformations in their
 * order; its other actions (setvar, ctl, capture, chain, msg ...) are
 * dropped.  A chain is not joined: each SecRule of a chain is a rule of
 * its own, as rxbench reads chains (corpora/rules.h), and a chained rule
 * runs in the phase of the chain's first rule, as it would inside the
 * chain; P is the rule's phase, else 2 (ModSecurity's default phase).
 * The rule matched a request iff the transaction reports an intervention
 * with status 403 (nothing else in its set denies).
 *
 * Each set also holds "SecRuleEngine On", "SecRequestBodyAccess On" and
 * the two body processor rules of ModSecurity's modsecurity.conf-
 * recommended (v3.0.9), which every deployment of CRS starts from:
 * id 200000 (Content-Type ^(?:application(?:/soap\+|/)|text/)xml ->
 * ctl:requestBodyProcessor=XML) and 200001 (^application/json -> JSON).
 * URLENCODED and MULTIPART are chosen by libmodsecurity itself from the
 * Content-Type (transaction.cc, processRequestHeaders).  CRS 3.3.4's own
 * setup (crs-setup.conf, REQUEST-901) sets no processor by default
 * (901350 only with tx.enforce_bodyproc_urlencoded); its 901340
 * (ctl:forceRequestBodyVariable) is not needed: v3 fills REQUEST_BODY
 * for every non-empty body (transaction.cc, processRequestBody).
 *
 * Each request is fed as a connector does: the request line split at its
 * first two spaces into method, URI and protocol ("HTTP/1.1" passes as
 * version "1.1"; msc_process_uri takes C strings, so the URI ends at a
 * NUL byte), the headers up to the first empty line (a line ending in LF
 * or CRLF; "NAME:VALUE", the value without its leading and trailing
 * spaces and tabs; a line starting with a space or tab continues the
 * previous header's value after one space, as Apache httpd unfolds
 * obs-fold, the line's own leading and trailing blanks dropped; a line
 * without ':' is dropped, as nginx ignores an invalid header), then the
 * body: the rest of the bytes, de-chunked as the server would when
 * Transfer-Encoding is chunked (left as it is when it does not parse),
 * appended only when not empty.  Then a response "200" without headers
 * or body and the logging phase, so that rules of phases 3 to 5 run too
 * (CRS's 912150 reads REQUEST_BASENAME in phase 5; deny sets the
 * intervention in any phase, actions/disruptive/deny.cc).  The
 * intervention is asked for after each phase, and a request is done at
 * the first one.  The connection is 127.0.0.1:12345
 * to 127.0.0.1:80.
 */
#define _GNU_SOURCE /* strcasestr */
#include <modsecurity/intervention.h>
#include <modsecurity/modsecurity.h>
#include <modsecurity/rules_set.h>
#include <modsecurity/transaction.h>

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

/* ---- small helpers ---- */

static void *xrealloc(void *p, size_t n)
{
	void *q = realloc(p, n ? n : 1);

	if (q == NULL) {
		fprintf(stderr, "modsec_oracle: out of memory\n");
		exit(2);
	}
	return q;
}

/* A growing byte string. */
struct buf {
	char *p;
	size_t n, cap;
};

static void buf_add(struct buf *b, const char *s, size_t n)
{
	if (b->n + n + 1 > b->cap) {
		b->cap = (b->n + n + 1) * 2;
		b->p = xrealloc(b->p, b->cap);
	}
	memcpy(b->p + b->n, s, n);
	b->n += n;
	b->p[b->n] = '\0';
}

static void buf_str(struct buf *b, const char *s)
{
	buf_add(b, s, strlen(s));
}

/* The whole of file path, NUL-terminated; NULL with errno set. */
static char *read_all(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	struct buf b = {0};
	char chunk[65536];
	size_t n;

	if (f == NULL)
		return NULL;
	while ((n = fread(chunk, 1, sizeof(chunk), f)) > 0)
		buf_add(&b, chunk, n);
	if (ferror(f)) {
		fclose(f);
		free(b.p);
		errno = EIO;
		return NULL;
	}
	fclose(f);
	if (b.p == NULL)
		buf_add(&b, "", 0);
	*len = b.n;
	return b.p;
}

/* ---- the rules' text ---- */

/* One SecRule of a file: where it starts and its rewritten text. */
struct srule {
	char *file;
	long line;
	char *text; /* the set's SecRule line, NULL when not a SecRule */
};

struct srules {
	struct srule *v;
	size_t n;
};

/* An Apache word at p: "quoted" (a backslash escapes the next byte) or
 * bare up to a blank.  Its end, or NULL for an unterminated quote. */
static const char *word_end(const char *p)
{
	if (*p == '"' || *p == '\'') {
		char q = *p++;
		while (*p && *p != q)
			p += p[0] == '\\' && p[1] != '\0' ? 2 : 1;
		return *p == q ? p + 1 : NULL;
	}
	while (*p && *p != ' ' && *p != '\t')
		p++;
	return p;
}

static const char *blanks(const char *p)
{
	while (*p == ' ' || *p == '\t')
		p++;
	return p;
}

/*
 * The actions word a..e (quotes included) rewritten: "id:ID,phase:P,deny,
 * status:403" and its t: actions; *phase gets its phase word ("" when it
 * names none), *chain whether it has the chain action.
 */
static void rewrite_actions(const char *a, const char *e, long id,
			    const char *head_phase, struct buf *out,
			    char *phase, size_t psize, int *chain)
{
	struct buf t = {0};
	char head[128];

	phase[0] = '\0';
	*chain = 0;
	if (a < e && (*a == '"' || *a == '\'')) {
		a++;
		e--;
	}
	while (a < e) {
		const char *s = a, *x;
		int inq = 0;
		while (a < e && (inq || *a != ',')) {
			if (*a == '\\' && a + 1 < e)
				a++;
			else if (*a == '\'')
				inq = !inq;
			a++;
		}
		x = a;
		a += a < e; /* the comma */
		while (s < x && isspace((unsigned char)*s))
			s++;
		while (x > s && isspace((unsigned char)x[-1]))
			x--;
		if (x - s >= 2 && strncmp(s, "t:", 2) == 0) {
			buf_str(&t, ",");
			buf_add(&t, s, (size_t)(x - s));
		} else if (x - s > 6 && strncmp(s, "phase:", 6) == 0) {
			snprintf(phase, psize, "%.*s", (int)(x - s - 6), s + 6);
		} else if (x - s == 5 && strncmp(s, "chain", 5) == 0) {
			*chain = 1;
		}
	}
	snprintf(head, sizeof(head), "\"id:%ld,phase:%s,deny,status:403", id,
		 head_phase != NULL ? head_phase : phase[0] ? phase : "2");
	buf_str(out, head);
	if (t.p != NULL)
		buf_add(out, t.p, t.n);
	buf_str(out, "\"");
	free(t.p);
}

/*
 * The logical line text (continuations joined) as a rule of its own, or
 * NULL when it is no SecRule.  *chain_phase: the phase of the chain it
 * continues (NULL: none), updated for the next SecRule.
 */
static char *rule_text(const char *text, long id, char **chain_phase)
{
	const char *p = blanks(text), *v, *ve, *o, *oe, *a, *ae;
	struct buf out = {0};
	char phase[64];
	int chain;

	if (strncasecmp(p, "SecRule", 7) != 0 || (p[7] != ' ' && p[7] != '\t'))
		return NULL;
	v = blanks(p + 7);
	ve = word_end(v);
	o = ve != NULL ? blanks(ve) : NULL;
	oe = o != NULL ? word_end(o) : NULL;
	a = oe != NULL ? blanks(oe) : NULL;
	ae = a != NULL ? word_end(a) : NULL;
	if (ae == NULL)
		return NULL;
	buf_str(&out, "SecRule ");
	buf_add(&out, v, (size_t)(ve - v));
	buf_str(&out, " ");
	buf_add(&out, o, (size_t)(oe - o));
	buf_str(&out, " ");
	rewrite_actions(a, ae, id, *chain_phase, &out, phase, sizeof(phase),
			&chain);
	if (chain && *chain_phase == NULL)
		*chain_phase = strdup(phase[0] ? phase : "2");
	else if (!chain) {
		free(*chain_phase);
		*chain_phase = NULL;
	}
	return out.p;
}

/* Every SecRule of file `name` (text[0..len)) appended to sr, as
 * corpora/rules.c numbers logical lines (a '\' before the line's end,
 * CRLF or LF, joins the next line). */
static void file_rules(const char *name, const char *text, size_t len,
		       struct srules *sr)
{
	size_t pos = 0;
	long lineno = 0;
	char *chain_phase = NULL;

	while (pos < len) {
		struct buf ll = {0};
		long first = lineno + 1;
		for (;;) {
			const char *p = text + pos;
			const char *nl = memchr(p, '\n', len - pos);
			size_t l = nl ? (size_t)(nl - p) : len - pos;
			int cont;
			pos += l + (nl != NULL);
			lineno++;
			if (l > 0 && p[l - 1] == '\r')
				l--;
			cont = l > 0 && p[l - 1] == '\\';
			buf_add(&ll, p, l - (size_t)cont);
			if (!cont || pos >= len)
				break;
		}
		if (ll.p != NULL && memchr(ll.p, '\0', ll.n) == NULL) {
			char *t = rule_text(ll.p, (long)sr->n + 1, &chain_phase);
			if (t != NULL) {
				sr->v = xrealloc(sr->v, (sr->n + 1) * sizeof(*sr->v));
				sr->v[sr->n].file = strdup(name);
				sr->v[sr->n].line = first;
				sr->v[sr->n].text = t;
				sr->n++;
			}
		}
		free(ll.p);
	}
	free(chain_phase);
}

static int rule_file_name(const struct dirent *d)
{
	size_t n = strlen(d->d_name);

	return (n > 5 && strcmp(d->d_name + n - 5, ".conf") == 0) ||
	       (n > 6 && strcmp(d->d_name + n - 6, ".rules") == 0);
}

/* The SecRules of path (a file or a directory).  0, or -1 (message). */
static int load_rules(const char *path, struct srules *sr)
{
	struct stat st;
	struct dirent **list;
	int n;

	if (stat(path, &st) != 0) {
		fprintf(stderr, "modsec_oracle: %s: %s\n", path, strerror(errno));
		return -1;
	}
	if (!S_ISDIR(st.st_mode)) {
		size_t len;
		char *text = read_all(path, &len);
		if (text == NULL) {
			fprintf(stderr, "modsec_oracle: %s: %s\n", path,
				strerror(errno));
			return -1;
		}
		file_rules(path, text, len, sr);
		free(text);
		return 0;
	}
	n = scandir(path, &list, rule_file_name, alphasort);
	if (n < 0) {
		fprintf(stderr, "modsec_oracle: %s: %s\n", path, strerror(errno));
		return -1;
	}
	for (int i = 0; i < n; i++) {
		char file[4096];
		snprintf(file, sizeof(file), "%s/%s", path, list[i]->d_name);
		if (load_rules(file, sr) != 0)
			return -1;
		free(list[i]);
	}
	free(list);
	return 0;
}

/* ---- the rules to decide ---- */

struct orule {
	char *name;
	RulesSet *set; /* NULL when libmodsecurity refused it */
};

static const char setup_text[] =
	"SecRuleEngine On\n"
	"SecRequestBodyAccess On\n"
	"SecRule REQUEST_HEADERS:Content-Type \"^(?:application(?:/soap\\+|/)"
	"|text/)xml\" \"id:200000,phase:1,t:none,t:lowercase,pass,nolog,"
	"ctl:requestBodyProcessor=XML\"\n"
	"SecRule REQUEST_HEADERS:Content-Type \"^application/json\" "
	"\"id:200001,phase:1,t:none,t:lowercase,pass,nolog,"
	"ctl:requestBodyProcessor=JSON\"\n";

/* The rule set of SecRule r alone; NULL with *err set when refused. */
static RulesSet *rule_set(const struct srule *r, const char **err)
{
	RulesSet *set = msc_create_rules_set();
	struct buf t = {0};

	buf_str(&t, setup_text);
	buf_str(&t, r->text);
	buf_str(&t, "\n");
	*err = NULL;
	if (msc_rules_add(set, t.p, err) < 0) {
		msc_rules_cleanup(set);
		set = NULL;
	}
	free(t.p);
	return set;
}

/* The rules LIST names, each with its set.  0, or -1 (message). */
static int load_list(const char *path, const struct srules *sr,
		     struct orule **out, size_t *nout)
{
	size_t len, n = 0;
	char *text = read_all(path, &len), *line, *save = NULL;
	struct orule *v = NULL;

	if (text == NULL) {
		fprintf(stderr, "modsec_oracle: %s: %s\n", path, strerror(errno));
		return -1;
	}
	for (line = strtok_r(text, "\n", &save); line != NULL;
	     line = strtok_r(NULL, "\n", &save)) {
		char *tab = strchr(line, '\t'), *colon;
		const struct srule *r = NULL;
		const char *err = NULL;
		long at;
		if (tab == NULL || (colon = strrchr(tab, ':')) == NULL) {
			fprintf(stderr, "modsec_oracle: %s: not NAME<TAB>FILE:LINE: "
				"%s\n", path, line);
			free(text);
			return -1;
		}
		*tab = *colon = '\0';
		at = strtol(colon + 1, NULL, 10);
		for (size_t i = 0; i < sr->n && r == NULL; i++)
			if (sr->v[i].line == at && strcmp(sr->v[i].file, tab + 1) == 0)
				r = &sr->v[i];
		if (r == NULL) {
			fprintf(stderr, "modsec_oracle: %s:%ld: no SecRule starts "
				"there (rule %s)\n", tab + 1, at, line);
			free(text);
			return -1;
		}
		v = xrealloc(v, (n + 1) * sizeof(*v));
		v[n].name = strdup(line);
		v[n].set = rule_set(r, &err);
		if (v[n].set == NULL)
			printf("norule %s: %s\n", line,
			       err != NULL ? err : "refused");
		n++;
	}
	free(text);
	*out = v;
	*nout = n;
	return 0;
}

/* ---- requests ---- */

struct header {
	const char *name;
	size_t nlen;
	struct buf value;
};

/* A request split as a connector hands it over. */
struct oreq {
	char *method, *uri, *version;
	struct header *h;
	size_t nh;
	struct buf body;
};

static void oreq_free(struct oreq *q)
{
	free(q->method);
	free(q->uri);
	free(q->version);
	for (size_t i = 0; i < q->nh; i++)
		free(q->h[i].value.p);
	free(q->h);
	free(q->body.p);
	memset(q, 0, sizeof(*q));
}

static char *dup_n(const char *p, size_t n)
{
	char *s = xrealloc(NULL, n + 1);

	memcpy(s, p, n);
	s[n] = '\0';
	return s;
}

/* p[0..n) without leading and trailing SP and HTAB, into *s / *sn. */
static void trim(const char *p, size_t n, const char **s, size_t *sn)
{
	while (n > 0 && (*p == ' ' || *p == '\t')) {
		p++;
		n--;
	}
	while (n > 0 && (p[n - 1] == ' ' || p[n - 1] == '\t'))
		n--;
	*s = p;
	*sn = n;
}

/* The chunked body p[0..n) de-chunked into out; 0, or -1 when it does
 * not parse. */
static int dechunk(const char *p, size_t n, struct buf *out)
{
	size_t i = 0;

	for (;;) {
		size_t size = 0, digits = 0;
		const char *nl;
		while (i < n && isxdigit((unsigned char)p[i])) {
			int c = tolower((unsigned char)p[i++]);
			size = size * 16 + (size_t)(c <= '9' ? c - '0' : c - 'a' + 10);
			if (++digits > 8)
				return -1;
		}
		nl = memchr(p + i, '\n', n - i);
		if (digits == 0 || nl == NULL)
			return -1;
		i = (size_t)(nl - p) + 1;
		if (size == 0)
			return 0;
		if (n - i < size)
			return -1;
		buf_add(out, p + i, size);
		i += size;
		if (i < n && p[i] == '\r')
			i++;
		if (i < n && p[i] == '\n')
			i++;
	}
}

/* Split raw request p[0..n) into q. */
static void split_request(const char *p, size_t n, struct oreq *q)
{
	const char *end = p + n, *nl, *l, *sp1, *sp2;
	size_t ll;
	int chunked = 0;

	memset(q, 0, sizeof(*q));
	nl = memchr(p, '\n', n);
	l = p;
	ll = nl ? (size_t)(nl - p) : n;
	if (ll > 0 && l[ll - 1] == '\r')
		ll--;
	sp1 = memchr(l, ' ', ll);
	sp2 = sp1 ? memchr(sp1 + 1, ' ', ll - (size_t)(sp1 + 1 - l)) : NULL;
	q->method = dup_n(l, sp1 ? (size_t)(sp1 - l) : ll);
	if (sp1 != NULL) {
		const char *u = sp1 + 1;
		const char *ue = sp2 ? sp2 : l + ll;
		const char *v = sp2 ? sp2 + 1 : l + ll;
		q->uri = dup_n(u, (size_t)(ue - u));
		if (l + ll - v >= 5 && strncmp(v, "HTTP/", 5) == 0)
			v += 5;
		q->version = dup_n(v, (size_t)(l + ll - v));
	} else {
		q->uri = dup_n("", 0);
		q->version = dup_n("", 0);
	}
	p = nl ? nl + 1 : end;
	while (p < end) {
		const char *s, *colon;
		size_t sn;
		nl = memchr(p, '\n', (size_t)(end - p));
		l = p;
		ll = nl ? (size_t)(nl - p) : (size_t)(end - p);
		p = nl ? nl + 1 : end;
		if (ll > 0 && l[ll - 1] == '\r')
			ll--;
		if (ll == 0)
			break;
		if ((*l == ' ' || *l == '\t') && q->nh > 0) {
			trim(l, ll, &s, &sn);
			buf_add(&q->h[q->nh - 1].value, " ", 1);
			buf_add(&q->h[q->nh - 1].value, s, sn);
			continue;
		}
		colon = memchr(l, ':', ll);
		if (colon == NULL)
			continue;
		q->h = xrealloc(q->h, (q->nh + 1) * sizeof(*q->h));
		memset(&q->h[q->nh], 0, sizeof(q->h[q->nh]));
		q->h[q->nh].name = l;
		q->h[q->nh].nlen = (size_t)(colon - l);
		trim(colon + 1, ll - (size_t)(colon + 1 - l), &s, &sn);
		buf_add(&q->h[q->nh].value, s, sn);
		q->nh++;
	}
	for (size_t i = 0; i < q->nh; i++)
		if (q->h[i].nlen == 17 &&
		    strncasecmp(q->h[i].name, "Transfer-Encoding", 17) == 0 &&
		    q->h[i].value.p != NULL &&
		    strcasestr(q->h[i].value.p, "chunked") != NULL)
			chunked = 1;
	if (p < end && (!chunked || dechunk(p, (size_t)(end - p), &q->body) != 0)) {
		q->body.n = 0;
		buf_add(&q->body, p, (size_t)(end - p));
	}
}

/* Did libmodsecurity deny (status 403) since the last ask? */
static int denied(Transaction *t)
{
	ModSecurityIntervention it = {200, 0, NULL, NULL, 0};
	int d = msc_intervention(t, &it) && it.status == 403;

	free(it.url);
	free(it.log);
	return d;
}

/* Whether rule set `set` denies request q.  The transaction's id is a
 * fixed "1" (no rule here reads UNIQUE_ID): making one per transaction
 * took a third of the oracle's time. */
static int decide(ModSecurity *ms, RulesSet *set, const struct oreq *q)
{
	Transaction *t = msc_new_transaction_with_id(ms, set, "1", NULL);
	int d;

	msc_process_connection(t, "127.0.0.1", 12345, "127.0.0.1", 80);
	msc_process_uri(t, q->uri, q->method, q->version);
	for (size_t i = 0; i < q->nh; i++)
		msc_add_n_request_header(t, (const unsigned char *)q->h[i].name,
					 q->h[i].nlen,
					 (const unsigned char *)(q->h[i].value.p
								 ? q->h[i].value.p : ""),
					 q->h[i].value.n);
	msc_process_request_headers(t);
	d = denied(t);
	if (!d) {
		if (q->body.n > 0)
			msc_append_request_body(t, (const unsigned char *)q->body.p,
						q->body.n);
		msc_process_request_body(t);
		d = denied(t);
	}
	/* phases 3 to 5: a rule of a later phase reads the request too */
	if (!d) {
		msc_process_response_headers(t, 200, "HTTP 1.1");
		d = denied(t);
	}
	if (!d) {
		msc_process_response_body(t);
		d = denied(t);
	}
	if (!d) {
		msc_process_logging(t);
		d = denied(t);
	}
	msc_transaction_cleanup(t);
	return d;
}

/* libmodsecurity's log lines are not ours to print. */
static void quiet(void *data, const void *msg)
{
	(void)data;
	(void)msg;
}

int main(int argc, char **argv)
{
	struct srules sr = {0};
	struct orule *rules = NULL;
	size_t nrules = 0, len, pos = 0, nreq = 0;
	char *reqs;
	ModSecurity *ms;
	struct timespec t0, t1;
	int rc = 2;

	if (argc != 4) {
		fprintf(stderr, "usage: modsec_oracle RULES LIST REQUESTS\n");
		return 2;
	}
	clock_gettime(CLOCK_MONOTONIC, &t0);
	ms = msc_init();
	msc_set_connector_info(ms, "rxbench modsec_oracle");
	msc_set_log_cb(ms, quiet);
	if (load_rules(argv[1], &sr) != 0 ||
	    load_list(argv[2], &sr, &rules, &nrules) != 0)
		goto out;
	reqs = read_all(argv[3], &len);
	if (reqs == NULL) {
		fprintf(stderr, "modsec_oracle: %s: %s\n", argv[3], strerror(errno));
		goto out;
	}
	while (pos < len) {
		char *e;
		unsigned long n = strtoul(reqs + pos, &e, 10);
		struct oreq q;
		if (e == reqs + pos || *e != '\n' || n > len - (size_t)(e + 1 - reqs)) {
			fprintf(stderr, "modsec_oracle: %s: bad frame at byte %zu\n",
				argv[3], pos);
			free(reqs);
			goto out;
		}
		split_request(e + 1, n, &q);
		printf("req %zu:", nreq++);
		for (size_t r = 0; r < nrules; r++)
			if (rules[r].set != NULL && decide(ms, rules[r].set, &q))
				printf(" %s", rules[r].name);
		printf("\n");
		oreq_free(&q);
		pos = (size_t)(e + 1 - reqs) + n;
	}
	free(reqs);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	fprintf(stderr, "modsec_oracle: %zu rules x %zu requests in %.2f s\n",
		nrules, nreq, (double)(t1.tv_sec - t0.tv_sec) +
		(double)(t1.tv_nsec - t0.tv_nsec) / 1e9);
	rc = 0;
out:
	for (size_t r = 0; r < nrules; r++) {
		if (rules[r].set != NULL)
			msc_rules_cleanup(rules[r].set);
		free(rules[r].name);
	}
	free(rules);
	for (size_t i = 0; i < sr.n; i++) {
		free(sr.v[i].file);
		free(sr.v[i].text);
	}
	free(sr.v);
	msc_cleanup(ms);
	return rc;
}
