/* SPDX-License-Identifier: MIT */
/*
 * volume/keys/volrec.h and reckey.h: the recovery key's text (a fixed vector
 * computed with an independent Python model of docs/format.md 8.3: the
 * same vector is in the doc), that every single wrong character, every
 * swap of neighbours and every group moved is caught, and the volume
 * record's round trip, checks, MAC and recovery slot.
 */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "tests/volume/voltest.h"
#include "volume/keys/keys.h"
#include "volume/keys/volrec.h"
#include "volume/keys/reckey.h"

static const char ALPHA[] = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";

static void test_vector(void)
{
	uint8_t r[16], back[16];
	char text[RECKEY_TEXT_LEN + 1], lower[RECKEY_TEXT_LEN + 1];

	for (int i = 0; i < 16; i++)
		r[i] = (uint8_t)i;
	CHECK(reckey_encode(r, text) == 0, "encode");
	CHECK(strcmp(text, "000G0-40R47-0M30J-E209D-185GT-R38E6-1ZNX9-E9J0P") == 0,
	      "vector: %s", text);
	CHECK(reckey_decode(text, strlen(text), back, NULL, 0) == 0 &&
	      memcmp(back, r, 16) == 0, "round trip");
	/* as someone may type it: lower case, spaces, O for 0, L for 1 */
	for (size_t i = 0; i < strlen(text); i++)
		lower[i] = text[i] == '-' ? ' ' : text[i] == '0' ? 'o'
			   : text[i] == '1' ? 'l' : (char)(text[i] | 0x20);
	lower[strlen(text)] = '\0';
	CHECK(reckey_decode(lower, strlen(lower), back, NULL, 0) == 0 &&
	      memcmp(back, r, 16) == 0, "typed loosely: %s", lower);
}

/* the 40 symbols of text (dashes dropped) into s */
static void symbols(const char *text, char s[41])
{
	size_t n = 0;

	for (const char *p = text; *p; p++)
		if (*p != '-')
			s[n++] = *p;
	s[n] = '\0';
}

static int decodes(const char *s)
{
	uint8_t out[16];

	return reckey_decode(s, strlen(s), out, NULL, 0);
}

static void test_typos(void)
{
	uint8_t r[16];
	char text[RECKEY_TEXT_LEN + 1], s[41], t[41], err[256];
	unsigned int missed = 0;

	for (int round = 0; round < 20; round++) {
		test_random_bytes(r, sizeof(r));
		CHECK(reckey_encode(r, text) == 0, "encode");
		symbols(text, s);
		CHECK(strlen(s) == 40, "40 symbols");
		/* every position, every other symbol */
		for (int i = 0; i < 40; i++)
			for (int v = 0; v < 32; v++) {
				if (ALPHA[v] == s[i])
					continue;
				memcpy(t, s, sizeof(t));
				t[i] = ALPHA[v];
				if (decodes(t) != -EILSEQ)
					missed++;
			}
		/* every swap of two different neighbours inside a group */
		for (int i = 0; i < 40; i++) {
			if (i % 5 == 4 || s[i] == s[i + 1])
				continue;
			memcpy(t, s, sizeof(t));
			t[i] = s[i + 1];
			t[i + 1] = s[i];
			if (decodes(t) != -EILSEQ)
				missed++;
		}
		/* two whole groups exchanged */
		memcpy(t, s, sizeof(t));
		memcpy(t + 5, s + 15, 5);
		memcpy(t + 15, s + 5, 5);
		if (memcmp(s + 5, s + 15, 5) != 0 && decodes(t) != -EILSEQ)
			missed++;
	}
	CHECK(missed == 0, "%u typos not caught", missed);
	/* the message names the group */
	memcpy(t, s, sizeof(t));
	t[11] = t[11] == 'Z' ? 'Y' : 'Z';
	CHECK(reckey_decode(t, 40, r, err, sizeof(err)) == -EILSEQ &&
	      strstr(err, "group 3 ") != NULL, "%s", err);
	CHECK(reckey_decode(s, 39, r, err, sizeof(err)) == -EINVAL, "short");
	CHECK(reckey_decode("U", 1, r, err, sizeof(err)) == -EINVAL, "U is no symbol");
	/* whole once 40 symbols are there, whatever separates them */
	CHECK(reckey_complete(s, strlen(s)), "a whole key is complete");
	CHECK(!reckey_complete(text, 23), "its first printed line is not");
	CHECK(!reckey_complete(s, 39), "one symbol short is not");
	CHECK(reckey_complete(text, strlen(text)), "the text with its dashes is");
	CHECK(reckey_complete("  \n\t-\r", 7) == 0, "separators are no symbols");
}

