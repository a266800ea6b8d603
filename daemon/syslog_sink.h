/* SPDX-License-Identifier: MIT */
/*
 * Logging to syslog once cloakfsd has detached from its terminal. Kept
 * apart because <syslog.h> defines LOG_DEBUG/LOG_INFO macros that clash
 * with the names of crypto/log.h's enum log_level.
 */
#ifndef CLOAKFS_DAEMON_SYSLOG_SINK_H
#define CLOAKFS_DAEMON_SYSLOG_SINK_H

void syslog_sink_open(void);
/* level: an enum log_level value (0 debug .. 3 error) */
void syslog_sink_write(int level, const char *msg);

#endif
