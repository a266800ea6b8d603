/* SPDX-License-Identifier: MIT */
/* see respell.h */
#include "volume/respell.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "volume/dirops.h"
#include "volume/symlink.h"

int vrespell_bound(unsigned int version, mode_t mode)
{
	/* docs/format.md 7.4: only version 1 keys a target by its directory */
	return version < 2 && S_ISLNK(mode);
}

/*
 * The symlink from, re-encrypted for the directory of to, made there
 * under a fresh temporary name (into tmp once it exists) with from's
 * owner and times.
 */
static int respell_copy(struct vkeyring *kr, int rootfd, size_t bs,
			const struct vrespell_entry *from,
			const struct vrespell_entry *to,
			char tmp[DIROPS_TEMP_NAME_SIZE])
{
	char text[VSYMLINK_MAX_STORED + 2];
	char plain[VSYMLINK_MAX_PLAIN + 1];
	char name[DIROPS_TEMP_NAME_SIZE];
	struct stat st;
	ssize_t n = dirops_read_symlink(from->dfd, from->name->name, &st, text,
					sizeof(text));
	int err;

	if (n < 0)
		return (int)n; /* too long: -EBADMSG */
	/* a version-2 text (an interrupted upgrade) is the volume's */
	if (vsymlink_form(text, (size_t)n, bs) == VSYMLINK_V1)
		err = vdir_target_decrypt(kr, from->nonce, text, (size_t)n, plain);
	else
		err = vsymlink_decode(kr, rootfd, text, (size_t)n, plain);
	if (err >= 0)
		err = vdir_target_encrypt(kr, to->nonce, plain, text);
	explicit_bzero(plain, sizeof(plain));
	if (!err)
		err = dirops_temp_name(name);
	if (!err)
		err = dirops_symlink_like(text, to->dfd, name, &st);
	if (!err)
		memcpy(tmp, name, sizeof(name));
	return err;
}

/* src's copy (tmp, in dst's directory) takes dst's name; src goes */
static int respell_move(const struct vrespell_entry *src,
			const struct vrespell_entry *dst, char *tmp,
			unsigned int flags)
{
	int err = 0;

	if (flags & RENAME_NOREPLACE)
		err = dirops_rename_noreplace(dst->dfd, tmp, dst->dfd,
					      dst->name->name);
	else if (renameat(dst->dfd, tmp, dst->dfd, dst->name->name) != 0)
		err = -errno;
	if (err)
		return err;
	*tmp = '\0';
	if (unlinkat(src->dfd, src->name->name, 0) != 0)
		return -errno; /* the copy stands beside the source */
	vdir_name_forget(src->dfd, src->name);
	return 0;
}

int vrespell_rename(struct vkeyring *kr, int rootfd, size_t bs,
		    unsigned int version, const struct vrespell_entry *src,
		    const struct vrespell_entry *dst, unsigned int flags)
{
	char tsrc[DIROPS_TEMP_NAME_SIZE] = "", tdst[DIROPS_TEMP_NAME_SIZE] = "";
	int xchg = !!(flags & RENAME_EXCHANGE), err = 0;
	int src_bound = vrespell_bound(version, src->st->st_mode);
	int dst_bound = xchg && vrespell_bound(version, dst->st->st_mode);

	if ((flags & ~(unsigned int)(RENAME_NOREPLACE | RENAME_EXCHANGE)) ||
	    (xchg && (flags & RENAME_NOREPLACE)) || (!src_bound && !dst_bound))
		return -EINVAL;
	if (src_bound)
		err = respell_copy(kr, rootfd, bs, src, dst, tsrc);
	if (!err && dst_bound)
		err = respell_copy(kr, rootfd, bs, dst, src, tdst);
	if (!err)
		err = vdir_name_prepare(dst->dfd, dst->name);
	if (!err && xchg) {
		if (renameat2(src->dfd, src->name->name, dst->dfd,
			      dst->name->name, RENAME_EXCHANGE) != 0)
			err = -errno;
		/* exchanged: each copy replaces the entry it stands for;
		 * one that cannot leaves that entry as it was exchanged */
		if (!err && *tsrc &&
		    renameat(dst->dfd, tsrc, dst->dfd, dst->name->name) == 0)
			*tsrc = '\0';
		if (!err && *tdst &&
		    renameat(src->dfd, tdst, src->dfd, src->name->name) == 0)
			*tdst = '\0';
	} else if (!err) {
		err = respell_move(src, dst, tsrc, flags);
	}
	if (*tsrc)
		(void)unlinkat(dst->dfd, tsrc, 0);
	if (*tdst)
		(void)unlinkat(src->dfd, tdst, 0);
	if (err && err != -EEXIST)
		vdir_name_forget(dst->dfd, dst->name);
	return err;
}
