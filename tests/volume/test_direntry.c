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
#include "volume/names/noncecopy.h"

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

/* an entry made in the directory under the name cname */
static void plant(struct fixture *f, const char *cname)
{
	int fd = openat(f->dfd, cname, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC,
			0600);

	CHECK(fd >= 0, "%s made", cname);
	if (fd >= 0)
		close(fd);
}

/*
 * Sync tools' conflict copies: listed as the name with the tool's marker,
 * and that name resolves back to the copy; the literal name wins when it
 * exists; a copy of a long name, of a nonce file, and one too long.
 */
static void test_conflicts(struct fixture *f)
{
	static const char mark[] = ".sync-conflict-20261204-101010-ABCDEFG";
	static const char copy[] = " (laptop's conflicted copy 2026-12-04)";
	char cname[1024], out[VNAME_MAX_PLAIN + 1], lname[300];
	struct direntry_name a, r;
	struct direntry_found found;
	const char *hash;

	CHECK(direntry_name_encrypt(&f->ring, VNAME_DEFAULT_NAME_MAX,
				    "report.txt", &a) == 0, "report.txt");
	plant(f, a.name);
	snprintf(cname, sizeof(cname), "%s%s", a.name, mark);
	plant(f, cname);
	CHECK(judge(f, &f->ring, cname, out, &found) == 1 &&
		      found.verdict == DIRENTRY_OK && found.conflict &&
		      !strcmp(out, "report.sync-conflict-20261204-101010-ABCDEFG.txt"),
	      "a copy listed with its marker: %s", out);
	CHECK(judge(f, &f->held, cname, out, &found) == 1 && found.conflict,
	      "and under the held transform");
	CHECK(direntry_name_resolve(&f->ring, f->dfd, VNAME_DEFAULT_NAME_MAX,
				    out, &r) == 0 && !strcmp(r.name, cname) &&
		      !r.is_long,
	      "the listed name resolves to the copy: %s", r.name);
	CHECK(direntry_name_resolve(&f->ring, f->dfd, VNAME_DEFAULT_NAME_MAX,
				    "report.txt", &r) == 0 &&
		      !strcmp(r.name, a.name),
	      "the original resolves to itself");
	/* no copy of that marker: the name stands for itself */
	CHECK(direntry_name_resolve(&f->ring, f->dfd, VNAME_DEFAULT_NAME_MAX,
				    "report.sync-conflict-20261204-101011-ABCDEFG.txt",
				    &r) == 0 &&
		      direntry_name_encrypt(&f->ring, VNAME_DEFAULT_NAME_MAX,
					    "report.sync-conflict-20261204-101011-ABCDEFG.txt",
					    &a) == 0 &&
		      !strcmp(r.name, a.name),
	      "a marker-like name with no copy is literal");
	/* a real file of the listed name wins */
	CHECK(direntry_name_encrypt(&f->ring, VNAME_DEFAULT_NAME_MAX, out,
				    &a) == 0, "literal");
	plant(f, a.name);
	CHECK(direntry_name_resolve(&f->ring, f->dfd, VNAME_DEFAULT_NAME_MAX,
				    out, &r) == 0 && !strcmp(r.name, a.name),
	      "the literal entry wins over the copy");

	/* a long name's copy, the marker before the hash (Dropbox) */
	memset(lname, 'w', 180);
	strcpy(lname + 180, ".doc");
	CHECK(direntry_name_encrypt(&f->ring, VNAME_DEFAULT_NAME_MAX, lname,
				    &a) == 0 && a.is_long, "long");
	CHECK(direntry_name_prepare(f->dfd, &a) == 0, "sidecar");
	hash = a.name + strlen(VNAME_LONG_PREFIX);
	snprintf(cname, sizeof(cname), "cloakfs.long%s.%s", copy, hash);
	plant(f, cname);
	CHECK(judge(f, &f->ring, cname, out, &found) == 1 && found.conflict &&
		      strlen(out) == 184 + strlen(copy) &&
		      !strcmp(out + 180, " (laptop's conflicted copy 2026-12-04).doc"),
	      "a long name's copy listed: %s", out);
	CHECK(direntry_name_resolve(&f->ring, f->dfd, VNAME_DEFAULT_NAME_MAX,
				    out, &r) == 0 && !strcmp(r.name, cname),
	      "and resolved: %s", r.name);
	/* past NAME_MAX with its marker: refused, said why */
	memset(lname, 'z', 240);
	lname[240] = '\0';
	CHECK(direntry_name_encrypt(&f->ring, VNAME_DEFAULT_NAME_MAX, lname,
				    &a) == 0 && a.is_long, "longer");
	CHECK(direntry_name_prepare(f->dfd, &a) == 0, "sidecar");
	snprintf(cname, sizeof(cname), "%s%s", a.name, mark);
	plant(f, cname);
	CHECK(judge(f, &f->ring, cname, out, &found) == -ENAMETOOLONG &&
		      found.verdict == DIRENTRY_CONFLICT_TOO_LONG && found.conflict,
	      "a copy too long to list");
	/* copies of a nonce file and of a sidecar: hidden */
	snprintf(cname, sizeof(cname), "%s%s", DIRNONCE_FILE, mark);
	CHECK(judge(f, &f->ring, cname, out, &found) == 0 &&
		      found.verdict == DIRENTRY_HIDDEN, "a nonce file's copy hidden");
	snprintf(cname, sizeof(cname), "%s%s.name", a.name, mark);
	CHECK(judge(f, &f->ring, cname, out, &found) == 0 &&
		      found.verdict == DIRENTRY_HIDDEN, "a sidecar's copy hidden");
}

