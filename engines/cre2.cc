/*
 * cre2.cc - implementation of cre2.h: a thin C wrapper over RE2 and
 * RE2::Set (C++17; engines/cboost.cc is the other C++ file).
 *
 * Every entry point that can throw catches everything RE2 or the
 * standard library may throw (in practice std::bad_alloc), turning it
 * into the NULL / negative return its contract in cre2.h names.
 *
 * Build: only when CMake found RE2 (RXB_HAVE_RE2).
 */
#include "engines/cre2.h"

#include <re2/re2.h>
#include <re2/set.h>

#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <memory>
#include <new>
#include <string>
#include <vector>

/* cre2_error_code() returns RE2's own codes; keep the C names in step. */
#define CRE2_SAME_CODE(c, r) (static_cast<int>(c) == static_cast<int>(r))
static_assert(CRE2_SAME_CODE(CRE2_NO_ERROR, re2::RE2::NoError), "cre2");
static_assert(CRE2_SAME_CODE(CRE2_ERROR_INTERNAL, re2::RE2::ErrorInternal),
	      "cre2");
static_assert(CRE2_SAME_CODE(CRE2_ERROR_BAD_UTF8, re2::RE2::ErrorBadUTF8),
	      "cre2");
static_assert(CRE2_SAME_CODE(CRE2_ERROR_PATTERN_TOO_LARGE,
			     re2::RE2::ErrorPatternTooLarge),
	      "cre2");

/* Most submatches cre2_match() fills; keeps matching free of allocation. */
#define CRE2_MAX_SUBMATCH 16

struct cre2_options {
	re2::RE2::Options opt;
};

struct cre2_regexp {
	re2::RE2 re;
	std::unique_ptr<re2::RE2> twin; /* cre2_match_probe(): errors logged */

	cre2_regexp(const char *p, size_t len, const re2::RE2::Options &o)
		: re(re2::StringPiece(p, len), o)
	{
	}
};

struct cre2_set {
	re2::RE2::Set set;
	std::vector<int> hits; /* reused by cre2_set_match() */
	bool compiled = false;

	cre2_set(const re2::RE2::Options &o, re2::RE2::Anchor a) : set(o, a)
	{
	}
};

static re2::RE2::Anchor cre2_to_anchor(cre2_anchor_t a)
{
	switch (a) {
	case CRE2_ANCHOR_START:
		return re2::RE2::ANCHOR_START;
	case CRE2_ANCHOR_BOTH:
		return re2::RE2::ANCHOR_BOTH;
	case CRE2_UNANCHORED:
		break;
	}
	return re2::RE2::UNANCHORED;
}

cre2_options_t *cre2_opt_new(void)
{
	try {
		cre2_options_t *o = new cre2_options;

		o->opt.set_encoding(re2::RE2::Options::EncodingLatin1);
		o->opt.set_log_errors(false);
		return o;
	} catch (...) {
		return nullptr;
	}
}

void cre2_opt_delete(cre2_options_t *opt)
{
	delete opt;
}

void cre2_opt_set_utf8(cre2_options_t *opt, int flag)
{
	opt->opt.set_encoding(flag ? re2::RE2::Options::EncodingUTF8
				   : re2::RE2::Options::EncodingLatin1);
}

void cre2_opt_set_case_sensitive(cre2_options_t *opt, int flag)
{
	opt->opt.set_case_sensitive(flag != 0);
}

void cre2_opt_set_dot_nl(cre2_options_t *opt, int flag)
{
	opt->opt.set_dot_nl(flag != 0);
}

void cre2_opt_set_never_capture(cre2_options_t *opt, int flag)
{
	opt->opt.set_never_capture(flag != 0);
}

void cre2_opt_set_longest_match(cre2_options_t *opt, int flag)
{
	opt->opt.set_longest_match(flag != 0);
}

void cre2_opt_set_max_mem(cre2_options_t *opt, int64_t bytes)
{
	opt->opt.set_max_mem(bytes);
}

void cre2_opt_set_literal(cre2_options_t *opt, int flag)
{
	opt->opt.set_literal(flag != 0);
}

