/* SPDX-License-Identifier: MIT */
/* see respell.h */
#include "volume/respell.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "volume/dirops.h"
#include "volume/names/symlink.h"

int respell_bound(unsigned int version, mode_t mode)
{
	/* docs/format.md 7.4: only version 1 keys a target by its directory */
	return version < 2 && S_ISLNK(mode);
}

/*
 * The symlink from, re-encrypted for the directory of to, made in the
 * directory at_dfd (to's, or from's own for an exchange with an entry
 * that moves as it is) under a fresh temporary name (into tmp once it
 * exists) with from's owner and times.
 */
static int respell_copy(struct keyring *kr, int rootfd, size_t bs,
			const struct respell_entry *from,
			const struct respell_entry *to, int at_dfd,
			char tmp[DIROPS_TEMP_NAME_SIZE])
{
	char text[SYMLINK_MAX_STORED + 2];
	char plain[SYMLINK_MAX_PLAIN + 1];
	char name[DIROPS_TEMP_NAME_SIZE];
	struct stat st;
	ssize_t n = dirops_read_symlink(from->dfd, from->name->name, &st, text,
					sizeof(text));
	int err;

	if (n < 0)
		return (int)n; /* too long: -EBADMSG */
	/* a version-2 text (an interrupted upgrade) is the volume's */
	if (symlink_form(text, (size_t)n, bs) == SYMLINK_V1)
		err = direntry_target_decrypt(kr, from->nonce, text, (size_t)n, plain);
	else
		err = symlink_decode(kr, rootfd, text, (size_t)n, plain);
	if (err >= 0)
		err = direntry_target_encrypt(kr, to->nonce, plain, text);
	explicit_bzero(plain, sizeof(plain));
	if (!err)
		err = dirops_temp_name(name);
	if (!err)
		err = dirops_symlink_like(text, at_dfd, name, &st);
	if (!err)
		memcpy(tmp, name, sizeof(name));
	return err;
}

/* exchange two names (RENAME_EXCHANGE): its own undo */
static int exchange(int d1, const char *n1, int d2, const char *n2)
{
	return renameat2(d1, n1, d2, n2, RENAME_EXCHANGE) == 0 ? 0 : -errno;
}

/*
 * src's copy (tmp, in dst's directory) takes dst's name; src goes. An
 * existing dst is exchanged with the copy, so it stays under tmp until
 * src is gone: when src cannot be unlinked it is exchanged back (a new
 * name is unlinked again) and nothing has changed. tmp then holds what
 * the caller removes (the old dst, or the copy), or is "".
 */
static int respell_move(const struct respell_entry *src,
			const struct respell_entry *dst, char *tmp,
			unsigned int flags)
{
	const char *name = dst->name->name;
	struct stat st;
	int err, kept = 0, fresh = 0; /* dst kept under tmp; dst was new */

	if (!(flags & RENAME_NOREPLACE) &&
	    fstatat(dst->dfd, name, &st, AT_SYMLINK_NOFOLLOW) == 0) {
		if (S_ISDIR(st.st_mode))
			return -EISDIR; /* as rename(2) says */
		err = exchange(dst->dfd, tmp, dst->dfd, name);
		kept = !err;
		if (err == -EINVAL || err == -ENOSYS) /* no exchange here */
			err = renameat(dst->dfd, tmp, dst->dfd, name) == 0 ? 0 : -errno;
	} else if ((flags & RENAME_NOREPLACE) || errno == ENOENT) {
		err = dirops_rename_noreplace(dst->dfd, tmp, dst->dfd, name);
		fresh = !err;
	} else {
		err = -errno;
	}
	if (err)
		return err;
	if (!kept)
		*tmp = '\0'; /* the copy has dst's name */
	if (unlinkat(src->dfd, src->name->name, 0) != 0) {
		err = -errno;
		/* undone: dst back, or the new name gone (keeps err) */
		if (kept)
			(void)exchange(dst->dfd, tmp, dst->dfd, name);
		else if (fresh)
			(void)unlinkat(dst->dfd, name, 0);
		return err;
	}
	direntry_name_forget(src->dfd, src->name);
	return 0;
}

