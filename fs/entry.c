/* SPDX-License-Identifier: MIT */
/* see entry.h */
#include "fs/entry.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/log.h"
#include "fs/fs.h"
#include "fs/inode.h"
#include "volume/names/dirnonce.h"
#include "volume/names/noncecopy.h"
#include "volume/fdio.h"
#include "volume/symtext.h"

/*
 * dir's nonce, read once and kept in the inode (it is no secret: it sits
 * in the ciphertext tree). Read with no lock held: a stuck or hostile
 * backing store blocks this request only (docs/design.md, "Keys in
 * memory"). The vote between two differing copies decodes names in a
 * key section of its own.
 */
static int dir_nonces(struct cloakfs *fs, struct fs_inode *dir, int dfd,
		      uint8_t nonce[DIRNONCE_SIZE], uint8_t other[DIRNONCE_SIZE],
		      int *has_other)
{
	struct dirnonce_state st;
	char why[256], where[PATH_MAX];
	uint8_t second[DIRNONCE_SIZE] = { 0 };
	int err, warn, two = 0;

	pthread_mutex_lock(&dir->lock);
	if (dir->have_nonce) {
		memcpy(nonce, dir->nonce, DIRNONCE_SIZE);
		memcpy(other, dir->other_nonce, DIRNONCE_SIZE);
		*has_other = dir->have_other;
	}
	err = dir->have_nonce ? 0 : -EAGAIN;
	pthread_mutex_unlock(&dir->lock);
	if (!err)
		return 0;
	err = dirnonce_load(dfd, fs->vol.keyring, nonce, &st);
	warn = dirnonce_describe(&st, why, sizeof(why));
	explicit_bzero(&st, sizeof(st));
	/* a directory that cannot be listed has no names to read anyway */
	if (!err)
		two = noncecopy_find(dfd, nonce, second, NULL) == 1;
	*has_other = two;
	if (two)
		memcpy(other, second, DIRNONCE_SIZE);
	pthread_mutex_lock(&dir->lock);
	if (!err) {
		memcpy(dir->nonce, nonce, DIRNONCE_SIZE);
		memcpy(dir->other_nonce, second, DIRNONCE_SIZE);
		dir->have_other = two;
		dir->have_nonce = 1;
	}
	if (warn) {
		/* once per directory (names_warned: dir->lock) */
		warn = !dir->names_warned;
		dir->names_warned = 1;
	}
	pthread_mutex_unlock(&dir->lock);
	if (warn) {
		if (fdio_path(dfd, where, sizeof(where)) != 0)
			snprintf(where, sizeof(where), "%s: a directory",
				 fs->cipherdir);
		log_warn("%s: %s (run cloakfs-fsck --repair)", where, why);
	}
	return err ? -EIO : 0;
}

/* dir_nonces for the names' key alone */
static int dir_nonce(struct cloakfs *fs, struct fs_inode *dir, int dfd,
		     uint8_t nonce[DIRNONCE_SIZE])
{
	uint8_t other[DIRNONCE_SIZE];
	int two;

	return dir_nonces(fs, dir, dfd, nonce, other, &two);
}

/* the directory's name keys: its nonce, and its conflict copy's */
struct dir_keys {
	uint8_t nonce[DIRNONCE_SIZE], other[DIRNONCE_SIZE];
	struct direntry_key key;
};

static int dir_keys(struct cloakfs *fs, struct fs_inode *dir, int dfd,
		    struct dir_keys *k)
{
	int two, err = dir_nonces(fs, dir, dfd, k->nonce, k->other, &two);

	k->key = (struct direntry_key){
		.kr = fs->vol.keyring, .nonce = k->nonce,
		.other = two ? k->other : NULL };
	return err;
}

int entry_undecodable_name(const char *cname,
			   char out[ENTRY_UNDECODABLE_MAX + 1])
{
	int n = snprintf(out, ENTRY_UNDECODABLE_MAX + 1, "%s%s", cname,
			 ENTRY_UNDECODABLE_SUFFIX);

	return n < 0 || (size_t)n > ENTRY_UNDECODABLE_MAX ? -ENAMETOOLONG : 0;
}

/*
 * name as the listing of an undecodable entry: 1 with out set to that
 * entry, when name is "<cname>.undecodable" for an existing entry cname
 * of dir that does not decode (so no name that decodes gets a second
 * way in), else 0.
 */
