/* SPDX-License-Identifier: MIT */
/*
 * keyring.h: derived transforms are the ones keys.h makes; slots are
 * shared and replaced; a section of a locked keyring answers -EACCES;
 * keyring_lock wipes the PRK and every derived key even while every
 * allocation fails (it allocates nothing), checked by looking for the
 * keys' bytes in the process's memory, as the filesystem's secret tests
 * do; the key-id check of keyring_keys_from_vmk.
 */
#include <errno.h>
#include <fcntl.h>
#include <sodium.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tests/volume/voltest.h"
#include "volume/keys/keyring.h"
#include "volume/keys/keys.h"

/* malloc and calloc fail while fail_alloc is set (-Wl,--wrap) */
static volatile int fail_alloc;
void *__real_malloc(size_t n);
void *__real_calloc(size_t n, size_t m);
void *__wrap_malloc(size_t n);
void *__wrap_calloc(size_t n, size_t m);

void *__wrap_malloc(size_t n)
{
	return fail_alloc ? NULL : __real_malloc(n);
}

void *__wrap_calloc(size_t n, size_t m)
{
	return fail_alloc ? NULL : __real_calloc(n, m);
}

/* the secrets to look for are kept masked, so the test's own copies of
 * them never match */
#define MASK 0x5a
#define MAX_SECRETS 16

struct secret {
	uint8_t masked[16];
};

static struct secret secrets[MAX_SECRETS];
static unsigned int nsecrets;

/* the first 32 bytes of a transform's context: its key schedule */
static void remember_ctx(const struct crypto_tfm *t)
{
	const uint8_t *c = t->ctx;

	for (size_t off = 0; off + 16 <= 32 && off + 16 <= t->ctxsize; off += 16) {
		for (int i = 0; i < 16; i++)
			secrets[nsecrets].masked[i] = c[off + i] ^ MASK;
		nsecrets++;
	}
}

static void remember(const uint8_t *key)
{
	for (int i = 0; i < 16; i++)
		secrets[nsecrets].masked[i] = key[i] ^ MASK;
	nsecrets++;
}

/* does buf[0..n) hold one of the secrets? (memchr finds the candidates:
 * the scan covers every mapping, some of them large under sanitizers) */
static int holds_secret(const uint8_t *buf, size_t n)
{
	for (unsigned int s = 0; s < nsecrets; s++) {
		const uint8_t first = secrets[s].masked[0] ^ MASK;
		const uint8_t *p = buf, *end = buf + n;

		while (end - p >= 16 && (p = memchr(p, first, (size_t)(end - p - 15)))) {
			int j = 1;

			while (j < 16 && (p[j] ^ MASK) == secrets[s].masked[j])
				j++;
			if (j == 16)
				return 1;
			p++;
		}
	}
	return 0;
}

#define MAX_SCANNED_MAPPING (1ul << 30)

/* how many readable mappings of this process hold a secret */
static int secrets_in_memory(void)
{
	static uint8_t chunk[1 << 16];
	char line[512];
	int found = 0, mem = open("/proc/self/mem", O_RDONLY | O_CLOEXEC);
	FILE *maps = fopen("/proc/self/maps", "r");

	if (mem < 0 || !maps) {
		if (maps)
			fclose(maps);
		if (mem >= 0)
			close(mem);
		return -1;
	}
	while (fgets(line, sizeof(line), maps)) {
		unsigned long lo, hi;
		char perms[8];

		/* not this program's memory: the kernel's pages, valgrind's
		 * own areas (translations and its copies of registers, the
		 * only executable writable mappings: a process here has no
		 * JIT) and a sanitizer's shadow (terabytes of reserved
		 * zeros, far bigger than any heap of this test) */
		if (sscanf(line, "%lx-%lx %7s", &lo, &hi, perms) != 3 ||
		    perms[0] != 'r' || strstr(line, "[vvar]") ||
		    strstr(line, "[vsyscall]") ||
		    (perms[1] == 'w' && perms[2] == 'x') ||
		    hi - lo > MAX_SCANNED_MAPPING)
			continue;
		for (unsigned long a = lo; a < hi; a += sizeof(chunk) - 15) {
			size_t want = hi - a < sizeof(chunk) ? hi - a : sizeof(chunk);
			ssize_t got = pread(mem, chunk, want, (off_t)a);

			if (got > 0 && holds_secret(chunk, (size_t)got)) {
				found++;
				break;
			}
		}
	}
	memset(chunk, 0, sizeof(chunk));
	fclose(maps);
	close(mem);
	return found;
}

