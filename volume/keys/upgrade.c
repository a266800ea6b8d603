/* SPDX-License-Identifier: MIT */
/* see upgrade.h */
#include "volume/keys/upgrade.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "crypto/secmem.h"
#include "volume/names/dirnonce.h"
#include "volume/fdio.h"
#include "volume/keys/keyring.h"
#include "volume/names/vname.h"
#include "volume/names/symlink.h"

#define LINK_SUFFIX ".link"
#define TEMP_LEN 64

static int (*step_hook)(void *arg);
static void *step_hook_arg;

void upgrade_set_step_hook(int (*hook)(void *arg), void *arg)
{
	step_hook = hook;
	step_hook_arg = arg;
}

/* before each change of the tree: the test hook's crash point */
static int step(void)
{
	return step_hook && step_hook(step_hook_arg) ? -ECANCELED : 0;
}

struct ent {
	char *name;
	struct stat st;
	enum vname_entry kind;
};

struct walk {
	int rootfd;
	struct keyring *kr;
	size_t bs;
	struct upgrade_counts *counts;
	upgrade_warn_fn warn;
	void *arg;
	char cpath[4096];
};

static void warn(struct walk *w, const char *name, const char *why)
{
	char path[4096 + 256];

	snprintf(path, sizeof(path), "%s%s%s", w->cpath, *w->cpath ? "/" : "",
		 name);
	if (w->warn)
		w->warn(path, why, w->arg);
}

static void free_ents(struct ent *v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(v[i].name);
	free(v);
}

/* every entry of dfd but "." and "..", with its lstat */
static int list(int dfd, struct ent **out, size_t *count)
{
	struct ent *v = NULL;
	size_t n = 0, cap = 0;
	struct dirent *d;
	DIR *dp;
	int err = fdio_opendir(dfd, &dp);

	if (err)
		return err;
	errno = 0;
	while ((d = readdir(dp)) != NULL) {
		enum vname_entry kind = vname_classify(d->d_name);

		if (kind == VNAME_ENTRY_DOT)
			continue;
		if (n == cap) {
			struct ent *nv = realloc(v, (cap = cap ? 2 * cap : 64) * sizeof(*v));

			if (!nv) {
				err = -ENOMEM;
				break;
			}
			v = nv;
		}
		v[n].name = strdup(d->d_name);
		if (!v[n].name) {
			err = -ENOMEM;
			break;
		}
		if (fstatat(dfd, d->d_name, &v[n].st, AT_SYMLINK_NOFOLLOW) != 0) {
			free(v[n].name);
			if (errno == ENOENT)
				continue;
			err = -errno;
			break;
		}
		v[n++].kind = kind;
		errno = 0;
	}
	if (!err && errno)
		err = -errno;
	closedir(dp);
	if (err) {
		free_ents(v, n);
		return err;
	}
	*out = v;
	*count = n;
	return 0;
}

/* a symlink the file system shows, holding a version-1 target */
static int is_v1_symlink(struct walk *w, int dfd, const struct ent *e)
{
	char text[SYMLINK_MAX_STORED + 2];
	ssize_t n;

	if (!S_ISLNK(e->st.st_mode) ||
	    (e->kind != VNAME_ENTRY_ENCRYPTED && e->kind != VNAME_ENTRY_LONG))
		return 0;
	n = readlinkat(dfd, e->name, text, sizeof(text));
	return n > 0 && (size_t)n < sizeof(text) - 1 &&
	       symlink_form(text, (size_t)n, w->bs) == SYMLINK_V1;
}

/* the version-1 target of dfd/name under the directory's nonce */
static int decode_v1(struct walk *w, int dfd, const char *name,
		     const uint8_t nonce[DIRNONCE_SIZE],
		     char plain[VNAME_MAX_SYMLINK_PLAIN + 1])
{
	char text[SYMLINK_MAX_STORED + 2];
	struct crypto_tfm *tfm;
	unsigned int slot;
	ssize_t len = readlinkat(dfd, name, text, sizeof(text));
	int n;

	if (len < 0)
		return -errno;
	if ((size_t)len >= sizeof(text) - 1)
		return -EBADMSG;
	keyring_enter(w->kr);
	tfm = keyring_get(w->kr, VKEY_NAMES, nonce, &slot, &n);
	if (tfm) {
		n = vname_symlink_decrypt(tfm, text, (size_t)len, plain,
					  VNAME_MAX_SYMLINK_PLAIN + 1);
		keyring_put(w->kr, slot);
	}
	keyring_leave(w->kr);
	return n;
}

