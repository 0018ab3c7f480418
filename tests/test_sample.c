/*
 * test_sample.c - the wire form of a sample (harness/sample.h): a round
 * trip, truncated and corrupted messages refused, a failure's text.
 */
#include <criterion/criterion.h>

#include <string.h>

#include "engines/status.h"
#include "harness/sample.h"

Test(sample, wire_round_trip)
{
	struct result a = {0}, b = {0};
	unsigned char buf[1024];
	char why[64];
	size_t len;
	int rc = 1;

	result_sample_begin(&a, 123);
	result_metric_add(&a, "ns/op", BETTER_LOWER, 45.5);
	result_metric_add(&a, "MB/s", BETTER_HIGHER, 1e3);
	result_metric_add(&a, "domains", BETTER_EXACT, 500);
	len = sample_encode(&a, 0, 0, NULL, buf, sizeof(buf));
	cr_assert_gt(len, 0);
	cr_assert_eq(sample_decode(buf, len, &b, &rc, why, sizeof(why)), 0);
	cr_assert_eq(rc, 0);
	cr_assert_eq(b.nsamples, 1);
	cr_assert_eq(b.iters[0], 123);
	cr_assert_eq(b.nm, 3);
	cr_assert_float_eq(result_metric(&b, "ns/op")->v[0], 45.5, 0);
	cr_assert_eq(result_metric(&b, "MB/s")->better, BETTER_HIGHER);
	cr_assert_float_eq(result_metric(&b, "domains")->v[0], 500, 0);
	/* truncated or corrupted messages are refused */
	cr_assert_eq(sample_decode(buf, len - 1, &b, &rc, why, sizeof(why)), -1);
	buf[0] = 'X';
	cr_assert_eq(sample_decode(buf, len, &b, &rc, why, sizeof(why)), -1);
	cr_assert_eq(sample_encode(&a, 0, 0, NULL, buf, 10), 0);
	/* a failure carries its text and no sample */
	len = sample_encode(&a, 0, ENGINE_ERR_LIMIT, "match limit while timing",
			     buf, sizeof(buf));
	cr_assert_eq(sample_decode(buf, len, &b, &rc, why, sizeof(why)), 0);
	cr_assert_eq(rc, ENGINE_ERR_LIMIT);
	cr_assert_str_eq(why, "match limit while timing");
	result_release(&a);
	result_release(&b);
}
