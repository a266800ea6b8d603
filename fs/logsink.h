/* SPDX-License-Identifier: MIT */
/* Sending crypto/log.h messages to syslog once cloakfs is in the background. */
#ifndef CLOAKFS_FS_LOGSINK_H
#define CLOAKFS_FS_LOGSINK_H

/* openlog(ident) and install the sink */
void log_to_syslog(const char *ident);

#endif