static void test_cipher(enum volume_cipher c)
{
	uint8_t vmk[64], id[16], nonce[3][16], in[64], o1[64], o2[64];
	uint8_t iv1[16] = { 0 }, iv2[16] = { 0 };
	struct volume_keys *k, *k2;
	struct crypto_tfm *t, *ref;
	struct keyring *kr;
	unsigned int slot, slot2;
	int err;

	test_random_bytes(vmk, sizeof(vmk));
	for (int i = 0; i < 3; i++)
		test_random_bytes(nonce[i], 16);
	CHECK(keys_new(vmk, c, &k) == 0, "keys_new");
	CHECK(keys_key_id(k, id) == 0, "key id");

	/* the one key-id check */
	CHECK(keyring_keys_from_vmk(vmk, c, VOLUME_NAMES_CTS, id, &k2) == 0, "from vmk");
	keys_free(k2);
	id[0] ^= 1;
	CHECK(keyring_keys_from_vmk(vmk, c, VOLUME_NAMES_CTS, id, &k2) == -EBADMSG,
	      "another volume's key id is -EBADMSG");
	id[0] ^= 1;

	CHECK(keyring_new(c, &kr) == 0, "keyring");
	CHECK(!keyring_unlocked(kr), "new keyring is locked");
	CHECK(keyring_enter(kr) == NULL, "locked: no keys");
	CHECK(keyring_get(kr, VKEY_NAMES, nonce[0], &slot, &err) == NULL &&
	      err == -EACCES, "locked: -EACCES");
	keyring_leave(kr);

	/* the secrets: the PRK (HKDF-Extract, docs/format.md "Keys"; the
	 * 64 bytes behind "key-id" are not it), and below the key
	 * schedules of the derived transforms */
	nsecrets = 0;
	{
		crypto_auth_hmacsha512_state st;
		uint8_t prk[64];

		/* libsodium as the oracle, as in test_keys */
		crypto_auth_hmacsha512_init(&st, (const uint8_t *)KEYS_HKDF_SALT,
					    strlen(KEYS_HKDF_SALT));
		crypto_auth_hmacsha512_update(&st, vmk, 64);
		crypto_auth_hmacsha512_final(&st, prk);
		explicit_bzero(&st, sizeof(st));
		remember(prk);
		remember(prk + 16);
		explicit_bzero(prk, sizeof(prk));
	}

	keyring_install(kr, k);
	CHECK(keyring_unlocked(kr), "installed");
	CHECK(keyring_enter(kr) != NULL, "section");
	t = keyring_get(kr, VKEY_CONTENTS, nonce[0], &slot, &err);
	ref = keys_contents_tfm(k, nonce[0], &err);
	CHECK(t && ref, "contents transform");
	if (t && ref) {
		test_random_bytes(in, sizeof(in));
		CHECK(crypto_encrypt(t, iv1, o1, in, 64) == 0 &&
		      crypto_encrypt(ref, iv2, o2, in, 64) == 0 &&
		      memcmp(o1, o2, 64) == 0, "contents key as keys.h's");
	}
	crypto_free(ref);
	/* the same key again: the same slot, shared */
	CHECK(keyring_get(kr, VKEY_CONTENTS, nonce[0], &slot2, &err) == t &&
	      slot2 == slot, "one slot per key");
	keyring_put(kr, slot2);
	keyring_put(kr, slot);
	t = keyring_get(kr, VKEY_NAMES, nonce[1], &slot, &err);
	CHECK(t != NULL, "names transform");
	if (t)
		keyring_put(kr, slot);
	t = keyring_get(kr, VKEY_XATTR_NAMES, nonce[2], &slot, &err);
	CHECK(t != NULL, "xattr names transform");
	if (t)
		keyring_put(kr, slot);
	/* more keys than slots: replaced, least recently used first */
	for (unsigned int i = 0; i < KEYRING_SLOTS + 10; i++) {
		uint8_t n[16] = { 0 };

		memcpy(n, &i, sizeof(i));
		t = keyring_get(kr, VKEY_NAMES, n, &slot, &err);
		if (!t)
			break;
		keyring_put(kr, slot);
	}
	CHECK(t != NULL, "slots are replaced when full");
	CHECK(keyring_live(kr) == KEYRING_SLOTS, "the table is bounded: %u",
	      keyring_live(kr));
	/* three derived keys in the table, their schedules remembered */
	if ((t = keyring_get(kr, VKEY_CONTENTS, nonce[0], &slot, &err))) {
		remember_ctx(t);
		keyring_put(kr, slot);
	}
	if ((t = keyring_get(kr, VKEY_NAMES, nonce[1], &slot, &err))) {
		remember_ctx(t);
		keyring_put(kr, slot);
	}
	if ((t = keyring_get(kr, VKEY_XATTR_NAMES, NULL, &slot, &err))) {
		remember_ctx(t);
		keyring_put(kr, slot);
	}
	keyring_leave(kr);
	CHECK(nsecrets >= 6, "secrets remembered: %u", nsecrets);

	CHECK(secrets_in_memory() > 0, "the derived keys are in memory before "
	      "lock (the check can find them)");
	fail_alloc = 1;
	keyring_lock(kr);
	fail_alloc = 0;
	CHECK(!keyring_unlocked(kr), "locked");
	CHECK(keyring_live(kr) == 0, "no derived transform after lock");
	CHECK(secrets_in_memory() == 0, "no derived key in memory after a lock "
	      "during which every allocation failed");
	CHECK(keyring_enter(kr) == NULL, "locked: no keys");
	CHECK(keyring_get(kr, VKEY_CONTENTS, nonce[0], &slot, &err) == NULL &&
	      err == -EACCES, "locked: -EACCES");
	keyring_leave(kr);
	keyring_free(kr);
	explicit_bzero(vmk, sizeof(vmk));
}

int main(void)
{
	const enum volume_cipher ciphers[] = { VOLUME_CIPHER_SPECK128_XTS,
					       VOLUME_CIPHER_AES256_XTS };

	test_seed();
	if (crypto_init() != 0 || sodium_init() < 0)
		return 1;
	for (size_t i = 0; i < sizeof(ciphers) / sizeof(ciphers[0]); i++)
		test_cipher(ciphers[i]);
	return test_finish("test_keyring");
}
