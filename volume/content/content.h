/* SPDX-License-Identifier: MIT */
/*
 * Regular-file content (see docs/format.md, "Regular files"): the pure
 * sector arithmetic (which units a read needs, which a write or truncate
 * rewrites and where their plaintext comes from), and encryption of
 * whole units with a file's XTS transform. No file descriptors and no
 * keyring here: fileio.h does the I/O and calls down into this.
 *
 * A file of plaintext size P is, after its 32-byte header, a run of
 * "units", each one XTS message with tweak = its index i (little-endian,
 * 16 bytes; 8 for 64-bit-block ciphers):
 *   - unit i covers plaintext [i*S, i*S + len) at ciphertext offset
 *     32 + i*S, where S is the sector size;
 *   - every unit but the last has len = S;
 *   - the last has len = P - i*S in [bs, S] (ciphertext stealing when not
 *     a multiple of bs), or S + r when the remainder r after the last full
 *     sector is in 1..bs-1 (the two join as one unit);
 *   - a file with 0 < P < bs is one unit of bs bytes, zero-padded, and the
 *     header holds P (HEADER_FLAG_PADDED).
 * A unit whose ciphertext is all zero bytes is a hole: plaintext zeros.
 *
 * Authenticated volumes (content_geom_sealed) use the same units with a
 * block size of 1 (no padding, no joined tails) and overhead bytes
 * stored with each: unit i is at ciphertext offset 32 + i*(S + overhead)
 * and has plain_len + overhead bytes (sealed.h says what they hold).
 * They have no holes: every unit up to the end is written.
 *
 * Wide-block volumes (adiantum: wide.h) use the units of a 16-byte block
 * cipher, padding, joined tails and holes included, but encrypt each as
 * one wide-block message whose tweak binds the file nonce and the index.
 */
#ifndef CLOAKFS_VOLUME_CONTENT_CONTENT_H
#define CLOAKFS_VOLUME_CONTENT_CONTENT_H

#include <stddef.h>
#include <stdint.h>

#include "crypto/crypto.h"
#include "volume/cipher.h"
#include "volume/content/header.h"

#define CONTENT_MIN_SECTOR 512u
#define CONTENT_MAX_SECTOR 65536u
#define CONTENT_DEFAULT_SECTOR 4096u
/* the longest unit: a sector plus a joined tail shorter than a block */
#define CONTENT_MAX_UNIT (CONTENT_MAX_SECTOR + 15u)
/* the longest unit IV or tweak: an XTS block, or a wide-block tweak */
#define CONTENT_MAX_IV 32u

struct content_geom {
	uint32_t sector_size; /* power of two, 512..65536 */
	uint32_t blocksize;   /* the cipher's block: 16, or 8; 1 if sealed */
	uint32_t overhead;    /* bytes stored per unit beyond its data:
			       * 0 for XTS, CONTENT_SEALED_OVERHEAD if sealed */
	uint32_t nonce_size;  /* sealed: the AEAD's nonce (12 or 24) */
	uint32_t wide_tweak;  /* wide-block units: the tweak's size (32),
			       * else 0 (wide.h) */
};

/* the tweak of each wide-block unit (wide.h) */
#define CONTENT_WIDE_TWEAK 32u

/* random nonce field (16) and tag (16) of each sealed unit */
#define CONTENT_SEALED_OVERHEAD 32u

struct content_unit {
	uint64_t index;      /* also the XTS tweak */
	uint64_t plain_off;  /* first plaintext byte */
	uint64_t cipher_off; /* its ciphertext offset in the file */
	uint32_t plain_len;  /* bytes of file data in it */
	uint32_t len;        /* bytes of ciphertext (bs for a padded file) */
};

