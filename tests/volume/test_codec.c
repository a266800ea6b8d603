/* SPDX-License-Identifier: MIT */
/*
 * base64 (both variants), the file header codec, secmem and the cipher
 * table: no crypto needed.
 */
#include <errno.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tests/crypto/testutil.h"
#include "volume/base64.h"
#include "volume/cipher.h"
#include "volume/content/header.h"
#include "crypto/secmem.h"

/* RFC 4648 section 10 test vectors */
static void test_rfc4648(void)
{
	static const char *const in[] = { "", "f", "fo", "foo", "foob", "fooba",
					  "foobar" };
	static const char *const std[] = { "", "Zg==", "Zm8=", "Zm9v", "Zm9vYg==",
					   "Zm9vYmE=", "Zm9vYmFy" };
	static const char *const url[] = { "", "Zg", "Zm8", "Zm9v", "Zm9vYg",
					   "Zm9vYmE", "Zm9vYmFy" };

	for (size_t i = 0; i < 7; i++) {
		char enc[16];
		uint8_t dec[16];
		size_t n = strlen(in[i]), got;

		CHECK(base64_encode(BASE64_STD_PAD, enc, sizeof(enc),
				    (const uint8_t *)in[i], n) == strlen(std[i]) &&
			      strcmp(enc, std[i]) == 0,
		      "std encode %s", in[i]);
		CHECK(base64_encode(BASE64_URL_NOPAD, enc, sizeof(enc),
				    (const uint8_t *)in[i], n) == strlen(url[i]) &&
			      strcmp(enc, url[i]) == 0,
		      "url encode %s", in[i]);
		CHECK(base64_encoded_len(BASE64_URL_NOPAD, n) == strlen(url[i]),
		      "url len %zu", n);
		CHECK(base64_decode(BASE64_STD_PAD, dec, sizeof(dec), std[i],
				    strlen(std[i]), &got) == 0 &&
			      got == n && memcmp(dec, in[i], n) == 0,
		      "std decode %s", std[i]);
		CHECK(base64_decode(BASE64_URL_NOPAD, dec, sizeof(dec), url[i],
				    strlen(url[i]), &got) == 0 &&
			      got == n && memcmp(dec, in[i], n) == 0,
		      "url decode %s", url[i]);
	}
}

static void test_base64_strict(void)
{
	static const char *const bad_url[] = {
		"Z",      /* impossible length */
		"Zh",     /* nonzero unused bits (canonical is Zg) */
		"Zm9",    /* nonzero unused bits (canonical is Zm8) */
		"Zg==",   /* padding in the no-padding variant */
		"Zm+v",   /* '+' is not base64url */
		"Zm/v",
		"Zm9v.",
		"Zm 9",
	};
	static const char *const bad_std[] = {
		"Zg", "Zg=", "Zh==", "Zm9=", "Z===", "Zm-v", "Zm_v", "=Zm9",
		"Zg=a",
	};
	uint8_t dec[16], all[256];
	char enc[400];
	size_t got;

	for (size_t i = 0; i < sizeof(bad_url) / sizeof(bad_url[0]); i++)
		CHECK(base64_decode(BASE64_URL_NOPAD, dec, sizeof(dec), bad_url[i],
				    strlen(bad_url[i]), &got) == -EINVAL,
		      "url accepted %s", bad_url[i]);
	for (size_t i = 0; i < sizeof(bad_std) / sizeof(bad_std[0]); i++)
		CHECK(base64_decode(BASE64_STD_PAD, dec, sizeof(dec), bad_std[i],
				    strlen(bad_std[i]), &got) == -EINVAL,
		      "std accepted %s", bad_std[i]);
	/* too small output */
	CHECK(base64_decode(BASE64_URL_NOPAD, dec, 2, "Zm9v", 4, &got) == -ENOSPC,
	      "ENOSPC");
	CHECK(base64_encode(BASE64_URL_NOPAD, enc, 4, (const uint8_t *)"foo", 3) ==
		      (size_t)-1,
	      "encode needs room for the NUL");
	/* every byte value, every length, both variants round-trip */
	for (int i = 0; i < 256; i++)
		all[i] = (uint8_t)i;
	for (size_t n = 0; n <= 256; n++) {
		for (int v = 0; v < 2; v++) {
			enum base64_variant var = v ? BASE64_STD_PAD : BASE64_URL_NOPAD;
			size_t e = base64_encode(var, enc, sizeof(enc), all, n);
			uint8_t out[256];

			CHECK(e == base64_encoded_len(var, n), "len %zu", n);
			CHECK(base64_decode(var, out, sizeof(out), enc, e, &got) == 0 &&
				      got == n && memcmp(out, all, n) == 0,
			      "round trip %zu variant %d", n, v);
		}
	}
}

static void make_header(uint8_t raw[HEADER_SIZE], struct file_header *h)
{
	CHECK(header_new(h) == 0, "header_new");
	header_encode(h, raw);
}

