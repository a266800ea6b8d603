/* SPDX-License-Identifier: MIT */
/*
 * cloakfs-fsck: extended attributes (docs/format.md 7.5, docs/fsck.md),
 * through volume/names/xattr.h as the mount reads them: every user.* name of a
 * file or directory must decrypt under the volume's xattr-name key (or
 * be the directory nonce's copy), and every such value must open.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/xattr.h>
#include <unistd.h>

#include "base/procfd.h"
#include "crypto/secmem.h"
#include "tools/fsck.h"
#include "volume/names/dirnonce.h"
#include "volume/names/xattr.h"

/* the value of attribute name of path, or its list of names (name
 * NULL), in a new *buf of *len bytes: 0 or -errno */
static int read_attr(const char *path, const char *name, char **buf,
		     size_t *len)
{
	for (int tries = 0; tries < 3; tries++) {
		ssize_t n = name ? getxattr(path, name, NULL, 0)
				 : listxattr(path, NULL, 0);

		if (n < 0)
			return -errno;
		*buf = malloc((size_t)n + 1);
		if (!*buf)
			return -ENOMEM;
		n = name ? getxattr(path, name, *buf, (size_t)n)
			 : listxattr(path, *buf, (size_t)n);
		if (n >= 0) {
			*len = (size_t)n;
			return 0;
		}
		free(*buf);
		*buf = NULL;
		if (errno != ERANGE)
			return -errno;
	}
	return -EAGAIN; /* it keeps growing */
}

/* the value of stored name (plain: its plaintext) must open */
static void check_value(struct fsck *f, const struct fsck_entry *e,
			const char *path, const char *stored, const char *plain)
{
	const uint8_t *value;
	size_t slen = 0, vlen;
	char *sealed = NULL;
	int rc = read_attr(path, stored, &sealed, &slen);

	if (!rc)
		rc = xattr_open(fsck_keyring(f), f->geom.blocksize,
				(uint8_t *)sealed, slen, &value, &vlen);
	if (rc == -EBADMSG)
		fsck_report(f, FC_XATTR_DAMAGED, e->in_lf, e->path, e->cpath,
			    FA_NONE, NULL, "the value of %s does not decrypt "
			    "(%zu bytes stored)", plain, slen);
	else if (rc)
		fsck_report(f, FC_UNREADABLE, e->in_lf, e->path, e->cpath,
			    FA_NONE, NULL, "extended attribute %s: %s", plain,
			    strerror(-rc));
	wipe_free(sealed, slen); /* decrypted in place */
}

void fsck_check_xattrs(struct fsck *f, const struct fsck_entry *e)
{
	char path[PROCFD_LEN], plain[256], *list = NULL;
	size_t len = 0;
	int fd, rc;

	if (!fsck_keyring(f))
		return; /* no keys: names and values cannot be judged */
	fd = openat(e->dirfd, e->cname, O_PATH | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return; /* gone since the walk saw it */
	procfd_path(fd, path);
	rc = read_attr(path, NULL, &list, &len);
	if (rc && rc != -EOPNOTSUPP)
		fsck_report(f, FC_UNREADABLE, e->in_lf, e->path, e->cpath,
			    FA_NONE, NULL, "listing its extended attributes: %s",
			    strerror(-rc));
	for (size_t i = 0; !rc && i < len; i += strlen(list + i) + 1) {
		const char *stored = list + i;

		if (!xattr_is_user(stored) || !strcmp(stored, DIRNONCE_XATTR))
			continue; /* not ours to judge, or the nonce's copy */
		if (xattr_name_decrypt(fsck_keyring(f), stored, plain) < 0) {
			fsck_report(f, FC_XATTR_FOREIGN, e->in_lf, e->path,
				    e->cpath, FA_NONE, NULL, "%s does not "
				    "decrypt: not written by this volume (the "
				    "mount hides it)", stored);
			continue;
		}
		check_value(f, e, path, stored, plain);
		explicit_bzero(plain, sizeof(plain));
	}
	free(list);
	close(fd);
}
