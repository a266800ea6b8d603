/* SPDX-License-Identifier: MIT */
/*
 * volume/names/direntry.h: the one encode and the one judging decode of
 * directory entries that the mount and cloakfs-fsck share. The same name
 * under the keyring (with the directory's nonce) and under the keyed
 * transform fsck holds must give the same entry, and every verdict must
 * come out for the entry that earns it: a user name (short and long),
 * cloakfs's own entries and temporaries (hidden), a long name without
 * or with a wrong sidecar, an undecodable, an invalid and an over-padded
 * encoding, and a locked or unknown key.
 */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tests/volume/voltest.h"
#include "volume/base64.h"
#include "volume/fdio.h"
#include "volume/keys/keyring.h"
#include "volume/keys/keys.h"
#include "volume/names/direntry.h"

#define CIPHER VOLUME_CIPHER_SPECK128_XTS

struct fixture {
	int dfd;
	struct keyring *kr;
	struct volume_keys *keys; /* the same VMK, for the transform */
	struct crypto_tfm *tfm;
	uint8_t nonce[DIRNONCE_SIZE];
	struct direntry_key ring, held, none;
};

/* a raw padded buffer encrypted as vname.c does (IV 0), then encoded */
static void raw_name(struct fixture *f, const uint8_t *buf, size_t len,
		     char out[VNAME_MAX_ENCODED + 1])
{
	uint8_t tmp[256], iv[16] = { 0 };

	memcpy(tmp, buf, len);
	CHECK(crypto_encrypt(f->tfm, iv, tmp, tmp, len) == 0, "raw cts");
	CHECK(base64url_encode(out, VNAME_MAX_ENCODED + 1, tmp, len) !=
		      (size_t)-1,
	      "raw b64");
}

/* decrypt cname with key k: the result, the verdict in *v */
static int judge(struct fixture *f, const struct direntry_key *k,
		 const char *cname, char out[VNAME_MAX_PLAIN + 1],
		 struct direntry_found *found)
{
	return direntry_name_decrypt(k, f->dfd, cname, vname_classify(cname),
				     out, found);
}

