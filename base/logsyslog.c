/* SPDX-License-Identifier: MIT */
/* see logsyslog.h */
#include "base/logsyslog.h"

#include "base/log.h"

/* after log.h: syslog.h's LOG_DEBUG/LOG_INFO macros would rename its enum */
#include <syslog.h>

static void sink(enum log_level level, const char *msg)
{
	static const int prio[] = { LOG_DEBUG, LOG_INFO, LOG_WARNING, LOG_ERR };
	unsigned int i = (unsigned int)level;

	syslog(prio[i < 4 ? i : 3], "%s", msg);
}

void log_to_syslog(const char *ident)
{
	openlog(ident, LOG_PID | LOG_NDELAY, LOG_DAEMON);
	log_set_sink(sink);
}
