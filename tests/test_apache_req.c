/*
 * test_apache_req.c - Apache httpd 2.4's handling of a request around
 * mod_security2's phases (corpora/apache_req.h): refusals of the
 * request line, the Host a target gives, the phase-2 path.  Expected
 * values were read from Debian's apache2 2.4.71 with mod_security2
 * 2.9.7 (logdata of REQUEST_HEADERS.Host in phase 1, REQUEST_URI and
 * REQUEST_FILENAME in phase 2, the AH numbers of its error log) or, for
 * the edges, worked out from server/util.c and server/vhost.c.
 */
#include <criterion/criterion.h>
#include <string.h>

#include "corpora/apache_req.h"

static int refused(const char *method, const char *target)
{
	char why[200];
	int rc = apache_target_refused(method, strlen(method), target,
				       strlen(target), why, sizeof(why));

	cr_expect((rc == 0) == (why[0] == '\0'), "%s %s: rc %d, why '%s'",
		  method, target, rc, why);
	return rc;
}

Test(apache_req, request_lines_refused_before_phase_1)
{
	static const char *taken[][2] = {
		{"GET", "/a/\"x"}, {"GET", "/a<b>{c}|^`\\"}, {"GET", "?a=1"},
		{"GET", "http://a.b"}, {"GET", "http:/x"}, {"GET", "a:/x"},
		{"GET", "//http://a.b/x"}, {"OPTIONS", "*"},
		{"CONNECT", "1.2.3.4:443"}, {"CONNECT", "[::1]:443"},
		{"GET", "http://a.b:/x"}, {"GET", "http://[::1]:80/x"},
		{"GET", "ftp://a.b/x"}, {"GET", "?a=1/2:3"}, {"GET", "?a"},
		{"GET", "/?a:b"},
	};
	static const char *ah03450[][2] = {
		{"GET", "index.php"}, {"GET", "*"}, {"GET", "example.com:443"},
		{"GET", "http://a.b:xx/"}, {"GET", "http://[::1/"},
		{"CONNECT", "a.b"}, {"CONNECT", "/x"}, {"CONNECT", "a.b:"},
		{"CONNECT", "a.b:44#3"}, {"GET", "http:x"}, {"OPTIONS", "**"},
		/* a ':' before any '/' without a scheme (APR 1.7) */
		{"GET", "?a:b"}, {"GET", "?:"}, {"GET", "?b=php://filter"},
		{"GET", "*:x"},
	};
	char why[200];

	for (size_t i = 0; i < sizeof(taken) / sizeof(taken[0]); i++)
		cr_expect_eq(refused(taken[i][0], taken[i][1]), 0, "%s %s",
			     taken[i][0], taken[i][1]);
	for (size_t i = 0; i < sizeof(ah03450) / sizeof(ah03450[0]); i++)
		cr_expect_eq(refused(ah03450[i][0], ah03450[i][1]), 400,
			     "%s %s", ah03450[i][0], ah03450[i][1]);
	cr_expect_eq(apache_target_refused("GET", 3, "/a?x#y", 6, why,
					   sizeof(why)), 400);
	cr_expect(strstr(why, "AH02421") != NULL, "%s", why);
	cr_expect_eq(apache_target_refused("GET", 3, "http://u@a.b/", 13, why,
					   sizeof(why)), 400);
	cr_expect(strstr(why, "AH02422") != NULL, "%s", why);
	cr_expect_eq(apache_target_refused("GET", 3, "/", 1, why, 4), 0);
}

/* The Host a target gives: rc, and the value when rc is 1. */
static void host_is(const char *method, const char *target, int want_rc,
		    const char *want)
{
	char host[256], why[200];
	size_t hn = 0;
	int rc = apache_target_host(method, strlen(method), target,
				    strlen(target), host, &hn, why,
				    sizeof(why));

	cr_expect_eq(rc, want_rc, "%s %s: rc %d (%s)", method, target, rc, why);
	if (rc == 1 && want_rc == 1)
		cr_expect(hn == strlen(want) && memcmp(host, want, hn) == 0,
			  "%s %s: got '%.*s', want '%s'", method, target,
			  (int)hn, host, want);
	if (rc == 400)
		cr_expect(strstr(why, "AH0") != NULL, "%s", why);
}