/* name made in the directory (its sidecar too) under both keys */
static void test_user_name(struct fixture *f, const char *name, int want_long)
{
	struct direntry_name a, b;
	struct direntry_found found;
	char out[VNAME_MAX_PLAIN + 1];
	int fd;

	CHECK(direntry_name_encrypt(&f->ring, VNAME_DEFAULT_NAME_MAX, name,
				    &a) == 0 &&
		      direntry_name_encrypt(&f->held, VNAME_DEFAULT_NAME_MAX,
					    name, &b) == 0,
	      "%zu bytes: encrypted", strlen(name));
	CHECK(a.is_long == want_long && b.is_long == want_long &&
		      a.enclen == b.enclen && !strcmp(a.name, b.name) &&
		      !strcmp(a.enc, b.enc),
	      "%zu bytes: keyring and transform give one entry", strlen(name));
	CHECK(direntry_name_prepare(f->dfd, &a) == 0, "sidecar");
	fd = openat(f->dfd, a.name, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	CHECK(fd >= 0, "entry made");
	if (fd >= 0)
		close(fd);
	for (int i = 0; i < 2; i++) {
		memset(out, 0, sizeof(out));
		CHECK(judge(f, i ? &f->held : &f->ring, a.name, out, &found) == 1 &&
			      found.verdict == DIRENTRY_OK &&
			      found.enclen == a.enclen && !strcmp(out, name),
		      "%zu bytes, key %d: decrypts to the name", strlen(name), i);
	}
	/* the key unknown: nothing decrypts */
	CHECK(judge(f, &f->none, a.name, out, &found) == -ENOKEY &&
		      found.verdict == DIRENTRY_NO_KEY,
	      "%zu bytes: no key", strlen(name));
}

static void test_hidden(struct fixture *f)
{
	static const char *names[] = { ".", "..", DIRNONCE_FILE, "cloakfs.conf",
				       "cloakfs.tmp.0123456789abcdef01",
				       "cloakfs.tmp.up-1f", ".DS_Store" };
	struct direntry_found found;
	char out[VNAME_MAX_PLAIN + 1];

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		CHECK(judge(f, &f->ring, names[i], out, &found) == 0 &&
			      found.verdict == DIRENTRY_HIDDEN,
		      "%s hidden", names[i]);
}

/* a long entry and its sidecar: missing, another name's, a directory */
static void test_sidecars(struct fixture *f)
{
	char name[201], side[VNAME_SIDECAR_LEN + 1], out[VNAME_MAX_PLAIN + 1];
	struct direntry_name a, other;
	struct direntry_found found;
	int fd;

	memset(name, 'q', 200);
	name[200] = '\0';
	CHECK(direntry_name_encrypt(&f->ring, VNAME_DEFAULT_NAME_MAX, name, &a) == 0 &&
		      a.is_long && vname_sidecar_name(a.name, side) == 0,
	      "long name");
	name[0] = 'r';
	CHECK(direntry_name_encrypt(&f->ring, VNAME_DEFAULT_NAME_MAX, name,
				    &other) == 0,
	      "another long name");
	CHECK(judge(f, &f->ring, a.name, out, &found) == -EBADMSG &&
		      found.verdict == DIRENTRY_SIDECAR_MISSING,
	      "sidecar missing");
	CHECK(judge(f, &f->none, a.name, out, &found) == -EBADMSG &&
		      found.verdict == DIRENTRY_SIDECAR_MISSING,
	      "sidecar missing, judged without a key");
	fd = openat(f->dfd, side, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0400);
	CHECK(fd >= 0 && fdio_write_all(fd, other.enc, other.enclen) == 0,
	      "wrong sidecar written");
	if (fd >= 0)
		close(fd);
	CHECK(judge(f, &f->held, a.name, out, &found) == -EBADMSG &&
		      found.verdict == DIRENTRY_SIDECAR_BAD,
	      "sidecar of another name");
	CHECK(unlinkat(f->dfd, side, 0) == 0 && mkdirat(f->dfd, side, 0700) == 0,
	      "sidecar a directory");
	CHECK(judge(f, &f->held, a.name, out, &found) == -VOLUME_ENOTREG &&
		      found.verdict == DIRENTRY_SIDECAR_BAD,
	      "sidecar not a regular file");
	CHECK(unlinkat(f->dfd, side, AT_REMOVEDIR) == 0, "cleanup");
}

/*
 * The padded bytes plain (NUL-filled to len) encrypted as an entry name:
 * refused with verdict want under key k, out holding what it spells.
 */
static void refused(struct fixture *f, const struct direntry_key *k,
		    const char *plain, size_t plen, size_t len,
		    enum direntry_verdict want, char out[VNAME_MAX_PLAIN + 1],
		    char enc[VNAME_MAX_ENCODED + 1])
{
	struct direntry_found found;
	uint8_t buf[64] = { 0 };

	memcpy(buf, plain, plen);
	raw_name(f, buf, len, enc);
	memset(out, 0, VNAME_MAX_PLAIN + 1);
	CHECK(judge(f, k, enc, out, &found) == -EBADMSG && found.verdict == want,
	      "verdict %d for %zu bytes in %zu", (int)want, plen, len);
}

/* encodings that are refused, each with its own verdict */
static void test_refused(struct fixture *f)
{
	char enc[VNAME_MAX_ENCODED + 1], out[VNAME_MAX_PLAIN + 1];
	struct direntry_found found;
	char unpadded[32] = "a";

	/* a NUL, then a nonzero last byte: not padded */
	unpadded[31] = 'z';
	refused(f, &f->ring, unpadded, 32, 32, DIRENTRY_UNDECODABLE, out, enc);
	/* padded, but a NUL inside the name */
	refused(f, &f->held, "a\0b", 3, 32, DIRENTRY_INVALID, out, enc);
	/* "abc" with a block more padding than the rule asks for */
	refused(f, &f->ring, "abc", 3, 64, DIRENTRY_OVERPADDED, out, enc);
	CHECK(!strcmp(out, "abc"), "over-padded, spelling its name");
	/* locked: the key is gone, nothing is judged */
	keyring_lock(f->kr);
	CHECK(judge(f, &f->ring, enc, out, &found) == -EACCES &&
		      found.verdict == DIRENTRY_NO_KEY,
	      "locked");
	CHECK(direntry_name_encrypt(&f->ring, VNAME_DEFAULT_NAME_MAX, "x",
				    &(struct direntry_name){ .is_long = 0 }) ==
		      -EACCES,
	      "locked: no encryption");
}

int main(void)
{
	char *dir = voltest_tmpdir("direntry");
	struct volume_keys *ring_keys;
	struct fixture f;
	uint8_t vmk[KEYS_VMK_SIZE];
	char name[171];
	int err;

	test_seed();
	memset(&f, 0, sizeof(f));
	test_random_bytes(vmk, sizeof(vmk));
	test_random_bytes(f.nonce, sizeof(f.nonce));
	f.dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	CHECK(f.dfd >= 0, "open dir");
	CHECK(keyring_new(CIPHER, &f.kr) == 0 &&
		      keys_new(vmk, CIPHER, &ring_keys) == 0 &&
		      keys_new(vmk, CIPHER, &f.keys) == 0,
	      "keys");
	if (test_failures)
		return 1;
	keyring_install(f.kr, ring_keys);
	f.tfm = keys_names_tfm(f.keys, f.nonce, &err);
	CHECK(f.tfm != NULL, "names tfm: %d", err);
	if (!f.tfm)
		return 1;
	f.ring = (struct direntry_key){ f.kr, f.nonce, NULL };
	f.held = (struct direntry_key){ NULL, NULL, f.tfm };
	f.none = (struct direntry_key){ NULL, NULL, NULL };

	test_user_name(&f, "hello", 0);
	memset(name, 'n', 170);
	name[170] = '\0';
	test_user_name(&f, name, 1);
	test_hidden(&f);
	test_sidecars(&f);
	test_refused(&f);

	crypto_free(f.tfm);
	keys_free(f.keys);
	keyring_free(f.kr);
	close(f.dfd);
	voltest_rmtree(dir);
	free(dir);
	explicit_bzero(vmk, sizeof(vmk));
	return test_finish("test_direntry");
}
