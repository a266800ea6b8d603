/* SPDX-License-Identifier: MIT */
/*
 * Sending base/log.h messages to syslog once a program is in the
 * background (the mount, cloakfsd). Apart from log.c because <syslog.h>
 * defines LOG_DEBUG/LOG_INFO macros that would rename log.h's enum.
 */
#ifndef CLOAKFS_BASE_LOGSYSLOG_H
#define CLOAKFS_BASE_LOGSYSLOG_H

/* openlog(ident) now (LOG_NDELAY: before stdio goes to /dev/null) and
 * install the sink */
void log_to_syslog(const char *ident);

#endif
