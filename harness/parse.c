/*
 * parse.c - checked number parsing (see parse.h).
 */
#include "harness/parse.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int all_digits(const char *s, size_t len)
{
	if (len == 0)
		return 0;
	for (size_t i = 0; i < len; i++)
		if (s[i] < '0' || s[i] > '9')
			return 0;
	return 1;
}

int parse_u64(const char *s, uint64_t min, uint64_t max, uint64_t *out,
	      char *err, size_t size)
{
	unsigned long long v;

	if (s == NULL || !all_digits(s, strlen(s))) {
		snprintf(err, size, "not a whole number");
		return -1;
	}
	errno = 0;
	v = strtoull(s, NULL, 10);
	if (errno != 0 || v < min || v > max) {
		snprintf(err, size, "must be from %llu to %llu",
			 (unsigned long long)min, (unsigned long long)max);
		return -1;
	}
	*out = v;
	return 0;
}

int parse_size(const char *s, size_t min, size_t max, size_t *out, char *err,
	       size_t size)
{
	uint64_t v;

	if (parse_u64(s, min, max, &v, err, size) != 0)
		return -1;
	*out = (size_t)v;
	return 0;
}

/* Digits, at most one '.', at least one digit, then an optional e[+-]N. */
static int decimal_syntax(const char *s)
{
	size_t digits = 0, dots = 0, i = 0;

	for (; s[i] != '\0' && s[i] != 'e' && s[i] != 'E'; i++) {
		if (s[i] >= '0' && s[i] <= '9')
			digits++;
		else if (s[i] == '.')
			dots++;
		else
			return 0;
	}
	if (digits == 0 || dots > 1)
		return 0;
	if (s[i] == '\0')
		return 1;
	i++;
	if (s[i] == '+' || s[i] == '-')
		i++;
	return all_digits(s + i, strlen(s + i));
}

int parse_real(const char *s, double min, double max, double *out, char *err,
	       size_t size)
{
	double v;

	if (s == NULL || !decimal_syntax(s)) {
		snprintf(err, size, "not a number");
		return -1;
	}
	errno = 0;
	v = strtod(s, NULL);
	if (errno != 0 || !isfinite(v) || v < min || v > max) {
		snprintf(err, size, "must be from %g to %g", min, max);
		return -1;
	}
	*out = v;
	return 0;
}

int parse_size_list(const char *s, size_t min, size_t max, size_t *out,
		    size_t cap, size_t *n, char *err, size_t size)
{
	char item[32], why[96];
	size_t k = 0;

	for (const char *p = s;; p++) {
		size_t len = strcspn(p, ",");
		if (len == 0) {
			snprintf(err, size, "an empty item");
			return -1;
		}
		if (k == cap) {
			snprintf(err, size, "more than %zu items", cap);
			return -1;
		}
		snprintf(item, sizeof(item), "%.*s", (int)len, p);
		if (len >= sizeof(item) ||
		    parse_size(item, min, max, &out[k], why, sizeof(why)) != 0) {
			snprintf(err, size, "'%.*s': %s", len > 40 ? 40 : (int)len,
				 p, len >= sizeof(item) ? "too long" : why);
			return -1;
		}
		k++;
		p += len;
		if (*p == '\0')
			break;
	}
	*n = k;
	return 0;
}
