/*
 * http.h - one HTTP request as a packet payload: a request line, headers
 * and a form body, optionally carrying one attack the built-in rules
 * (corpora/rules.h) detect.  Used by corpora/packets.c.
 *
 * A packet is one whole request (corpora/http_req.h parses it) of exactly
 * the size: Content-Length says the body's length, the form pairs fill
 * it, and optional headers are dropped, from the last on, until the head
 * fits.  Only when no whole request fits (the smallest sizes, a long
 * attack) is the head cut at the size instead, as a packet of a longer
 * request would be.
 *
 * The benign parts come from a fixed vocabulary that matches no built-in
 * rule, and cutting text short cannot create a match (no rule looks for
 * an end), so the rules that match a packet are exactly the attack's
 * mask.  tests/test_payload.c checks that with PCRE2 on every size.
 */
#ifndef RXB_HTTP_H
#define RXB_HTTP_H

#include <stddef.h>
#include <stdint.h>

#include "corpora/rng.h"

/*
 * Fill out[0..size) with one packet.  With `attack`, plant one attack
 * chosen at random among those that fit whole in `size` bytes.  Returns
 * the mask of built-in rules the packet matches (1u << enum rule_builtin):
 * 0 when benign, or when no attack fits.
 */
uint32_t http_packet(struct rng *r, char *out, size_t size, int attack);

/* The number of attacks in the table, and attack i's text (for tests). */
size_t http_attack_count(void);
const char *http_attack_text(size_t i);

#endif
