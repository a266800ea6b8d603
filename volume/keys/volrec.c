/* SPDX-License-Identifier: MIT */
/* see record.h; the layout is in docs/format.md 8.1 */
#include "volume/keys/volrec.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "crypto/crypto.h"
#include "crypto/secmem.h"
#include "volume/content/content.h"
#include "volume/fdio.h"
#include "volume/keys/keyslot.h"
#include "volume/names/namemode.h"
#include "volume/names/vname.h"
#include "volume/random.h"
#include "volume/keys/reckey.h"

#define MAGIC "CLKFVREC"
#define MAGIC_SIZE 8
#define HEAD_SIZE (MAGIC_SIZE + 2 + 2 + 2)
#define SLOT_SIZE (1 + VOLCONF_SALT_SIZE + 8 + 8 + VOLCONF_NONCE_SIZE + VOLREC_DIGEST_SIZE)
#define RECOVERY_SIZE (VOLCONF_NONCE_SIZE + VOLCONF_SEALED_SIZE)
#define CHECKSUM_SIZE 32
#define FLAG_RECOVERY 1u
#define AEAD_ALG "rfc7539(chacha20,poly1305)"
#define RECOVERY_AAD "cloakfs recovery" /* + its NUL, then the uuid */
#define MAC_LABEL "volume-record"
#define PARAMS_MAGIC "cloakfs keyslot" /* keyslot_aad's first 16 bytes */

_Static_assert(HEAD_SIZE + KEYSLOT_AAD_MAX + VOLREC_MAC_SIZE +
		       VOLCONF_MAX_KEYSLOTS * SLOT_SIZE + RECOVERY_SIZE +
		       CHECKSUM_SIZE <= VOLREC_MAX_FILE, "record size");

