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
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "tools/fsck-progress.h"
#include "tools/fsck-repair.h"
#include "tools/fsck-keys.h"
#include "volume/dirops.h"
#include "volume/names/namemode.h"
#include "volume/names/direntry.h"
#include "volume/names/dirnonce.h"
#include "volume/fdio.h"
#include "volume/names/symlink.h"

static int note_write(struct fsck *f, const char *text, size_t len);

void fsck_lost_found_close(struct fsck *f)
{
	/* early lines and nothing after them: the note is made now, while
	 * the root's name key is still there */
	if (f->note_early_len && !f->note_failed) {
		if (f->root_names)
			(void)note_write(f, NULL, 0);
		else
			fsck_note("%s: the repair note is not written: the root "
				  "directory's name key is unknown", f->dir);
	}
	free(f->note_early);
	f->note_early = NULL;
	f->note_early_len = 0;
	if (f->note_fd >= 0) {
		if (fsync(f->note_fd) != 0 && !f->note_failed)
			fsck_note("%s: the repair note: %s", f->dir, strerror(errno));
		fileio_close(&f->note);
		close(f->note_fd);
	}
	f->note_fd = -1;
	if (f->lf_fd >= 0)
		close(f->lf_fd);
	f->lf_fd = -1;
	crypto_free(f->lf_names);
	f->lf_names = NULL;
}