static void test_header(void)
{
	struct file_header h, d;
	enum header_error why;
	uint8_t raw[HEADER_SIZE], bad[HEADER_SIZE];

	make_header(raw, &h);
	CHECK(memcmp(raw, "CLKF", 4) == 0, "magic");
	CHECK(raw[4] == 1 && raw[5] == 0 && raw[6] == 0 && raw[7] == 0,
	      "version 1, flags 0");
	CHECK(header_decode(raw, &d, &why) == 0 && why == HEADER_OK, "decode");
	CHECK(memcmp(d.nonce, h.nonce, 16) == 0 && d.flags == 0 && d.tiny_len == 0,
	      "fields");

	/* padded tiny file */
	h.flags = HEADER_FLAG_PADDED;
	h.tiny_len = 7;
	header_encode(&h, raw);
	CHECK(raw[6] == 1 && raw[8] == 7, "flag and length bytes");
	CHECK(header_decode(raw, &d, &why) == 0 && d.tiny_len == 7 &&
		      d.flags == HEADER_FLAG_PADDED,
	      "padded decode");

	struct {
		int off;
		uint8_t val;
		int rc;
		enum header_error why;
	} cases[] = {
		{ 0, 'X', -EBADMSG, HEADER_BAD_MAGIC },
		{ 3, 'G', -EBADMSG, HEADER_BAD_MAGIC },
		{ 4, 2, -EINVAL, HEADER_BAD_VERSION },
		{ 5, 1, -EINVAL, HEADER_BAD_VERSION },
		{ 4, 0, -EINVAL, HEADER_BAD_VERSION },
		{ 6, 3, -EINVAL, HEADER_BAD_FLAGS },   /* bit 1 unknown */
		{ 7, 0x80, -EINVAL, HEADER_BAD_FLAGS },
		{ 12, 1, -EBADMSG, HEADER_BAD_RESERVED },
		{ 15, 0x80, -EBADMSG, HEADER_BAD_RESERVED },
		{ 8, 0, -EBADMSG, HEADER_BAD_LENGTH },  /* padded, length 0 */
		{ 8, 16, -EBADMSG, HEADER_BAD_LENGTH }, /* padded, length 16 */
		{ 9, 1, -EBADMSG, HEADER_BAD_LENGTH },  /* padded, length 263 */
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		memcpy(bad, raw, HEADER_SIZE);
		bad[cases[i].off] = cases[i].val;
		why = HEADER_OK;
		CHECK(header_decode(bad, &d, &why) == cases[i].rc &&
			      why == cases[i].why,
		      "case %zu: why %d (%s)", i, (int)why, header_strerror(why));
		CHECK(strlen(header_strerror(why)) > 5, "message");
	}
	/* not padded but a length */
	h.flags = 0;
	h.tiny_len = 0;
	header_encode(&h, raw);
	memcpy(bad, raw, HEADER_SIZE);
	bad[8] = 3;
	CHECK(header_decode(bad, &d, &why) == -EBADMSG && why == HEADER_BAD_LENGTH,
	      "length without flag");
	/* all-zero nonce */
	memcpy(bad, raw, HEADER_SIZE);
	memset(bad + 16, 0, 16);
	CHECK(header_decode(bad, &d, &why) == -EBADMSG && why == HEADER_ZERO_NONCE,
	      "zero nonce");
	/* an all-zero block (a hole where a header should be) */
	memset(bad, 0, HEADER_SIZE);
	CHECK(header_decode(bad, &d, &why) == -EBADMSG && why == HEADER_BAD_MAGIC,
	      "zero header");
	CHECK(header_decode(raw, &d, NULL) == 0, "why may be NULL");
	/* fresh nonces differ */
	{
		struct file_header a, b;

		CHECK(header_new(&a) == 0 && header_new(&b) == 0 &&
			      memcmp(a.nonce, b.nonce, 16) != 0,
		      "nonces differ");
	}
}

/* AddressSanitizer turns mlock into a no-op: VmLck stays 0 there */
#if defined(__SANITIZE_ADDRESS__)
#define SANITIZER_NO_MLOCK 1
#else
#define SANITIZER_NO_MLOCK 0
#endif

/* freed one-page blocks are kept locked and come back wiped; a forked
 * child does not reuse its parent's (unlocked there) pages */
