/* SPDX-License-Identifier: MIT */
#include "base/log.h"

#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void (*log_sink)(enum log_level, const char *);
/* -1 until set or read from $CLOAKFS_LOG at the first message; atomic:
 * the mount's threads log at once, the first of them may set it */
static _Atomic int min_level = -1;

void log_set_sink(void (*sink)(enum log_level, const char *msg))
{
	log_sink = sink;
}

void log_set_level(enum log_level level)
{
	atomic_store(&min_level, (int)level);
}

static enum log_level level_from_env(void)
{
	const char *e = getenv("CLOAKFS_LOG");

	if (!e)
		return LOG_WARN;
	if (!strcmp(e, "debug"))
		return LOG_DEBUG;
	if (!strcmp(e, "info"))
		return LOG_INFO;
	if (!strcmp(e, "error"))
		return LOG_ERROR;
	return LOG_WARN;
}

void log_msg(enum log_level level, const char *fmt, ...)
{
	static const char *const names[] = { "debug", "info", "warning", "error" };
	const char *fatal = getenv("CLOAKFS_LOG_WARN_FATAL");
	char msg[1024];
	va_list ap;
	int min = atomic_load(&min_level);

	if (min < 0) {
		int unset = -1;

		min = (int)level_from_env();
		/* a level set meanwhile wins over the environment's */
		if (!atomic_compare_exchange_strong(&min_level, &unset, min))
			min = unset;
	}
	if ((int)level < min)
		return;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (log_sink)
		log_sink(level, msg);
	else
		fprintf(stderr, "cloakfs: %s: %s\n", names[level], msg);
	if (level >= LOG_WARN && fatal && !strcmp(fatal, "1"))
		abort();
}
