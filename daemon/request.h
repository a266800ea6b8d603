/* SPDX-License-Identifier: MIT */
/*
 * Decoding one request frame (docs/daemon-protocol.md, "Requests") into
 * its fields, with every check the protocol makes on a payload, and
 * nothing else: no socket, no key store. cloakfsd's server and the
 * fuzz target tests/fuzz/fuzz_daemon_frame.c both use it.
 */
#ifndef CLOAKFS_DAEMON_REQUEST_H
#define CLOAKFS_DAEMON_REQUEST_H

#include <stddef.h>
#include <stdint.h>

#include "daemon/protocol.h"

/* pointers go into the frame's payload (no copy: key bytes stay there) */
struct proto_request {
	uint8_t version;    /* the frame's */
	uint8_t type;       /* CLOAKFSD_ADD .. CLOAKFSD_LOCK_PATH */
	const uint8_t *id;  /* all but LIST, LOCK_ALL, LOCK_PATH: 16 bytes */
	uint32_t ttl;       /* ADD, as sent */
	const uint8_t *key; /* ADD: 1..CLOAKFSD_KEY_MAX bytes */
	size_t key_len;
	/*
	 * ADD, SUBSCRIBE, REGISTER (version 2), LOCK_PATH: no NUL inside, not
	 * NUL-terminated, 0..CLOAKFSD_PATH_MAX bytes; LOCK_PATH's is 1 or more
	 * bytes and starts with '/'. alias: version 2's second path of ADD,
	 * SUBSCRIBE and REGISTER (0 bytes: none).
	 */
	const char *path;
	size_t path_len;
	const char *alias;
	size_t alias_len;
};

/*
 * Decode frame f as a request, by the layout of its version. Returns 0
 * and fills *req, or -EPROTO and sets *why (a static string for the log;
 * may be NULL) for a type unknown in that version or a payload that does
 * not match its type exactly. A type the
 * daemon does not know is named with its number in why_buf (at least
 * 48 bytes), which *why then points to.
 */
int proto_decode_request(const struct proto_frame *f, struct proto_request *req,
			 const char **why, char *why_buf, size_t why_len);

#endif