static void put_le(uint8_t *p, uint64_t v, int n)
{
	for (int i = 0; i < n; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

static uint64_t get_le(const uint8_t *p, int n)
{
	uint64_t v = 0;

	for (int i = n - 1; i >= 0; i--)
		v = v << 8 | p[i];
	return v;
}

static int sha512_prefix(const uint8_t *data, size_t len, uint8_t *out,
			 size_t outlen)
{
	uint8_t md[64];
	struct crypto_tfm *h;
	int err;

	h = crypto_alloc("sha512", NULL, &err);
	if (!h)
		return err;
	err = crypto_hash_digest(h, data, len, md);
	crypto_free(h);
	if (!err)
		memcpy(out, md, outlen);
	return err;
}

/* ---- the parameters: keyslot_aad's bytes, read back ------------------ */

static int get_str8(const uint8_t *p, size_t n, size_t *o, char *out,
		    size_t outlen)
{
	size_t len;

	if (*o >= n)
		return -EBADMSG;
	len = p[*o];
	if (len + 1 > outlen || *o + 1 + len > n)
		return -EBADMSG;
	memcpy(out, p + *o + 1, len);
	out[len] = '\0';
	*o += 1 + len;
	return 0;
}

static int parse_params(const uint8_t *p, size_t n, struct volume_config *c)
{
	char s[64];
	size_t o = sizeof(PARAMS_MAGIC);
	uint64_t v;

	memset(c, 0, sizeof(*c));
	if (n < o + 4 + 16 || memcmp(p, PARAMS_MAGIC, sizeof(PARAMS_MAGIC)) != 0)
		return -EBADMSG;
	v = get_le(p + o, 4);
	if (v < 1 || v > VOLCONF_VERSION)
		return -ENOTSUP;
	c->version = (unsigned int)v;
	o += 4;
	volconf_uuid_format(c->uuid, p + o);
	o += 16;
	if (get_str8(p, n, &o, s, sizeof(s)) ||
	    cipher_by_name(s, &c->cipher))
		return -EBADMSG;
	if (get_str8(p, n, &o, s, sizeof(s)) || namemode_by_name(s, &c->names) ||
	    !namemode_fits(c->cipher, c->names))
		return -EBADMSG;
	if (o + 4 + 4 + VOLCONF_KEY_ID_SIZE + 1 != n)
		return -EBADMSG;
	c->sector_size = (uint32_t)get_le(p + o, 4);
	c->name_max = (uint32_t)get_le(p + o + 4, 4);
	o += 8;
	memcpy(c->key_id, p + o, VOLCONF_KEY_ID_SIZE);
	o += VOLCONF_KEY_ID_SIZE;
	if (p[o] != 0)
		return -ENOTSUP; /* features: none are written, each follows
				  * from the cipher and names (keyslot.h) */
	c->features = volconf_features_of(c->cipher, c->names);
	if (c->sector_size < CONTENT_MIN_SECTOR ||
	    c->sector_size > CONTENT_MAX_SECTOR ||
	    (c->sector_size & (c->sector_size - 1)) ||
	    c->name_max < VNAME_MIN_NAME_MAX ||
	    c->name_max > VNAME_DEFAULT_NAME_MAX)
		return -EBADMSG;
	return 0;
}

/* ---- the file ---------------------------------------------------------- */

static size_t serialize(const struct volume_record *r, uint8_t *buf)
{
	uint8_t params[KEYSLOT_AAD_MAX];
	size_t plen = keyslot_aad(&r->params, params), o = 0;

	memcpy(buf, MAGIC, MAGIC_SIZE);
	o += MAGIC_SIZE;
	put_le(buf + o, VOLREC_VERSION, 2);
	put_le(buf + o + 2, r->has_recovery ? FLAG_RECOVERY : 0, 2);
	put_le(buf + o + 4, plen, 2);
	o += 6;
	memcpy(buf + o, params, plen);
	o += plen;
	memcpy(buf + o, r->mac, VOLREC_MAC_SIZE);
	o += VOLREC_MAC_SIZE;
	for (unsigned int i = 0; i < VOLCONF_MAX_KEYSLOTS; i++) {
		const struct volrec_slot *s = &r->slots[i];

		memset(buf + o, 0, SLOT_SIZE);
		if (s->used) {
			buf[o] = 1;
			memcpy(buf + o + 1, s->salt, VOLCONF_SALT_SIZE);
			put_le(buf + o + 17, s->opslimit, 8);
			put_le(buf + o + 25, s->memlimit, 8);
			memcpy(buf + o + 33, s->nonce, VOLCONF_NONCE_SIZE);
			memcpy(buf + o + 45, s->digest, VOLREC_DIGEST_SIZE);
		}
		o += SLOT_SIZE;
	}
	memset(buf + o, 0, RECOVERY_SIZE);
	if (r->has_recovery) {
		memcpy(buf + o, r->recovery_nonce, VOLCONF_NONCE_SIZE);
		memcpy(buf + o + VOLCONF_NONCE_SIZE, r->recovery_sealed,
		       VOLCONF_SEALED_SIZE);
	}
	o += RECOVERY_SIZE;
	return o;
}

int volrec_read(int dirfd, struct volume_record *r)
{
	uint8_t buf[VOLREC_MAX_FILE + 1], sum[CHECKSUM_SIZE];
	ssize_t n = fdio_read_file(dirfd, VOLREC_FILE_NAME, buf, sizeof(buf),
				     NULL);
	size_t plen, o, body;
	unsigned int flags;
	int rc;

	memset(r, 0, sizeof(*r));
	if (n < 0)
		return (int)n;
	if ((size_t)n < HEAD_SIZE || memcmp(buf, MAGIC, MAGIC_SIZE) != 0)
		return -EBADMSG;
	if (get_le(buf + 8, 2) != VOLREC_VERSION)
		return get_le(buf + 8, 2) > VOLREC_VERSION ? -ENOTSUP : -EBADMSG;
	flags = (unsigned int)get_le(buf + 10, 2);
	plen = (size_t)get_le(buf + 12, 2);
	if (plen > KEYSLOT_AAD_MAX)
		return -EBADMSG;
	body = HEAD_SIZE + plen + VOLREC_MAC_SIZE +
	       VOLCONF_MAX_KEYSLOTS * SLOT_SIZE + RECOVERY_SIZE;
	if ((size_t)n != body + CHECKSUM_SIZE)
		return -EBADMSG;
	rc = sha512_prefix(buf, body, sum, sizeof(sum));
	if (rc)
		return rc;
	if (memcmp(sum, buf + body, CHECKSUM_SIZE) != 0)
		return -EBADMSG;
	if (flags & ~FLAG_RECOVERY)
		return -ENOTSUP;
	rc = parse_params(buf + HEAD_SIZE, plen, &r->params);
	if (rc)
		return rc;
	o = HEAD_SIZE + plen;
	memcpy(r->mac, buf + o, VOLREC_MAC_SIZE);
	o += VOLREC_MAC_SIZE;
	for (unsigned int i = 0; i < VOLCONF_MAX_KEYSLOTS; i++) {
		struct volrec_slot *s = &r->slots[i];

		if (buf[o] > 1)
			return -EBADMSG;
		s->used = buf[o];
		memcpy(s->salt, buf + o + 1, VOLCONF_SALT_SIZE);
		s->opslimit = get_le(buf + o + 17, 8);
		s->memlimit = get_le(buf + o + 25, 8);
		memcpy(s->nonce, buf + o + 33, VOLCONF_NONCE_SIZE);
		memcpy(s->digest, buf + o + 45, VOLREC_DIGEST_SIZE);
		o += SLOT_SIZE;
	}
	r->has_recovery = (flags & FLAG_RECOVERY) != 0;
	memcpy(r->recovery_nonce, buf + o, VOLCONF_NONCE_SIZE);
	memcpy(r->recovery_sealed, buf + o + VOLCONF_NONCE_SIZE,
	       VOLCONF_SEALED_SIZE);
	return 0;
}

int volrec_write(int dirfd, const struct volume_record *r)
{
	uint8_t buf[VOLREC_MAX_FILE], rnd[6];
	char tmp[sizeof(VOLREC_TEMP_PREFIX) + 12];
	size_t len = serialize(r, buf);
	int fd = -1, rc;

	rc = sha512_prefix(buf, len, buf + len, CHECKSUM_SIZE);
	if (rc)
		return rc;
	len += CHECKSUM_SIZE;
	for (int tries = 0; fd < 0 && tries < 16; tries++) {
		rc = random_bytes(rnd, sizeof(rnd));
		if (rc)
			return rc;
		snprintf(tmp, sizeof(tmp), "%s%02x%02x%02x%02x%02x%02x",
			 VOLREC_TEMP_PREFIX, rnd[0], rnd[1], rnd[2], rnd[3],
			 rnd[4], rnd[5]);
		fd = openat(dirfd, tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW |
			    O_CLOEXEC, 0440);
		if (fd < 0 && errno != EEXIST)
			return -errno;
	}
	if (fd < 0)
		return -EEXIST;
	rc = fdio_write_all(fd, buf, len);
	if (!rc && (fchmod(fd, 0440) != 0 || fsync(fd) != 0))
		rc = -errno;
	if (close(fd) != 0 && !rc)
		rc = -errno;
	if (!rc && renameat(dirfd, tmp, dirfd, VOLREC_FILE_NAME) != 0)
		rc = -errno;
	if (rc) {
		(void)unlinkat(dirfd, tmp, 0);
		return rc;
	}
	/* the rename is durable once the directory is */
	fd = openat(dirfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	rc = fsync(fd) == 0 ? 0 : -errno;
	close(fd);
	return rc;
}

/* ---- contents ---------------------------------------------------------- */

static int params_mac(const struct volume_config *c, const struct volume_keys *k,
		      uint8_t mac[VOLREC_MAC_SIZE])
{
	uint8_t params[KEYSLOT_AAD_MAX], full[64];
	uint8_t *key = secmem_alloc(64);
	size_t plen = keyslot_aad(c, params);
	struct crypto_tfm *h;
	int err;

	if (!key)
		return -ENOMEM;
	err = keys_derive(k, MAC_LABEL, NULL, 0, key, 64);
	h = err ? NULL : crypto_alloc("hmac(sha512)", NULL, &err);
	if (h) {
		err = crypto_setkey(h, key, 64);
		if (!err)
			err = crypto_hash_digest(h, params, plen, full);
		crypto_free(h);
	}
	secmem_free(key);
	if (!err)
		memcpy(mac, full, VOLREC_MAC_SIZE);
	return err;
}

static int slot_of(const struct volconf_keyslot *k, struct volrec_slot *s)
{
	memset(s, 0, sizeof(*s));
	if (!k->used)
		return 0;
	s->used = 1;
	memcpy(s->salt, k->salt, sizeof(s->salt));
	s->opslimit = k->opslimit;
	s->memlimit = k->memlimit;
	memcpy(s->nonce, k->nonce, sizeof(s->nonce));
	return sha512_prefix(k->sealed, VOLCONF_SEALED_SIZE, s->digest,
			     VOLREC_DIGEST_SIZE);
}

int volrec_set_slots(struct volume_record *r, const struct volume_config *c)
{
	struct volrec_slot s;
	int changed = 0;

	for (unsigned int i = 0; i < VOLCONF_MAX_KEYSLOTS; i++) {
		if (slot_of(&c->slots[i], &s) != 0)
			memset(&s, 0, sizeof(s)); /* no hash: record it free */
		if (memcmp(&s, &r->slots[i], sizeof(s)) != 0) {
			r->slots[i] = s;
			changed = 1;
		}
	}
	return changed;
}

int volrec_init(struct volume_record *r, const struct volume_config *c,
		const struct volume_keys *k)
{
	memset(r, 0, sizeof(*r));
	r->params = *c;
	memset(r->params.slots, 0, sizeof(r->params.slots));
	(void)volrec_set_slots(r, c);
	return params_mac(c, k, r->mac);
}

int volrec_verify(const struct volume_record *r, const struct volume_keys *k)
{
	uint8_t mac[VOLREC_MAC_SIZE];
	int err = params_mac(&r->params, k, mac);
	unsigned char diff = 0;

	if (err)
		return err;
	for (size_t i = 0; i < sizeof(mac); i++)
		diff |= (unsigned char)(mac[i] ^ r->mac[i]);
	return diff ? -EBADMSG : 0;
}

/* the recovery slot's AEAD under the secret's KEK, and its AAD */
static struct crypto_tfm *recovery_aead(const struct volume_record *r,
					const uint8_t *secret,
					uint8_t aad[sizeof(RECOVERY_AAD) + 16],
					int *err)
{
	uint8_t *kek = secmem_alloc(RECKEY_KEK_SIZE);
	struct crypto_tfm *aead = NULL;

	memcpy(aad, RECOVERY_AAD, sizeof(RECOVERY_AAD));
	*err = volconf_uuid_bytes(r->params.uuid, aad + sizeof(RECOVERY_AAD));
	if (!kek && !*err)
		*err = -ENOMEM;
	if (!*err)
		*err = reckey_kek(secret, kek);
	if (!*err)
		aead = crypto_alloc(AEAD_ALG, NULL, err);
	if (aead) {
		*err = crypto_setkey(aead, kek, RECKEY_KEK_SIZE);
		if (*err) {
			crypto_free(aead);
			aead = NULL;
		}
	}
	secmem_free(kek);
	return aead;
}

int volrec_set_recovery(struct volume_record *r,
			const uint8_t vmk[VOLCONF_VMK_SIZE], uint8_t secret[16])
{
	uint8_t aad[sizeof(RECOVERY_AAD) + 16], nonce[VOLCONF_NONCE_SIZE],
		sealed[VOLCONF_SEALED_SIZE];
	struct crypto_tfm *aead;
	int err = random_bytes(secret, RECKEY_SECRET_SIZE);

	if (!err)
		err = random_bytes(nonce, sizeof(nonce));
	if (err)
		return err;
	aead = recovery_aead(r, secret, aad, &err);
	if (!aead)
		return err;
	err = crypto_aead_encrypt(aead, nonce, aad, sizeof(aad), sealed, vmk,
				  VOLCONF_VMK_SIZE, sealed + VOLCONF_VMK_SIZE);
	crypto_free(aead);
	if (err)
		return err;
	memcpy(r->recovery_nonce, nonce, sizeof(nonce));
	memcpy(r->recovery_sealed, sealed, sizeof(sealed));
	r->has_recovery = 1;
	return 0;
}

int volrec_open_recovery(const struct volume_record *r, const uint8_t secret[16],
			 uint8_t vmk[VOLCONF_VMK_SIZE])
{
	uint8_t aad[sizeof(RECOVERY_AAD) + 16];
	struct crypto_tfm *aead;
	int err;

	if (!r->has_recovery)
		return -ENOKEY;
	aead = recovery_aead(r, secret, aad, &err);
	if (!aead)
		return err;
	err = crypto_aead_decrypt(aead, r->recovery_nonce, aad, sizeof(aad), vmk,
				  r->recovery_sealed, VOLCONF_VMK_SIZE,
				  r->recovery_sealed + VOLCONF_VMK_SIZE);
	crypto_free(aead);
	secmem_scrub_stack();
	if (err) {
		explicit_bzero(vmk, VOLCONF_VMK_SIZE);
		return err == -EBADMSG ? -EACCES : err;
	}
	return 0;
}

/* ---- comparing --------------------------------------------------------- */

struct why {
	char *buf;
	size_t len, used;
	unsigned int count; /* differences found, whether or not they fit */
};

static void add(struct why *w, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void add(struct why *w, const char *fmt, ...)
{
	va_list ap;
	int n;

	w->count++;
	if (!w->buf || w->used + 1 >= w->len)
		return;
	if (w->used) {
		n = snprintf(w->buf + w->used, w->len - w->used, "; ");
		w->used += n > 0 ? (size_t)n : 0;
		if (w->used >= w->len) {
			w->used = w->len - 1;
			return;
		}
	}
	va_start(ap, fmt);
	n = vsnprintf(w->buf + w->used, w->len - w->used, fmt, ap);
	va_end(ap);
	w->used += n > 0 ? (size_t)n : 0;
	if (w->used >= w->len)
		w->used = w->len - 1;
}

static void hex16(const uint8_t *p, char out[33])
{
	for (int i = 0; i < 16; i++)
		snprintf(out + 2 * i, 3, "%02x", p[i]);
}

#define IN " in the config, "
#define REC " in " VOLREC_FILE_NAME

enum volrec_match volrec_compare(const struct volume_record *r,
				 const struct volume_config *c, char *buf,
				 size_t len)
{
	const struct volume_config *p = &r->params;
	struct why w = { buf, len, 0, 0 };
	struct volrec_slot s;
	char a[33], b[33];

	if (buf && len)
		buf[0] = '\0';
	if (strcmp(c->uuid, p->uuid) != 0 ||
	    memcmp(c->key_id, p->key_id, VOLCONF_KEY_ID_SIZE) != 0) {
		hex16(c->key_id, a);
		hex16(p->key_id, b);
		add(&w, "the config is of volume %s (key id %s), the directory "
		    "holds volume %s (key id %s)", c->uuid, a, p->uuid, b);
		return VOLREC_OTHER_VOLUME;
	}
	if (c->version != p->version)
		add(&w, "version is %u" IN "%u" REC, c->version, p->version);
	if (c->cipher != p->cipher)
		add(&w, "cipher is \"%s\"" IN "\"%s\"" REC,
		    volume_cipher_info(c->cipher)->name,
		    volume_cipher_info(p->cipher)->name);
	if (c->names != p->names)
		add(&w, "names is \"%s\"" IN "\"%s\"" REC,
		    namemode_name(c->names), namemode_name(p->names));
	if (c->sector_size != p->sector_size)
		add(&w, "sector_size is %u" IN "%u" REC, c->sector_size,
		    p->sector_size);
	if (c->name_max != p->name_max)
		add(&w, "name_max is %u" IN "%u" REC, c->name_max, p->name_max);
	if (c->features != p->features)
		add(&w, "features are 0x%x" IN "0x%x" REC, c->features,
		    p->features);
	if (w.count)
		return VOLREC_FIELDS_DIFFER;
	for (unsigned int i = 0; i < VOLCONF_MAX_KEYSLOTS; i++) {
		const struct volrec_slot *q = &r->slots[i];

		if (slot_of(&c->slots[i], &s) != 0)
			continue;
		if (s.used != q->used) {
			add(&w, "keyslot %u is %s" IN "%s" REC, i,
			    s.used ? "used" : "free", q->used ? "used" : "free");
			continue;
		}
		if (!s.used)
			continue;
		if (memcmp(s.salt, q->salt, sizeof(s.salt)))
			add(&w, "keyslot %u: salt differs from " VOLREC_FILE_NAME, i);
		if (s.opslimit != q->opslimit)
			add(&w, "keyslot %u: opslimit is %llu" IN "%llu" REC, i,
			    (unsigned long long)s.opslimit,
			    (unsigned long long)q->opslimit);
		if (s.memlimit != q->memlimit)
			add(&w, "keyslot %u: memlimit is %llu" IN "%llu" REC, i,
			    (unsigned long long)s.memlimit,
			    (unsigned long long)q->memlimit);
		if (memcmp(s.nonce, q->nonce, sizeof(s.nonce)))
			add(&w, "keyslot %u: nonce differs from " VOLREC_FILE_NAME, i);
		if (memcmp(s.digest, q->digest, sizeof(s.digest)))
			add(&w, "keyslot %u: sealed differs from " VOLREC_FILE_NAME, i);
	}
	return w.count ? VOLREC_SLOTS_DIFFER : VOLREC_SAME;
}
