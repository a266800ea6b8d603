/* SPDX-License-Identifier: MIT */
/* see direntry.h */
#include "volume/names/direntry.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/log.h"
#include "volume/dirops.h"
#include "volume/names/conflict.h"
#include "volume/names/dirnonce.h"
#include "volume/fdio.h"
#include "volume/keys/keyring.h"

/* what a name operation does with the directory's key */
enum name_op { NAME_ENCRYPT, NAME_DECRYPT, TARGET_ENCRYPT, TARGET_DECRYPT };

/* the codec's call for op under tfm; a decryption's verdict in *v */
static int name_codec(struct crypto_tfm *tfm, enum name_op op,
		      const char *in, size_t inlen, char *out, size_t outlen,
		      enum vname_verdict *v)
{
	switch (op) {
	case NAME_ENCRYPT:
		return vname_encrypt(tfm, in, inlen, out, outlen);
	case NAME_DECRYPT:
		return vname_judge(tfm, in, inlen, out, v);
	case TARGET_ENCRYPT:
		return vname_symlink_encrypt(tfm, in, inlen, out, outlen);
	case TARGET_DECRYPT:
		return vname_symlink_decrypt(tfm, in, inlen, out, outlen);
	}
	return -EINVAL;
}

/*
 * One name operation under the directory's name key: the caller's
 * transform, or the keyring's in a key section of its own. The codec's
 * result (a length, or -errno; -EACCES when the volume is locked,
 * -ENOKEY for a key of neither).
 * *v is VNAME_UNDECODABLE unless a decryption says otherwise.
 */
static int name_crypt(const struct direntry_key *k, enum name_op op,
		      const char *in, size_t inlen, char *out, size_t outlen,
		      enum vname_verdict *v)
{
	struct crypto_tfm *tfm;
	unsigned int slot;
	int n;

	*v = VNAME_UNDECODABLE;
	if (k->tfm)
		return name_codec(k->tfm, op, in, inlen, out, outlen, v);
	if (!k->kr)
		return -ENOKEY;
	keyring_enter(k->kr);
	tfm = keyring_get(k->kr, VKEY_NAMES, k->nonce, &slot, &n);
	if (tfm) {
		n = name_codec(tfm, op, in, inlen, out, outlen, v);
		keyring_put(k->kr, slot);
	}
	keyring_leave(k->kr);
	return n;
}

int direntry_name_encrypt(const struct direntry_key *k, unsigned int name_max,
			  const char *name, struct direntry_name *out)
{
	enum vname_verdict v;
	size_t len = strlen(name);
	int n;

	if (len > VNAME_MAX_PLAIN)
		return -ENAMETOOLONG;
	n = name_crypt(k, NAME_ENCRYPT, name, len, out->enc, sizeof(out->enc),
		       &v);
	if (n < 0)
		return n;
	out->enclen = (size_t)n;
	out->is_long = vname_is_long(out->enclen, name_max);
	if (!out->is_long) {
		memcpy(out->name, out->enc, out->enclen + 1);
		return 0;
	}
	return vname_long_name(out->enc, out->enclen, out->name);
}

/* has the directory a second key (a conflict copy of its nonce)? */
static int has_other(const struct direntry_key *k)
{
	return (k->kr && k->other) || k->other_tfm;
}

/* does dfd hold an entry of this name? */
static int entry_exists(int dfd, const char *cname)
{
	struct stat st;

	return fstatat(dfd, cname, &st, AT_SYMLINK_NOFOLLOW) == 0;
}

/*
 * The conflict copy of base (encrypted as e) with marker mark in dfd: the
 * marker put at each place a tool may have put it in e->name (before
 * each '.', or last), the first that exists into out. 1, or 0.
 */
static int find_copy(int dfd, const struct direntry_name *e, const char *mark,
		     size_t mlen, struct direntry_name *out)
{
	size_t len = strlen(e->name);
	char cand[NAME_MAX + 1];

	if (len + mlen > NAME_MAX)
		return 0;
	for (size_t at = 0; at <= len; at++) {
		if (at < len && (at == 0 || e->name[at] != '.'))
			continue;
		memcpy(cand, e->name, at);
		memcpy(cand + at, mark, mlen);
		memcpy(cand + at + mlen, e->name + at, len - at + 1);
		if (!entry_exists(dfd, cand))
			continue;
		memcpy(out->name, cand, len + mlen + 1);
		memcpy(out->enc, e->enc, e->enclen + 1);
		out->enclen = e->enclen;
		out->is_long = 0; /* the sidecar is the original's */
		return 1;
	}
	return 0;
}

