/*
 * text.c - generated prose corpus (see text.h).
 */
#include "corpora/text.h"

#include "corpora/rng.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const words[] = {
	"the", "of", "and", "to", "a", "in", "that", "it", "was", "he",
	"his", "with", "for", "as", "had", "you", "not", "be", "her", "is",
	"at", "on", "by", "which", "have", "from", "this", "him", "but", "all",
	"she", "they", "were", "my", "are", "me", "one", "their", "so", "an",
	"said", "them", "we", "who", "would", "been", "will", "no", "when", "there",
	"river", "raft", "morning", "evening", "nothing", "something", "walking",
	"talking", "thinking", "looking", "window", "street", "letter", "door",
	"private", "primate", "priority", "pirate", "prize", "detective", "case",
	"London", "Baker", "Street", "Missouri", "Mississippi", "St.", "Petersburg",
	"Sherlock", "Holmes", "Watson", "Irene", "Adler", "Moriarty", "Lestrade",
	"Twain", "Huckleberry", "Finn", "Tom", "Sawyer", "Becky", "Thatcher",
	"Jim", "Polly", "I", "said", "remarked", "answered", "cried", "whispered",
};

static size_t emit(char *buf, size_t at, size_t cap, const char *s)
{
	size_t len = strlen(s);

	if (at + len > cap)
		len = cap - at;
	memcpy(buf + at, s, len);
	return at + len;
}

/*
 * The draws of a date and of an address, one statement each: the order
 * of a call's arguments is unspecified in C, so draws inside one call
 * would make another compiler's corpus differ.  These are the orders
 * GCC 12 evaluated them in on x86-64 (the last argument first), which
 * the expected counts and golden files were made with.
 */
static void date(struct rng *r, char *tok, size_t size)
{
	unsigned day = (unsigned)(1 + rng_below(r, 28));
	unsigned month = (unsigned)(1 + rng_below(r, 12));
	unsigned year = (unsigned)(1850 + rng_below(r, 170));

	snprintf(tok, size, "%04u-%02u-%02u", year, month, day);
}

static void address(struct rng *r, char *tok, size_t size)
{
	static const char *const tld[] = {"com", "org", "net"};
	const char *top = tld[rng_below(r, 3)];
	const char *domain = words[50 + rng_below(r, 20)];
	unsigned n = (unsigned)rng_below(r, 100);
	const char *user = words[rng_below(r, 50)];

	snprintf(tok, size, "%s%u@%s.%s", user, n, domain, top);
}

/* One token: usually a word, sometimes a number, date or address. */
static void token(struct rng *r, char *tok, size_t size)
{
	uint64_t k = rng_below(r, 1000);

	if (k < 6)
		date(r, tok, size);
	else if (k < 10)
		address(r, tok, size);
	else if (k < 30)
		snprintf(tok, size, "%u", (unsigned)rng_below(r, 100000));
	else
		snprintf(tok, size, "%s",
			 words[rng_below(r, sizeof(words) / sizeof(words[0]))]);
}

int text_generate(struct corpus *c, size_t size, uint64_t seed)
{
	struct rng r;
	size_t at = 0, col = 0;
	char tok[96];

	c->data = malloc(size + 1);
	c->len = 0;
	if (c->data == NULL)
		return -1;
	rng_init(&r, seed);
	while (at < size) {
		token(&r, tok, sizeof(tok));
		if (col == 0 && tok[0] >= 'a' && tok[0] <= 'z')
			tok[0] = (char)(tok[0] - 'a' + 'A');
		at = emit(c->data, at, size, tok);
		col += strlen(tok);
		if (col > 60 + rng_below(&r, 20)) {
			at = emit(c->data, at, size, rng_below(&r, 4) ? ".\n" : ",\n");
			col = 0;
		} else {
			at = emit(c->data, at, size, " ");
			col++;
		}
	}
	c->data[at] = '\0';
	c->len = at;
	return 0;
}
