/* SPDX-License-Identifier: MIT */
/*
 * cloakfs-fsck --repair: lost+found.cloakfs/ and the moves into it, and a
 * fresh .cloakfs.dir for a directory that lost its own. Nothing here
 * deletes user data: entries are renamed (a file's key depends only on
 * its header, so its content stays readable anywhere), and a symlink's
 * target is re-encrypted for its new directory when it decodes. See
 * fsck.h and docs/fsck.md.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tools/fsck.h"
#include "volume/dirops.h"

int fsck_encode_name(struct fsck *f, struct crypto_tfm *names,
		     const char *plain, char out[NAMES_MAX_ENCODED + 1],
		     char enc[NAMES_MAX_ENCODED + 1], size_t *enclen,
		     bool *is_long)
{
	int n = names_encrypt(names, plain, strlen(plain), enc,
			      NAMES_MAX_ENCODED + 1);

	if (n < 0)
		return n;
	*enclen = (size_t)n;
	*is_long = names_is_long(*enclen, f->cfg.name_max);
	if (!*is_long) {
		memcpy(out, enc, *enclen + 1);
		return 0;
	}
	return names_long_name(enc, *enclen, out);
}

int fsck_new_dirnonce(int dirfd, uint8_t nonce[NAMES_DIRNONCE_SIZE])
{
	if (unlinkat(dirfd, NAMES_DIRNONCE_FILE, 0) != 0 && errno != ENOENT) {
		/* a directory in its place: only an empty one goes */
		if (errno != EISDIR ||
		    unlinkat(dirfd, NAMES_DIRNONCE_FILE, AT_REMOVEDIR) != 0)
			return -errno;
	}
	return names_dirnonce_create(dirfd, nonce);
}

void fsck_lost_found_close(struct fsck *f)
{
	if (f->lf_fd >= 0)
		close(f->lf_fd);
	f->lf_fd = -1;
	crypto_free(f->lf_names);
	f->lf_names = NULL;
}

int fsck_lost_found_open(struct fsck *f, struct crypto_tfm *root_names,
			 bool create)
{
	uint8_t nonce[NAMES_DIRNONCE_SIZE];
	char enc[NAMES_MAX_ENCODED + 1];
	size_t enclen;
	bool is_long;
	int err;

	if (f->lf_fd >= 0)
		return 0;
	if (!root_names)
		return -EIO;
	err = fsck_encode_name(f, root_names, FSCK_LOST_FOUND, f->lf_cname, enc,
			       &enclen, &is_long);
	if (err)
		return err;
	f->lf_fd = openat(f->rootfd, f->lf_cname,
			  O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (f->lf_fd < 0 && errno == ENOENT && create) {
		/* built whole under a temporary name, as fs/ops.c's mkdir */
		err = dirops_make_dir(f->rootfd, f->lf_cname, 0700, NULL, NULL);
		if (err)
			return err;
		f->lf_fd = openat(f->rootfd, f->lf_cname,
				  O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	}
	if (f->lf_fd < 0)
		return -errno;
	err = names_dirnonce_read(f->lf_fd, nonce);
	if (!err) {
		f->lf_names = keys_names_tfm(f->keys, nonce, &err);
		explicit_bzero(nonce, sizeof(nonce));
	}
	if (!f->lf_names) {
		close(f->lf_fd);
		f->lf_fd = -1;
		return err ? err : -EIO;
	}
	return 0;
}

/* the n-th candidate name: plain, plain~2, ... or stem-1, stem-2, ... */
static void candidate(const char *plain, const char *stem, unsigned int n,
		      char out[NAMES_MAX_PLAIN + 1])
{
	char suffix[24];
	size_t keep;

	if (!plain) {
		snprintf(out, NAMES_MAX_PLAIN + 1, "%s-%u", stem, n);
		return;
	}
	if (n == 1) {
		snprintf(out, NAMES_MAX_PLAIN + 1, "%s", plain);
		return;
	}
	snprintf(suffix, sizeof(suffix), "~%u", n);
	keep = strlen(plain);
	if (keep + strlen(suffix) > NAMES_MAX_PLAIN)
		keep = NAMES_MAX_PLAIN - strlen(suffix);
	snprintf(out, NAMES_MAX_PLAIN + 1, "%.*s%s", (int)keep, plain, suffix);
}

/* a symlink moving directory: its target re-encrypted for lost+found */
static int move_symlink(struct fsck *f, int dirfd, const char *cname,
			struct crypto_tfm *from_names, const char *newc)
{
	char enc[NAMES_MAX_SYMLINK_ENCODED + 2];
	char plain[NAMES_MAX_SYMLINK_PLAIN + 1];
	struct stat st;
	ssize_t n = dirops_read_symlink(dirfd, cname, &st, enc, sizeof(enc));
	int err;

	if (n < 0)
		return (int)n;
	err = names_symlink_decrypt(from_names, enc, (size_t)n, plain,
				    sizeof(plain));
	if (err < 0)
		return err;
	err = names_symlink_encrypt(f->lf_names, plain, (size_t)err, enc,
				    sizeof(enc));
	explicit_bzero(plain, sizeof(plain));
	if (err < 0)
		return err;
	err = dirops_symlink_like(enc, f->lf_fd, newc, &st);
	if (err)
		return err;
	if (unlinkat(dirfd, cname, 0) != 0) {
		err = -errno;
		(void)unlinkat(f->lf_fd, newc, 0);
		return err;
	}
	return 0;
}

int fsck_quarantine(struct fsck *f, int dirfd, const char *cname, bool is_long,
		    const char *plain, const char *stem,
		    struct crypto_tfm *from_names, char *where, size_t wherelen)
{
	char name[NAMES_MAX_PLAIN + 1], newc[NAMES_MAX_ENCODED + 1];
	char enc[NAMES_MAX_ENCODED + 1], side[NAMES_SIDECAR_LEN + 1];
	struct stat st;
	size_t enclen;
	bool new_long;
	int err = fsck_lost_found_open(f, f->root_names, true);

	if (err)
		return err;
	if (fstatat(dirfd, cname, &st, AT_SYMLINK_NOFOLLOW) != 0)
		return -errno;
	for (unsigned int n = 1;; n++) {
		if (n > 100000)
			return -EEXIST;
		candidate(plain, stem, n, name);
		err = fsck_encode_name(f, f->lf_names, name, newc, enc, &enclen,
				       &new_long);
		if (err)
			return err;
		if (fstatat(f->lf_fd, newc, &(struct stat){ 0 },
			    AT_SYMLINK_NOFOLLOW) != 0 && errno == ENOENT)
			break;
	}
	if (new_long) {
		err = names_write_sidecar(f->lf_fd, newc, enc, enclen);
		if (err)
			return err;
	}
	err = -EBADMSG;
	if (S_ISLNK(st.st_mode) && from_names)
		err = move_symlink(f, dirfd, cname, from_names, newc);
	if (err == -EBADMSG) /* not a symlink, or its target does not decode */
		err = dirops_rename_noreplace(dirfd, cname, f->lf_fd, newc);
	if (err) {
		if (new_long && names_sidecar_name(newc, side) == 0)
			(void)unlinkat(f->lf_fd, side, 0);
		return err;
	}
	/* the old sidecar named what is gone: redundant now */
	if (is_long && names_sidecar_name(cname, side) == 0)
		(void)unlinkat(dirfd, side, 0);
	snprintf(where, wherelen, "moved to /%s/%s", FSCK_LOST_FOUND, name);
	return 0;
}
