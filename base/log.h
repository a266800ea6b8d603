/* SPDX-License-Identifier: MIT */
/*
 * The one logger of cloakfs. Messages go to stderr (or a sink a daemon
 * installs). $CLOAKFS_LOG=debug|info|warn|error sets the level (default
 * warn); $CLOAKFS_LOG_WARN_FATAL=1 aborts on the first warning, for tests.
 * Never pass key material or passphrases to these functions.
 */
#ifndef CLOAKFS_BASE_LOG_H
#define CLOAKFS_BASE_LOG_H

enum log_level { LOG_DEBUG = 0, LOG_INFO, LOG_WARN, LOG_ERROR };

void log_msg(enum log_level level, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* replace the stderr sink (e.g. syslog); NULL restores stderr */
void log_set_sink(void (*sink)(enum log_level, const char *msg));
void log_set_level(enum log_level level);

#define log_debug(...) log_msg(LOG_DEBUG, __VA_ARGS__)
#define log_info(...) log_msg(LOG_INFO, __VA_ARGS__)
#define log_warn(...) log_msg(LOG_WARN, __VA_ARGS__)
#define log_error(...) log_msg(LOG_ERROR, __VA_ARGS__)

#endif