static void test_secmem_pool(void)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE), n = page - 64;
	uint8_t *p = secmem_alloc(n), *r;
	unsigned long unlocked = secmem_unlocked_count();
	pid_t pid;
	int st;

	CHECK(p != NULL, "one-page alloc");
	if (!p)
		return;
	memset(p, 0x5a, n);
	secmem_free(p);
	r = secmem_alloc(n);
	CHECK(r == p, "a freed page is reused");
	if (!r)
		return;
	for (size_t i = 0; i < n; i++)
		if (r[i]) {
			CHECK(0, "a reused page is wiped (byte %zu)", i);
			break;
		}
	secmem_free(r); /* stays in the pool, locked */
	pid = fork();
	if (pid == 0) {
		uint8_t *c = secmem_alloc(n);
		int bad = !c;

		for (size_t i = 0; c && i < n; i++)
			bad |= c[i] != 0;
		/* locked here unless mlock failed in this process */
		if (c && secmem_unlocked_count() == unlocked && test_vmlck_kb(0) < 4 &&
		    !SANITIZER_NO_MLOCK)
			bad = 2;
		secmem_free(c);
		_exit(bad);
	}
	CHECK(pid > 0 && waitpid(pid, &st, 0) == pid && WIFEXITED(st) &&
		      WEXITSTATUS(st) == 0,
	      "a forked child gets a wiped, locked page (status %d)",
	      pid > 0 ? st : -1);
}

/* a forked child locks the live secrets it inherits again (mlock is not
 * inherited): the background mount forks after its keys are made */
static void test_secmem_fork_relocks(void)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	uint8_t *small = secmem_alloc(100), *big = secmem_alloc(3 * page);
	pid_t pid;
	int st;

	CHECK(small && big, "alloc");
	if (!small || !big || SANITIZER_NO_MLOCK)
		goto out;
	CHECK(test_mapping_locked(small) == 1 && test_mapping_locked(big) == 1 &&
		      test_mapping_locked(big + 2 * page) == 1,
	      "locked in the parent");
	memset(small, 0x33, 100);
	pid = fork();
	if (pid == 0)
		_exit((test_mapping_locked(small) != 1) |
		      (test_mapping_locked(big) != 1) << 1 |
		      (test_mapping_locked(big + 2 * page) != 1) << 2 |
		      (small[99] != 0x33) << 3);
	CHECK(pid > 0 && waitpid(pid, &st, 0) == pid && WIFEXITED(st) &&
		      WEXITSTATUS(st) == 0,
	      "a forked child has every live allocation locked (status %d)",
	      pid > 0 ? st : -1);
	CHECK(test_mapping_locked(small) == 1, "still locked in the parent");
out:
	secmem_free(small);
	secmem_free(big);
}

static void test_secmem(void)
{
	uint8_t *p = secmem_alloc(100), *q = secmem_alloc(0);

	CHECK(p && q, "alloc");
	if (!p || !q)
		return;
	CHECK(secmem_size(p) == 100 && secmem_size(q) == 1, "sizes");
	for (int i = 0; i < 100; i++)
		CHECK(p[i] == 0, "zeroed");
	memset(p, 0xa5, 100);
	secmem_free(p);
	secmem_free(q);
	secmem_free(NULL);
	test_secmem_pool();
	test_secmem_fork_relocks();
	fprintf(stderr, "secmem: %lu allocations could not be mlock'ed\n",
		secmem_unlocked_count());
}

static void test_ciphers(void)
{
	enum volume_cipher c;

	CHECK(cipher_by_name("speck128-xts", &c) == 0 &&
		      c == VOLUME_CIPHER_SPECK128_XTS,
	      "speck128");
	CHECK(cipher_by_name("sm4-xts", &c) == 0 && c == VOLUME_CIPHER_SM4_XTS,
	      "sm4");
	CHECK(cipher_by_name("aes-xts", &c) == -ENOENT, "unknown");
	CHECK(volume_cipher_info(VOLUME_CIPHER_SPECK64_XTS)->blocksize == 8 &&
		      volume_cipher_info(VOLUME_CIPHER_SPECK64_XTS)->xts_keysize == 32,
	      "speck64 sizes");
	CHECK(volume_cipher_info(VOLUME_CIPHER_AES256_XTS)->xts_keysize == 64 &&
		      volume_cipher_info(VOLUME_CIPHER_AES256_XTS)->name_keysize == 32,
	      "aes sizes");
	CHECK(volume_cipher_info(VOLUME_CIPHER_SM4_XTS)->name_keysize == 16,
	      "sm4 name key");
	CHECK(cipher_by_name("camellia256-xts", &c) == 0 &&
		      c == VOLUME_CIPHER_CAMELLIA256_XTS,
	      "camellia");
	CHECK(volume_cipher_info(VOLUME_CIPHER_CAMELLIA256_XTS)->xts_keysize == 64 &&
		      volume_cipher_info(VOLUME_CIPHER_CAMELLIA256_XTS)->name_keysize == 32 &&
		      !strcmp(volume_cipher_info(VOLUME_CIPHER_CAMELLIA256_XTS)->xts_alg,
			      "xts(camellia)"),
	      "camellia sizes and algorithm");
}

int main(void)
{
	test_rfc4648();
	test_base64_strict();
	test_header();
	test_secmem();
	test_ciphers();
	return test_finish("test_codec");
}
