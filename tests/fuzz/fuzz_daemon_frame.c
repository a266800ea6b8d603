/* SPDX-License-Identifier: MIT */
/*
 * Fuzz target: what a client can send cloakfsd (daemon/protocol.c's
 * frame parser, daemon/request.c's request decoder) and what the
 * requests do to the key store (daemon/keystore.c). Input: the byte
 * stream of one connection, parsed as the server's loop does: frame
 * after frame until one is refused or the bytes end mid-frame. The
 * socket loop itself is not here (tests/daemon/ drives it).
 *
 * Checked beyond "no crash": the parser never points outside the bytes
 * and refuses exactly the lengths and versions docs/daemon-protocol.md
 * refuses; a request that decodes encodes back to the same frame; the
 * key store holds what ADD put and forgets what REMOVE, expiry and
 * LOCK_ALL took. The store is emptied after each input.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "daemon/keystore.h"
#include "daemon/protocol.h"
#include "daemon/request.h"

/* "now" for expiry: a key added with a ttl at or below it expires */
#define FUZZ_NOW_MS 1000u

static struct keystore ks;

static void fuzz_fail(const char *what) __attribute__((noreturn));

static void fuzz_fail(const char *what)
{
	fprintf(stderr, "fuzz_daemon_frame: invariant broken: %s\n", what);
	abort();
}

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	if (keystore_init(&ks))
		fuzz_fail("keystore_init");
	return 0;
}

/* what proto_parse must answer for buf[0..len), from the spec alone */
static int expected_parse(const uint8_t *buf, size_t len)
{
	uint32_t body;

	if (len < CLOAKFSD_FRAME_HDR)
		return 0;
	body = (uint32_t)buf[0] << 24 | (uint32_t)buf[1] << 16 |
	       (uint32_t)buf[2] << 8 | buf[3];
	if (body > CLOAKFSD_FRAME_MAX)
		return -EMSGSIZE;
	if (body < 2 || (len > CLOAKFSD_FRAME_HDR && (buf[4] < CLOAKFSD_PROTO_VERSION_MIN ||
						       buf[4] > CLOAKFSD_PROTO_VERSION)))
		return -EPROTO;
	return len >= CLOAKFSD_FRAME_HDR + (size_t)body ? 1 : 0;
}

/* encode q as the client library would: the same bytes as the frame */
static void check_reencode(const struct proto_request *q, const uint8_t *wire,
			   size_t wire_len)
{
	static uint8_t buf[CLOAKFSD_WIRE_MAX];
	struct proto_writer w;
	size_t n;

	proto_begin_v(&w, buf, sizeof(buf), q->version, q->type);
	if (q->id)
		proto_put_bytes(&w, q->id, CLOAKFSD_KEY_ID_LEN);
	if (q->type == CLOAKFSD_ADD) {
		proto_put_u32(&w, q->ttl);
		proto_put_u8(&w, (uint8_t)q->key_len);
		proto_put_bytes(&w, q->key, q->key_len);
	}
	/* version 2: ADD, SUBSCRIBE, REGISTER name two paths, LOCK_PATH one */
	if (q->version >= 2 && q->type != CLOAKFSD_GET && q->type != CLOAKFSD_REMOVE &&
	    q->type != CLOAKFSD_LIST && q->type != CLOAKFSD_LOCK_ALL) {
		proto_put_u16(&w, (uint16_t)q->path_len);
		proto_put_bytes(&w, q->path, q->path_len);
		if (q->type != CLOAKFSD_LOCK_PATH) {
			proto_put_u16(&w, (uint16_t)q->alias_len);
			proto_put_bytes(&w, q->alias, q->alias_len);
		}
	} else if (q->type == CLOAKFSD_ADD) {
		proto_put_u16(&w, (uint16_t)q->path_len);
		proto_put_bytes(&w, q->path, q->path_len);
	}
	n = proto_end(&w);
	if (n != wire_len || memcmp(buf, wire, n))
		fuzz_fail("decoded request does not encode to its frame");
}

