/* SPDX-License-Identifier: MIT */
/*
 * volume.h's front door: volume_open (config or none, the record check,
 * the root's nonce, the lock and its hook), volume_unlock from each key
 * source (a passphrase on any, one or every keyslot, a recovery key, the
 * master key) and volume_close. Argon2id runs at 8 MiB, opslimit 1.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/xattr.h>
#include <unistd.h>

#include "crypto/secmem.h"
#include "tests/volume/voltest.h"
#include "volume/keys/keyslot.h"
#include "volume/keys/volconf.h"
#include "volume/volume.h"

static const struct keyslot_cost fast = { 1, 8u << 20 };

static char *make_volume(const char *tag, char *reckey)
{
	char *dir = voltest_tmpdir(tag);
	struct volume_create_params p = { .cipher = VOLUME_CIPHER_SPECK128_XTS,
					  .sector_size = 1024, .cost = fast,
					  .recovery_key = reckey };
	char err[256] = "";

	CHECK(volume_create(dir, &p, "pass-0", 6, NULL, err, sizeof(err)) == 0,
	      "create %s: %s", tag, err);
	return dir;
}

static int unlock_pass(struct volume *v, const char *pass, int slot,
		       uint8_t *vmk_out, char *err, size_t errlen)
{
	struct volume_key k = { .source = VOLUME_KEY_PASSPHRASE, .text = pass,
				.len = strlen(pass), .slot = slot,
				.vmk_out = vmk_out };

	return volume_unlock(v, &k, err, errlen);
}

static void path_in(char *out, size_t len, const char *dir, const char *name)
{
	snprintf(out, len, "%s/%s", dir, name);
}

/* open, the three ways a passphrase opens keyslots, the master key */
static void test_passphrase(void)
{
	char *dir = make_volume("vol-pass", NULL), err[512];
	struct volume v = VOLUME_CLOSED;
	struct volume_open_params p = { .flags = VOLUME_OPEN_CHECK_RECORD |
						 VOLUME_OPEN_ROOT_NONCE };
	struct volume_key mk = { .source = VOLUME_KEY_MASTER };
	uint8_t *vmk = secmem_alloc(VOLCONF_VMK_SIZE);
	int rc;

	CHECK(vmk != NULL, "secmem");
	rc = volume_open(&v, dir, &p, err, sizeof(err));
	CHECK(rc == 0 && v.has_config && v.rootfd >= 0 && v.lockfd == -1 &&
		      v.keyring == NULL && v.version == v.cfg.version &&
		      v.geom.sector_size == 1024 && v.cipher &&
		      v.geom.blocksize == v.cipher->blocksize,
	      "open: %d %s", rc, err);
	/* a second slot, for another passphrase */
	CHECK(unlock_pass(&v, "pass-0", VOLUME_SLOT_ANY, vmk, err,
			  sizeof(err)) == 0 && v.slot == 0 && v.keyring &&
		      keyring_unlocked(v.keyring),
	      "unlock any: %s", err);
	CHECK(keyslot_add(&v.cfg, "pass-1", 6, &fast, vmk) == 1 &&
		      volconf_write_atomic(v.confpath, &v.cfg, err,
					   sizeof(err)) == 0,
	      "second slot: %s", err);
	/* the record follows the config, as the keytool's writes do */
	CHECK(volume_refresh_record(&v) == 1 && volume_refresh_record(&v) == 0,
	      "record refreshed once");
	volume_close(&v);
	CHECK(v.keyring == NULL && v.rootfd == -1, "closed");

	CHECK(volume_open(&v, dir, &p, err, sizeof(err)) == 0, "reopen: %s", err);
	rc = unlock_pass(&v, "wrong", VOLUME_SLOT_ANY, NULL, err, sizeof(err));
	CHECK(rc == -EACCES && strstr(err, "wrong passphrase") && !v.keyring,
	      "wrong passphrase: %d %s", rc, err);
	rc = unlock_pass(&v, "pass-0", 1, NULL, err, sizeof(err));
	CHECK(rc == -EACCES && strstr(err, "keyslot 1"),
	      "slot 1 asked, slot 0's passphrase: %d %s", rc, err);
	rc = unlock_pass(&v, "pass-1", 1, NULL, err, sizeof(err));
	CHECK(rc == 1 && v.slot == 1, "slot 1: %d %s", rc, err);
	rc = unlock_pass(&v, "pass-1", VOLUME_SLOT_EVERY, NULL, err,
			 sizeof(err));
	CHECK(rc == 1 && v.slots[0] == VOLUME_SLOT_WRONG &&
		      v.slots[1] == VOLUME_SLOT_OPENED &&
		      v.slots[2] == VOLUME_SLOT_FREE,
	      "every slot: %d [%d %d %d] %s", rc, v.slots[0], v.slots[1],
	      v.slots[2], err);
	rc = unlock_pass(&v, "pass-1", 8, NULL, err, sizeof(err));
	CHECK(rc == -EINVAL, "slot 8: %d", rc);

	/* the master key (as cloakfsd holds it), and one of another key_id */
	mk.vmk = vmk;
	CHECK(volume_unlock(&v, &mk, err, sizeof(err)) == 0 &&
		      keyring_unlocked(v.keyring),
	      "master key: %s", err);
	vmk[0] ^= 1;
	rc = volume_unlock(&v, &mk, err, sizeof(err));
	CHECK(rc == -EBADMSG && strstr(err, "key_id"), "another master key: %d %s",
	      rc, err);
	volume_close(&v);
	secmem_free(vmk);
	voltest_rmtree(dir);
	free(dir);
}