int fsck_lost_found_open(struct fsck *f, struct crypto_tfm *root_names,
			 bool create)
{
	uint8_t nonce[DIRNONCE_SIZE];
	struct direntry_name lf;
	int err;

	if (f->lf_fd >= 0)
		return 0;
	if (!root_names)
		return -EIO;
	/* short under any name_max (VNAME_MIN_NAME_MAX) */
	err = direntry_name_encrypt(&(struct direntry_key){ .tfm = root_names },
				    f->cfg.name_max, FSCK_LOST_FOUND, &lf);
	if (err)
		return err;
	memcpy(f->lf_cname, lf.name, sizeof(f->lf_cname));
	f->lf_fd = openat(f->rootfd, f->lf_cname,
			  O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (f->lf_fd < 0 && errno == ENOENT && create) {
		/* built whole under a temporary name, as the mount's mkdir */
		err = dirops_make_dir(f->rootfd, f->lf_cname, 0700, NULL, NULL);
		if (err)
			return err;
		f->lf_fd = openat(f->rootfd, f->lf_cname,
				  O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	}
	if (f->lf_fd < 0)
		return -errno;
	err = dirnonce_read(f->lf_fd, nonce);
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
		      char out[VNAME_MAX_PLAIN + 1])
{
	char suffix[24];
	size_t keep;

	if (!plain) {
		snprintf(out, VNAME_MAX_PLAIN + 1, "%s-%u", stem, n);
		return;
	}
	if (n == 1) {
		snprintf(out, VNAME_MAX_PLAIN + 1, "%s", plain);
		return;
	}
	snprintf(suffix, sizeof(suffix), "~%u", n);
	keep = strlen(plain);
	if (keep + strlen(suffix) > VNAME_MAX_PLAIN)
		keep = VNAME_MAX_PLAIN - strlen(suffix);
	snprintf(out, VNAME_MAX_PLAIN + 1, "%.*s%s", (int)keep, plain, suffix);
}

/* a symlink moving directory: its target re-encrypted for lost+found */
static int move_symlink(struct fsck *f, int dirfd, const char *cname,
			struct crypto_tfm *from_names, const char *newc)
{
	char enc[SYMLINK_MAX_STORED + 2];
	char plain[VNAME_MAX_SYMLINK_PLAIN + 1];
	struct stat st;
	ssize_t n = dirops_read_symlink(dirfd, cname, &st, enc, sizeof(enc));
	int err;

	if (n < 0)
		return (int)n;
	if (symlink_form(enc, (size_t)n, namemode_target_iv(f->cfg.cipher, f->cfg.names)) !=
	    SYMLINK_V1)
		return -EBADMSG; /* not under its directory's key: moved as it is */
	err = vname_symlink_decrypt(from_names, enc, (size_t)n, plain,
				    sizeof(plain));
	if (err < 0)
		return err;
	err = vname_symlink_encrypt(f->lf_names, plain, (size_t)err, enc,
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

/*
 * The note line for a moved long-named entry's sidecar: the entry's whole
 * encrypted name, which can still name it should its directory's nonce
 * turn up (a backup, a sync tool's history). 0 when it is in the note or
 * holds nothing that could (then the sidecar may go); -errno when it
 * stays (unreadable, or not a regular file: an entry of its own).
 */
static int keep_sidecar_text(struct fsck *f, int dirfd, const char *side,
			     const char *newname)
{
	char buf[VNAME_MAX_ENCODED + 1];
	ssize_t n = fdio_read_file(dirfd, side, buf, sizeof(buf) - 1, NULL);

	if (n < 0)
		return n == -ENOENT ? 0 : (int)n;
	if (n == 0)
		return 0;
	buf[n] = '\0';
	for (ssize_t i = 0; i < n; i++)
		if (buf[i] < 0x21 || buf[i] > 0x7e)
			return 0; /* no encoding: nothing it could name */
	return fsck_log(f, "/%s/%s: its long-name sidecar %s held the "
			"encrypted name %s", FSCK_LOST_FOUND, newname, side, buf);
}

/* a name free in lost+found (made on first use), as candidate() makes
 * them: name and its encrypted form to, its sidecar written. 0 or -errno */
static int free_name(struct fsck *f, const char *plain, const char *stem,
		     char name[VNAME_MAX_PLAIN + 1], struct direntry_name *to)
{
	int err = fsck_lost_found_open(f, f->root_names, true);

	for (unsigned int n = 1; !err; n++) {
		if (n > 100000)
			return -EEXIST;
		candidate(plain, stem, n, name);
		err = direntry_name_encrypt(&(struct direntry_key){
						    .tfm = f->lf_names },
					    f->cfg.name_max, name, to);
		if (!err && fstatat(f->lf_fd, to->name, &(struct stat){ 0 },
				    AT_SYMLINK_NOFOLLOW) != 0 && errno == ENOENT)
			return direntry_name_prepare(f->lf_fd, to);
	}
	return err;
}

int fsck_lost_found_create(struct fsck *f, const char *plain, const char *stem,
			   char name[VNAME_MAX_PLAIN + 1])
{
	struct direntry_name to;
	int err = free_name(f, plain, stem, name, &to), fd;

	if (err)
		return err;
	fd = openat(f->lf_fd, to.name, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW |
				       O_CLOEXEC, 0600);
	if (fd < 0) {
		err = -errno;
		direntry_name_forget(f->lf_fd, &to);
		return err;
	}
	return fd;
}

int fsck_quarantine(struct fsck *f, int dirfd, const char *cname, bool is_long,
		    const char *plain, const char *stem,
		    struct crypto_tfm *from_names, char *where, size_t wherelen)
{
	char name[VNAME_MAX_PLAIN + 1], side[VNAME_SIDECAR_LEN + 1];
	struct direntry_name to;
	struct stat st;
	int err;

	if (fstatat(dirfd, cname, &st, AT_SYMLINK_NOFOLLOW) != 0)
		return -errno;
	err = free_name(f, plain, stem, name, &to);
	if (err)
		return err;
	err = -EBADMSG;
	if (S_ISLNK(st.st_mode) && from_names)
		err = move_symlink(f, dirfd, cname, from_names, to.name);
	if (err == -EBADMSG) /* not a symlink, or its target does not decode */
		err = dirops_rename_noreplace(dirfd, cname, f->lf_fd, to.name);
	if (err) {
		direntry_name_forget(f->lf_fd, &to);
		return err;
	}
	snprintf(where, wherelen, "moved to /%s/%s", FSCK_LOST_FOUND, name);
	/* the old sidecar is redundant where the entry went, but its text
	 * is the entry's whole encrypted name: kept in the note */
	if (is_long && vname_sidecar_name(cname, side) == 0 &&
	    keep_sidecar_text(f, dirfd, side, name) == 0)
		(void)unlinkat(dirfd, side, 0);
	return 0;
}

int fsck_put_dirnonce(struct fsck *f, int dirfd, const uint8_t *nonce,
		      bool present, char *where, size_t wherelen)
{
	char tmp[DIROPS_TEMP_NAME_SIZE], moved[VNAME_MAX_PLAIN + 64] = "";
	int err = 0;

	if (present) {
		/* out of the way first, under a name fsck knows as a leftover */
		err = dirops_temp_name(tmp);
		if (!err)
			err = dirops_rename_noreplace(dirfd, DIRNONCE_FILE,
						      dirfd, tmp);
		if (err) {
			snprintf(where, wherelen, "cannot move %s aside: %s",
				 DIRNONCE_FILE, strerror(-err));
			return err;
		}
	}
	err = dirnonce_write_file(dirfd, nonce);
	if (err) {
		if (present)
			(void)dirops_rename_noreplace(dirfd, tmp, dirfd,
						      DIRNONCE_FILE);
		snprintf(where, wherelen, "cannot write %s: %s",
			 DIRNONCE_FILE, strerror(-err));
		return err;
	}
	err = dirnonce_write_copy(dirfd, nonce);
	if (err == -EOPNOTSUPP)
		err = 0; /* the filesystem keeps no copies */
	if (present && fsck_quarantine(f, dirfd, tmp, false, NULL, "dirnonce-bad",
				       NULL, moved, sizeof(moved)) != 0)
		snprintf(moved, sizeof(moved), "the old one kept as %s", tmp);
	snprintf(where, wherelen, "%s%s%s%s", moved[0] ? "the old one " : "",
		 moved, err ? "; the copy: " : "", err ? strerror(-err) : "");
	return 0;
}

/* the note's file in lost+found, made on the first line */
static int note_open(struct fsck *f)
{
	char name[VNAME_MAX_PLAIN + 1], stamp[32];
	struct direntry_name note;
	time_t now = time(NULL);
	struct tm tm;
	int err = fsck_lost_found_open(f, f->root_names, true), fd = -1;

	if (err)
		return err;
	if (!gmtime_r(&now, &tm) ||
	    !strftime(stamp, sizeof(stamp), "%Y%m%d-%H%M%SZ", &tm))
		snprintf(stamp, sizeof(stamp), "%lld", (long long)now);
	for (unsigned int n = 1; fd < 0; n++) {
		if (n == 1)
			snprintf(name, sizeof(name), "fsck-repair-%s.txt", stamp);
		else
			snprintf(name, sizeof(name), "fsck-repair-%s-%u.txt", stamp, n);
		err = direntry_name_encrypt(&(struct direntry_key){
						    .tfm = f->lf_names },
					    f->cfg.name_max, name, &note);
		if (!err)
			err = direntry_name_prepare(f->lf_fd, &note);
		if (err)
			return err;
		fd = openat(f->lf_fd, note.name, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW |
					    O_CLOEXEC, 0600);
		if (fd < 0 && (errno != EEXIST || n >= 100))
			return -errno;
	}
	err = fsck_keyring(f) ? fileio_open(&f->note, fd, f->kr, f->cfg.cipher,
						f->cfg.sector_size)
			       : -ENOMEM;
	if (err) {
		close(fd);
		return err;
	}
	f->note_fd = fd;
	f->note_size = 0;
	return 0;
}

/* the note cannot be written: said once, and no more is tried */
static int note_fail(struct fsck *f, int err)
{
	f->note_failed = true;
	fsck_note("%s: cannot write the repair note in %s: %s", f->dir,
		  FSCK_LOST_FOUND, strerror(-err));
	return err;
}

/* the early lines, then text (len bytes) into the note, made if need be */
static int note_write(struct fsck *f, const char *text, size_t len)
{
	ssize_t n;
	int err = f->note_fd < 0 ? note_open(f) : 0;

	if (!err && f->note_early_len) {
		n = fileio_write(&f->note, f->note_early, f->note_early_len,
				 f->note_size);
		if (n < 0)
			err = (int)n;
		else
			f->note_size += (uint64_t)n;
		free(f->note_early);
		f->note_early = NULL;
		f->note_early_len = 0;
	}
	if (!err && len) {
		n = fileio_write(&f->note, text, len, f->note_size);
		if (n < 0)
			err = (int)n;
		else
			f->note_size += (uint64_t)n;
	}
	return err ? note_fail(f, err) : 0;
}

/* keep a line until the note can be made (no root name key yet) */
static int note_hold(struct fsck *f, const char *line, size_t len)
{
	char *more = realloc(f->note_early, f->note_early_len + len);

	if (!more)
		return -ENOMEM;
	memcpy(more + f->note_early_len, line, len);
	f->note_early = more;
	f->note_early_len += len;
	return 0;
}

int fsck_log(struct fsck *f, const char *fmt, ...)
{
	char *line = NULL;
	va_list ap;
	int len, err;

	if (f->note_failed)
		return -EIO;
	va_start(ap, fmt);
	len = vasprintf(&line, fmt, ap);
	va_end(ap);
	if (len < 0)
		return note_fail(f, -ENOMEM);
	line[len] = '\n'; /* vasprintf's NUL: the note is lines */
	if (f->note_fd < 0 && !f->root_names) {
		err = note_hold(f, line, (size_t)len + 1);
		if (err)
			note_fail(f, err);
	} else {
		err = note_write(f, line, (size_t)len + 1);
	}
	free(line);
	return err;
}
