/* SPDX-License-Identifier: MIT */
/* see syslog_sink.h */
#include "daemon/syslog_sink.h"

#include <syslog.h>

void syslog_sink_open(void)
{
	openlog("cloakfsd", LOG_PID | LOG_NDELAY, LOG_DAEMON);
}

void syslog_sink_write(int level, const char *msg)
{
	static const int priority[] = { LOG_DEBUG, LOG_INFO, LOG_WARNING, LOG_ERR };

	syslog(level >= 0 && level < 4 ? priority[level] : LOG_ERR, "%s", msg);
}