int direntry_name_resolve(const struct direntry_key *k, int dfd,
			  unsigned int name_max, const char *name,
			  struct direntry_name *out)
{
	char base[VNAME_MAX_PLAIN + 1];
	struct direntry_name e;
	struct conflict_cut c;
	size_t len = strlen(name), from = 0;
	int err = direntry_name_encrypt(k, name_max, name, out), found = 0;

	if (err || (!has_other(k) && !conflict_next_shown(name, len, 0, &c)) ||
	    entry_exists(dfd, out->name))
		return err;
	/* made under the nonce's conflict copy */
	if (has_other(k) &&
	    direntry_name_encrypt(&(struct direntry_key){
					.kr = k->kr, .nonce = k->other,
					.tfm = k->other_tfm },
				  name_max, name, &e) == 0 &&
	    entry_exists(dfd, e.name)) {
		*out = e;
		return 0;
	}
	/* a name that reads as a conflict copy's and is no entry itself */
	while (!found && conflict_next_shown(name, len, from, &c)) {
		from = c.at + 1;
		if (conflict_cut_out(name, len, &c, base, sizeof(base)) != 0 ||
		    direntry_name_encrypt(k, name_max, base, &e) != 0)
			continue;
		found = find_copy(dfd, &e, name + c.at, c.len, out);
	}
	explicit_bzero(base, sizeof(base));
	return 0;
}

int direntry_name_prepare(int dfd, const struct direntry_name *e)
{
	if (!e->is_long)
		return 0;
	return vname_write_sidecar(dfd, e->name, e->enc, e->enclen);
}

/* does dfd hold a conflict copy of long name lname (its sidecar's too)?
 * 1, 0, or 1 when it cannot be told */
static int has_copy(int dfd, const char *lname)
{
	struct vname_conflict vc;
	struct dirent *de;
	int found = 0;
	DIR *dp;

	if (fdio_opendir(dfd, &dp) != 0)
		return 1;
	while (!found && (de = readdir(dp)) != NULL)
		found = vname_classify(de->d_name) == VNAME_ENTRY_CONFLICT &&
			vname_conflict_of(de->d_name, &vc) &&
			vc.kind == VNAME_ENTRY_LONG && !strcmp(vc.base, lname);
	closedir(dp);
	return found;
}

void direntry_name_forget(int dfd, const struct direntry_name *e)
{
	char side[VNAME_SIDECAR_LEN + 1];
	struct stat st;

	if (!e->is_long || vname_sidecar_name(e->name, side) != 0)
		return;
	if (fstatat(dfd, e->name, &st, AT_SYMLINK_NOFOLLOW) == 0 ||
	    errno != ENOENT)
		return; /* the entry is there (or we cannot tell): keep it */
	if (has_copy(dfd, e->name))
		return; /* a sync tool's copy of the entry still needs it */
	(void)unlinkat(dfd, side, 0);
}

/* the verdict on a name the codec refused (n < 0) */
static enum direntry_verdict codec_verdict(int n, enum vname_verdict v)
{
	if (n != -EBADMSG)
		return DIRENTRY_NO_KEY;
	switch (v) {
	case VNAME_INVALID:
		return DIRENTRY_INVALID;
	case VNAME_OVERPADDED:
		return DIRENTRY_OVERPADDED;
	default:
		return DIRENTRY_UNDECODABLE;
	}
}

/*
 * enc under the directory's second key, when the first gave n (a name in
 * out that is no evidence for its key, or a refusal): the second's name
 * when it decodes and the first's did not, or it is evidence; else n.
 */
static int other_decrypt(const struct direntry_key *k, const char *enc,
			 size_t enclen, char out[VNAME_MAX_PLAIN + 1], int n,
			 struct direntry_found *f)
{
	char alt[VNAME_MAX_PLAIN + 1];
	enum vname_verdict v;
	int m = name_crypt(&(struct direntry_key){ .kr = k->kr,
						   .nonce = k->other,
						   .tfm = k->other_tfm },
			   NAME_DECRYPT, enc, enclen, alt, sizeof(alt), &v);

