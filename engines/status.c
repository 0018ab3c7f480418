/*
 * status.c - the names of the statuses (see status.h).
 */
#include "engines/status.h"

#include <stddef.h>

static const struct {
	int status;
	const char *name;
} status_names[] = {
	{ENGINE_OK, "ok"},
	{ENGINE_ERR_COMPILE, "compile error"},
	{ENGINE_ERR_UNSUPPORTED, "unsupported"},
	{ENGINE_ERR_LIMIT, "match limit"},
	{ENGINE_ERR_NOMEM, "out of memory"},
	{ENGINE_ERR_MATCH, "match error"},
	{STATUS_CALLGRIND, "callgrind failed"},
	{STATUS_CRASHED, "crashed"},
	{STATUS_TIMEOUT, "timeout"},
	{STATUS_SYSTEM, "pipe or fork failed"},
	{STATUS_INTERRUPTED, "interrupted"},
	{STATUS_SKIPPED, "skipped after an earlier failure"},
	{STATUS_MISMATCH, "wrong answer"},
};

const char *engine_status_name(int status)
{
	for (size_t i = 0; i < sizeof(status_names) / sizeof(status_names[0]); i++)
		if (status_names[i].status == status)
			return status_names[i].name;
	return "unknown error";
}