/* a recovery key opens the volume without its config */
static void test_recovery(void)
{
	char *text = secmem_alloc(RECKEY_TEXT_LEN + 1), *dir, err[512], conf[4200];
	struct volume v = VOLUME_CLOSED;
	struct volume_open_params p = { .flags = VOLUME_OPEN_NO_CONFIG };
	struct volume_key rk = { .source = VOLUME_KEY_RECOVERY };
	struct volume_key mk = { .source = VOLUME_KEY_MASTER };
	uint8_t *vmk = secmem_alloc(VOLCONF_VMK_SIZE);
	struct volume_config want;
	int rc;

	CHECK(text != NULL, "secmem");
	dir = make_volume("vol-rec", text);
	CHECK(volume_open(&v, dir, NULL, err, sizeof(err)) == 0, "open: %s", err);
	want = v.cfg;
	volume_close(&v);
	path_in(conf, sizeof(conf), dir, VOLCONF_FILE_NAME);
	CHECK(unlink(conf) == 0, "config gone");
	CHECK(volume_open(&v, dir, NULL, err, sizeof(err)) == -ENOENT &&
		      strstr(err, "not a cloakfs volume"),
	      "no config: %s", err);
	CHECK(volume_open(&v, dir, &p, err, sizeof(err)) == 0 && !v.has_config,
	      "open without config: %s", err);
	rc = unlock_pass(&v, "pass-0", VOLUME_SLOT_ANY, NULL, err, sizeof(err));
	CHECK(rc == -EINVAL, "a passphrase needs the config: %d", rc);
	rk.text = "aaaaa-aaaaa";
	rk.len = strlen(rk.text);
	rc = volume_unlock(&v, &rk, err, sizeof(err));
	CHECK(rc == -EINVAL || rc == -EILSEQ, "a mistyped key: %d %s", rc, err);
	rk.text = text;
	rk.len = strlen(text);
	rc = volume_unlock(&v, &rk, err, sizeof(err));
	CHECK(rc == 0 && keyring_unlocked(v.keyring) &&
		      strcmp(v.cfg.uuid, want.uuid) == 0 &&
		      v.geom.sector_size == 1024 && v.version == want.version,
	      "recovery key: %d %s", rc, err);
	/* locked, then unlocked again by the master key (a mount that
	 * cloakfsd unlocks after a lock) */
	CHECK(vmk != NULL, "secmem");
	rk.vmk_out = vmk;
	CHECK(volume_unlock(&v, &rk, err, sizeof(err)) == 0, "again: %s", err);
	keyring_lock(v.keyring);
	mk.vmk = vmk;
	rc = volume_unlock(&v, &mk, err, sizeof(err));
	CHECK(rc == 0 && keyring_unlocked(v.keyring),
	      "master key after a recovery unlock: %d %s", rc, err);
	secmem_free(vmk);
	volume_close(&v);
	secmem_free(text);
	voltest_rmtree(dir);
	free(dir);
}

static int warned;

static void count_warning(void *arg, const char *msg)
{
	(void)arg;
	(void)msg;
	warned++;
}

static int refuse(void *arg)
{
	(*(int *)arg)++;
	return 1;
}

