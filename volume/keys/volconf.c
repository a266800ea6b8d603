/* SPDX-License-Identifier: MIT */
/* see config.h */
#include "volume/keys/volconf.h"

#include <errno.h>
#include <fcntl.h>
#include <libconfig.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/errmsg.h"
#include "crypto/hex.h"
#include "volume/base64.h"
#include "base/confint.h"
#include "volume/fdio.h"
#include "volume/names/namemode.h"
#include "volume/random.h"

#define SECTOR_MIN 512u
#define SECTOR_MAX 65536u
#define NAME_MAX_MIN 64u
#define NAME_MAX_MAX 255u

static int (*write_hook)(enum volconf_write_step, void *);
static void *write_hook_arg;

/* bit k of features is known_features[k] */
static const char *const known_features[] = { "authenticated", "wide-names",
					       NULL };

/* the features a volume of this cipher and names mode needs, and no other
 * takes: "authenticated" for an AEAD cipher, "wide-names" for a
 * wide-block names mode (so that cloakfs before it refuses the volume) */
uint32_t volconf_features_of(enum volume_cipher cipher,
			     enum volume_names_mode names)
{
	return (volume_cipher_info(cipher)->aead_alg
			? VOLCONF_FEATURE_AUTHENTICATED : 0) |
	       (namemode_is_wide(names) ? VOLCONF_FEATURE_WIDE_NAMES : 0);
}

/* ---- uuid and hex ------------------------------------------------- */

static int hex_decode_exact(const char *s, uint8_t *out, size_t n)
{
	if (strlen(s) != 2 * n || hex_decode_str(s, out, n, NULL) != (long)n)
		return -EINVAL;
	return 0;
}

int volconf_uuid_bytes(const char *uuid, uint8_t out[16])
{
	static const int dash[4] = { 8, 13, 18, 23 };
	char hex[33];
	size_t h = 0;

	if (strlen(uuid) != VOLCONF_UUID_LEN)
		return -EINVAL;
	for (size_t i = 0, d = 0; i < VOLCONF_UUID_LEN; i++) {
		if (d < 4 && (int)i == dash[d]) {
			if (uuid[i] != '-')
				return -EINVAL;
			d++;
			continue;
		}
		hex[h++] = uuid[i];
	}
	hex[h] = '\0';
	if (hex_decode_exact(hex, out, 16))
		return -EINVAL;
	/* RFC 4122 version 4 (random), variant 10xx */
	if ((out[6] & 0xf0) != 0x40 || (out[8] & 0xc0) != 0x80)
		return -EINVAL;
	return 0;
}

void volconf_uuid_format(char out[VOLCONF_UUID_LEN + 1], const uint8_t b[16])
{
	char hex[33];

	hex_encode(hex, b, 16);
	snprintf(out, VOLCONF_UUID_LEN + 1, "%.8s-%.4s-%.4s-%.4s-%.12s", hex,
		 hex + 8, hex + 12, hex + 16, hex + 20);
}

/* ---- the struct --------------------------------------------------- */

static int sector_ok(uint64_t s)
{
	return s >= SECTOR_MIN && s <= SECTOR_MAX && !(s & (s - 1));
}

static int name_max_ok(uint64_t n)
{
	return n >= NAME_MAX_MIN && n <= NAME_MAX_MAX;
}

int volconf_new(struct volume_config *c, enum volume_cipher cipher,
	       uint32_t sector_size, uint32_t name_max)
{
	uint8_t u[16];
	int err;

	memset(c, 0, sizeof(*c));
	(void)volume_cipher_info(cipher);
	if (!sector_ok(sector_size) || !name_max_ok(name_max))
		return -EINVAL;
	err = random_bytes(u, sizeof(u));
	if (err)
		return err;
	u[6] = (uint8_t)((u[6] & 0x0f) | 0x40);
	u[8] = (uint8_t)((u[8] & 0x3f) | 0x80);
	volconf_uuid_format(c->uuid, u);
	c->version = VOLCONF_VERSION;
	c->cipher = cipher;
	c->names = volume_cipher_info(cipher)->names_default;
	c->sector_size = sector_size;
	c->name_max = name_max;
	c->features = volconf_features_of(cipher, c->names);
	return 0;
}