/*
 * RENAME_EXCHANGE. Each entry ends, under the other's name, spelled for
 * the directory it is in; so does what ends under a temporary name
 * (removed by the caller), so that one left there (an unlink that failed,
 * a crash) still decodes where it is and cloakfs-fsck keeps its target.
 * Both bound: each copy (made beside the entry it replaces: tsrc in dst's
 * directory, tdst in src's) exchanged with that entry; the originals stay
 * in their own directories. One bound: its copy, spelled for the other
 * directory but made in its own (t), exchanged with the other entry,
 * which so comes in under t and is then exchanged with the bound
 * original (only before that first exchange is a temporary name spelled
 * for another directory: the entries are as they were). Every step is an
 * exchange: a failing one is undone by exchanging back the ones before it.
 */
static int respell_exchange(const struct respell_entry *src,
			    const struct respell_entry *dst, const char *tsrc,
			    const char *tdst)
{
	struct xstep {
		int d1;
		const char *n1;
		int d2;
		const char *n2;
	} step[2];
	const char *sname = src->name->name, *dname = dst->name->name;
	int i, err = 0;

	if (*tsrc && *tdst) {
		step[0] = (struct xstep){ dst->dfd, tsrc, dst->dfd, dname };
		step[1] = (struct xstep){ src->dfd, tdst, src->dfd, sname };
	} else if (*tsrc) {
		step[0] = (struct xstep){ src->dfd, tsrc, dst->dfd, dname };
		step[1] = (struct xstep){ src->dfd, sname, src->dfd, tsrc };
	} else {
		step[0] = (struct xstep){ dst->dfd, tdst, src->dfd, sname };
		step[1] = (struct xstep){ dst->dfd, dname, dst->dfd, tdst };
	}
	for (i = 0; !err && i < 2; i++)
		err = exchange(step[i].d1, step[i].n1, step[i].d2, step[i].n2);
	/* i is one past the failed step: undo those before it */
	for (i -= 2; err && i >= 0; i--)
		(void)exchange(step[i].d1, step[i].n1, step[i].d2, step[i].n2);
	return err;
}

int respell_rename(struct keyring *kr, int rootfd, size_t bs,
		    unsigned int version, const struct respell_entry *src,
		    const struct respell_entry *dst, unsigned int flags)
{
	char tsrc[DIROPS_TEMP_NAME_SIZE] = "", tdst[DIROPS_TEMP_NAME_SIZE] = "";
	int xchg = !!(flags & RENAME_EXCHANGE), err = 0;
	int src_bound = respell_bound(version, src->st->st_mode);
	int dst_bound = xchg && respell_bound(version, dst->st->st_mode);
	/* where each copy is made: beside the entry it replaces, or (an
	 * exchange with an entry that moves as it is) beside its own */
	int at_src = xchg && !dst_bound ? src->dfd : dst->dfd;
	int at_dst = src_bound ? src->dfd : dst->dfd;

	if ((flags & ~(unsigned int)(RENAME_NOREPLACE | RENAME_EXCHANGE)) ||
	    (xchg && (flags & RENAME_NOREPLACE)) || (!src_bound && !dst_bound))
		return -EINVAL;
	if (src_bound)
		err = respell_copy(kr, rootfd, bs, src, dst, at_src, tsrc);
	if (!err && dst_bound)
		err = respell_copy(kr, rootfd, bs, dst, src, at_dst, tdst);
	if (!err)
		err = direntry_name_prepare(dst->dfd, dst->name);
	if (!err && xchg)
		err = respell_exchange(src, dst, tsrc, tdst);
	else if (!err)
		err = respell_move(src, dst, tsrc, flags);
	/* the temporary names hold the copies (failed) or what they
	 * replaced (done) */
	if (*tsrc)
		(void)unlinkat(at_src, tsrc, 0);
	if (*tdst)
		(void)unlinkat(at_dst, tdst, 0);
	if (err && err != -EEXIST)
		direntry_name_forget(dst->dfd, dst->name);
	return err;
}