/* is dfd/tmp a symlink whose version-2 target is plain (len bytes)? */
static int holds(struct walk *w, int dfd, const char *tmp, const char *plain,
		 int len)
{
	char text[SYMLINK_MAX_STORED + 2];
	char have[SYMLINK_MAX_PLAIN + 1];
	ssize_t n = readlinkat(dfd, tmp, text, sizeof(text));
	int m, same;

	if (n <= 0 || (size_t)n >= sizeof(text) - 1)
		return 0;
	m = symlink_decode(w->kr, w->rootfd, text, (size_t)n, have);
	same = m == len && memcmp(have, plain, (size_t)len) == 0;
	explicit_bzero(have, sizeof(have));
	return same;
}

/*
 * Replace the symlink inode of v[first] (and every other name of it in
 * this directory) by one with a version-2 target: made as tmp (kept if a
 * crashed run made it), linked to tmp.link and renamed over each name,
 * then tmp goes. Owner and times are the old inode's.
 */
static int convert(struct walk *w, int dfd, struct ent *v, size_t n,
		   size_t first, const uint8_t nonce[DIRNONCE_SIZE])
{
	char plain[VNAME_MAX_SYMLINK_PLAIN + 1], text[SYMLINK_MAX_STORED + 1];
	char tmp[TEMP_LEN], link[TEMP_LEN + sizeof(LINK_SUFFIX)];
	const struct stat *old = &v[first].st;
	struct timespec times[2] = { old->st_atim, old->st_mtim };
	int len = decode_v1(w, dfd, v[first].name, nonce, plain), err = 0;

	if (len < 0) {
		warn(w, v[first].name, len == -EACCES ? "the volume is locked"
			: "its version-1 target does not decode under the "
			  "directory's key: left as it is (cloakfs-fsck "
			  "reports it)");
		w->counts->left++;
		return len == -EACCES ? len : 0;
	}
	snprintf(tmp, sizeof(tmp), "%s%llx", UPGRADE_TEMP_PREFIX,
		 (unsigned long long)old->st_ino);
	snprintf(link, sizeof(link), "%s%s", tmp, LINK_SUFFIX);
	if (!holds(w, dfd, tmp, plain, len)) {
		if (faccessat(dfd, tmp, F_OK, AT_SYMLINK_NOFOLLOW) == 0) {
			err = step();
			if (!err && unlinkat(dfd, tmp, 0) != 0)
				err = -errno;
		}
		if (!err)
			err = symlink_encode(w->kr, w->rootfd, plain,
					      (size_t)len, text);
		err = err < 0 ? err : step();
		if (!err && symlinkat(text, dfd, tmp) != 0)
			err = -errno;
	}
	explicit_bzero(plain, sizeof(plain));
	/* again when kept: a crash may have come between symlink and chown */
	if (!err) {
		(void)fchownat(dfd, tmp, old->st_uid, old->st_gid,
			       AT_SYMLINK_NOFOLLOW);
		(void)utimensat(dfd, tmp, times, AT_SYMLINK_NOFOLLOW);
	}
	for (size_t i = first; !err && i < n; i++) {
		if (!S_ISLNK(v[i].st.st_mode) || v[i].st.st_ino != old->st_ino ||
		    v[i].st.st_dev != old->st_dev ||
		    (v[i].kind != VNAME_ENTRY_ENCRYPTED &&
		     v[i].kind != VNAME_ENTRY_LONG))
			continue;
		v[i].kind = VNAME_ENTRY_OTHER; /* done: not again */
		err = step();
		if (!err && linkat(dfd, tmp, dfd, link, 0) != 0)
			err = -errno;
		err = err ? err : step();
		if (!err && renameat(dfd, link, dfd, v[i].name) != 0)
			err = -errno;
	}
	err = err ? err : step();
	if (!err && unlinkat(dfd, tmp, 0) != 0)
		err = -errno;
	if (!err)
		w->counts->converted++;
	return err;
}