/* the lock, its hook, the record check, the root's nonce */
static void test_open_checks(void)
{
	char *dir = make_volume("vol-chk", NULL), *other = make_volume("vol-oth", NULL);
	char err[512], conf[4200], oconf[4200], nonce[4200];
	struct volume v = VOLUME_CLOSED, w = VOLUME_CLOSED;
	struct volume_open_params ex = { .lock = VOLUME_LOCK_EXCLUSIVE };
	struct volume_open_params opt = { .lock = VOLUME_LOCK_EXCLUSIVE,
					  .flags = VOLUME_OPEN_LOCK_OPTIONAL,
					  .warn = count_warning };
	struct volume_open_params hook = { .lock = VOLUME_LOCK_EXCLUSIVE,
					   .locked = refuse };
	struct volume_open_params rec = { .flags = VOLUME_OPEN_CHECK_RECORD };
	struct volume_open_params root = { .flags = VOLUME_OPEN_ROOT_NONCE };
	int calls = 0, rc;

	CHECK(volume_open(&v, dir, &ex, err, sizeof(err)) == 0 && v.lockfd >= 0,
	      "locked: %s", err);
	rc = volume_open(&w, dir, &ex, err, sizeof(err));
	CHECK(rc == -EWOULDBLOCK && w.lockfd == -1, "held: %d %s", rc, err);
	CHECK(volume_open(&w, dir, &opt, err, sizeof(err)) == 0 && warned == 1 &&
		      w.lockfd == -1,
	      "optional lock: %s", err);
	volume_close(&w);
	volume_release_lock(&v);
	CHECK(v.lockfd == -1 && v.rootfd >= 0, "released");
	hook.locked_arg = &calls;
	rc = volume_open(&w, dir, &hook, err, sizeof(err));
	CHECK(rc == -ECANCELED && calls == 1 && w.lockfd == -1,
	      "hook says no: %d", rc);
	CHECK(volume_open(&w, dir, &ex, err, sizeof(err)) == 0,
	      "the hook's lock let go: %s", err);
	volume_close(&w);
	volume_close(&v);

	/* another volume's config: refused with the record check only */
	path_in(conf, sizeof(conf), dir, VOLCONF_FILE_NAME);
	path_in(oconf, sizeof(oconf), other, VOLCONF_FILE_NAME);
	CHECK(rename(oconf, conf) == 0, "swap configs");
	rc = volume_open(&v, dir, &rec, err, sizeof(err));
	CHECK(rc == -EXDEV && strstr(err, "another volume"), "other: %d %s", rc,
	      err);
	CHECK(volume_open(&v, dir, NULL, err, sizeof(err)) == 0, "unchecked");
	volume_close(&v);

	path_in(nonce, sizeof(nonce), dir, ".cloakfs.dir");
	/* the file and its copy in an extended attribute */
	CHECK(unlink(nonce) == 0 && (removexattr(dir, "user.cloakfs.dir") == 0 ||
				      errno == ENODATA || errno == ENOTSUP),
	      "nonce gone");
	rc = volume_open(&v, dir, &root, err, sizeof(err));
	CHECK(rc == -ENOENT && strstr(err, "missing"), "root nonce: %d %s", rc,
	      err);
	voltest_rmtree(dir);
	voltest_rmtree(other);
	free(dir);
	free(other);
}

/* an edited parameter fails every keyslot: the record says which */
static void test_edited(void)
{
	char *dir = make_volume("vol-edit", NULL), err[768];
	struct volume v = VOLUME_CLOSED;
	int rc;

	CHECK(volume_open(&v, dir, NULL, err, sizeof(err)) == 0, "open: %s", err);
	v.cfg.sector_size = 4096;
	CHECK(volconf_write_atomic(v.confpath, &v.cfg, err, sizeof(err)) == 0,
	      "edit: %s", err);
	volume_close(&v);
	CHECK(volume_open(&v, dir, NULL, err, sizeof(err)) == 0, "reopen: %s", err);
	rc = unlock_pass(&v, "pass-0", VOLUME_SLOT_ANY, NULL, err, sizeof(err));
	CHECK(rc == -EUCLEAN && strstr(err, "edited") &&
		      strstr(err, "sector_size"),
	      "edited: %d %s", rc, err);
	rc = unlock_pass(&v, "pass-0", VOLUME_SLOT_EVERY, NULL, err, sizeof(err));
	CHECK(rc == -EUCLEAN && v.slots[0] == VOLUME_SLOT_WRONG,
	      "edited, every slot: %d %s", rc, err);
	volume_close(&v);
	voltest_rmtree(dir);
	free(dir);
}

int main(void)
{
	const char *why;

	CHECK(volume_init(&why) == 0, "init: %s", why ? why : "");
	test_passphrase();
	test_recovery();
	test_open_checks();
	test_edited();
	return test_finish("test_volume");
}