/* the plaintext units a byte range touches, and their ciphertext bytes */
struct content_range {
	uint64_t first_unit;
	uint64_t nunits;     /* 0 for an empty range */
	uint64_t plain_off;  /* start of first unit */
	uint64_t cipher_off; /* ciphertext offset of first unit */
	uint64_t cipher_len; /* ciphertext bytes of all nunits units */
	uint64_t skip;       /* requested offset - plain_off */
	uint64_t len;        /* requested length, clipped to the file */
};

/* 0, or -EINVAL unless sector_size is a power of two in range and bs 8/16 */
int content_geom_init(struct content_geom *g, uint32_t sector_size,
		      uint32_t blocksize);

/*
 * The geometry of an authenticated volume whose AEAD takes nonce_size
 * byte nonces (12: gcm(aes), 24: xchacha20poly1305). 0 or -EINVAL.
 */
int content_geom_sealed(struct content_geom *g, uint32_t sector_size,
			uint32_t nonce_size);

/* the geometry of a wide-block volume (wide.h): that of a 16-byte block
 * cipher, with wide_tweak CONTENT_WIDE_TWEAK. 0 or -EINVAL */
int content_geom_wide(struct content_geom *g, uint32_t sector_size);

/* the geometry of a volume of this cipher: one of the above */
int content_geom_of(struct content_geom *g, const struct volume_cipher_info *ci,
		    uint32_t sector_size);

/* ciphertext offset of unit index (a unit's place in any layout) */
uint64_t content_unit_pos(const struct content_geom *g, uint64_t index);

/* 0 < plain < bs: stored padded with the header flag */
int content_is_tiny(const struct content_geom *g, uint64_t plain);

/* ciphertext file size for a plaintext size (0 for 0) */
uint64_t content_cipher_size(const struct content_geom *g, uint64_t plain);

/*
 * plaintext size for a ciphertext file size. Only a ciphertext of exactly
 * 32 + bs needs the header (h may be NULL otherwise: see
 * content_size_needs_header). Exactly 32 bytes (a header alone, left by a
 * crash before the first data) is an empty file. Returns 0 or -EBADMSG (a
 * size no file has: 1..31 or 33..32+bs-1, or a header whose tiny length is
 * not below bs).
 */
int content_plain_size(const struct content_geom *g, uint64_t cipher,
		       const struct file_header *h, uint64_t *plain);
int content_size_needs_header(const struct content_geom *g, uint64_t cipher);

/* number of units of a file of plaintext size plain */
uint64_t content_unit_count(const struct content_geom *g, uint64_t plain);
/* unit index (< count) of a file of size plain; abort()s out of range */
void content_unit(const struct content_geom *g, uint64_t plain, uint64_t index,
		  struct content_unit *u);
/* the unit holding plaintext byte off (off < plain) */
uint64_t content_unit_of(const struct content_geom *g, uint64_t plain,
			 uint64_t off);

/*
 * Which units, and which ciphertext bytes, reading [off, off+len) of a
 * file of size plain needs (gocryptfs' ExplodePlainRange). The range is
 * clipped to the file; past the end gives nunits 0.
 */
void content_explode_range(const struct content_geom *g, uint64_t plain,
			   uint64_t off, uint64_t len, struct content_range *r);

/* ciphertext bytes of units [first, first + n) (n > 0) of a file of size
 * plain */
uint64_t content_units_len(const struct content_geom *g, uint64_t plain,
			   uint64_t first, uint64_t n);
/* plaintext bytes (file data) of those units */
uint64_t content_units_plain(const struct content_geom *g, uint64_t plain,
			     uint64_t first, uint64_t n);

/*
 * Of units [u, last] of a file of size plain, read from u's start into
 * a buffer of room bytes: how many lie wholly inside it and the file
 * (not a joined or padded last unit that would spill over), so they can
 * be decrypted in the caller's buffer; 0 when none (always when sealed:
 * the ciphertext is longer than the plaintext). *bytes: their
 * ciphertext bytes.
 */
uint64_t content_whole_units(const struct content_geom *g, uint64_t plain,
			     uint64_t u, uint64_t last, uint64_t room,
			     uint64_t *bytes);

