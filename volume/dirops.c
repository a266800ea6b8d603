/* SPDX-License-Identifier: MIT */
/* see dirops.h */
#include "volume/dirops.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "volume/names/dirnonce.h"
#include "volume/names/vname.h"
#include "volume/random.h"

int dirops_temp_name(char out[DIROPS_TEMP_NAME_SIZE])
{
	uint8_t r[9];
	int err = random_bytes(r, sizeof(r));

	if (err)
		return err;
	snprintf(out, DIROPS_TEMP_NAME_SIZE,
		 DIROPS_TEMP_PREFIX "%02x%02x%02x%02x%02x%02x%02x%02x%02x",
		 r[0], r[1], r[2], r[3], r[4], r[5], r[6], r[7], r[8]);
	return 0;
}

/* a non-directory: a second name, then the first one gone; 1 when the
 * filesystem cannot link (the caller falls back) */
static int move_by_link(int olddir, const char *oldname, int newdir,
			const char *newname)
{
	int err;

	if (linkat(olddir, oldname, newdir, newname, 0) != 0)
		return errno == EPERM || errno == EOPNOTSUPP || errno == EMLINK ||
		       errno == ENOSYS ? 1 : -errno;
	if (unlinkat(olddir, oldname, 0) == 0)
		return 0;
	err = -errno;
	(void)unlinkat(newdir, newname, 0); /* back to one name, as before */
	return err;
}

