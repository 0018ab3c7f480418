/*
 * fuzz_check.h - what every fuzz target asserts about a reader's error
 * message besides the sanitizers: it names the input and is one
 * printable line (the readers escape bytes they quote).
 */
#ifndef RXB_FUZZ_CHECK_H
#define RXB_FUZZ_CHECK_H

#include <string.h>

/* 1 when msg starts with `name` and holds no control byte. */
static inline int fuzz_message_ok(const char *msg, const char *name)
{
	if (strncmp(msg, name, strlen(name)) != 0)
		return 0;
	for (; *msg; msg++)
		if ((unsigned char)*msg < 0x20 || *msg == 0x7f)
			return 0;
	return 1;
}

#endif