	if (m >= 0 && (n < 0 || dirnonce_name_evidence(alt, (size_t)m, enclen))) {
		memcpy(out, alt, (size_t)m + 1);
		f->other = 1;
		n = m;
	}
	explicit_bzero(alt, sizeof(alt));
	return n;
}

/*
 * A conflict copy (volume/names/conflict.h): the entry it copies decrypted
 * and shown with the tool's marker; a copy of a sidecar or of a nonce
 * file is hidden (the nonce is read by dirnonce_load and the names'
 * fallback), and so is one whose shown name would pass NAME_MAX.
 */
static int conflict_decrypt(const struct direntry_key *k, int dirfd,
			    const char *cname, char out[VNAME_MAX_PLAIN + 1],
			    struct direntry_found *f)
{
	char base[VNAME_MAX_PLAIN + 1];
	struct vname_conflict vc;
	int n;

	if (!vname_conflict_of(cname, &vc) ||
	    (vc.kind != VNAME_ENTRY_ENCRYPTED && vc.kind != VNAME_ENTRY_LONG))
		return 0;
	n = direntry_name_decrypt(k, dirfd, vc.base, vc.kind, base, f);
	f->conflict = 1;
	if (n == 1 && conflict_mark(base, strlen(base), cname + vc.cut.at,
				    vc.cut.len, out, VNAME_MAX_PLAIN + 1) != 0) {
		f->verdict = DIRENTRY_CONFLICT_TOO_LONG;
		n = -ENAMETOOLONG;
	}
	explicit_bzero(base, sizeof(base));
	return n;
}

int direntry_name_decrypt(const struct direntry_key *k, int dirfd,
			  const char *cname, enum vname_entry kind,
			  char out[VNAME_MAX_PLAIN + 1],
			  struct direntry_found *found)
{
	struct direntry_found f = { DIRENTRY_HIDDEN, 0, 0, 0 };
	char longenc[VNAME_MAX_ENCODED + 1];
	const char *enc = cname;
	enum vname_verdict v;
	int n = 0;

	switch (kind) {
	case VNAME_ENTRY_ENCRYPTED:
		f.enclen = strlen(cname);
		break;
	case VNAME_ENTRY_LONG:
		n = vname_read_sidecar(dirfd, cname, longenc, sizeof(longenc));
		if (n == -ENOENT) {
			f.verdict = DIRENTRY_SIDECAR_MISSING;
			n = -EBADMSG;
			goto out;
		}
		if (n < 0) {
			f.verdict = DIRENTRY_SIDECAR_BAD;
			goto out;
		}
		enc = longenc;
		f.enclen = (size_t)n;
		break;
	case VNAME_ENTRY_CONFLICT:
		n = conflict_decrypt(k, dirfd, cname, out, &f);
		goto out;
	default:
		goto out;
	}
	n = name_crypt(k, NAME_DECRYPT, enc, f.enclen, out, VNAME_MAX_PLAIN + 1,
		       &v);
	if (has_other(k) && (n == -EBADMSG || (n >= 0 &&
	    !dirnonce_name_evidence(out, (size_t)n, f.enclen)))) {
		/* refused, or a name a wrong key may give: is it the
		 * other's? (a refusal for over-padding stays one) */
		if (n != -EBADMSG || v != VNAME_OVERPADDED)
			n = other_decrypt(k, enc, f.enclen, out, n, &f);
	}
	f.verdict = n < 0 ? codec_verdict(n, v) : DIRENTRY_OK;
	n = n < 0 ? n : 1;
out:
	if (found)
		*found = f;
	return n;
}

int direntry_target_encrypt(struct keyring *kr,
			const uint8_t nonce[DIRNONCE_SIZE],
			const char *target,
			char out[VNAME_MAX_SYMLINK_ENCODED + 1])
{
	size_t len = strnlen(target, VNAME_MAX_SYMLINK_PLAIN + 1);
	enum vname_verdict v;
	int n;

	if (len > VNAME_MAX_SYMLINK_PLAIN)
		return -ENAMETOOLONG;
	n = name_crypt(&(struct direntry_key){ .kr = kr, .nonce = nonce },
		       TARGET_ENCRYPT, target, len, out,
		       VNAME_MAX_SYMLINK_ENCODED + 1, &v);
	return n < 0 ? n : 0;
}

