/*
 * cboost.cc - implementation of cboost.h: a thin C wrapper over
 * boost::regex (C++17).
 *
 * Boost.Regex throws from construction (boost::regex_error for a bad
 * pattern) and from matching: a std::runtime_error (its raise_error() of
 * error_complexity) when a search visits more states than its bound
 * (about the square of the text's length, at most 100,000,000: how it
 * stops catastrophic backtracking), another (error_stack) when its
 * backtracking stack is exhausted, std::bad_alloc.  The matcher raises
 * nothing else.  Each entry point catches everything and returns the
 * status cboost.h names.
 *
 * Build: only when CMake found Boost.Regex (RXB_HAVE_BOOST).
 */
#include "engines/cboost.h"

#include <boost/regex.hpp>
#include <boost/version.hpp>

#include <cstdio>
#include <cstring>
#include <locale>
#include <new>
#include <stdexcept>

struct cboost_regex {
	boost::regex re;
	boost::cmatch m; /* reused by every search */
};

/* Copies text into msg[0..size), NUL-terminated and truncated. */
static void cboost_copy(const char *text, char *msg, size_t size)
{
	size_t n;

	if (msg == nullptr || size == 0)
		return;
	n = std::strlen(text);
	if (n >= size)
		n = size - 1;
	std::memcpy(msg, text, n);
	msg[n] = '\0';
}

const char *cboost_version(void)
{
	static char buf[32];

	if (buf[0] == '\0')
		std::snprintf(buf, sizeof(buf), "%d.%d.%d",
			      BOOST_VERSION / 100000, BOOST_VERSION / 100 % 1000,
			      BOOST_VERSION % 100);
	return buf;
}

int cboost_new(const char *pattern, size_t len, unsigned flags,
	       cboost_regex_t **out, char *msg, size_t size)
{
	boost::regex::flag_type f = boost::regex::perl |
				    boost::regex::no_mod_s;

	*out = nullptr;
	if (flags & CBOOST_ICASE)
		f |= boost::regex::icase;
	try {
		cboost_regex_t *r = new cboost_regex;
		try {
			r->re.imbue(std::locale::classic());
			r->re.assign(pattern, pattern + len, f);
		} catch (...) {
			delete r;
			throw;
		}
		*out = r;
		return CBOOST_OK;
	} catch (const boost::regex_error &e) {
		cboost_copy(e.what(), msg, size);
		return CBOOST_ERR_SYNTAX;
	} catch (const std::bad_alloc &) {
		cboost_copy("out of memory", msg, size);
		return CBOOST_ERR_NOMEM;
	} catch (const std::exception &e) {
		cboost_copy(e.what(), msg, size);
		return CBOOST_ERR_OTHER;
	} catch (...) {
		cboost_copy("unknown exception", msg, size);
		return CBOOST_ERR_OTHER;
	}
}

void cboost_delete(cboost_regex_t *re)
{
	delete re;
}

/* regex_search() from start with the left context given as base. */
static bool cboost_run(cboost_regex_t *re, const char *text, size_t len,
		       size_t start, int anchored)
{
	boost::match_flag_type f = boost::match_default;

	if (start > 0)
		f |= boost::match_prev_avail;
	if (anchored)
		f |= boost::match_continuous;
	return boost::regex_search(text + start, text + len, re->m, re->re, f,
				   text);
}

int cboost_search(cboost_regex_t *re, const char *text, size_t len,
		  size_t start, int anchored, size_t *so, size_t *eo)
{
	if (text == nullptr)
		text = "";
	try {
		if (!cboost_run(re, text, len, start, anchored))
			return 0;
		if (so != nullptr)
			*so = static_cast<size_t>(re->m[0].first - text);
		if (eo != nullptr)
			*eo = static_cast<size_t>(re->m[0].second - text);
		return 1;
	} catch (const std::bad_alloc &) {
		return CBOOST_ERR_NOMEM;
	} catch (const std::runtime_error &) {
		/* the matcher raises only error_complexity and error_stack */
		return CBOOST_ERR_LIMIT;
	} catch (...) {
		return CBOOST_ERR_OTHER;
	}
}
