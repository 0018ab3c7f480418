/*
 * libc_regex.c - look glibc's regex functions up in libc (see libc_regex.h).
 */
#define _GNU_SOURCE
#include "engines/libc_regex.h"

#include <dlfcn.h>
#include <gnu/lib-names.h>
#include <pthread.h>

static struct libc_regex api;
static pthread_once_t api_once = PTHREAD_ONCE_INIT;

static void libc_regex_load(void)
{
	void *libc = dlopen(LIBC_SO, RTLD_LAZY | RTLD_NOLOAD);

	if (libc == NULL)
		return;
	api.comp = (int (*)(regex_t *, const char *, int))dlsym(libc,
								"regcomp");
	api.exec = (int (*)(const regex_t *, const char *, size_t,
			    regmatch_t *, int))dlsym(libc, "regexec");
	api.free = (void (*)(regex_t *))dlsym(libc, "regfree");
	api.error = (size_t (*)(int, const regex_t *, char *, size_t))dlsym(
		libc, "regerror");
	dlclose(libc); /* libc stays loaded: NOLOAD only took a reference */
}

const struct libc_regex *libc_regex(void)
{
	pthread_once(&api_once, libc_regex_load);
	if (api.comp == NULL || api.exec == NULL || api.free == NULL ||
	    api.error == NULL)
		return NULL;
	return &api;
}
