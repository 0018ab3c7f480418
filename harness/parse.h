/*
 * parse.h - the checked number parsing every option uses (never atoi or a
 * bare strtoull): decimal digits only, no sign, no blanks, no hex, the
 * whole string, within a range.  A failure leaves *out alone and says
 * why in err, in words a user can act on, without the option's name
 * (the caller prefixes "rxbench: --sizes=12x: ").
 */
#ifndef RXB_PARSE_H
#define RXB_PARSE_H

#include <stddef.h>
#include <stdint.h>

/*
 * A whole number in [min, max]: "0" to "18446744073709551615".  0, or -1
 * with err "not a whole number" / "must be from 1 to 16".
 */
int parse_u64(const char *s, uint64_t min, uint64_t max, uint64_t *out,
	      char *err, size_t size);

/* parse_u64() into a size_t. */
int parse_size(const char *s, size_t min, size_t max, size_t *out, char *err,
	       size_t size);

/*
 * A decimal number ("100", "0.5", ".5", "1e3") in [min, max], finite.
 * 0, or -1 with err "not a number" / "must be from 0 to 1".
 */
int parse_real(const char *s, double min, double max, double *out, char *err,
	       size_t size);

/*
 * Each comma-separated item of s through parse_size() into out[0..max):
 * "64,128,1500".  0 with *n items, or -1 with err naming the item
 * ("'12x' is not a whole number"), an empty item, or more than max.
 */
int parse_size_list(const char *s, size_t min, size_t max, size_t *out,
		    size_t cap, size_t *n, char *err, size_t size);

#endif