cre2_regexp_t *cre2_new(const char *pattern, size_t len,
			const cre2_options_t *opt)
{
	try {
		return new cre2_regexp(pattern, len, opt->opt);
	} catch (...) {
		return nullptr;
	}
}

void cre2_delete(cre2_regexp_t *re)
{
	delete re;
}

int cre2_error_code(const cre2_regexp_t *re)
{
	return static_cast<int>(re->re.error_code());
}

const char *cre2_error_string(const cre2_regexp_t *re)
{
	return re->re.error().c_str();
}

void cre2_error_arg(const cre2_regexp_t *re, cre2_string_t *arg)
{
	const std::string &a = re->re.error_arg();

	arg->data = a.data();
	arg->length = a.size();
}

int cre2_program_size(const cre2_regexp_t *re)
{
	return re->re.ok() ? re->re.ProgramSize() : -1;
}

/* One search of r, as cre2_match() describes it. */
static int cre2_search(const re2::RE2 &r, const char *text, size_t len,
		       size_t start, size_t end, cre2_anchor_t anchor,
		       cre2_string_t *match, int nmatch)
{
	re2::StringPiece sub[CRE2_MAX_SUBMATCH];

	if (!r.ok() || nmatch < 0 || nmatch > CRE2_MAX_SUBMATCH)
		return -1;
	try {
		bool found = r.Match(re2::StringPiece(text, len), start, end,
				     cre2_to_anchor(anchor), sub, nmatch);
		if (!found)
			return 0;
		for (int i = 0; i < nmatch; i++) {
			match[i].data = sub[i].data();
			match[i].length = sub[i].size();
		}
		return 1;
	} catch (...) {
		return -1;
	}
}

int cre2_match(const cre2_regexp_t *re, const char *text, size_t len,
	       size_t start, size_t end, cre2_anchor_t anchor,
	       cre2_string_t *match, int nmatch)
{
	return cre2_search(re->re, text, len, start, end, anchor, match,
			   nmatch);
}

/*
 * The probes' log: one temporary file for the process, made at the first
 * probe (a file per search cost more than the search: an inode each), fd
 * 2 pointed at it around each probe.  Only what a probe appends is read.
 */
static FILE *cre2_log(void)
{
	static FILE *log;

	if (log == nullptr)
		log = std::tmpfile();
	return log;
}

/* The size of f's file, or -1. */
static off_t cre2_log_size(FILE *f)
{
	struct stat st;

	return fstat(fileno(f), &st) == 0 ? st.st_size : -1;
}

/* Whether what the log holds from `from` on (its first 64 KiB) says
 * "DFA out of memory". */
static int cre2_log_says_oom(FILE *f, off_t from)
{
	static char buf[1 << 16];
	ssize_t n = pread(fileno(f), buf, sizeof(buf) - 1, from);

	if (n <= 0)
		return 0;
	buf[n] = '\0';
	return std::strstr(buf, "DFA out of memory") != nullptr;
}

/* Point fd 2 at the log (*saved: the old one), or back (log NULL). */
static int cre2_redirect(FILE *log, int *saved)
{
	std::fflush(stderr);
	if (log == nullptr) {
		dup2(*saved, 2);
		close(*saved);
		return 0;
	}
	*saved = dup(2);
	if (*saved >= 0 && dup2(fileno(log), 2) >= 0)
		return 0;
	if (*saved >= 0)
		close(*saved);
	return -1;
}

int cre2_match_probe(cre2_regexp_t *re, const char *text, size_t len,
		     size_t start, size_t end, cre2_anchor_t anchor,
		     cre2_string_t *match, int nmatch, int *dfa_failed)
{
	FILE *log = cre2_log();
	off_t from = log != nullptr ? cre2_log_size(log) : -1;
	int saved = -1, rc;

	*dfa_failed = 0;
	if (!re->re.ok() || from < 0)
		return -1;
	try {
		if (re->twin == nullptr) {
			re2::RE2::Options o(re->re.options());
			o.set_log_errors(true);
			re->twin.reset(new re2::RE2(re->re.pattern(), o));
		}
	} catch (...) {
		return -1;
	}
	if (cre2_redirect(log, &saved) != 0)
		return -1;
	rc = cre2_search(*re->twin, text, len, start, end, anchor, match,
			 nmatch);
	cre2_redirect(nullptr, &saved);
	if (cre2_log_size(log) > from)
		*dfa_failed = cre2_log_says_oom(log, from);
	return rc;
}

