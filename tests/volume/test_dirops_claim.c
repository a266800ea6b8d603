/* SPDX-License-Identifier: MIT */
/*
 * dirops_make_dir where the storage lacks RENAME_NOREPLACE (GlusterFS's
 * FUSE client: EINVAL) and now and then refuses the rename of the new
 * directory over its own empty claim of the name (ENOTEMPTY): renameat2
 * and renameat wrapped. A refusal while the claim is still ours and empty
 * is retried (never EEXIST, which the other machine's mkdir got from our
 * claim: both would see EEXIST); one refused every time ends in EIO with
 * nothing left behind; a claim someone filled meanwhile is theirs:
 * EEXIST, left alone. mkdirat wrapped too: an EEXIST for a name that is
 * not there (GlusterFS, two clients' mkdirs at once) is claimed again.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tests/volume/voltest.h"
#include "volume/dirops.h"
#include "volume/names/dirnonce.h"

int __real_renameat(int olddir, const char *oldname, int newdir,
		    const char *newname);
int __wrap_renameat(int olddir, const char *oldname, int newdir,
		    const char *newname);
int __wrap_renameat2(int olddir, const char *oldname, int newdir,
		     const char *newname, unsigned int flags);
int __real_mkdirat(int dir, const char *name, mode_t mode);
int __wrap_mkdirat(int dir, const char *name, mode_t mode);

static struct {
	int refuse;     /* renames over an existing name still to refuse */
	int refused;    /* refused so far */
	int fill;       /* put a file in the claim before refusing */
	int ghost;      /* mkdirs of "d" still to answer EEXIST, making
			 * nothing (two GlusterFS clients' at once) */
} hook;

int __wrap_mkdirat(int dir, const char *name, mode_t mode)
{
	if (hook.ghost > 0 && strcmp(name, "d") == 0) {
		hook.ghost--;
		errno = EEXIST;
		return -1;
	}
	return __real_mkdirat(dir, name, mode);
}

int __wrap_renameat2(int olddir, const char *oldname, int newdir,
		     const char *newname, unsigned int flags)
{
	(void)olddir, (void)oldname, (void)newdir, (void)newname, (void)flags;
	errno = EINVAL; /* as GlusterFS's FUSE client answers */
	return -1;
}

int __wrap_renameat(int olddir, const char *oldname, int newdir,
		    const char *newname)
{
	struct stat st;

	if (hook.refuse > 0 &&
	    fstatat(newdir, newname, &st, AT_SYMLINK_NOFOLLOW) == 0) {
		hook.refuse--;
		hook.refused++;
		if (hook.fill) {
			int dfd = openat(newdir, newname, O_PATH | O_DIRECTORY);

			if (dfd >= 0) {
				int fd = openat(dfd, "theirs", O_CREAT | O_WRONLY, 0600);

				if (fd >= 0)
					close(fd);
				close(dfd);
			}
		}
		errno = ENOTEMPTY;
		return -1;
	}
	return __real_renameat(olddir, oldname, newdir, newname);
}

/* entries of dirfd other than . and .., names into *first (one) */
static int entries(int dirfd, const char *sub, char *first, size_t len)
{
	int fd = openat(dirfd, sub, O_RDONLY | O_DIRECTORY), n = 0;
	struct dirent *e;
	DIR *d;

	if (fd < 0)
		return -1;
	d = fdopendir(fd);
	if (!d) {
		close(fd);
		return -1;
	}
	first[0] = '\0';
	while ((e = readdir(d)) != NULL) {
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		if (!n++)
			snprintf(first, len, "%s", e->d_name);
	}
	closedir(d);
	return n;
}

static void one(int parent, int refuse, int fill, int want)
{
	uint8_t nonce[DIRNONCE_SIZE];
	char name[256];
	struct stat st;
	int dfd, err;

	hook.refuse = refuse;
	hook.refused = 0;
	hook.fill = fill;
	err = dirops_make_dir(parent, "d", 0755, NULL, NULL);
	CHECK(err == want, "refuse %d fill %d: %d, want %d", refuse, fill, err,
	      want);
	CHECK(hook.refused == (refuse < 5 ? refuse : 5),
	      "refuse %d: %d renames refused", refuse, hook.refused);
	if (want == 0) {
		dfd = openat(parent, "d", O_PATH | O_DIRECTORY);
		CHECK(dfd >= 0 && dirnonce_read(dfd, nonce) == 0,
		      "refuse %d: d has its nonce", refuse);
		if (dfd >= 0)
			close(dfd);
	} else if (!fill) {
		CHECK(fstatat(parent, "d", &st, AT_SYMLINK_NOFOLLOW) != 0 &&
			      errno == ENOENT,
		      "refuse %d: no d left behind", refuse);
	}
	/* only d, nothing under a temporary name */
	CHECK(entries(parent, ".", name, sizeof(name)) == (want == 0 || fill),
	      "refuse %d fill %d: entries left: first %s", refuse, fill, name);
	if (fill)
		CHECK(entries(parent, "d", name, sizeof(name)) == 1 &&
			      !strcmp(name, "theirs"),
		      "fill: d, another's, left alone (%s)", name);
	if (fstatat(parent, "d", &st, AT_SYMLINK_NOFOLLOW) == 0) {
		dfd = openat(parent, "d", O_PATH | O_DIRECTORY);
		if (dfd >= 0) {
			(void)unlinkat(dfd, "theirs", 0);
			close(dfd);
		}
		CHECK(fill || dirops_unmake_dir(parent, "d") == 0, "unmake d");
		if (fill)
			CHECK(unlinkat(parent, "d", AT_REMOVEDIR) == 0, "rmdir d");
	}
}

int main(void)
{
	char *dir = voltest_tmpdir("dirops-claim");
	int parent = open(dir, O_PATH | O_DIRECTORY);

	CHECK(parent >= 0, "open %s", dir);
	if (parent >= 0) {
		one(parent, 0, 0, 0);
		one(parent, 1, 0, 0);
		one(parent, 4, 0, 0);
		one(parent, 100, 0, -EIO);
		one(parent, 1, 1, -EEXIST);
		hook.ghost = 2;
		one(parent, 0, 0, 0);
		CHECK(hook.ghost == 0, "both ghost EEXISTs seen");
		hook.ghost = 100; /* EEXIST while absent, every time */
		one(parent, 0, 0, -EEXIST);
		hook.ghost = 0;
		/* a name that exists: EEXIST from the claim itself */
		CHECK(mkdirat(parent, "d", 0700) == 0, "mkdir d");
		CHECK(dirops_make_dir(parent, "d", 0755, NULL, NULL) == -EEXIST,
		      "an existing name: EEXIST");
		CHECK(unlinkat(parent, "d", AT_REMOVEDIR) == 0, "rmdir d");
		close(parent);
	}
	return voltest_done(dir, 1, "test_dirops_claim");
}