static int walk_dir(struct walk *w, int dfd);

/* leftovers of a crashed run: tmp.link names, and tmp names whose old
 * inode has no name left (every name was replaced) */
static int clear_temps(int dfd, struct ent *v, size_t n, int links)
{
	size_t plen = strlen(UPGRADE_TEMP_PREFIX), slen = strlen(LINK_SUFFIX);
	int err = 0;

	for (size_t i = 0; !err && i < n; i++) {
		size_t len = strlen(v[i].name);
		int is_link = len > slen && !strcmp(v[i].name + len - slen,
						    LINK_SUFFIX);

		if (strncmp(v[i].name, UPGRADE_TEMP_PREFIX, plen) != 0 ||
		    is_link != links)
			continue;
		if (faccessat(dfd, v[i].name, F_OK, AT_SYMLINK_NOFOLLOW) != 0)
			continue; /* used and removed by convert */
		err = step();
		if (!err && unlinkat(dfd, v[i].name, 0) != 0 && errno != ENOENT)
			err = -errno;
	}
	return err;
}

static int walk_children(struct walk *w, int dfd, struct ent *v, size_t n)
{
	size_t base = strlen(w->cpath);
	int err = 0;

	for (size_t i = 0; !err && i < n; i++) {
		int cfd;

		if (!S_ISDIR(v[i].st.st_mode) ||
		    (v[i].kind != VNAME_ENTRY_ENCRYPTED &&
		     v[i].kind != VNAME_ENTRY_LONG))
			continue;
		cfd = openat(dfd, v[i].name,
			     O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (cfd < 0) {
			err = -errno;
			warn(w, v[i].name, strerror(errno));
			break;
		}
		snprintf(w->cpath + base, sizeof(w->cpath) - base, "%s%s",
			 base ? "/" : "", v[i].name);
		err = walk_dir(w, cfd);
		w->cpath[base] = '\0';
		close(cfd);
	}
	return err;
}

static int walk_dir(struct walk *w, int dfd)
{
	uint8_t nonce[DIRNONCE_SIZE];
	struct ent *v = NULL;
	size_t n = 0;
	int err = list(dfd, &v, &n), have_nonce;

	if (err)
		return err;
	w->counts->dirs++;
	have_nonce = dirnonce_load(dfd, w->kr, nonce, NULL) == 0;
	err = clear_temps(dfd, v, n, 1);
	for (size_t i = 0; !err && i < n; i++) {
		if (!is_v1_symlink(w, dfd, &v[i]))
			continue;
		if (!have_nonce) {
			warn(w, v[i].name, "the directory's nonce is lost: "
			     "left as it is (cloakfs-fsck reports it)");
			w->counts->left++;
			continue;
		}
		err = convert(w, dfd, v, n, i, nonce);
	}
	if (!err)
		err = clear_temps(dfd, v, n, 0);
	explicit_bzero(nonce, sizeof(nonce));
	if (!err)
		err = walk_children(w, dfd, v, n);
	free_ents(v, n);
	return err;
}

int upgrade_tree(int rootfd, struct keyring *kr, enum volume_cipher cipher,
		  struct upgrade_counts *counts, upgrade_warn_fn warn_fn,
		  void *arg)
{
	struct walk w = { rootfd, kr, volume_cipher_info(cipher)->blocksize,
			  counts, warn_fn, arg, "" };

	memset(counts, 0, sizeof(*counts));
	return walk_dir(&w, rootfd);
}

int upgrade_config(const char *path, struct volume_config *c, char *err,
		    size_t errlen)
{
	unsigned int from = c->version;

	if (from >= 2)
		return 0;
	for (unsigned int i = 0; i < VOLCONF_MAX_KEYSLOTS; i++)
		if (c->slots[i].used && !c->slots[i].aad_version)
			c->slots[i].aad_version = from;
	c->version = 2;
	return volconf_write_atomic(path, c, err, errlen);
}