Test(apache_req, host_from_the_target)
{
	host_is("GET", "http://EXAMPLE.com./x", 1, "example.com");
	host_is("GET", "http://a.b:0080/x", 1, "a.b:0080");
	host_is("GET", "HTTP://a.b/x", 1, "a.b");
	host_is("GET", "http://a.b:/x", 1, "a.b:");
	host_is("GET", "http://a.b:+80/x", 1, "a.b:+80");
	host_is("GET", "http://a.b", 1, "a.b");
	host_is("GET", "http://a.b?x=1", 1, "a.b");
	host_is("GET", "http://[::1]:80/x", 1, "[::1]:80");
	host_is("GET", "http://[::ABC]/x", 1, "[::abc]");
	host_is("GET", "//http://a.b/x", 0, "");
	host_is("CONNECT", "1.2.3.4:443", 1, "1.2.3.4:443");
	host_is("CONNECT", "A.B.:443", 1, "a.b:443");
	host_is("CONNECT", "[::1]:443", 1, "[::1]:443");
	host_is("GET", "http:///x", 1, "");
	host_is("GET", "http://:81/x", 1, ":81");
	/* no host: another scheme, no "//", an origin-form target */
	host_is("GET", "https://a.b/x", 0, "");
	host_is("GET", "ftp://a.b/x", 0, "");
	host_is("GET", "http:/x", 0, "");
	host_is("GET", "/x", 0, "");
	/* fix_hostname and strict_hostname_check refuse */
	host_is("GET", "http://1.2.3/x", 400, "");
	host_is("GET", "http://1234/x", 400, "");
	host_is("GET", "http://01.2.3.4/x", 400, "");
	host_is("GET", "http://1.02.3.4/x", 400, "");
	host_is("GET", "http://a..b/x", 400, "");
	host_is("GET", "http://a.1b/x", 400, "");
	host_is("GET", "http://a!b/x", 400, "");
	host_is("GET", "http://a\\b/x", 400, "");
	host_is("GET", "http://[::1]x/", 400, "");
	host_is("GET", "http://[1:::2]/", 400, "");
	host_is("CONNECT", "1.2.3:443", 400, "");
	host_is("GET", "http://a-b_c.d1.e/x", 1, "a-b_c.d1.e");
	host_is("GET", "http://10.0.0.1/x", 1, "10.0.0.1");
}

/* The phase-2 path of p: rc, and the path Apache leaves (phase 5 sees
 * it when rc is not 0). */
static void path_is(const char *p, int want_rc, const char *want)
{
	char out[256], why[200];
	size_t on = 0;
	int rc = apache_phase2_path(p, strlen(p), out, &on, why, sizeof(why));

	cr_expect_eq(rc, want_rc, "%s: rc %d (%s)", p, rc, why);
	cr_expect((rc == 0) == (why[0] == '\0'), "%s: why '%s'", p, why);
	cr_expect(on == strlen(want) && memcmp(out, want, on) == 0,
		  "%s: got '%.*s', want '%s'", p, (int)on, out, want);
}

Test(apache_req, phase2_path)
{
	/* seen from Apache */
	path_is("/a%2e%2E/./b//c/%7e%41x.php", 0, "/a../b/c/~Ax.php");
	path_is("/a/./b/../c.php", 0, "/a/c.php");
	path_is("/a/%2e%2e/b.php", 0, "/b.php");
	path_is("/a%20b/%3cscript%3e.php", 0, "/a b/<script>.php");
	path_is("/a+b%2bc.php", 0, "/a+b+c.php");
	path_is("/index.php/..", 0, "/");
	path_is("/x/..%5c..%5cwin.ini", 0, "/x/..\\..\\win.ini");
	path_is("/http://a.b/x", 0, "/http:/a.b/x");
	path_is("/a%2fb.php", 404, "/a/b.php");
	path_is("/a%00b.php", 404, "/a");
	path_is("/a%zzb", 400, "/a%zzb");
	path_is("/a%x", 400, "/a%x");
	path_is("/a%", 400, "/a%");
	path_is("/..", 400, "/");
	path_is("/../x", 400, "/x");
	path_is("/a/../../x", 400, "/x");
	path_is("/%2e%2e/x", 400, "/x");
	/* what phase 5 saw after the refusal (logdata of the path) */
	path_is("/a/..%2fb", 404, "/a/../b");
	path_is("/a%zzb/%41", 400, "/a%zzb/A");
	path_is("/a/%2e%2e/%41%3c%zz/./b", 400, "/A%3c%zz/b");
	path_is("/../x%41%3c", 400, "/xA%3c");
	path_is("/a%00b%3c", 404, "/a");
	path_is("/x/..%2f..%2f%41/./c", 404, "/x/../../A/c");
	/* worked out from ap_normalize_path */
	path_is("/", 0, "/");
	path_is("*", 0, "*");
	path_is("/.", 0, "/");
	path_is("/a/.", 0, "/a/");
	path_is("/a/..", 0, "/");
	path_is("/a/b/.%2e", 0, "/a/");
	path_is("/a/b/.%2E/c", 0, "/a/c");
	path_is("/a/b/%2e./c", 0, "/a/c");
	path_is("/a/...", 0, "/a/...");
	path_is("/a/..b/.c", 0, "/a/..b/.c");
	path_is("/a/.%2ex", 0, "/a/..x");
	path_is("/a/.%2e%2f", 404, "/a/../");
	path_is("///a//./b", 0, "/a/b");
	path_is("/a%2541", 0, "/a%41");
	path_is("/%41%5A%61%7a%30%39%2d%2e%5f%7e", 0, "/AZaz09-._~");
	path_is("/%c3%a9", 0, "/\xc3\xa9");
}

Test(apache_req, empty_folded_lines)
{
	cr_expect_eq(apache_fold_refused(" ", 1), 1);
	cr_expect_eq(apache_fold_refused(" \t  ", 4), 1);
	cr_expect_eq(apache_fold_refused(" a", 2), 0);
	cr_expect_eq(apache_fold_refused("\t x ", 4), 0);
}