int volconf_set_names(struct volume_config *c, enum volume_names_mode m)
{
	if (!namemode_fits(c->cipher, m))
		return -EINVAL;
	c->names = m;
	c->features = volconf_features_of(c->cipher, m);
	return 0;
}

unsigned int volconf_slot_count(const struct volume_config *c)
{
	unsigned int n = 0;

	for (unsigned int i = 0; i < VOLCONF_MAX_KEYSLOTS; i++)
		n += c->slots[i].used ? 1 : 0;
	return n;
}

static int memlimit_ok(uint64_t m)
{
	return m >= VOLCONF_MIN_MEMLIMIT && m <= VOLCONF_MAX_MEMLIMIT && !(m % 1024);
}

static int opslimit_ok(uint64_t o)
{
	return o >= VOLCONF_MIN_OPSLIMIT && o <= VOLCONF_MAX_OPSLIMIT;
}

int volconf_validate(const struct volume_config *c, char *err, size_t errlen)
{
	uint8_t u[16];
	unsigned int n = 0;

	if (c->version < VOLCONF_MIN_VERSION || c->version > VOLCONF_VERSION)
		return seterr(err, errlen, -ENOTSUP,
			      "unsupported format version %u", c->version);
	if (volconf_uuid_bytes(c->uuid, u))
		return seterr(err, errlen, -EINVAL, "uuid: not an RFC 4122 "
			      "version 4 uuid");
	if ((unsigned int)c->cipher >= VOLUME_CIPHER_COUNT)
		return seterr(err, errlen, -EINVAL, "cipher: unknown");
	if ((unsigned int)c->names >= VOLUME_NAMES_COUNT)
		return seterr(err, errlen, -EINVAL, "names: unknown mode");
	if (!namemode_fits(c->cipher, c->names))
		return seterr(err, errlen, -EINVAL, "names: cipher \"%s\" does "
			      "not take names \"%s\"",
			      volume_cipher_info(c->cipher)->name,
			      namemode_name(c->names));
	if (!sector_ok(c->sector_size))
		return seterr(err, errlen, -EINVAL, "sector_size: must be a "
			      "power of two from 512 to 65536 (got %u)",
			      c->sector_size);
	if (!name_max_ok(c->name_max))
		return seterr(err, errlen, -EINVAL, "name_max: must be from %u "
			      "to %u (got %u)", NAME_MAX_MIN, NAME_MAX_MAX,
			      c->name_max);
	if (c->features & ~VOLCONF_KNOWN_FEATURES)
		return seterr(err, errlen, -ENOTSUP, "features: unknown bits");
	if (c->features != volconf_features_of(c->cipher, c->names))
		return seterr(err, errlen, -EINVAL, "features: \"authenticated\" "
			      "goes with exactly the ciphers aes256-gcm and "
			      "xchacha20-poly1305, \"wide-names\" with exactly "
			      "the names hctr2 and adiantum");
	if (c->features && c->version < 2)
		return seterr(err, errlen, -EINVAL, "features: version 1 "
			      "defines none");
	for (unsigned int i = 0; i < VOLCONF_MAX_KEYSLOTS; i++) {
		const struct volconf_keyslot *s = &c->slots[i];

		if (!s->used)
			continue; /* a free slot keeps its number: a gap */
		n++;
		if (!opslimit_ok(s->opslimit))
			return seterr(err, errlen, -EINVAL,
				      "keyslots[%u].opslimit: out of range", i);
		if (!memlimit_ok(s->memlimit))
			return seterr(err, errlen, -EINVAL,
				      "keyslots[%u].memlimit: out of range", i);
		if (s->aad_version && (s->aad_version < VOLCONF_MIN_VERSION ||
				       s->aad_version >= c->version))
			return seterr(err, errlen, -EINVAL,
				      "keyslots[%u].aad_version: must be from "
				      "%u to %u", i, VOLCONF_MIN_VERSION,
				      c->version - 1);
	}
	if (n == 0)
		return seterr(err, errlen, -EINVAL, "keyslots: none");
	return 0;
}

/* ---- parsing ------------------------------------------------------ */

/*
 * A config value quoted in a message: at most 40 bytes, control bytes as
 * '?', so an untrusted config cannot break the one-line error or send
 * escape sequences to a terminal (found by tests/fuzz/fuzz_config.c).
 */
#define SHOWN_MAX 40

