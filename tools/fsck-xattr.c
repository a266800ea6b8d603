/* SPDX-License-Identifier: MIT */
/*
 * cloakfs-fsck: extended attributes (docs/format.md 7.5, docs/fsck.md),
 * through volume/names/xattr.h as the mount reads them: every user.* name of a
 * file or directory must decrypt under the volume's xattr-name key, or be
 * a long-form name whose value begins with its encrypted name (or be the
 * directory nonce's copy), and every such value must open.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/xattr.h>
#include <unistd.h>

#include "base/procfd.h"
#include "crypto/secmem.h"
#include "tools/fsck-report.h"
#include "tools/fsck-xattr.h"
#include "tools/fsck-keys.h"
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

/*
 * Attribute stored of path must be ours: a short-form name that decrypts
 * (else foreign: another tool's), or a long-form one whose value begins
 * with its name; and its value must open.
 */
static void check_attr(struct fsck *f, const struct fsck_entry *e,
		       const char *path, const char *stored)
{
	struct keyring *kr = fsck_keyring(f);
	int is_long = xattr_is_long(stored), rc;
	char plain[256] = "", *val = NULL;
	struct xattr_name xn;
	const uint8_t *value;
	size_t slen = 0, vlen;

	if (!is_long && xattr_name_decrypt(kr, stored, plain) < 0) {
		fsck_report(f, FC_XATTR_FOREIGN, e->in_lf, e->path, e->cpath,
			    FA_NONE, NULL, "%s does not decrypt: not written "
			    "by this volume (the mount hides it)", stored);
		return;
	}
	rc = read_attr(path, stored, &val, &slen);
	if (!rc && is_long &&
	    xattr_long_name_decrypt(kr, stored, (const uint8_t *)val, slen,
				    plain) < 0)
		fsck_report(f, FC_XATTR_DAMAGED, e->in_lf, e->path, e->cpath,
			    FA_NONE, NULL, "%s: its value does not begin with "
			    "an attribute name that hashes to it and decrypts "
			    "(%zu bytes stored; the mount hides it)", stored,
			    slen);
	else if (!rc && !(rc = xattr_name_store(kr, plain, &xn)))
		rc = xattr_load(kr, f->vol.cipher, &xn, plain, (uint8_t *)val,
				slen, &value, &vlen);
	if (rc == -EBADMSG)
		fsck_report(f, FC_XATTR_DAMAGED, e->in_lf, e->path, e->cpath,
			    FA_NONE, NULL, "the value of %s does not %s "
			    "(%zu bytes stored)", plain,
			    f->vol.cipher->aead_alg ? "verify (its tag fails)"
						    : "decrypt",
			    slen);
	else if (rc)
		fsck_report(f, FC_UNREADABLE, e->in_lf, e->path, e->cpath,
			    FA_NONE, NULL, "extended attribute %s: %s",
			    *plain ? plain : stored, strerror(-rc));
	wipe_free(val, slen); /* decrypted in place */
	explicit_bzero(plain, sizeof(plain));
}

void fsck_check_xattrs(struct fsck *f, const struct fsck_entry *e)
{
	char path[PROCFD_LEN], *list = NULL;
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
		check_attr(f, e, path, stored);
	}
	free(list);
	close(fd);
}