void cre2_drop_twin(cre2_regexp_t *re)
{
	re->twin.reset();
}

int cre2_partial_match(const cre2_regexp_t *re, const char *text, size_t len)
{
	return cre2_match(re, text, len, 0, len, CRE2_UNANCHORED, nullptr, 0);
}

cre2_set_t *cre2_set_new(const cre2_options_t *opt, cre2_anchor_t anchor)
{
	try {
		return new cre2_set(opt->opt, cre2_to_anchor(anchor));
	} catch (...) {
		return nullptr;
	}
}

/* Copies msg into error[0..error_len), NUL-terminated and truncated. */
static void cre2_copy_error(const char *msg, char *error, size_t error_len)
{
	size_t n;

	if (error == nullptr || error_len == 0)
		return;
	n = std::strlen(msg);
	if (n >= error_len)
		n = error_len - 1;
	std::memcpy(error, msg, n);
	error[n] = '\0';
}

int cre2_set_add(cre2_set_t *set, const char *pattern, size_t len,
		 char *error, size_t error_len)
{
	try {
		std::string msg;
		int id = set->set.Add(re2::StringPiece(pattern, len), &msg);

		if (id < 0)
			cre2_copy_error(msg.c_str(), error, error_len);
		return id;
	} catch (...) {
		cre2_copy_error("out of memory", error, error_len);
		return -1;
	}
}

int cre2_set_compile(cre2_set_t *set)
{
	try {
		set->compiled = set->set.Compile();
		return set->compiled ? 0 : -1;
	} catch (...) {
		return -1;
	}
}

/* One thread's result vector for a set (cre2_set_hits_new()). */
struct cre2_set_hits {
	std::vector<int> v;
};

/* The set's Match() into hits when ids are wanted. */
static long cre2_set_run(const cre2_set_t *set, std::vector<int> *hits,
			 re2::StringPiece text, bool want)
{
	re2::RE2::Set::ErrorInfo info = {re2::RE2::Set::kNoError};
	bool found = set->set.Match(text, want ? hits : nullptr, &info);

	if (found)
		return want ? static_cast<long>(hits->size()) : 1;
	switch (info.kind) {
	case re2::RE2::Set::kNoError:
		return 0;
	case re2::RE2::Set::kOutOfMemory:
		return -2;
	default:
		return -3;
	}
}

/* cre2_set_match() and cre2_set_match_hits() with the vector to reuse. */
static long cre2_set_match_in(const cre2_set_t *set, std::vector<int> *hits,
			      const char *text, size_t len, int *match,
			      size_t match_len)
{
	if (!set->compiled)
		return -1;
	try {
		long n = cre2_set_run(set, hits, re2::StringPiece(text, len),
				      match != nullptr);

		if (n <= 0 || match == nullptr)
			return n;
		for (size_t i = 0; i < hits->size() && i < match_len; i++)
			match[i] = (*hits)[i];
		return n;
	} catch (...) {
		return -3;
	}
}

long cre2_set_match(cre2_set_t *set, const char *text, size_t len,
		    int *match, size_t match_len)
{
	return cre2_set_match_in(set, &set->hits, text, len, match, match_len);
}

cre2_set_hits_t *cre2_set_hits_new(void)
{
	try {
		return new cre2_set_hits;
	} catch (...) {
		return nullptr;
	}
}

void cre2_set_hits_delete(cre2_set_hits_t *hits)
{
	delete hits;
}

long cre2_set_match_hits(const cre2_set_t *set, cre2_set_hits_t *hits,
			 const char *text, size_t len, int *match,
			 size_t match_len)
{
	return cre2_set_match_in(set, &hits->v, text, len, match, match_len);
}

void cre2_set_delete(cre2_set_t *set)
{
	delete set;
}
