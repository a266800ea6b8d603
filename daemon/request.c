/* SPDX-License-Identifier: MIT */
/* see request.h */
#include "daemon/request.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

static int refuse(const char **why, const char *what)
{
	if (why)
		*why = what;
	return -EPROTO;
}

static int decode_add(struct proto_reader *r, struct proto_request *req,
		      const char **why)
{
	req->id = proto_get_bytes(r, CLOAKFSD_KEY_ID_LEN);
	req->ttl = proto_get_u32(r);
	req->key_len = proto_get_u8(r);
	req->key = proto_get_bytes(r, req->key_len);
	req->path_len = proto_get_u16(r);
	req->path = (const char *)proto_get_bytes(r, req->path_len);
	if (!proto_done(r) || req->key_len == 0 || req->key_len > CLOAKFSD_KEY_MAX ||
	    req->path_len > CLOAKFSD_PATH_MAX ||
	    (req->path_len && memchr(req->path, '\0', req->path_len)))
		return refuse(why, "malformed ADD");
	return 0;
}

int proto_decode_request(const struct proto_frame *f, struct proto_request *req,
			 const char **why, char *why_buf, size_t why_len)
{
	struct proto_reader r = { f->payload, f->payload_len, false };

	memset(req, 0, sizeof(*req));
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
	case CLOAKFSD_SUBSCRIBE:
	case CLOAKFSD_REGISTER:
		req->id = proto_get_bytes(&r, CLOAKFSD_KEY_ID_LEN);
		if (!proto_done(&r))
			return refuse(why, "request without a 16-byte key id");
		return 0;
	default:
		if (why_buf && why_len)
			snprintf(why_buf, why_len, "unknown request type 0x%02x", f->type);
		return refuse(why, why_buf && why_len ? why_buf : "unknown request type");
	}
}
