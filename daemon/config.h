/* SPDX-License-Identifier: MIT */
/*
 * cloakfsd's settings file (libconfig syntax), by default
 * $XDG_CONFIG_HOME/cloakfs/cloakfsd.conf or ~/.config/cloakfs/cloakfsd.conf:
 *
 *   default_ttl = 3600;     # seconds a key lives when ADD asks for the default; 0 = no expiry
 *   max_ttl = 28800;        # upper bound for any key; 0 = no bound
 *   socket = "/run/user/1000/cloakfs/cloakfsd.sock";
 *   log_level = "info";     # debug, info, warn or error
 *   allow_root = false;     # accept requests from uid 0 too
 *
 * Unknown settings and wrong types are errors, reported as file:line.
 */
#ifndef CLOAKFS_DAEMON_CONFIG_H
#define CLOAKFS_DAEMON_CONFIG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define DAEMON_CONFIG_SOCKET_MAX 108 /* sizeof sun_path */

struct daemon_config {
	uint32_t default_ttl; /* 0: no expiry */
	uint32_t max_ttl;     /* 0: no bound */
	char socket[DAEMON_CONFIG_SOCKET_MAX]; /* "" = sockpath_default() */
	int log_level;        /* an enum log_level (base/log.h), or -1 = unset */
	bool allow_root;
};

void daemon_config_defaults(struct daemon_config *c);

/* the default settings file into buf: 0, -ENOENT (no home), -ENAMETOOLONG */
int daemon_config_default_path(char *buf, size_t len);

/*
 * Read path over the defaults already in *c. A missing file is fine when
 * missing_ok (the defaults stay); any other problem returns -EINVAL (or
 * -errno for I/O) with "file:line: message" in err.
 */
int daemon_config_load(const char *path, bool missing_ok, struct daemon_config *c,
		       char *err, size_t err_len);

#endif