/* a run of unit indexes, inclusive; empty when first > last */
struct content_span {
	uint64_t first, last;
};

/*
 * A change of a file of plaintext size old_size to new_size, with new
 * data on [off, off + len), in units of the new layout: which units it
 * encrypts anew, in the order they are written (the old tail unit
 * changes shape when the size changes; units wholly in a gap stay
 * holes, or when sealed are written: every unit from the old last one
 * to the new end), and whether the new size needs a step of its own.
 */
struct content_change {
	uint64_t old_size, new_size;
	uint64_t off, len;               /* the new data (len 0: none) */
	struct content_span span[2];     /* empty ones are skipped */
	int set_size;                    /* no written unit ends the file */
};

/* grow or keep the size (new_size >= old_size), writing [off, off + len) */
void content_change_write(const struct content_geom *g, uint64_t old_size,
			  uint64_t new_size, uint64_t off, uint64_t len,
			  struct content_change *c);
/* shrink to 0 < new_size < old_size: the new last unit, then the cut */
void content_change_shrink(const struct content_geom *g, uint64_t old_size,
			   uint64_t new_size, struct content_change *c);

/*
 * Where the plaintext of units [first, first + n) of c's new layout comes
 * from: the new data, the old file (read in its old layout), zeros
 * elsewhere. direct: the units are new data alone, to encrypt straight
 * from the caller's buffer (at data + start - c->off).
 */
struct content_fill {
	uint64_t start;                  /* plaintext offset of unit first */
	uint64_t bytes;                  /* ciphertext bytes of the n units */
	int direct;
	struct { uint64_t off, len; } old[2]; /* old plaintext to read */
	uint64_t new_off, new_len;       /* new data to copy (plaintext) */
};
void content_fill_of(const struct content_geom *g,
		     const struct content_change *c, uint64_t first,
		     uint64_t n, struct content_fill *fl);

/*
 * Encrypt/decrypt nunits consecutive units starting at first of a file of
 * size plain; src and dst (may be equal) hold the units packed, their
 * ciphertext lengths (a padded file's unit is bs bytes, padding zero).
 * tfm: the file's keyed XTS transform (keys.h).
 *
 * Decrypt turns an all-zero ciphertext unit into zeros (a hole) and
 * returns -EBADMSG if a padded file's padding does not decrypt to zeros.
 * Encrypt returns -EILSEQ if nonzero plaintext gave an all-zero
 * ciphertext unit, which would read back as a hole (probability 2^-128
 * per unit, 2^-64 for 64-bit blocks; the caller must not write it: a
 * new file nonce is the way out), and -EINVAL if a padded unit's padding
 * in src is not zero or tfm's IV size is not the geometry's block size.
 * Other errors: -errno of the crypto layer.
 */
int content_encrypt_units(struct crypto_tfm *tfm, const struct content_geom *g,
			  uint64_t plain, uint64_t first, uint64_t nunits,
			  uint8_t *dst, const uint8_t *src);
int content_decrypt_units(struct crypto_tfm *tfm, const struct content_geom *g,
			  uint64_t plain, uint64_t first, uint64_t nunits,
			  uint8_t *dst, const uint8_t *src);

/*
 * The same two with the IV of each unit made by iv_of (ivsize bytes for
 * unit index; arg passed through) instead of the XTS rule: how wide.h
 * encrypts its units. The caller checks tfm's IV size.
 */
struct content_iv {
	unsigned int ivsize;
	void (*iv_of)(uint8_t *iv, uint64_t index, const void *arg);
	const void *arg;
};
int content_crypt_units_iv(struct crypto_tfm *tfm, const struct content_geom *g,
			   const struct content_iv *iv, int enc, uint64_t plain,
			   uint64_t first, uint64_t nunits, uint8_t *dst,
			   const uint8_t *src);

#endif