int direntry_target_decrypt(struct keyring *kr,
			const uint8_t nonce[DIRNONCE_SIZE],
			const char *enc, size_t enclen,
			char out[VNAME_MAX_SYMLINK_PLAIN + 1])
{
	enum vname_verdict v;

	return name_crypt(&(struct direntry_key){ .kr = kr, .nonce = nonce },
			  TARGET_DECRYPT, enc, enclen, out,
			  VNAME_MAX_SYMLINK_PLAIN + 1, &v);
}

int direntry_is_empty(int dfd)
{
	struct dirent *d;
	DIR *dp;
	int empty = 1, err = fdio_opendir(dfd, &dp);

	if (err)
		return err;
	while ((d = readdir(dp)) != NULL) {
		if (strcmp(d->d_name, ".") && strcmp(d->d_name, "..") &&
		    strcmp(d->d_name, DIRNONCE_FILE)) {
			empty = 0;
			break;
		}
	}
	closedir(dp);
	return empty;
}

/* a directory's nonce file, back after a removal failed */
static int write_nonce_back(int dfd, const uint8_t nonce[DIRNONCE_SIZE])
{
	int fd = openat(dfd, DIRNONCE_FILE,
			O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0440);
	int err = 0;

	if (fd < 0)
		return -errno;
	if (write(fd, nonce, DIRNONCE_SIZE) != DIRNONCE_SIZE ||
	    fsync(fd) != 0)
		err = -EIO;
	close(fd);
	return err;
}

/* where a directory is, for a message */
static void log_nonce_lost(int dfd, const char *what)
{
	char where[4096];

	if (fdio_path(dfd, where, sizeof(where)) != 0)
		snprintf(where, sizeof(where), "a directory");
	log_error("%s: %s failed and the directory's nonce could not be "
		  "restored (run cloakfs-fsck --repair)", where, what);
}

int direntry_remove(int parentfd, const char *cname)
{
	uint8_t nonce[DIRNONCE_SIZE];
	int dfd, err, have_nonce;

	dfd = openat(parentfd, cname, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (dfd < 0)
		return -errno;
	err = direntry_is_empty(dfd);
	err = err == 1 ? 0 : err == 0 ? -ENOTEMPTY : err;
	if (!err) {
		have_nonce = dirnonce_read(dfd, nonce) == 0;
		if (unlinkat(dfd, DIRNONCE_FILE, 0) != 0 && errno != ENOENT)
			err = -errno;
		if (!err && unlinkat(parentfd, cname, AT_REMOVEDIR) != 0) {
			err = -errno;
			/* still there: it needs its names back */
			if (have_nonce && write_nonce_back(dfd, nonce) != 0)
				log_nonce_lost(dfd, "rmdir");
		}
	}
	explicit_bzero(nonce, sizeof(nonce));
	close(dfd);
	return err;
}

int direntry_victim_clear(int dfd, const char *cname, struct direntry_victim *v)
{
	int vfd = openat(dfd, cname, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	int err;

	v->fd = -1;
	if (vfd < 0)
		return errno == ENOTDIR || errno == ENOENT ? 0 : -errno;
	err = direntry_is_empty(vfd);
	if (err == 0)
		err = -ENOTEMPTY;
	if (err == 1)
		err = dirnonce_read(vfd, v->nonce);
	if (!err && unlinkat(vfd, DIRNONCE_FILE, 0) != 0)
		err = -errno;
	if (err) {
		close(vfd);
		explicit_bzero(v->nonce, sizeof(v->nonce));
		return err;
	}
	v->fd = vfd;
	return 0;
}

void direntry_victim_end(struct direntry_victim *v, int failed)
{
	if (v->fd < 0)
		return;
	if (failed && write_nonce_back(v->fd, v->nonce) != 0)
		log_nonce_lost(v->fd, "rename");
	close(v->fd);
	v->fd = -1;
	explicit_bzero(v->nonce, sizeof(v->nonce));
}