static void new_config(struct volume_config *c, const uint8_t *vmk)
{
	struct volume_keys *k;

	CHECK(volconf_new(c, VOLUME_CIPHER_SPECK128_XTS, 4096, 255) == 0, "config");
	CHECK(keys_new(vmk, c->cipher, &k) == 0, "keys");
	CHECK(keys_key_id(k, c->key_id) == 0, "key id");
	keys_free(k);
	c->slots[0].used = 1;
	c->slots[0].opslimit = 3;
	c->slots[0].memlimit = 8 << 20;
	test_random_bytes(c->slots[0].salt, sizeof(c->slots[0].salt));
	test_random_bytes(c->slots[0].sealed, sizeof(c->slots[0].sealed));
}

static void test_record(void)
{
	char *dir = voltest_tmpdir("record"), why[512];
	uint8_t vmk[64], other[64], secret[16], out[64];
	struct volume_config c, e;
	struct volume_record r, back;
	struct volume_keys *k, *k2;
	int fd;

	test_random_bytes(vmk, sizeof(vmk));
	test_random_bytes(other, sizeof(other));
	new_config(&c, vmk);
	CHECK(keys_new(vmk, c.cipher, &k) == 0 && keys_new(other, c.cipher, &k2) == 0,
	      "keys");
	fd = open(dir, O_PATH | O_DIRECTORY);
	CHECK(volrec_read(fd, &back) == -ENOENT, "none yet");
	CHECK(volrec_init(&r, &c, k) == 0, "init");
	CHECK(volrec_set_recovery(&r, vmk, secret) == 0, "recovery slot");
	CHECK(volrec_write(fd, &r) == 0, "write");
	CHECK(volrec_read(fd, &back) == 0, "read");
	CHECK(volrec_compare(&back, &c, why, sizeof(why)) == VOLREC_SAME, "%s", why);
	CHECK(volrec_verify(&back, k) == 0, "MAC");
	CHECK(volrec_verify(&back, k2) == -EBADMSG, "MAC under another key");
	CHECK(volrec_open_recovery(&back, secret, out) == 0 && !memcmp(out, vmk, 64),
	      "recovery opens");
	secret[3] ^= 1;
	CHECK(volrec_open_recovery(&back, secret, out) == -EACCES, "another secret");

	e = c;
	e.sector_size = 512;
	CHECK(volrec_compare(&back, &e, why, sizeof(why)) == VOLREC_FIELDS_DIFFER &&
	      strstr(why, "sector_size is 512 in the config, 4096 in cloakfs.volume"),
	      "%s", why);
	e = c;
	e.slots[0].opslimit = 4;
	CHECK(volrec_compare(&back, &e, why, sizeof(why)) == VOLREC_SLOTS_DIFFER &&
	      strstr(why, "keyslot 0: opslimit is 4 in the config, 3 in"), "%s", why);
	e = c;
	e.key_id[0] ^= 1;
	CHECK(volrec_compare(&back, &e, NULL, 0) == VOLREC_OTHER_VOLUME, "key id");

	/* one flipped bit anywhere: damaged */
	{
		uint8_t buf[VOLREC_MAX_FILE];
		ssize_t n;
		int f = openat(fd, VOLREC_FILE_NAME, O_RDONLY);

		n = read(f, buf, sizeof(buf));
		close(f);
		CHECK(n > 100, "size %zd", n);
		for (ssize_t i = 0; i < n; i += 7) {
			buf[i] ^= 0x10;
			f = openat(fd, "x", O_WRONLY | O_CREAT | O_TRUNC, 0600);
			CHECK(write(f, buf, (size_t)n) == n, "write");
			close(f);
			CHECK(renameat(fd, "x", fd, VOLREC_FILE_NAME) == 0, "rename");
			CHECK(volrec_read(fd, &back) == -EBADMSG, "bit flipped at %zd", i);
			buf[i] ^= 0x10;
		}
	}
	keys_free(k);
	keys_free(k2);
	close(fd);
	voltest_rmtree(dir);
	free(dir);
}

int main(void)
{
	test_seed();
	if (crypto_init())
		return 1;
	test_vector();
	test_typos();
	test_record();
	printf("test_record: %lu checks, %lu failed\n", test_checks, test_failures);
	return test_failures ? 1 : 0;
}
