/* SPDX-License-Identifier: MIT */
/*
 * A fixed amount of work for instruction counting under qemu (see
 * arm-insns.sh), where timing means nothing:
 *
 *   insn-loop DRIVER SIZE COUNT [enc|dec]
 *       COUNT requests of SIZE bytes through DRIVER, forced by name:
 *       encrypt/decrypt (modes, stream ciphers), SIZE/blocksize blocks
 *       (single-block ciphers), a digest (hashes, hmac) or an AEAD seal.
 *       Two runs with different COUNTs differ only by the requests, so
 *       start-up and self-tests cancel out of the difference.
 *   insn-loop --list
 *       one line per driver: "TYPE ALG DRIVER STATE", STATE being
 *       "usable" (CPU has it, policy allows it, not variable-time),
 *       "variable-time", "disabled" or "unavailable".
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "crypto/crypto.h"

#define MAX_SIZE (1u << 16)

static const char *type_name(enum crypto_type t)
{
	switch (t) {
	case CRYPTO_TYPE_CIPHER:
		return "cipher";
	case CRYPTO_TYPE_SKCIPHER:
		return "skcipher";
	case CRYPTO_TYPE_HASH:
		return "hash";
	case CRYPTO_TYPE_AEAD:
		return "aead";
	}
	return "unknown";
}

static int list_drivers(void)
{
	unsigned int n = crypto_driver_count();
	struct crypto_driver_info info;

	for (unsigned int i = 0; i < n; i++) {
		if (crypto_driver_info(i, &info))
			continue;
		printf("%s %s %s %s\n", type_name(info.type), info.alg_name,
		       info.driver_name,
		       !info.available ? "unavailable" :
		       info.disabled   ? "disabled" :
		       !info.const_time ? "variable-time" : "usable");
	}
	return 0;
}

/* one request of size bytes; 0 or -errno */
static int one_request(struct crypto_tfm *tfm, enum crypto_type type, int enc,
		       uint8_t *buf, size_t size, long i)
{
	uint8_t iv[32], out[64];
	unsigned int bs;

	memset(iv, (int)i, sizeof(iv));
	switch (type) {
	case CRYPTO_TYPE_SKCIPHER:
		return enc ? crypto_encrypt(tfm, iv, buf, buf, size) :
			     crypto_decrypt(tfm, iv, buf, buf, size);
	case CRYPTO_TYPE_CIPHER:
		bs = crypto_blocksize(tfm);
		return enc ? crypto_cipher_encrypt(tfm, buf, buf, size / bs) :
			     crypto_cipher_decrypt(tfm, buf, buf, size / bs);
	case CRYPTO_TYPE_HASH:
		return crypto_hash_digest(tfm, buf, size, out);
	case CRYPTO_TYPE_AEAD:
		return crypto_aead_encrypt(tfm, iv, NULL, 0, buf, buf, size, out);
	}
	return -1;
}

int main(int argc, char **argv)
{
	static uint8_t buf[MAX_SIZE], key[CRYPTO_MAX_KEYLEN];
	struct crypto_driver_info info;
	enum crypto_type type = CRYPTO_TYPE_SKCIPHER;
	struct crypto_tfm *tfm;
	const uint16_t *ks;
	size_t size, klen = 0;
	long count;
	int err, enc;

	if (crypto_init()) {
		fprintf(stderr, "insn-loop: %s\n", crypto_init_error());
		return 1;
	}
	if (argc == 2 && !strcmp(argv[1], "--list"))
		return list_drivers();
	if (argc < 4 || argc > 5) {
		fprintf(stderr, "usage: insn-loop DRIVER SIZE COUNT [enc|dec]\n"
				"       insn-loop --list\n");
		return 2;
	}
	size = strtoul(argv[2], NULL, 0);
	count = strtol(argv[3], NULL, 0);
	enc = argc < 5 || strcmp(argv[4], "dec") != 0;
	if (size == 0 || size > MAX_SIZE || count < 0) {
		fprintf(stderr, "insn-loop: bad size or count\n");
		return 2;
	}
	for (unsigned int i = 0; i < crypto_driver_count(); i++)
		if (!crypto_driver_info(i, &info) && !strcmp(info.driver_name, argv[1]))
			type = info.type;
	tfm = crypto_alloc(NULL, argv[1], &err);
	if (!tfm) {
		fprintf(stderr, "insn-loop: %s: error %d\n", argv[1], err);
		return 1;
	}
	/* the largest key the driver takes, as cloakfs-bench does */
	ks = crypto_keysizes(tfm);
	for (int i = 0; i < 4 && ks && ks[i]; i++)
		klen = ks[i];
	for (size_t i = 0; i < sizeof(key); i++)
		key[i] = (uint8_t)(i * 7 + 1);
	if (klen && crypto_setkey(tfm, key, klen)) {
		fprintf(stderr, "insn-loop: %s: setkey %zu failed\n", argv[1], klen);
		return 1;
	}
	for (long i = 0; i < count; i++) {
		err = one_request(tfm, type, enc, buf, size, i);
		if (err) {
			fprintf(stderr, "insn-loop: %s: error %d\n", argv[1], err);
			return 1;
		}
	}
	crypto_free(tfm);
	printf("%s %s %zu-byte key, %ld x %zu bytes %s\n", type_name(type),
	       argv[1], klen, count, size, enc ? "enc" : "dec");
	return 0;
}
