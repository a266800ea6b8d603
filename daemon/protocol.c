/* SPDX-License-Identifier: MIT */
/* see protocol.h */
#include "daemon/protocol.h"

#include <errno.h>
#include <string.h>

uint32_t proto_load_u32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

void proto_store_u32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)(v >> 24);
	p[1] = (uint8_t)(v >> 16);
	p[2] = (uint8_t)(v >> 8);
	p[3] = (uint8_t)v;
}

void proto_begin(struct proto_writer *w, uint8_t *buf, size_t cap, uint8_t type)
{
	proto_begin_v(w, buf, cap, CLOAKFSD_PROTO_VERSION, type);
}

void proto_begin_v(struct proto_writer *w, uint8_t *buf, size_t cap, uint8_t version,
		   uint8_t type)
{
	w->buf = buf;
	w->cap = cap < CLOAKFSD_WIRE_MAX ? cap : CLOAKFSD_WIRE_MAX;
	w->len = 0;
	w->err = w->cap < CLOAKFSD_FRAME_HDR + 2;
	if (w->err)
		return;
	w->len = CLOAKFSD_FRAME_HDR;
	w->buf[w->len++] = version;
	w->buf[w->len++] = type;
}

void proto_put_bytes(struct proto_writer *w, const void *p, size_t n)
{
	if (w->err || n > w->cap - w->len) {
		w->err = true;
		return;
	}
	if (n)
		memcpy(w->buf + w->len, p, n);
	w->len += n;
}

void proto_put_u8(struct proto_writer *w, uint8_t v)
{
	proto_put_bytes(w, &v, 1);
}

void proto_put_u16(struct proto_writer *w, uint16_t v)
{
	uint8_t b[2] = { (uint8_t)(v >> 8), (uint8_t)v };

	proto_put_bytes(w, b, 2);
}

void proto_put_u32(struct proto_writer *w, uint32_t v)
{
	uint8_t b[4];

	proto_store_u32(b, v);
	proto_put_bytes(w, b, 4);
}

size_t proto_end(struct proto_writer *w)
{
	if (w->err)
		return 0;
	proto_store_u32(w->buf, (uint32_t)(w->len - CLOAKFSD_FRAME_HDR));
	return w->len;
}

const uint8_t *proto_get_bytes(struct proto_reader *r, size_t n)
{
	const uint8_t *p = r->p;

	if (r->err || n > r->left) {
		r->err = true;
		return NULL;
	}
	r->p += n;
	r->left -= n;
	return p;
}

uint8_t proto_get_u8(struct proto_reader *r)
{
	const uint8_t *p = proto_get_bytes(r, 1);

	return p ? p[0] : 0;
}

uint16_t proto_get_u16(struct proto_reader *r)
{
	const uint8_t *p = proto_get_bytes(r, 2);

	return p ? (uint16_t)(p[0] << 8 | p[1]) : 0;
}

uint32_t proto_get_u32(struct proto_reader *r)
{
	const uint8_t *p = proto_get_bytes(r, 4);

	return p ? proto_load_u32(p) : 0;
}

bool proto_done(const struct proto_reader *r)
{
	return !r->err && r->left == 0;
}

int proto_parse(const uint8_t *buf, size_t len, struct proto_frame *f)
{
	uint32_t body;

	if (len < CLOAKFSD_FRAME_HDR)
		return 0;
	body = proto_load_u32(buf);
	if (body > CLOAKFSD_FRAME_MAX)
		return -EMSGSIZE;
	if (body < 2)
		return -EPROTO;
	/* reject a wrong version before waiting for the rest of the body */
	if (len > CLOAKFSD_FRAME_HDR && (buf[CLOAKFSD_FRAME_HDR] < CLOAKFSD_PROTO_VERSION_MIN ||
					 buf[CLOAKFSD_FRAME_HDR] > CLOAKFSD_PROTO_VERSION))
		return -EPROTO;
	if (len < CLOAKFSD_FRAME_HDR + (size_t)body)
		return 0;
	f->version = buf[CLOAKFSD_FRAME_HDR];
	f->type = buf[CLOAKFSD_FRAME_HDR + 1];
	f->payload = buf + CLOAKFSD_FRAME_HDR + 2;
	f->payload_len = body - 2;
	f->wire_len = CLOAKFSD_FRAME_HDR + (size_t)body;
	return 1;
}