static int undecodable_entry(struct cloakfs *fs, struct fs_inode *dir,
			     int dfd, const char *name, struct direntry_name *out)
{
	char cname[VNAME_MAX_ENCODED + 1], plain[VNAME_MAX_PLAIN + 1];
	size_t len = strlen(name), slen = strlen(ENTRY_UNDECODABLE_SUFFIX);
	enum vname_entry kind;
	struct stat st;
	int r;

	if (!fs->show_undecodable || len <= slen ||
	    len - slen > VNAME_MAX_ENCODED ||
	    strcmp(name + len - slen, ENTRY_UNDECODABLE_SUFFIX) != 0)
		return 0;
	memcpy(cname, name, len - slen);
	cname[len - slen] = '\0';
	kind = vname_classify(cname);
	if ((kind != VNAME_ENTRY_ENCRYPTED && kind != VNAME_ENTRY_LONG &&
	     kind != VNAME_ENTRY_CONFLICT) ||
	    fstatat(dfd, cname, &st, AT_SYMLINK_NOFOLLOW) != 0)
		return 0;
	r = entry_decrypt(fs, dir, dfd, cname, kind, plain);
	explicit_bzero(plain, sizeof(plain));
	if (r >= 0 || r == -EIO || r == -EACCES)
		return 0;
	memset(out, 0, sizeof(*out));
	memcpy(out->name, cname, len - slen + 1);
	memcpy(out->enc, cname, len - slen + 1);
	out->enclen = len - slen;
	out->is_long = 0; /* a long entry's sidecar is what is damaged */
	return 1;
}

int entry_encrypt(struct cloakfs *fs, struct fs_inode *dir, int dfd,
		  const char *name, struct direntry_name *out)
{
	struct dir_keys k;
	int err;

	if (undecodable_entry(fs, dir, dfd, name, out))
		return 0;
	err = dir_keys(fs, dir, dfd, &k);
	return err ? err
		   : direntry_name_resolve(&k.key, dfd, fs->vol.cfg.name_max,
					   name, out);
}

int entry_decrypt(struct cloakfs *fs, struct fs_inode *dir, int dfd,
		  const char *cname, enum vname_entry kind,
		  char out[VNAME_MAX_PLAIN + 1])
{
	struct dir_keys k;
	int err;

	if (kind != VNAME_ENTRY_ENCRYPTED && kind != VNAME_ENTRY_LONG &&
	    kind != VNAME_ENTRY_CONFLICT)
		return 0; /* hidden: no nonce needed */
	err = dir_keys(fs, dir, dfd, &k);
	return err ? err
		   : direntry_name_decrypt(&k.key, dfd, cname, kind, out, NULL);
}

int entry_symlink_encrypt(struct cloakfs *fs, struct fs_inode *dir, int dfd,
			  const char *target,
			  char out[SYMLINK_MAX_STORED + 1])
{
	uint8_t nonce[DIRNONCE_SIZE];
	int err = dir_nonce(fs, dir, dfd, nonce);

	return err ? err : symtext_encode(&fs->vol, nonce, target, out);
}

void entry_symlink_discard(struct cloakfs *fs, const char *text)
{
	/* only a stored target is removed */
	symlink_discard(fs->vol.rootfd, text);
}

/* a symlink inode, for the nonce of its directory */
struct link_dir {
	struct cloakfs *fs;
	struct fs_inode *in;
};

/* the nonce of the directory the symlink is in (its newest name's) */
static int link_dir_nonce(void *arg, uint8_t nonce[DIRNONCE_SIZE])
{
	struct link_dir *l = arg;
	struct fs_inode *parent = inode_parent(&l->fs->inodes, l->in);
	int pfd, err;

	if (!parent)
		return -EIO;
	pfd = inode_fd_hold(&l->fs->inodes, parent);
	err = pfd < 0 ? pfd : dir_nonce(l->fs, parent, pfd, nonce);
	if (pfd >= 0)
		inode_fd_release(&l->fs->inodes, parent);
	inode_unpin(&l->fs->inodes, parent);
	return err;
}

int entry_symlink_decode(struct cloakfs *fs, struct fs_inode *in,
			 const char *text, size_t len,
			 char out[SYMLINK_MAX_PLAIN + 1])
{
	struct link_dir l = { fs, in };

	return symtext_decode(&fs->vol, text, len, link_dir_nonce, &l, out);
}

int entry_rename(struct cloakfs *fs, struct fs_inode *dir,
		 struct respell_entry *src, struct fs_inode *newdir,
		 struct respell_entry *dst, unsigned int flags,
		 unsigned int *done)
{
	uint8_t from[DIRNONCE_SIZE], to[DIRNONCE_SIZE];
	int err;

	/* read already for the names, unless lost (then NULL: a name
	 * listed as undecodable can still move out) */
	src->nonce = dir_nonce(fs, dir, src->dfd, from) ? NULL : from;
	if (newdir == dir)
		dst->nonce = src->nonce;
	else
		dst->nonce = dir_nonce(fs, newdir, dst->dfd, to) ? NULL : to;
	err = entryops_rename(&fs->vol, src, dst, flags, done);
	src->nonce = dst->nonce = NULL; /* this frame's */
	return err;
}