static void check_next_expiry(void)
{
	uint64_t next = 0;

	for (unsigned int i = 0; i < KEYSTORE_MAX_KEYS; i++) {
		const struct keystore_entry *e = keystore_slot(&ks, i);

		if (e && e->expires_ms && (!next || e->expires_ms < next))
			next = e->expires_ms;
	}
	if (keystore_next_expiry(&ks) != next)
		fuzz_fail("keystore_next_expiry is not the earliest expiry");
}

static void apply(const struct proto_request *q)
{
	const struct keystore_entry *e;
	unsigned int held = ks.count, n;
	bool replaced;
	int rc;

	switch (q->type) {
	case CLOAKFSD_ADD:
		rc = keystore_add(&ks, q->id, q->path, q->path_len, q->alias,
				  q->alias_len, q->key, q->key_len, q->ttl, &replaced);
		if (rc == -ENOSPC && held == KEYSTORE_MAX_KEYS)
			break;
		if (rc)
			fuzz_fail("keystore_add");
		e = keystore_find(&ks, q->id);
		if (!e || e->key_len != q->key_len ||
		    memcmp(keystore_key(&ks, e), q->key, q->key_len) ||
		    strlen(e->path) != q->path_len ||
		    memcmp(e->path, q->path, q->path_len) ||
		    (q->alias_len && !keystore_names_path(e, q->alias, q->alias_len)) ||
		    (!q->alias_len && e->alias) || ks.count != held + !replaced)
			fuzz_fail("ADD did not store what it was given");
		break;
	case CLOAKFSD_GET:
	case CLOAKFSD_SUBSCRIBE:
	case CLOAKFSD_REGISTER:
		e = keystore_find(&ks, q->id);
		if (e && (memcmp(e->id, q->id, CLOAKFSD_KEY_ID_LEN) || !e->used))
			fuzz_fail("keystore_find returned another key");
		break;
	case CLOAKFSD_REMOVE:
		rc = keystore_remove(&ks, q->id);
		if ((rc == 0) != (ks.count + 1 == held) || keystore_find(&ks, q->id))
			fuzz_fail("REMOVE left the key or removed another");
		break;
	case CLOAKFSD_LIST:
		n = 0;
		for (unsigned int i = 0; i < KEYSTORE_MAX_KEYS + 1; i++)
			n += keystore_slot(&ks, i) != NULL;
		if (n != held)
			fuzz_fail("LIST does not see every key");
		break;
	case CLOAKFSD_LOCK_ALL:
		if (keystore_clear(&ks, NULL, NULL) != held || ks.count)
			fuzz_fail("LOCK_ALL left keys");
		break;
	case CLOAKFSD_LOCK_PATH:
		if (q->version < 2 || !q->path_len || q->path[0] != '/')
			fuzz_fail("LOCK_PATH decoded without an absolute path");
		break;
	default:
		fuzz_fail("decoder accepted an unknown type");
	}
	held = ks.count;
	n = keystore_expire(&ks, FUZZ_NOW_MS, NULL, NULL);
	if (ks.count + n != held)
		fuzz_fail("expiry miscounted");
	check_next_expiry();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	size_t off = 0;

	while (off < size) {
		const uint8_t *buf = data + off;
		struct proto_frame f;
		struct proto_request q;
		const char *why = NULL;
		char why_buf[48];
		int r = proto_parse(buf, size - off, &f);

		if (r != expected_parse(buf, size - off))
			fuzz_fail("proto_parse disagrees with the spec");
		if (r <= 0)
			break;
		if (f.wire_len > size - off || f.wire_len < CLOAKFSD_FRAME_HDR + 2 ||
		    f.payload != buf + CLOAKFSD_FRAME_HDR + 2 ||
		    f.payload_len != f.wire_len - CLOAKFSD_FRAME_HDR - 2 ||
		    f.type != buf[CLOAKFSD_FRAME_HDR + 1])
			fuzz_fail("frame outside the bytes");
		if (proto_decode_request(&f, &q, &why, why_buf, sizeof(why_buf))) {
			if (!why || !why[0])
				fuzz_fail("refused request without a reason");
			break; /* the server closes the connection */
		}
		check_reencode(&q, buf, f.wire_len);
		apply(&q);
		off += f.wire_len;
	}
	keystore_clear(&ks, NULL, NULL);
	return 0;
}