/*
 * A directory whose nonce file has a conflict copy: the copy is found,
 * and names made under it decode and resolve through the key's second
 * nonce; names under neither stay refused.
 */
static void test_other_nonce(struct fixture *f)
{
	static const char copy[] = DIRNONCE_FILE
		".sync-conflict-20261204-101010-ABCDEFG";
	uint8_t other[DIRNONCE_SIZE], found_nonce[DIRNONCE_SIZE];
	struct direntry_key two, k2;
	struct direntry_name a, r;
	struct direntry_found found;
	char out[VNAME_MAX_PLAIN + 1];
	unsigned int copies = 0;
	int fd;

	test_random_bytes(other, sizeof(other));
	CHECK(noncecopy_find(f->dfd, f->nonce, found_nonce, &copies) == 0 &&
		      copies == 0, "no copy yet");
	fd = openat(f->dfd, copy, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0400);
	CHECK(fd >= 0 && write(fd, other, sizeof(other)) == sizeof(other),
	      "copy written");
	if (fd >= 0)
		close(fd);
	CHECK(noncecopy_find(f->dfd, f->nonce, found_nonce, &copies) == 1 &&
		      copies == 1 && !memcmp(found_nonce, other, sizeof(other)),
	      "the copy's nonce found");
	/* the same nonce as the directory's is no second key */
	CHECK(noncecopy_find(f->dfd, other, found_nonce, &copies) == 0,
	      "a copy equal to the nonce is no other");
	k2 = (struct direntry_key){ .kr = f->kr, .nonce = other };
	two = (struct direntry_key){ .kr = f->kr, .nonce = f->nonce,
				     .other = other };
	CHECK(direntry_name_encrypt(&k2, VNAME_DEFAULT_NAME_MAX,
				    "made over there", &a) == 0, "under the copy");
	plant(f, a.name);
	CHECK(judge(f, &f->ring, a.name, out, &found) == -EBADMSG,
	      "refused under the directory's nonce alone");
	CHECK(judge(f, &two, a.name, out, &found) == 1 && found.other &&
		      !strcmp(out, "made over there"),
	      "decoded under the second nonce");
	CHECK(direntry_name_resolve(&two, f->dfd, VNAME_DEFAULT_NAME_MAX,
				    "made over there", &r) == 0 &&
		      !strcmp(r.name, a.name),
	      "resolved under the second nonce");
	CHECK(direntry_name_resolve(&two, f->dfd, VNAME_DEFAULT_NAME_MAX,
				    "made here", &r) == 0 &&
		      direntry_name_encrypt(&f->ring, VNAME_DEFAULT_NAME_MAX,
					    "made here", &a) == 0 &&
		      !strcmp(r.name, a.name),
	      "a new name is made under the directory's own nonce");
	CHECK(unlinkat(f->dfd, copy, 0) == 0, "copy removed");
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
	f.ring = (struct direntry_key){ .kr = f.kr, .nonce = f.nonce };
	f.held = (struct direntry_key){ .tfm = f.tfm };
	f.none = (struct direntry_key){ .kr = NULL };

	test_user_name(&f, "hello", 0);
	memset(name, 'n', 170);
	name[170] = '\0';
	test_user_name(&f, name, 1);
	test_hidden(&f);
	test_sidecars(&f);
	test_conflicts(&f);
	test_other_nonce(&f);
	test_refused(&f); /* locks the keyring: last */

	crypto_free(f.tfm);
	keys_free(f.keys);
	keyring_free(f.kr);
	close(f.dfd);
	voltest_rmtree(dir);
	free(dir);
	explicit_bzero(vmk, sizeof(vmk));
	return test_finish("test_direntry");
}
