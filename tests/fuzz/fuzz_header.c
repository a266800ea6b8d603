/* SPDX-License-Identifier: MIT */
/*
 * Fuzz target: a regular file as the volume reads it (volume/content/header.c,
 * volume/content/content.c). Input: one selector byte (bits 0-1 the volume
 * cipher, bit 2 the sector size 512 or 1024), then the ciphertext file:
 * the 32-byte header and the sectors.
 *
 * Checked beyond "no crash": a header that decodes encodes to the same
 * 32 bytes (one encoding per header); a ciphertext size accepted as a
 * plaintext size maps back to itself; units that decrypt re-encrypt to
 * the same ciphertext (holes excepted: they read as zeros).
 * CLOAKFS_FUZZ_WRITE_SEEDS=DIR makes it write its seed corpus (real
 * files under its own key) into DIR and exit (make-corpus.sh).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "crypto/crypto.h"
#include "volume/cipher.h"
#include "volume/content/content.h"
#include "volume/content/header.h"
#include "volume/keys/keys.h"

#define FUZZ_MAX_FILE 8192 /* -max_len stays below this */

/* keyed once; each run rekeys the XTS transform from its header */
static struct volume_keys *keys[VOLUME_CIPHER_COUNT];
static struct crypto_tfm *xts[VOLUME_CIPHER_COUNT];

static void fuzz_fail(const char *what) __attribute__((noreturn));

static void fuzz_fail(const char *what)
{
	fprintf(stderr, "fuzz_header: invariant broken: %s\n", what);
	abort();
}

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int write_file(const char *dir, unsigned int c, unsigned int sector_bit,
		      uint64_t plain, int hole)
{
	static uint8_t src[FUZZ_MAX_FILE], dst[FUZZ_MAX_FILE];
	const struct volume_cipher_info *ci = volume_cipher_info((enum volume_cipher)c);
	struct content_geom g;
	struct file_header h;
	uint8_t hdr[HEADER_SIZE];
	uint64_t clen;
	char path[4096];
	FILE *f;

	if (content_geom_init(&g, sector_bit ? 1024 : 512, ci->blocksize) ||
	    header_new(&h))
		return -1;
	clen = content_cipher_size(&g, plain) - HEADER_SIZE;
	if (content_is_tiny(&g, plain)) {
		h.flags = HEADER_FLAG_PADDED;
		h.tiny_len = (uint32_t)plain;
	}
	memset(src, 0, clen);
	for (uint64_t i = 0; i < plain; i++)
		src[i] = (uint8_t)('a' + i % 26);
	if (keys_set_contents_key(keys[c], h.nonce, xts[c]) ||
	    content_encrypt_units(xts[c], &g, plain, 0, content_unit_count(&g, plain),
				  dst, src))
		return -1;
	if (hole) /* the first sector never written: reads as zeros */
		memset(dst, 0, g.sector_size);
	header_encode(&h, hdr);
	snprintf(path, sizeof(path), "%s/file-%u-%u-%llu%s", dir, c, sector_bit,
		 (unsigned long long)plain, hole ? "-hole" : "");
	f = fopen(path, "w");
	if (!f || fputc((int)(c | sector_bit << 2), f) == EOF ||
	    fwrite(hdr, 1, sizeof(hdr), f) != sizeof(hdr) ||
	    fwrite(dst, 1, clen, f) != clen || fclose(f))
		return -1;
	return 0;
}

