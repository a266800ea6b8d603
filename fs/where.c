/* SPDX-License-Identifier: MIT */
/* see where.h */
#include "fs/where.h"

#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "fs/entry.h"
#include "fs/fs.h"
#include "fs/inode.h"
#include "volume/fdio.h"

/* a log line, not a walk: a path deeper than this is left out */
#define WHERE_MAX_DEPTH 256

/*
 * in's plaintext path into out (built from its end), through the newest
 * name of each inode up to the root: 1, or 0 when one does not decode.
 */
static int plain_path(struct cloakfs *fs, struct fs_inode *in, char *out,
		      size_t len)
{
	char cname[VNAME_MAX_ENCODED + 1], plain[VNAME_MAX_PLAIN + 1];
	struct fs_inode *cur = in, *p;
	size_t pos = len - 1, n;
	int depth = 0, pinned = 0, ok, pfd, r;

	out[pos] = '\0';
	while (cur != fs->root && depth++ < WHERE_MAX_DEPTH) {
		p = inode_parent_name(&fs->inodes, cur, cname, sizeof(cname));
		if (!p)
			break;
		pfd = inode_fd_hold(&fs->inodes, p);
		r = pfd < 0 ? pfd : entry_decrypt(fs, p, pfd, cname,
						      vname_classify(cname), plain);
		if (pfd >= 0)
			inode_fd_release(&fs->inodes, p);
		n = r > 0 ? strlen(plain) : 0;
		if (r <= 0 || n + 1 > pos) {
			inode_unpin(&fs->inodes, p);
			break;
		}
		pos -= n;
		memcpy(out + pos, plain, n);
		out[--pos] = '/';
		if (pinned)
			inode_unpin(&fs->inodes, cur);
		cur = p;
		pinned = 1;
	}
	ok = cur == fs->root;
	if (pinned)
		inode_unpin(&fs->inodes, cur);
	explicit_bzero(plain, sizeof(plain));
	if (ok && pos == len - 1)
		snprintf(out, len, "/");
	else if (ok)
		memmove(out, out + pos, len - pos);
	return ok;
}

void where_inode(struct cloakfs *fs, struct fs_inode *in, int fd, int plain,
		 char *buf, size_t len)
{
	char cpath[PATH_MAX], ppath[PATH_MAX];
	int known = plain && plain_path(fs, in, ppath, sizeof(ppath));
	int held = fd < 0 && plain ? inode_fd_hold(&fs->inodes, in) : -1;

	if (held >= 0)
		fd = held;
	if (fd < 0 || fdio_path(fd, cpath, sizeof(cpath)) != 0)
		snprintf(cpath, sizeof(cpath), "%s: inode %llu", fs->cipherdir,
			 (unsigned long long)in->ino);
	if (held >= 0)
		inode_fd_release(&fs->inodes, in);
	snprintf(buf, len, "%s%s%s%s", cpath, known ? " (plaintext " : "",
		 known ? ppath : "", known ? ")" : "");
	explicit_bzero(ppath, sizeof(ppath));
}
