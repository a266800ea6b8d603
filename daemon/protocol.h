/* SPDX-License-Identifier: MIT */
/*
 * The cloakfsd wire protocol, shared by the daemon and its client library.
 * docs/daemon-protocol.md is the byte-exact description; this header holds
 * its constants and a small bounds-checked codec.
 *
 * Frame: u32 big-endian body length L, then L body bytes:
 *   u8 version (CLOAKFSD_PROTO_VERSION), u8 type, payload (L - 2 bytes).
 * 2 <= L <= CLOAKFSD_FRAME_MAX. All integers are big-endian.
 */
#ifndef CLOAKFS_DAEMON_PROTOCOL_H
#define CLOAKFS_DAEMON_PROTOCOL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define CLOAKFSD_PROTO_VERSION 2     /* what the client library speaks */
#define CLOAKFSD_PROTO_VERSION_MIN 1 /* the oldest the daemon still serves */
#define CLOAKFSD_FRAME_HDR 4       /* the length field */
#define CLOAKFSD_FRAME_MAX 8448    /* largest body, version and type included */
#define CLOAKFSD_REPLY_MAX 4352    /* largest reply or event body */
#define CLOAKFSD_KEY_ID_LEN 16
#define CLOAKFSD_KEY_MAX 64
#define CLOAKFSD_PATH_MAX 4095     /* volume path bytes, no NUL inside */
#define CLOAKFSD_SUB_PATHS 2       /* paths a subscription (or key) names */
#define CLOAKFSD_LOCKED_IDS 16     /* ids a LOCKED reply names at most */
#define CLOAKFSD_TTL_DEFAULT 0u            /* ADD: use the daemon's default */
#define CLOAKFSD_TTL_NONE UINT32_MAX       /* ADD: no expiry; GET/LIST: never */

enum cloakfsd_type {
	/* requests */
	/* version 2 adds the path fields after "|" and LOCK_PATH */
	CLOAKFSD_ADD = 0x01,       /* id[16] ttl:u32 klen:u8 key[klen] plen:u16 path
				    * | alen:u16 alias */
	CLOAKFSD_GET = 0x02,       /* id[16] */
	CLOAKFSD_REMOVE = 0x03,    /* id[16] */
	CLOAKFSD_LIST = 0x04,      /* (empty) */
	CLOAKFSD_LOCK_ALL = 0x05,  /* (empty) */
	CLOAKFSD_SUBSCRIBE = 0x06, /* id[16] | plen:u16 path alen:u16 alias */
	CLOAKFSD_REGISTER = 0x07,  /* as SUBSCRIBE: a mount that holds the key */
	CLOAKFSD_LOCK_PATH = 0x08, /* plen:u16 path: lock what names that path */
	/* replies and events */
	CLOAKFSD_OK = 0x80,         /* value:u32 */
	CLOAKFSD_ERROR = 0x81,      /* code:u32 (a Linux errno number) */
	CLOAKFSD_KEY = 0x82,        /* klen:u8 key[klen] seconds_left:u32 */
	CLOAKFSD_LIST_ENTRY = 0x83, /* id[16] seconds_left:u32 plen:u16 path */
	CLOAKFSD_EVENT = 0x84,      /* reason:u8 id[16] */
	CLOAKFSD_LOCKED = 0x85,     /* keys:u16 holders:u16 n:u8 id[16]*n (LOCK_PATH) */
};

enum cloakfsd_event_reason {
	CLOAKFSD_EV_REMOVED = 1,  /* a REMOVE or LOCK_PATH request */
	CLOAKFSD_EV_EXPIRED = 2,  /* its time-to-live ran out */
	CLOAKFSD_EV_LOCKED = 3,   /* LOCK_ALL */
	CLOAKFSD_EV_SHUTDOWN = 4, /* the daemon is exiting; keys are wiped */
	CLOAKFSD_EV_ADDED = 5,    /* the key was added (again) */
};

/* the largest frames, header included, for sizing buffers */
#define CLOAKFSD_WIRE_MAX (CLOAKFSD_FRAME_HDR + CLOAKFSD_FRAME_MAX)
#define CLOAKFSD_REPLY_WIRE_MAX (CLOAKFSD_FRAME_HDR + CLOAKFSD_REPLY_MAX)
#define CLOAKFSD_EVENT_WIRE (CLOAKFSD_FRAME_HDR + 2 + 1 + CLOAKFSD_KEY_ID_LEN)

/* A writer over a caller's buffer; any overflow sets err and writes nothing. */
struct proto_writer {
	uint8_t *buf;
	size_t cap, len;
	bool err;
};

/* start a frame of the given type at w->buf (reserves the header) */
void proto_begin(struct proto_writer *w, uint8_t *buf, size_t cap, uint8_t type);
/* the same in an older protocol version (the daemon answering one) */
void proto_begin_v(struct proto_writer *w, uint8_t *buf, size_t cap, uint8_t version,
		   uint8_t type);
void proto_put_u8(struct proto_writer *w, uint8_t v);
void proto_put_u16(struct proto_writer *w, uint16_t v);
void proto_put_u32(struct proto_writer *w, uint32_t v);
void proto_put_bytes(struct proto_writer *w, const void *p, size_t n);
/* fill in the length; returns the frame's total size, or 0 on overflow */
size_t proto_end(struct proto_writer *w);

/* A reader over one frame's payload; any underflow sets err. */
struct proto_reader {
	const uint8_t *p;
	size_t left;
	bool err;
};

uint8_t proto_get_u8(struct proto_reader *r);
uint16_t proto_get_u16(struct proto_reader *r);
uint32_t proto_get_u32(struct proto_reader *r);
/* a pointer into the frame (no copy, so secrets stay in one buffer) */
const uint8_t *proto_get_bytes(struct proto_reader *r, size_t n);
/* true when the payload was read exactly, without underflow */
bool proto_done(const struct proto_reader *r);

/* A frame found at the start of a receive buffer. */
struct proto_frame {
	uint8_t version; /* CLOAKFSD_PROTO_VERSION_MIN .. CLOAKFSD_PROTO_VERSION */
	uint8_t type;
	const uint8_t *payload;
	size_t payload_len;
	size_t wire_len; /* header + body: how much to consume */
};

/*
 * Look for one frame at buf[0..len). Returns 1 and fills *f when a whole
 * frame is there, 0 when more bytes are needed, -EMSGSIZE for a length
 * above CLOAKFSD_FRAME_MAX, -EPROTO for a length below 2 or a version
 * outside CLOAKFSD_PROTO_VERSION_MIN..CLOAKFSD_PROTO_VERSION (seen as
 * soon as those bytes arrive). Which versions a reader takes beyond
 * that is its own check (the client library: its own only).
 */
int proto_parse(const uint8_t *buf, size_t len, struct proto_frame *f);

uint32_t proto_load_u32(const uint8_t *p);
void proto_store_u32(uint8_t *p, uint32_t v);

#endif