static void write_seeds(const char *dir)
{
	static const uint64_t sizes[] = { 5, 8, 15, 16, 17, 520, 1030 };

	for (unsigned int c = 0; c < VOLUME_CIPHER_COUNT; c++)
		for (unsigned int i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++)
			if (write_file(dir, c, sizes[i] == 1030, sizes[i], 0))
				fuzz_fail("writing a seed");
	if (write_file(dir, 0, 0, 1500, 1))
		fuzz_fail("writing a seed");
	exit(0);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	const char *seeds = getenv("CLOAKFS_FUZZ_WRITE_SEEDS");
	uint8_t vmk[KEYS_VMK_SIZE], nonce[KEYS_NONCE_SIZE] = { 1 };
	int err;

	(void)argc;
	(void)argv;
	if (crypto_init())
		fuzz_fail(crypto_init_error());
	for (size_t i = 0; i < sizeof(vmk); i++)
		vmk[i] = (uint8_t)(0x40 + i);
	for (int c = 0; c < VOLUME_CIPHER_COUNT; c++) {
		if (keys_new(vmk, (enum volume_cipher)c, &keys[c]))
			fuzz_fail("keys_new");
		xts[c] = keys_contents_tfm(keys[c], nonce, &err);
		if (!xts[c])
			fuzz_fail("keys_contents_tfm");
	}
	if (seeds && *seeds)
		write_seeds(seeds);
	return 0;
}

static int all_zero(const uint8_t *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (p[i])
			return 0;
	return 1;
}

/* decrypt every unit of the file, then re-encrypt and compare */
static void check_units(struct crypto_tfm *tfm, const struct content_geom *g,
			uint64_t plain, const uint8_t *units, size_t len)
{
	static uint8_t dec[FUZZ_MAX_FILE], enc[FUZZ_MAX_FILE];
	uint64_t n = content_unit_count(g, plain);
	struct content_unit u;

	if (content_decrypt_units(tfm, g, plain, 0, n, dec, units) != 0)
		return; /* -EBADMSG: a padded file's padding is not zero */
	if (content_encrypt_units(tfm, g, plain, 0, n, enc, dec) != 0)
		fuzz_fail("decrypted units do not encrypt again");
	for (uint64_t i = 0; i < n; i++) {
		content_unit(g, plain, i, &u);
		if (u.cipher_off < HEADER_SIZE || u.cipher_off - HEADER_SIZE + u.len > len)
			fuzz_fail("unit outside the file");
		if (all_zero(units + u.cipher_off - HEADER_SIZE, u.len))
			continue; /* a hole */
		if (memcmp(enc + u.cipher_off - HEADER_SIZE,
			   units + u.cipher_off - HEADER_SIZE, u.len))
			fuzz_fail("unit does not round-trip");
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const struct volume_cipher_info *ci;
	struct content_geom g;
	struct file_header h;
	enum header_error why;
	uint8_t again[HEADER_SIZE];
	const struct file_header *hp = NULL;
	enum volume_cipher c;
	uint64_t plain;
	size_t len;

	if (size < 1 || size - 1 > FUZZ_MAX_FILE)
		return -1; /* not added to the corpus */
	c = (enum volume_cipher)(data[0] & 3);
	ci = volume_cipher_info(c);
	if (content_geom_init(&g, (data[0] & 4) ? 1024 : 512, ci->blocksize))
		fuzz_fail("content_geom_init");
	data++;
	len = size - 1;

	if (len >= HEADER_SIZE) {
		int rc = header_decode(data, &h, &why);

		if ((rc == 0) != (why == HEADER_OK) || !header_strerror(why))
			fuzz_fail("header_decode result and reason disagree");
		if (rc == 0) {
			header_encode(&h, again);
			if (memcmp(again, data, HEADER_SIZE))
				fuzz_fail("header does not round-trip");
			hp = &h;
		}
	}
	/* the header is needed only for a size content_size_needs_header
	 * names; an undecodable one stands for "no header" */
	if (!hp && content_size_needs_header(&g, len))
		return 0;
	if (content_plain_size(&g, len, hp, &plain) != 0)
		return 0;
	if (content_cipher_size(&g, plain) != len &&
	    !(len == HEADER_SIZE && plain == 0)) /* a header alone */
		fuzz_fail("plaintext size does not map back to the file size");
	if (!hp || plain == 0)
		return 0;
	if (keys_set_contents_key(keys[c], h.nonce, xts[c]))
		fuzz_fail("keys_set_contents_key");
	check_units(xts[c], &g, plain, data + HEADER_SIZE, len - HEADER_SIZE);
	return 0;
}