static const char *shown(const char *v, char out[SHOWN_MAX + 1])
{
	size_t i;

	for (i = 0; i < SHOWN_MAX && v[i]; i++)
		out[i] = ((unsigned char)v[i] < 0x20 || v[i] == 0x7f) ? '?' : v[i];
	out[i] = '\0';
	return out;
}

struct parse_ctx {
	const char *name;
	char *err;
	size_t errlen;
};

static int field_err(struct parse_ctx *p, const config_setting_t *s,
		     const char *field, int rc, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));

/* "<file>:<line>: <field>: <message>" */
static int field_err(struct parse_ctx *p, const config_setting_t *s,
		     const char *field, int rc, const char *fmt, ...)
{
	char msg[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (s && config_setting_source_line(s))
		return seterr(p->err, p->errlen, rc, "%s:%u: %s: %s", p->name,
			      config_setting_source_line(s), field, msg);
	return seterr(p->err, p->errlen, rc, "%s: %s: %s", p->name, field, msg);
}

static config_setting_t *member(struct parse_ctx *p, config_setting_t *group,
				const char *key, const char *field, int *rc)
{
	config_setting_t *s = config_setting_get_member(group, key);

	if (!s)
		*rc = field_err(p, group, field, -EINVAL, "missing");
	return s;
}

static int get_int(struct parse_ctx *p, config_setting_t *group,
		   const char *key, const char *field, long long *out)
{
	int rc = 0;
	config_setting_t *s = member(p, group, key, field, &rc);

	if (!s)
		return rc;
	if (config_setting_type(s) != CONFIG_TYPE_INT &&
	    config_setting_type(s) != CONFIG_TYPE_INT64)
		return field_err(p, s, field, -EINVAL, "must be an integer");
	*out = config_setting_get_int64(s);
	return 0;
}

static int get_str(struct parse_ctx *p, config_setting_t *group,
		   const char *key, const char *field, const char **out,
		   config_setting_t **where)
{
	int rc = 0;
	config_setting_t *s = member(p, group, key, field, &rc);

	if (!s)
		return rc;
	if (config_setting_type(s) != CONFIG_TYPE_STRING)
		return field_err(p, s, field, -EINVAL, "must be a string");
	*out = config_setting_get_string(s);
	*where = s;
	return 0;
}

/* a base64 string of exactly n bytes */
static int get_b64(struct parse_ctx *p, config_setting_t *group,
		   const char *key, const char *field, uint8_t *out, size_t n)
{
	uint8_t buf[128];
	config_setting_t *s = NULL;
	const char *v = NULL;
	size_t got;
	int rc = get_str(p, group, key, field, &v, &s);

	if (rc)
		return rc;
	if (base64_decode(BASE64_STD_PAD, buf, sizeof(buf), v, strlen(v), &got) ||
	    got != n)
		return field_err(p, s, field, -EINVAL,
				 "must be base64 of %zu bytes", n);
	memcpy(out, buf, n);
	return 0;
}

/* refuse settings a v1 reader does not know (typos change nothing silently) */
static int only_known(struct parse_ctx *p, config_setting_t *group,
		      const char *const *known, const char *prefix)
{
	for (int i = 0; i < config_setting_length(group); i++) {
		config_setting_t *s = config_setting_get_elem(group, (unsigned int)i);
		const char *name = config_setting_name(s);
		int ok = 0;

		for (const char *const *k = known; *k; k++)
			ok |= name && strcmp(name, *k) == 0;
		if (!ok) {
			char field[96];

			snprintf(field, sizeof(field), "%s%s", prefix,
				 name ? name : "?");
			return field_err(p, s, field, -EINVAL, "unknown setting");
		}
	}
	return 0;
}

static int parse_features(struct parse_ctx *p, config_setting_t *root,
			  struct volume_config *c)
{
	config_setting_t *s = config_setting_get_member(root, "features");
	char unknown[256] = "";
	int rc = 0;

	c->features = 0;
	if (!s)
		return field_err(p, root, "features", -EINVAL, "missing");
	if (config_setting_type(s) != CONFIG_TYPE_ARRAY &&
	    config_setting_type(s) != CONFIG_TYPE_LIST)
		return field_err(p, s, "features", -EINVAL,
				 "must be a list of strings");
	for (int i = 0; i < config_setting_length(s); i++) {
		config_setting_t *e = config_setting_get_elem(s, (unsigned int)i);
		const char *f;
		int known = 0;

		if (config_setting_type(e) != CONFIG_TYPE_STRING)
			return field_err(p, e, "features", -EINVAL,
					 "must be a list of strings");
		f = config_setting_get_string(e);
		for (unsigned int k = 0; known_features[k]; k++) {
			if (strcmp(f, known_features[k]) == 0) {
				c->features |= 1u << k;
				known = 1;
			}
		}
		if (!known) {
			size_t used = strlen(unknown);
			char v[SHOWN_MAX + 1];

			snprintf(unknown + used, sizeof(unknown) - used, "%s\"%s\"",
				 used ? ", " : "", shown(f, v));
			rc = -ENOTSUP;
		}
	}
	if (rc)
		return field_err(p, s, "features", rc,
				 "unknown feature(s) %s: this cloakfs cannot "
				 "use this volume (update cloakfs)", unknown);
	return 0;
}

static int parse_slot(struct parse_ctx *p, config_setting_t *g, unsigned int i,
		      unsigned int version, struct volconf_keyslot *slot)
{
	static const char *const keys[] = { "salt", "opslimit", "memlimit",
					    "sealed", "nonce", "aad_version",
					    NULL };
	char prefix[24], f[40];
	long long v = 0;
	int rc;

	snprintf(prefix, sizeof(prefix), "keyslots[%u].", i);
	if (config_setting_type(g) != CONFIG_TYPE_GROUP)
		return field_err(p, g, "keyslots", -EINVAL,
				 "each keyslot must be a { ... } group");
	if (config_setting_length(g) == 0)
		return 0; /* { }: a free slot, so later slots keep their numbers */
	rc = only_known(p, g, keys, prefix);
	if (rc)
		return rc;
	snprintf(f, sizeof(f), "%ssalt", prefix);
	rc = get_b64(p, g, "salt", f, slot->salt, VOLCONF_SALT_SIZE);
	if (rc)
		return rc;
	snprintf(f, sizeof(f), "%sopslimit", prefix);
	rc = get_int(p, g, "opslimit", f, &v);
	if (rc)
		return rc;
	if (v < 0 || !opslimit_ok((uint64_t)v))
		return field_err(p, config_setting_get_member(g, "opslimit"), f,
				 -EINVAL, "must be from %llu to %llu (got %lld)",
				 VOLCONF_MIN_OPSLIMIT, VOLCONF_MAX_OPSLIMIT, v);
	slot->opslimit = (uint64_t)v;
	snprintf(f, sizeof(f), "%smemlimit", prefix);
	rc = get_int(p, g, "memlimit", f, &v);
	if (rc)
		return rc;
	if (v < 0 || !memlimit_ok((uint64_t)v))
		return field_err(p, config_setting_get_member(g, "memlimit"), f,
				 -EINVAL, "must be a multiple of 1024 bytes from "
				 "%llu to %llu (got %lld)", VOLCONF_MIN_MEMLIMIT,
				 VOLCONF_MAX_MEMLIMIT, v);
	slot->memlimit = (uint64_t)v;
	snprintf(f, sizeof(f), "%ssealed", prefix);
	rc = get_b64(p, g, "sealed", f, slot->sealed, VOLCONF_SEALED_SIZE);
	if (rc)
		return rc;
	snprintf(f, sizeof(f), "%snonce", prefix);
	rc = get_b64(p, g, "nonce", f, slot->nonce, VOLCONF_NONCE_SIZE);
	if (rc)
		return rc;
	if (config_setting_get_member(g, "aad_version")) {
		/* optional: a slot sealed before an upgrade (docs/format.md 4) */
		snprintf(f, sizeof(f), "%saad_version", prefix);
		rc = get_int(p, g, "aad_version", f, &v);
		if (rc)
			return rc;
		if (v < VOLCONF_MIN_VERSION || v >= (long long)version)
			return field_err(p, config_setting_get_member(g, "aad_version"),
					 f, -EINVAL, "must be a version before "
					 "this config's %u (got %lld)", version, v);
		slot->aad_version = (unsigned int)v;
	}
	slot->used = 1;
	return 0;
}

static int parse_keyslots(struct parse_ctx *p, config_setting_t *root,
			  struct volume_config *c)
{
	int rc = 0;
	config_setting_t *s = member(p, root, "keyslots", "keyslots", &rc);
	int n;

	if (!s)
		return rc;
	if (config_setting_type(s) != CONFIG_TYPE_LIST)
		return field_err(p, s, "keyslots", -EINVAL,
				 "must be a list ( { ... }, ... )");
	n = config_setting_length(s);
	if (n < 1 || n > VOLCONF_MAX_KEYSLOTS)
		return field_err(p, s, "keyslots", -EINVAL,
				 "must hold 1 to %d keyslots (got %d)",
				 VOLCONF_MAX_KEYSLOTS, n);
	for (int i = 0; i < n; i++) {
		rc = parse_slot(p, config_setting_get_elem(s, (unsigned int)i),
				(unsigned int)i, c->version, &c->slots[i]);
		if (rc)
			return rc;
	}
	if (volconf_slot_count(c) == 0)
		return field_err(p, s, "keyslots", -EINVAL,
				 "every keyslot is free (none holds a key)");
	return 0;
}

/* the features the cipher and names mode ask for, exactly, version 2 */
static int check_features(struct parse_ctx *p, config_setting_t *root,
			  const struct volume_config *c)
{
	uint32_t want = volconf_features_of(c->cipher, c->names);
	uint32_t diff = c->features ^ want;
	uint32_t named = diff ? diff : c->features; /* the one to name */
	unsigned int k = 0;

	if (!diff && !(c->features && c->version < 2))
		return 0;
	while (!(named & (1u << k)))
		k++;
	return field_err(p, config_setting_get_member(root, "features"),
			 "features", -EINVAL,
			 "cipher \"%s\" with names \"%s\" %s \"%s\"",
			 volume_cipher_info(c->cipher)->name,
			 namemode_name(c->names),
			 !diff ? "needs version 2 for the feature"
			 : want & diff ? "needs the feature"
				       : "does not take the feature",
			 known_features[k]);
}

static int parse_root(struct parse_ctx *p, config_setting_t *root,
		      struct volume_config *c)
{
	static const char *const keys[] = { "version", "uuid", "cipher",
					    "names", "sector_size", "name_max",
					    "key_id", "features", "keyslots",
					    NULL };
	config_setting_t *s = NULL;
	char show[SHOWN_MAX + 1];
	const char *v = NULL;
	long long n = 0;
	int rc;

	/* the version first: another version may mean other fields */
	rc = get_int(p, root, "version", "version", &n);
	if (rc)
		return rc;
	if (n < VOLCONF_MIN_VERSION || n > VOLCONF_VERSION)
		return field_err(p, config_setting_get_member(root, "version"),
				 "version", -ENOTSUP,
				 "unsupported format version %lld", n);
	c->version = (unsigned int)n;
	rc = only_known(p, root, keys, "");
	if (rc)
		return rc;

	rc = get_str(p, root, "uuid", "uuid", &v, &s);
	if (rc)
		return rc;
	{
		uint8_t u[16];

		if (volconf_uuid_bytes(v, u))
			return field_err(p, s, "uuid", -EINVAL,
					 "not an RFC 4122 version 4 uuid (\"%s\")",
					 shown(v, show));
		volconf_uuid_format(c->uuid, u); /* lower case */
	}

	rc = get_str(p, root, "cipher", "cipher", &v, &s);
	if (rc)
		return rc;
	if (cipher_by_name(v, &c->cipher))
		return field_err(p, s, "cipher", -EINVAL,
				 "unknown cipher \"%s\" (known: %s)", shown(v, show),
				 volume_cipher_list());

	/* absent: cts, what every volume before the other modes has */
	c->names = VOLUME_NAMES_CTS;
	if (config_setting_get_member(root, "names")) {
		rc = get_str(p, root, "names", "names", &v, &s);
		if (rc)
			return rc;
		if (namemode_by_name(v, &c->names))
			return field_err(p, s, "names", -EINVAL,
					 "unknown names mode \"%s\" (known: %s)",
					 shown(v, show), namemode_list());
		if (!namemode_fits(c->cipher, c->names))
			return field_err(p, s, "names", -EINVAL,
					 "cipher \"%s\" does not take names "
					 "\"%s\" (hctr2 needs a 128-bit block "
					 "cipher: aes, sm4 or camellia)",
					 volume_cipher_info(c->cipher)->name,
					 namemode_name(c->names));
	}

	rc = get_int(p, root, "sector_size", "sector_size", &n);
	if (rc)
		return rc;
	if (n < 0 || !sector_ok((uint64_t)n))
		return field_err(p, config_setting_get_member(root, "sector_size"),
				 "sector_size", -EINVAL, "must be a power of two "
				 "from 512 to 65536 (got %lld)", n);
	c->sector_size = (uint32_t)n;

	rc = get_int(p, root, "name_max", "name_max", &n);
	if (rc)
		return rc;
	if (n < 0 || !name_max_ok((uint64_t)n))
		return field_err(p, config_setting_get_member(root, "name_max"),
				 "name_max", -EINVAL, "must be from %u to %u "
				 "(got %lld)", NAME_MAX_MIN, NAME_MAX_MAX, n);
	c->name_max = (uint32_t)n;

	rc = get_str(p, root, "key_id", "key_id", &v, &s);
	if (rc)
		return rc;
	if (hex_decode_exact(v, c->key_id, VOLCONF_KEY_ID_SIZE))
		return field_err(p, s, "key_id", -EINVAL,
				 "must be 32 hex digits");

	rc = parse_features(p, root, c);
	if (rc)
		return rc;
	rc = check_features(p, root, c);
	if (rc)
		return rc;
	return parse_keyslots(p, root, c);
}

/*
 * libconfig opens whatever file an "@include" line names, relative to
 * the current directory: a config from a synced folder could make us
 * read local files, or hang on a FIFO or /dev/stdin. v1 never writes it.
 */
static int has_include(const char *text, size_t len)
{
	return memmem(text, len, "@include", 8) != NULL;
}

int volconf_parse(const char *text, size_t len, const char *name,
		 struct volume_config *c, char *err, size_t errlen)
{
	struct parse_ctx p = { name, err, errlen };
	config_t cfg;
	char *copy;
	int rc;

	memset(c, 0, sizeof(*c));
	if (memchr(text, '\0', len))
		return seterr(err, errlen, -EINVAL, "%s: contains a NUL byte",
			      name);
	if (has_include(text, len))
		return seterr(err, errlen, -EINVAL, "%s: \"@include\" is not "
			      "allowed in a volume config", name);
	/* integers at their full value, not wrapped at 32 bits (confint.h) */
	copy = confint_widen(text, len);
	if (!copy)
		return -ENOMEM;
	config_init(&cfg);
	if (config_read_string(&cfg, copy) != CONFIG_TRUE) {
		rc = seterr(err, errlen, -EINVAL, "%s:%d: %s", name,
			    config_error_line(&cfg), config_error_text(&cfg));
	} else {
		rc = parse_root(&p, config_root_setting(&cfg), c);
	}
	config_destroy(&cfg);
	free(copy);
	if (rc)
		memset(c, 0, sizeof(*c));
	return rc;
}

/* whole file into a NUL-terminated malloc'ed buffer */
static int read_text(const char *path, char **text, size_t *len, char *err,
		     size_t errlen)
{
	char *buf = malloc(VOLCONF_MAX_FILE + 1);
	mode_t type = 0;
	ssize_t n;

	if (!buf)
		return -ENOMEM;
	n = fdio_read_file(AT_FDCWD, path, buf, VOLCONF_MAX_FILE + 1, &type);
	if (n >= 0 && n <= VOLCONF_MAX_FILE) {
		buf[n] = '\0';
		*text = buf;
		*len = (size_t)n;
		return 0;
	}
	free(buf);
	if (n == -VOLUME_ENOTREG)
		return seterr(err, errlen, (int)n, "%s: not a regular file (%s)",
			      path, volume_type_name(type));
	if (n < 0)
		return seterr(err, errlen, (int)n, "%s: %s", path,
			      strerror((int)-n));
	return seterr(err, errlen, -EINVAL, "%s: larger than %d bytes", path,
		      VOLCONF_MAX_FILE);
}

int volconf_read(const char *path, struct volume_config *c, char *err,
		size_t errlen)
{
	char *text;
	size_t len;
	int rc = read_text(path, &text, &len, err, errlen);

	if (rc)
		return rc;
	rc = volconf_parse(text, len, path, c, err, errlen);
	free(text);
	return rc;
}

/* ---- writing ------------------------------------------------------ */

struct outbuf {
	char *p;
	size_t len, used;
	int overflow;
};

static void out(struct outbuf *o, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void out(struct outbuf *o, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(o->p + o->used, o->used < o->len ? o->len - o->used : 0,
		      fmt, ap);
	va_end(ap);
	if (n < 0 || o->used + (size_t)n >= o->len)
		o->overflow = 1;
	else
		o->used += (size_t)n;
}

static void out_b64(struct outbuf *o, const char *key, const uint8_t *p,
		    size_t n)
{
	char b[128];

	base64_encode(BASE64_STD_PAD, b, sizeof(b), p, n);
	out(o, "    %s = \"%s\";\n", key, b);
}

/* libconfig reads integers beyond 32 bits only with the L suffix */
static const char *int_suffix(uint64_t v)
{
	return v > INT_MAX ? "L" : "";
}

int volconf_format(const struct volume_config *c, char *buf, size_t len)
{
	struct outbuf o = { buf, len, 0, 0 };
	char keyid[2 * VOLCONF_KEY_ID_SIZE + 1];
	unsigned int n = 0;

	/* up to the last used slot; a free one below it is written { } */
	for (unsigned int i = 0; i < VOLCONF_MAX_KEYSLOTS; i++)
		if (c->slots[i].used)
			n = i + 1;
	hex_encode(keyid, c->key_id, VOLCONF_KEY_ID_SIZE);
	out(&o, "# cloakfs volume configuration, format version %u "
		"(docs/format.md).\n# Losing this file loses the volume: keep "
		"a backup of it.\n", c->version);
	out(&o, "version = %u;\n", c->version);
	out(&o, "uuid = \"%s\";\n", c->uuid);
	out(&o, "cipher = \"%s\";\n", volume_cipher_info(c->cipher)->name);
	out(&o, "names = \"%s\";\n", namemode_name(c->names));
	out(&o, "sector_size = %u;\n", c->sector_size);
	out(&o, "name_max = %u;\n", c->name_max);
	out(&o, "key_id = \"%s\";\n", keyid);
	out(&o, "features = [");
	for (unsigned int k = 0, first = 1; known_features[k]; k++) {
		if (c->features & (1u << k)) {
			out(&o, "%s \"%s\"", first ? "" : ",", known_features[k]);
			first = 0;
		}
	}
	out(&o, " ];\n");
	out(&o, "keyslots = (\n");
	for (unsigned int i = 0; i < n; i++) {
		const struct volconf_keyslot *s = &c->slots[i];

		if (!s->used) {
			out(&o, "  { }%s\n", i + 1 < n ? "," : "");
			continue;
		}
		out(&o, "  {\n");
		out_b64(&o, "salt", s->salt, VOLCONF_SALT_SIZE);
		out(&o, "    opslimit = %llu%s;\n", (unsigned long long)s->opslimit,
		    int_suffix(s->opslimit));
		out(&o, "    memlimit = %llu%s;\n", (unsigned long long)s->memlimit,
		    int_suffix(s->memlimit));
		out_b64(&o, "sealed", s->sealed, VOLCONF_SEALED_SIZE);
		out_b64(&o, "nonce", s->nonce, VOLCONF_NONCE_SIZE);
		if (s->aad_version)
			out(&o, "    aad_version = %u;\n", s->aad_version);
		out(&o, "  }%s\n", i + 1 < n ? "," : "");
	}
	out(&o, ");\n");
	if (o.overflow)
		return -ENOSPC;
	return (int)o.used;
}

void volconf_set_write_hook(int (*hook)(enum volconf_write_step, void *),
			   void *arg)
{
	write_hook = hook;
	write_hook_arg = arg;
}

static int crashed(enum volconf_write_step step)
{
	return write_hook && write_hook(step, write_hook_arg);
}

/* the directory part of path ("." if none) */
static void dir_of(const char *path, char *dir, size_t len)
{
	const char *slash = strrchr(path, '/');

	if (!slash)
		snprintf(dir, len, ".");
	else if (slash == path)
		snprintf(dir, len, "/");
	else
		snprintf(dir, len, "%.*s", (int)(slash - path), path);
}

static int fsync_dir(const char *path)
{
	char dir[PATH_MAX];
	int fd, rc = 0;

	dir_of(path, dir, sizeof(dir));
	fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (fsync(fd) != 0)
		rc = -errno;
	close(fd);
	return rc;
}

#define CRASH_POINT(step)                 \
	do {                              \
		if (crashed(step)) {      \
			close(fd);        \
			return -ECANCELED; \
		}                         \
	} while (0)

int volconf_write_atomic(const char *path, const struct volume_config *c,
			char *err, size_t errlen)
{
	char text[8192], tmp[PATH_MAX];
	int len, fd, rc;

	rc = volconf_validate(c, err, errlen);
	if (rc)
		return rc;
	len = volconf_format(c, text, sizeof(text));
	if (len < 0)
		return seterr(err, errlen, len, "%s: config too long", path);
	if (snprintf(tmp, sizeof(tmp), "%s.tmp.XXXXXX", path) >= (int)sizeof(tmp))
		return seterr(err, errlen, -ENAMETOOLONG, "%s: path too long",
			      path);
	fd = mkstemp(tmp);
	if (fd < 0)
		return seterr(err, errlen, -errno, "%s: cannot create: %s", tmp,
			      strerror(errno));
	CRASH_POINT(VOLCONF_STEP_TEMP_CREATED);
	rc = fdio_write_all(fd, text, (size_t)len / 2);
	if (!rc) {
		CRASH_POINT(VOLCONF_STEP_HALF_WRITTEN);
		rc = fdio_write_all(fd, text + len / 2, (size_t)len - (size_t)len / 2);
	}
	if (!rc) {
		CRASH_POINT(VOLCONF_STEP_WRITTEN);
		if (fchmod(fd, 0400) != 0 || fsync(fd) != 0)
			rc = -errno;
	}
	if (!rc)
		CRASH_POINT(VOLCONF_STEP_SYNCED);
	if (close(fd) != 0 && !rc)
		rc = -errno;
	if (!rc && rename(tmp, path) != 0)
		rc = -errno;
	if (rc) {
		(void)unlink(tmp);
		return seterr(err, errlen, rc, "%s: cannot write: %s", path,
			      strerror(-rc));
	}
	if (crashed(VOLCONF_STEP_RENAMED))
		return -ECANCELED;
	rc = fsync_dir(path);
	if (rc)
		return seterr(err, errlen, rc, "%s: cannot sync directory: %s",
			      path, strerror(-rc));
	if (crashed(VOLCONF_STEP_DIR_SYNCED))
		return -ECANCELED;
	return 0;
}

int volconf_backup(const char *conf_path, const char *backup_path, char *err,
		  size_t errlen)
{
	struct volume_config c;
	int rc = volconf_read(conf_path, &c, err, errlen);

	if (!rc)
		rc = volconf_write_atomic(backup_path, &c, err, errlen);
	return rc;
}

/* the uuid of whatever is at path, if libconfig can read that much */
static int peek_uuid(const char *path, char out[VOLCONF_UUID_LEN + 1])
{
	uint8_t u[16];
	const char *v = NULL;
	size_t len;
	char *text;
	config_t cfg;
	int rc = read_text(path, &text, &len, NULL, 0);

	if (rc)
		return rc;
	config_init(&cfg);
	rc = -EINVAL;
	/* only a valid uuid counts: it goes into a message */
	if (strlen(text) == len && !has_include(text, len) &&
	    config_read_string(&cfg, text) == CONFIG_TRUE &&
	    config_lookup_string(&cfg, "uuid", &v) == CONFIG_TRUE &&
	    volconf_uuid_bytes(v, u) == 0) {
		volconf_uuid_format(out, u); /* lower case */
		rc = 0;
	}
	config_destroy(&cfg);
	free(text);
	return rc;
}

int volconf_restore(const char *backup_path, const char *conf_path, int force,
		   char *err, size_t errlen)
{
	char current[VOLCONF_UUID_LEN + 1];
	struct volume_config c;
	int rc = volconf_read(backup_path, &c, err, errlen);

	if (rc)
		return rc;
	if (!force && peek_uuid(conf_path, current) == 0 &&
	    strcmp(current, c.uuid) != 0)
		return seterr(err, errlen, -EXDEV,
			      "%s: backup is of volume %s, but %s belongs to "
			      "volume %s (force to restore anyway)",
			      backup_path, c.uuid, conf_path, current);
	return volconf_write_atomic(conf_path, &c, err, errlen);
}
