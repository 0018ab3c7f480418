/*
 * status.h - the one set of statuses every layer shares, and their names.
 *
 * A status is 0 or negative.  ENGINE_* are what an engine's call returns
 * (compile, is_match, count, match_ids); STATUS_*, below all of them, are
 * what the harness saw when it ran such a call: in a forked child that
 * crashed or missed --timeout, one never started, a measurement that
 * failed.  Suites and the harness pass these around as int; a row's
 * status (enum result_status, harness/results.h) is derived from one by
 * result_status_of().
 */
#ifndef RXB_STATUS_H
#define RXB_STATUS_H

enum engine_status {
	ENGINE_OK = 0,
	ENGINE_ERR_COMPILE = -1,     /* pattern rejected; see engine_error */
	ENGINE_ERR_UNSUPPORTED = -2, /* the engine lacks a needed capability */
	ENGINE_ERR_LIMIT = -3,       /* match/backtrack limit reached */
	ENGINE_ERR_NOMEM = -4,
	ENGINE_ERR_MATCH = -5,       /* any other run-time engine failure */

	STATUS_CALLGRIND = -32,   /* the callgrind counters could not be read */
	STATUS_CRASHED = -64,     /* the child died (a signal, or an exit) in it */
	STATUS_TIMEOUT = -65,     /* no answer within --timeout: child killed */
	STATUS_SYSTEM = -66,      /* pipe or fork failed: no child to run it in */
	STATUS_INTERRUPTED = -67, /* SIGINT/SIGTERM (harness/interrupt.h) */
	STATUS_SKIPPED = -68,     /* passed over after an earlier failure */
	STATUS_MISMATCH = -69,    /* a timed run's answer differed from the
				     verified one (harness/threads.h) */
};

/* One-line name of a status, e.g. "match limit"; "unknown error" for a
 * value not above. */
const char *engine_status_name(int status);

#endif
