/* SPDX-License-Identifier: MIT */
/* see request.h */
#include "daemon/request.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

static int refuse(const char **why, const char *what)
{
	if (why)
		*why = what;
	return -EPROTO;
}

/* plen:u16 path[plen], no NUL inside; false when malformed */
static bool get_path(struct proto_reader *r, const char **path, size_t *len)
{
	*len = proto_get_u16(r);
	*path = (const char *)proto_get_bytes(r, *len);
	return !r->err && *len <= CLOAKFSD_PATH_MAX && !(*len && memchr(*path, '\0', *len));
}

/* version 2's second path (after the first): present and well formed */
static bool get_alias(struct proto_reader *r, struct proto_request *req)
{
	return req->version < 2 || get_path(r, &req->alias, &req->alias_len);
}

static int decode_add(struct proto_reader *r, struct proto_request *req,
		      const char **why)
{
	bool ok;

	req->id = proto_get_bytes(r, CLOAKFSD_KEY_ID_LEN);
	req->ttl = proto_get_u32(r);
	req->key_len = proto_get_u8(r);
	req->key = proto_get_bytes(r, req->key_len);
	ok = get_path(r, &req->path, &req->path_len) && get_alias(r, req);
	if (!ok || !proto_done(r) || req->key_len == 0 || req->key_len > CLOAKFSD_KEY_MAX)
		return refuse(why, "malformed ADD");
	return 0;
}

int proto_decode_request(const struct proto_frame *f, struct proto_request *req,
			 const char **why, char *why_buf, size_t why_len)
{
	struct proto_reader r = { f->payload, f->payload_len, false };

	memset(req, 0, sizeof(*req));
	req->version = f->version;
	req->type = f->type;
	switch (f->type) {
	case CLOAKFSD_ADD:
		return decode_add(&r, req, why);
	case CLOAKFSD_LIST:
	case CLOAKFSD_LOCK_ALL:
		if (!proto_done(&r))
			return refuse(why, "request with unexpected payload");
		return 0;
	case CLOAKFSD_GET:
	case CLOAKFSD_REMOVE:
		req->id = proto_get_bytes(&r, CLOAKFSD_KEY_ID_LEN);
		if (!proto_done(&r))
			return refuse(why, "request without a 16-byte key id");
		return 0;
	case CLOAKFSD_SUBSCRIBE:
	case CLOAKFSD_REGISTER:
		req->id = proto_get_bytes(&r, CLOAKFSD_KEY_ID_LEN);
		if (req->version >= 2 && !get_path(&r, &req->path, &req->path_len))
			return refuse(why, "malformed subscription path");
		if (!get_alias(&r, req) || !proto_done(&r))
			return refuse(why, "malformed subscription");
		return 0;
	case CLOAKFSD_LOCK_PATH:
		if (req->version < 2)
			break;
		if (!get_path(&r, &req->path, &req->path_len) || !proto_done(&r) ||
		    !req->path_len || req->path[0] != '/')
			return refuse(why, "malformed LOCK_PATH");
		return 0;
	default:
		break;
	}
	if (why_buf && why_len)
		snprintf(why_buf, why_len, "unknown request type 0x%02x (version %u)",
			 f->type, f->version);
	return refuse(why, why_buf && why_len ? why_buf : "unknown request type");
}