/* is dir's entry name still the directory own was, with nothing in it */
static int still_own_empty(int dir, const char *name, const struct stat *own)
{
	struct stat st;
	struct dirent *e;
	DIR *d;
	int fd, empty = 1;

	if (fstatat(dir, name, &st, AT_SYMLINK_NOFOLLOW) != 0 ||
	    st.st_dev != own->st_dev || st.st_ino != own->st_ino)
		return 0;
	fd = openat(dir, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return 0;
	d = fdopendir(fd);
	if (!d) {
		close(fd);
		return 0;
	}
	while (empty && (e = readdir(d)) != NULL)
		empty = strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0;
	closedir(d);
	return empty;
}

#define MOVE_DIR_TRIES 5

/* before try number tries + 1: 1 ms doubling, and as much again at
 * random, so that two machines that collided do not retry in step */
static void pause_before_retry(int tries)
{
	long base = 1000000L << tries;
	uint32_t r = 0;
	struct timespec pause;

	(void)random_bytes(&r, sizeof(r)); /* no randomness: no jitter */
	pause.tv_sec = 0;
	pause.tv_nsec = base + (long)(r % (uint32_t)base);
	nanosleep(&pause, NULL);
}

/*
 * A directory: newname claimed by an empty directory, then replaced.
 * GlusterFS now and then refuses the rename over the claim (ENOTEMPTY)
 * although the claim is still ours and empty: answering EEXIST then,
 * while the other machine's mkdir got EEXIST from our claim, gives both
 * EEXIST and leaves an empty directory without a nonce under the name.
 * So a refused rename over a claim still ours and empty takes the claim
 * back and claims again, a few times; EEXIST only when newname is
 * another's (or keeps being answered EEXIST while absent).
 */
static int move_dir_over_own(int olddir, const char *oldname, int newdir,
			     const char *newname)
{
	struct stat own;
	int err = -EIO, tries;

	for (tries = 0; tries < MOVE_DIR_TRIES; tries++) {
		if (tries)
			pause_before_retry(tries - 1);
		if (mkdirat(newdir, newname, S_IRWXU) != 0) {
			err = -errno;
			/* GlusterFS's mkdirs of one name from two clients at
			 * once now and then both fail, leaving nothing: an
			 * EEXIST with nothing there is claimed again */
			if (err != -EEXIST ||
			    fstatat(newdir, newname, &own, AT_SYMLINK_NOFOLLOW) == 0 ||
			    errno != ENOENT)
				return err;
			continue;
		}
		if (fstatat(newdir, newname, &own, AT_SYMLINK_NOFOLLOW) != 0)
			return -errno; /* gone already: someone else's doing */
		if (renameat(olddir, oldname, newdir, newname) == 0)
			return 0;
		err = -errno;
		if (!still_own_empty(newdir, newname, &own))
			/* not ours or not empty any more: left alone */
			return err == -ENOTEMPTY || err == -EEXIST ? -EEXIST
								   : err;
		(void)unlinkat(newdir, newname, AT_REMOVEDIR);
		if (err != -ENOTEMPTY && err != -EEXIST)
			return err;
	}
	/* the claim was refused each time, and taken back */
	return err == -EEXIST ? -EEXIST : -EIO;
}

int dirops_rename_noreplace(int olddir, const char *oldname, int newdir,
			    const char *newname)
{
	struct stat st;
	int err;

	if (renameat2(olddir, oldname, newdir, newname, RENAME_NOREPLACE) == 0)
		return 0;
	if (errno != EINVAL && errno != ENOSYS)
		return -errno;
	if (fstatat(olddir, oldname, &st, AT_SYMLINK_NOFOLLOW) != 0)
		return -errno;
	err = S_ISDIR(st.st_mode)
		      ? move_dir_over_own(olddir, oldname, newdir, newname)
		      : move_by_link(olddir, oldname, newdir, newname);
	if (err != 1)
		return err;
	if (fstatat(newdir, newname, &st, AT_SYMLINK_NOFOLLOW) == 0)
		return -EEXIST;
	return renameat(olddir, oldname, newdir, newname) == 0 ? 0 : -errno;
}

int dirops_make_dir(int parentfd, const char *name, mode_t mode,
		    void (*before_rename)(int parentfd, const char *tmp,
					  void *arg),
		    void *arg)
{
	uint8_t nonce[DIRNONCE_SIZE];
	char tmp[DIROPS_TEMP_NAME_SIZE];
	struct stat st;
	int dfd, err = dirops_temp_name(tmp);

	if (err)
		return err;
	if (mkdirat(parentfd, tmp, (mode & 07777) | S_IRWXU) != 0)
		return -errno;
	dfd = openat(parentfd, tmp, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (dfd < 0) {
		err = -errno;
		(void)unlinkat(parentfd, tmp, AT_REMOVEDIR);
		return err;
	}
	err = dirnonce_create(dfd, nonce);
	explicit_bzero(nonce, sizeof(nonce));
	/* the mode asked for, keeping a setgid bit handed down */
	if (!err && (mode & S_IRWXU) != S_IRWXU &&
	    fstatat(dfd, "", &st, AT_EMPTY_PATH) == 0 &&
	    fchmodat(parentfd, tmp, (mode & 07777) | (st.st_mode & S_ISGID), 0) != 0)
		err = -errno;
	if (!err) {
		if (before_rename)
			before_rename(parentfd, tmp, arg);
		err = dirops_rename_noreplace(parentfd, tmp, parentfd, name);
	}
	if (err) {
		(void)unlinkat(dfd, DIRNONCE_FILE, 0);
		(void)unlinkat(parentfd, tmp, AT_REMOVEDIR);
	}
	close(dfd);
	return err;
}

int dirops_unmake_dir(int parentfd, const char *name)
{
	int dfd = openat(parentfd, name, O_PATH | O_DIRECTORY | O_NOFOLLOW |
					 O_CLOEXEC), err = 0;

	if (dfd < 0)
		return -errno;
	if (unlinkat(dfd, DIRNONCE_FILE, 0) != 0 && errno != ENOENT)
		err = -errno;
	if (!err && unlinkat(parentfd, name, AT_REMOVEDIR) != 0)
		err = -errno;
	close(dfd);
	return err;
}

ssize_t dirops_read_symlink(int dirfd, const char *name, struct stat *st,
			    char *buf, size_t size)
{
	ssize_t n;

	if (fstatat(dirfd, name, st, AT_SYMLINK_NOFOLLOW) != 0)
		return -errno;
	n = readlinkat(dirfd, name, buf, size);
	if (n < 0)
		return -errno;
	if ((size_t)n >= size - 1)
		return -EBADMSG;
	buf[n] = '\0';
	return n;
}

int dirops_symlink_like(const char *target, int dirfd, const char *name,
			const struct stat *old)
{
	struct timespec times[2] = { old->st_atim, old->st_mtim };

	if (symlinkat(target, dirfd, name) != 0)
		return -errno;
	(void)fchownat(dirfd, name, old->st_uid, old->st_gid, AT_SYMLINK_NOFOLLOW);
	(void)utimensat(dirfd, name, times, AT_SYMLINK_NOFOLLOW);
	return 0;
}
