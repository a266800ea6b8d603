/* SPDX-License-Identifier: MIT */
/*
 * cloakfs-fsck: the directory walk. Each ciphertext directory is read
 * whole first; then its nonce (the file and its copy), every entry's name
 * (short, long with its sidecar, foreign), duplicates and orphan sidecars
 * are judged; then each entry by type, a subdirectory walked whole before
 * the entries after it; last, what cannot stay is quarantined
 * (fsck-repair.c). lost+found.cloakfs/ is walked before the rest of the
 * root, so nothing moved there in this run is checked twice; damage
 * inside it is only noted.
 *
 * The walk keeps its own stack of directories on the heap, never one C
 * frame per level, so a hostile 100,000-deep chain costs memory, not a
 * crash. A directory more than KEEP_OPEN levels down gives up its
 * descriptor and name transform while a subdirectory is walked, and gets
 * them back through the subdirectory's ".." (checked to be the same
 * inode) and its nonce: neither descriptors nor locked key pages grow
 * with the depth. The two paths (ciphertext, plaintext) live in buffers
 * that grow and shrink with the walk. See fsck.h.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "crypto/hex.h"
#include "tools/fsck-files.h"
#include "tools/fsck-progress.h"
#include "tools/fsck-repair.h"
#include "tools/fsck-report.h"
#include "tools/fsck-targets.h"
#include "tools/fsck-walk.h"
#include "tools/fsck-xattr.h"
#include "tools/fsck-keys.h"
#include "volume/fdio.h"
#include "volume/names/direntry.h"
#include "volume/names/dirnonce.h"
#include "volume/names/noncecopy.h"

#define KEEP_OPEN 32

struct item {
	char *cname;
	char *plain;            /* its decoded name, or NULL */
	char *hint;             /* a damaged sidecar's name, or NULL */
	char *why;              /* why it must move (bad != FC_COUNT) */
	enum vname_entry kind;
	enum fsck_class bad;    /* why it must move (FC_COUNT: it need not) */
	bool skip;              /* reported already; leave it alone */
	bool is_lf;             /* the root's lost+found.cloakfs */
};

struct dir {
	int fd;            /* -1 while a subdirectory is walked (deep) */
	dev_t dev;
	ino_t ino;
	size_t clen, plen; /* its paths' lengths in the walk's buffers */
	bool path_known;   /* every component of its plaintext path decoded */
	bool in_lf, is_root, is_lf;
	struct crypto_tfm *names; /* NULL: nonce lost, or put away (deep) */
	/* while its names are judged: the key of its nonce file's sync
	 * conflict copy (noncecopy.h), and how many names need it */
	struct crypto_tfm *other_names;
	size_t other_used;
	uint8_t nonce[DIRNONCE_SIZE]; /* of names, to make it again */
	bool have_nonce;
	bool names_lost;   /* the nonce was missing or damaged */
	bool hold;         /* its nonce and copy differ and nothing tells which
			    * is right: nothing in it is moved or renamed */
	char *fresh_why;   /* both lost, repairing: the fresh nonce (d->nonce)
			    * is written once every entry has left (why: the
			    * finding's detail, reported then) */
	bool fresh_present; /* ... and a damaged .cloakfs.dir is there */
	bool fresh_blocked; /* ... an entry could not be moved: not written */
	size_t fresh_users;
	struct item *items;
	size_t n, next;
};

struct pathbuf {
	char *s;
	size_t len, cap;
};

struct walk {
	struct fsck *f;
	struct dir *stack;
	size_t depth, cap;
	struct pathbuf c, p; /* ciphertext ("" the root, "a/b") and plaintext
			      * ("" the root, "/a/b") path of what is judged */
};

/* ---- paths ------------------------------------------------------------ */

static int pb_init(struct pathbuf *b)
{
	b->cap = 256;
	b->len = 0;
	b->s = malloc(b->cap);
	if (!b->s)
		return -ENOMEM;
	b->s[0] = '\0';
	return 0;
}

static int pb_add(struct pathbuf *b, bool slash, const char *name)
{
	size_t n = strlen(name), need = b->len + n + 2;

	if (need > b->cap) {
		size_t cap = b->cap;
		char *s;

		while (cap < need)
			cap *= 2;
		s = realloc(b->s, cap);
		if (!s)
			return -ENOMEM;
		b->s = s;
		b->cap = cap;
	}
	if (slash)
		b->s[b->len++] = '/';
	memcpy(b->s + b->len, name, n + 1);
	b->len += n;
	return 0;
}

static void pb_cut(struct pathbuf *b, size_t len)
{
	b->len = len;
	b->s[len] = '\0';
}

/* the paths of entry it of d (leave() goes back): 0 or -ENOMEM */
static int enter(struct walk *w, struct dir *d, struct item *it)
{
	int err = pb_add(&w->c, d->clen > 0, it->cname);

	if (!err && d->path_known && it->plain)
		err = pb_add(&w->p, true, it->plain);
	if (err)
		fsck_fail(w->f, "out of memory");
	return err;
}

static void leave(struct walk *w, struct dir *d)
{
	pb_cut(&w->c, d->clen);
	pb_cut(&w->p, d->plen);
}

/* the current plaintext path, or NULL when a component does not decode */
static const char *plain_path(struct walk *w, struct dir *d, struct item *it)
{
	if (!d->path_known || (it && !it->plain))
		return NULL;
	return w->p.s;
}

/* ---- reading and judging a directory ------------------------------------ */

static void set_why(struct item *it, enum fsck_class c, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void set_why(struct item *it, enum fsck_class c, const char *fmt, ...)
{
	va_list ap;

	it->bad = c;
	free(it->why);
	it->why = NULL;
	va_start(ap, fmt);
	if (vasprintf(&it->why, fmt, ap) < 0)
		it->why = NULL;
	va_end(ap);
}

static int read_items(struct dir *d)
{
	struct dirent *de;
	size_t cap = 0;
	DIR *dp;
	int err = fdio_opendir(d->fd, &dp);

	if (err)
		return err;
	while ((errno = 0, de = readdir(dp)) != NULL) {
		enum vname_entry k = vname_classify(de->d_name);
		struct item *it;

		if (k == VNAME_ENTRY_DOT || k == VNAME_ENTRY_DIRNONCE)
			continue;
		if (d->n == cap) {
			size_t nc = cap ? 2 * cap : 8;

			it = realloc(d->items, nc * sizeof(*it));
			if (!it) {
				err = -ENOMEM;
				break;
			}
			d->items = it;
			cap = nc;
		}
		it = &d->items[d->n];
		memset(it, 0, sizeof(*it));
		it->cname = strdup(de->d_name);
		if (!it->cname) {
			err = -ENOMEM;
			break;
		}
		it->kind = k;
		it->bad = FC_COUNT;
		d->n++;
	}
	if (!err && errno)
		err = -errno;
	closedir(dp);
	return err;
}

static void free_items(struct dir *d)
{
	for (size_t i = 0; i < d->n; i++) {
		free(d->items[i].cname);
		free(d->items[i].plain);
		free(d->items[i].hint);
		free(d->items[i].why);
	}
	free(d->items);
	d->items = NULL;
	d->n = 0;
}

/* the name a damaged sidecar holds, if it still decodes: a hint only */
static void sidecar_hint(struct dir *d, struct item *it)
{
	char side[VNAME_SIDECAR_LEN + 1], buf[VNAME_MAX_ENCODED + 1];
	char plain[VNAME_MAX_PLAIN + 1];
	ssize_t n;

	if (!d->names || d->names_lost ||
	    vname_sidecar_name(it->cname, side) != 0)
		return;
	n = fdio_read_file(d->fd, side, buf, sizeof(buf), NULL);
	if (n <= 0 || (size_t)n >= sizeof(buf))
		return;
	if (vname_decrypt(d->names, buf, (size_t)n, plain, sizeof(plain)) >= 0)
		it->hint = strdup(plain);
}

static void judge_encrypted(struct walk *w, struct dir *d, struct item *it);

/*
 * A name the mount lists for a sync tool's conflict (a copy of an entry,
 * or a name made under a copy of the directory's nonce): a warning, and
 * the entry stays where it is (it may be the only copy of its data).
 */
static void report_conflict(struct walk *w, struct dir *d, struct item *it,
			    bool other)
{
	d->other_used += other;
	if (enter(w, d, it))
		return;
	fsck_report(w->f, FC_SYNC_CONFLICT, d->in_lf, plain_path(w, d, it),
		    w->c.s, FA_NONE, NULL, "%s; kept (compare it with the other "
		    "version, then remove or rename it through the mount)",
		    it->kind == VNAME_ENTRY_CONFLICT
			    ? "a sync tool's conflict copy of an entry"
			    : "named under a sync tool's conflict copy of the "
			      "directory's nonce file");
	leave(w, d);
}

/* what a conflict copy of cloakfs's own files holds: reported, kept */
static void judge_copy(struct walk *w, struct dir *d, struct item *it)
{
	struct vname_conflict vc;

	if (!vname_conflict_of(it->cname, &vc))
		return;
	if (vc.kind == VNAME_ENTRY_ENCRYPTED || vc.kind == VNAME_ENTRY_LONG) {
		judge_encrypted(w, d, it);
		return;
	}
	/* a nonce file's copy: reported once the names have been read */
	it->skip = true;
	if (vc.kind != VNAME_ENTRY_SIDECAR || enter(w, d, it))
		return;
	fsck_report(w->f, FC_SYNC_CONFLICT, d->in_lf, NULL, w->c.s, FA_NONE,
		    NULL, "a sync tool's conflict copy of a long name's "
		    "sidecar (the sidecar itself is what is read); kept");
	leave(w, d);
}

/* the copies of the directory's nonce file, with the names that need one */
static void report_nonce_copies(struct walk *w, struct dir *d)
{
	struct vname_conflict vc;

	for (size_t i = 0; i < d->n; i++) {
		struct item *it = &d->items[i];

		if (it->kind != VNAME_ENTRY_CONFLICT ||
		    !vname_conflict_of(it->cname, &vc) ||
		    vc.kind != VNAME_ENTRY_DIRNONCE || enter(w, d, it))
			continue;
		fsck_report(w->f, FC_SYNC_CONFLICT, d->in_lf, NULL, w->c.s,
			    FA_NONE, NULL, "a sync tool's conflict copy of the "
			    "directory's %s; %zu names are read under %s; kept",
			    DIRNONCE_FILE, d->other_used,
			    d->other_used ? "a copy of it" : "none of them");
		leave(w, d);
	}
}

/*
 * The name of an encrypted or long entry, judged by the call the mount
 * decrypts it with; a directory whose nonce is lost lends no key, so a
 * long name's sidecar is judged all the same.
 */
static void judge_encrypted(struct walk *w, struct dir *d, struct item *it)
{
	struct direntry_key key = { .tfm = d->names_lost ? NULL : d->names,
				    .other_tfm = d->other_names };
	char plain[VNAME_MAX_PLAIN + 1];
	struct direntry_found found;
	int n = direntry_name_decrypt(&key, d->fd, it->cname, it->kind, plain,
				      &found);

	switch (found.verdict) {
	case DIRENTRY_OK:
		break;
	case DIRENTRY_SIDECAR_MISSING:
		set_why(it, FC_SIDECAR_MISSING, "a long name without its "
			".name sidecar: its name is lost");
		return;
	case DIRENTRY_SIDECAR_BAD:
		if (n == -EACCES || n == -EPERM) {
			if (enter(w, d, it) == 0) {
				fsck_report(w->f, FC_UNREADABLE, d->in_lf, NULL,
					    w->c.s, FA_NONE, NULL,
					    "its sidecar: %s", strerror(-n));
				/* left alone: not even its type is looked at */
				fsck_targets_unsure(w->f, w->c.s);
			}
			leave(w, d);
			it->skip = true;
			return;
		}
		sidecar_hint(d, it);
		set_why(it, FC_SIDECAR_MISMATCH, "its sidecar %s%s%s",
			n == -EBADMSG ? "does not hash to this name"
			: n == -VOLUME_ENOTREG ? "is not a regular file"
					       : strerror(-n),
			it->hint ? "; the sidecar names " : "",
			it->hint ? it->hint : "");
		return;
	case DIRENTRY_OVERPADDED:
		/* quarantined under the name it spells (hint) */
		it->hint = strdup(plain);
		set_why(it, FC_NAME_OVERPADDED, "a second spelling of \"%s\": "
			"padded with a block or more of NUL bytes than the rule "
			"asks for (docs/format.md 7.2)", plain);
		explicit_bzero(plain, sizeof(plain));
		return;
	case DIRENTRY_CONFLICT_TOO_LONG:
		if (enter(w, d, it) == 0)
			fsck_report(w->f, FC_SYNC_CONFLICT, d->in_lf, NULL, w->c.s,
				    FA_NONE, NULL, "a sync tool's conflict copy "
				    "whose name with the tool's marker passes 255 "
				    "bytes: the mount does not list it; kept");
		leave(w, d);
		it->skip = true;
		return;
	case DIRENTRY_INVALID:
		set_why(it, FC_NAME_INVALID, "decrypts to an empty name, \".\", "
			"\"..\", or one holding '/' or NUL");
		return;
	default:
		/* names carry no tag: a damaged name that still decrypts to
		 * something well-formed cannot be told from a real one */
		if (d->names_lost)
			set_why(it, FC_NAME_UNDECODABLE, "the directory's %s and "
				"its copy are %s", DIRNONCE_FILE,
				d->names ? "new" : "missing or damaged");
		else
			set_why(it, FC_NAME_UNDECODABLE, "does not decrypt to a "
				"name under this directory's key");
		return;
	}
	it->plain = strdup(plain);
	explicit_bzero(plain, sizeof(plain));
	if (!it->plain) {
		fsck_fail(w->f, "out of memory");
		return;
	}
	if (found.conflict || found.other)
		report_conflict(w, d, it, found.other);
	if (it->kind != VNAME_ENTRY_CONFLICT &&
	    (it->kind == VNAME_ENTRY_LONG) !=
	    (bool)vname_is_long(found.enclen, w->f->cfg.name_max))
		set_why(it, FC_NAME_WRONG_FORM, "stored in the %s form; this "
			"volume's name_max %u wants the other",
			it->kind == VNAME_ENTRY_LONG ? "long" : "short",
			w->f->cfg.name_max);
	if (d->is_root && !strcmp(it->plain, FSCK_LOST_FOUND))
		it->is_lf = true;
}

/* an entry's name by its kind (vname_classify, read_items) */
static void judge_name(struct walk *w, struct dir *d, struct item *it)
{
	switch (it->kind) {
	case VNAME_ENTRY_ENCRYPTED:
	case VNAME_ENTRY_LONG:
		judge_encrypted(w, d, it);
		return;
	case VNAME_ENTRY_TARGETS:
		/* on any version: a version-1 config over an upgraded tree
		 * still reads the targets stored there (docs/format.md 4) */
		if (d->is_root) {
			it->skip = true; /* judged through the symlinks */
			return;
		}
		set_why(it, FC_FOREIGN_ENTRY, "the symlink target store outside "
			"the volume root");
		return;
	case VNAME_ENTRY_CONFIG:
	case VNAME_ENTRY_CONFIG_TEMP:
	case VNAME_ENTRY_RECORD: /* judged by fsck-config.c */
		if (d->is_root) {
			it->skip = true; /* the caller judged a temp file */
			return;
		}
		set_why(it, FC_FOREIGN_ENTRY, "a config file name outside the "
			"volume root");
		return;
	case VNAME_ENTRY_SIDECAR:
		return; /* judged with the long names */
	case VNAME_ENTRY_CONFLICT:
		judge_copy(w, d, it);
		return;
	case VNAME_ENTRY_UPGRADE_TEMP:
		set_why(it, FC_TEMP_ENTRY, "left by a cloakfs-keytool upgrade "
			"that stopped: run the upgrade again, which removes it "
			"(--repair would quarantine a copy of a symlink)");
		return;
	case VNAME_ENTRY_TEMP:
		set_why(it, FC_TEMP_ENTRY, "left by a crash of cloakfs while it "
			"made this entry");
		return;
	default:
		set_why(it, FC_FOREIGN_ENTRY, "not a name cloakfs writes (a file "
			"put into the ciphertext directory, or a sync tool's "
			"copy)");
		return;
	}
}

static int cmp_plain(const void *a, const void *b)
{
	const struct item *const *x = a, *const *y = b;
	int c = strcmp((*x)->plain, (*y)->plain);

	/* the entry lookup finds (right form) sorts first */
	if (!c)
		c = ((*x)->bad == FC_NAME_WRONG_FORM) - ((*y)->bad == FC_NAME_WRONG_FORM);
	return c;
}

/* two entries decoding to one name: lookup finds only one of them */
static void find_duplicates(struct dir *d)
{
	struct item **v = malloc((d->n + 1) * sizeof(*v));
	size_t m = 0;

	if (!v)
		return;
	for (size_t i = 0; i < d->n; i++)
		if (d->items[i].plain)
			v[m++] = &d->items[i];
	if (m)
		qsort(v, m, sizeof(*v), cmp_plain);
	for (size_t i = 1; i < m; i++) {
		if (strcmp(v[i]->plain, v[i - 1]->plain) != 0)
			continue;
		v[i]->is_lf = false;
		set_why(v[i], FC_NAME_DUPLICATE, "another entry (%s) has the "
			"same name", v[i - 1]->cname);
	}
	free(v);
}

static int cmp_cname(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void check_sidecars(struct walk *w, struct dir *d)
{
	char **names = malloc((d->n + 1) * sizeof(*names)), key[VNAME_LONG_LEN + 1];
	char *kp = key, *bases = malloc(d->n * (VNAME_LONG_LEN + 1) + 1);
	struct vname_conflict vc;
	size_t m = 0, b = 0;

	if (!names || !bases) {
		free(names);
		free(bases);
		return;
	}
	for (size_t i = 0; i < d->n; i++) {
		if (d->items[i].kind == VNAME_ENTRY_LONG) {
			names[m++] = d->items[i].cname;
		} else if (d->items[i].kind == VNAME_ENTRY_CONFLICT &&
			   vname_conflict_of(d->items[i].cname, &vc) &&
			   vc.kind == VNAME_ENTRY_LONG) {
			/* a sync tool's copy of a long name reads its
			 * original's sidecar */
			names[m] = bases + b * (VNAME_LONG_LEN + 1);
			memcpy(names[m++], vc.base, VNAME_LONG_LEN + 1);
			b++;
		}
	}
	if (m)
		qsort(names, m, sizeof(*names), cmp_cname);
	for (size_t i = 0; i < d->n; i++) {
		struct item *it = &d->items[i];
		enum fsck_action act = FA_NONE;
		struct stat st;

		if (it->kind != VNAME_ENTRY_SIDECAR)
			continue;
		it->skip = true;
		if (fstatat(d->fd, it->cname, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
		    !S_ISREG(st.st_mode)) {
			/* moved aside like any entry that cannot stay */
			it->skip = false;
			set_why(it, FC_UNEXPECTED_TYPE, "a long-name sidecar that "
				"is %s, not a regular file",
				volume_type_name(st.st_mode));
			continue;
		}
		memcpy(key, it->cname, VNAME_LONG_LEN);
		key[VNAME_LONG_LEN] = '\0';
		if (bsearch(&kp, names, m, sizeof(*names), cmp_cname))
			continue;
		if (enter(w, d, it))
			break;
		/* redundant metadata: the only thing repair deletes */
		if (w->f->repair && !d->in_lf)
			act = unlinkat(d->fd, it->cname, 0) == 0 ? FA_REMOVED
								  : FA_FAILED;
		fsck_report(w->f, FC_SIDECAR_ORPHAN, d->in_lf, NULL, w->c.s, act,
			    NULL, "a long-name sidecar whose entry is gone");
		leave(w, d);
	}
	free(names);
	free(bases);
}

/* lost+found first (see the top of the file), then directory order */
static void lf_first(struct dir *d)
{
	for (size_t i = 1; i < d->n; i++) {
		if (d->items[i].is_lf && d->items[i].bad == FC_COUNT) {
			struct item t = d->items[i];

			memmove(&d->items[1], &d->items[0], i * sizeof(t));
			d->items[0] = t;
			return;
		}
	}
}

/* the key of a sync tool's copy of d's nonce file, when there is one */
static void other_names(struct walk *w, struct dir *d)
{
	uint8_t other[DIRNONCE_SIZE];
	int err;

	d->other_used = 0;
	if (d->names && !d->names_lost &&
	    noncecopy_find(d->fd, d->nonce, other, NULL) == 1)
		d->other_names = keys_names_tfm(w->f->keys, other, &err);
	explicit_bzero(other, sizeof(other));
}

/* d's name transform from nonce (kept to make it again): 0 or -errno */
static int set_names(struct walk *w, struct dir *d, const uint8_t *nonce)
{
	int err;

	crypto_free(d->names);
	d->names = keys_names_tfm(w->f->keys, nonce, &err);
	if (!d->names) {
		fsck_fail(w->f, "%s: name key: %s", w->c.s, strerror(-err));
		return err;
	}
	memcpy(d->nonce, nonce, DIRNONCE_SIZE);
	d->have_nonce = true;
	if (d->is_root)
		w->f->root_names = d->names;
	return 0;
}

static void drop_names(struct walk *w, struct dir *d)
{
	crypto_free(d->names);
	d->names = NULL;
	d->have_nonce = false;
	if (d->is_root)
		w->f->root_names = NULL;
}

/*
 * The nonce: from the file, or its copy (docs/format.md 7.1). Repair
 * restores a lost or damaged file from the copy and the copy from the
 * file; when they differ, the one the names are evidence for wins and
 * the other is kept (moved into lost+found, or its bytes in the note);
 * when the names tie, both stay where they are, and so does every entry
 * (an error each run until someone decides); when both are lost, a
 * fresh nonce, and the names go to lost+found.
 */
static void check_nonce(struct walk *w, struct dir *d)
{
	struct fsck *f = w->f;
	struct dirnonce_state st;
	enum fsck_action act = FA_NONE;
	enum fsck_class c;
	uint8_t nonce[DIRNONCE_SIZE];
	char why[320], done[VNAME_MAX_PLAIN + 160] = "", what[VNAME_MAX_PLAIN + 256] = "";
	char fhex[2 * DIRNONCE_SIZE + 1], chex[2 * DIRNONCE_SIZE + 1];
	const char *path = plain_path(w, d, NULL);
	/* inside lost+found only lost+found's own nonce is put right */
	bool may_repair = f->repair && (!d->in_lf || d->is_lf);
	size_t users = 0;
	int rc = dirnonce_load(d->fd, fsck_keyring(f), nonce, &st);

	for (size_t i = 0; i < d->n; i++)
		users += d->items[i].kind == VNAME_ENTRY_ENCRYPTED ||
			 d->items[i].kind == VNAME_ENTRY_LONG;
	(void)dirnonce_describe(&st, why, sizeof(why));
	hex_encode(fhex, st.file_nonce, DIRNONCE_SIZE);
	hex_encode(chex, st.copy_nonce, DIRNONCE_SIZE);
	if (!rc && set_names(w, d, nonce) != 0)
		return;
	if (!rc && st.file) {
		/* the copy keeps the names: the file comes back from it */
		if (may_repair) {
			act = fsck_put_dirnonce(f, d->fd, nonce, st.file != -ENOENT,
						done, sizeof(done)) ? FA_FAILED : FA_FIXED;
			if (act == FA_FIXED)
				snprintf(what, sizeof(what), "restored from %s%s%s",
					 DIRNONCE_XATTR, done[0] ? "; " : "",
					 done);
			else
				snprintf(what, sizeof(what), "%s", done);
		}
		fsck_report(f, st.file == -ENOENT ? FC_DIRNONCE_MISSING
			    : FC_DIRNONCE_BAD, d->in_lf, path, w->c.s, act, what,
			    "%s", why);
	} else if (!rc && st.differ && st.undecided) {
		/* repairing either way may destroy the only good copy */
		d->hold = true;
		fsck_report(f, FC_DIRNONCE_DIFFER, d->in_lf, path, w->c.s,
			    FA_NONE, NULL, "%s; the file held %s, the copy %s; "
			    "both are kept and nothing in the directory is moved: "
			    "write the right one to both (docs/fsck.md)", why,
			    fhex, chex);
	} else if (!rc && st.differ) {
		if (may_repair && st.used == DIRNONCE_FROM_COPY) {
			act = fsck_put_dirnonce(f, d->fd, nonce, true, done,
						sizeof(done)) ? FA_FAILED : FA_FIXED;
			snprintf(what, sizeof(what), "%s set from its copy%s%s",
				 DIRNONCE_FILE, done[0] ? "; " : "", done);
		} else if (may_repair) {
			rc = dirnonce_write_copy(d->fd, nonce);
			act = rc ? FA_FAILED : FA_FIXED;
			snprintf(what, sizeof(what), "%s set from %s%s%s",
				 DIRNONCE_XATTR, DIRNONCE_FILE,
				 rc ? ": " : "", rc ? strerror(-rc) : "");
		}
		fsck_report(f, FC_DIRNONCE_DIFFER, d->in_lf, path, w->c.s, act,
			    what, "%s; the file held %s, the copy %s", why, fhex,
			    chex);
	} else if (!rc && st.copy == -EOPNOTSUPP) {
		if (!f->no_xattr_noted)
			fsck_note("%s: the filesystem keeps no user extended "
				  "attributes: each directory's nonce has one "
				  "copy only (docs/format.md 7.1)", f->dir);
		f->no_xattr_noted = true;
	} else if (!rc && st.copy) {
		c = st.copy == -ENODATA ? FC_DIRNONCE_COPY_MISSING
					: FC_DIRNONCE_COPY_BAD;
		if (may_repair) {
			rc = dirnonce_write_copy(d->fd, nonce);
			act = rc ? FA_FAILED : FA_FIXED;
			snprintf(what, sizeof(what), "copied from %s%s%s",
				 DIRNONCE_FILE, rc ? ": " : "",
				 rc ? strerror(-rc) : "");
		}
		fsck_report(f, c, d->in_lf, path, w->c.s, act, what, "%s %s",
			    DIRNONCE_XATTR,
			    st.copy == -ENODATA
				    ? "holds no copy of the directory's nonce "
				      "(made before cloakfs kept one)"
				    : st.copy == -EBADMSG
					      ? "is not 16 bytes, or all zero"
					      : strerror(-st.copy));
	} else if (rc == -EACCES || rc == -EPERM) {
		fsck_report(f, FC_UNREADABLE, d->in_lf, path, w->c.s, FA_NONE,
			    NULL, "%s: %s", DIRNONCE_FILE, strerror(-rc));
		d->names_lost = true;
	} else if (rc) {
		/* both lost: a fresh nonce, the names go to lost+found with
		 * their ciphertext names in the repair note */
		d->names_lost = true;
		/* the fresh nonce is written after the names under the old
		 * one left (put_fresh_nonce): one written before would make
		 * those a stopped repair leaves decode to garbage, some of
		 * it well-formed, on the next run */
		if (may_repair && dirnonce_new(nonce) == 0 &&
		    set_names(w, d, nonce) == 0) {
			d->fresh_why = strdup(why);
			d->fresh_present = st.file != -ENOENT;
			d->fresh_users = users;
			if (d->fresh_why)
				goto out;
			drop_names(w, d);
		}
		fsck_report(f, st.file == -ENOENT ? FC_DIRNONCE_MISSING
			    : FC_DIRNONCE_BAD, d->in_lf, path, w->c.s,
			    may_repair ? FA_FAILED : FA_NONE, NULL,
			    "%s (%zu names)", why, users);
	}
out:
	explicit_bzero(nonce, sizeof(nonce));
}

/* rename a decodable entry stored in the wrong form to the right one */
static enum fsck_action fix_form(struct walk *w, struct dir *d,
				 struct item *it, char *what, size_t len)
{
	char side[VNAME_SIDECAR_LEN + 1];
	struct direntry_name to;
	int rc = direntry_name_encrypt(&(struct direntry_key){ .tfm = d->names },
				       w->f->cfg.name_max, it->plain, &to);

	if (!rc)
		rc = direntry_name_prepare(d->fd, &to);
	if (!rc && renameat2(d->fd, it->cname, d->fd, to.name, RENAME_NOREPLACE) != 0) {
		rc = -errno;
		direntry_name_forget(d->fd, &to);
	}
	if (rc) {
		snprintf(what, len, "%s", strerror(-rc));
		return FA_FAILED;
	}
	if (it->kind == VNAME_ENTRY_LONG && vname_sidecar_name(it->cname, side) == 0)
		(void)unlinkat(d->fd, side, 0);
	snprintf(what, len, "renamed to %s", to.name);
	return FA_FIXED;
}

/* the config rewrite's leftover: may hold a removed passphrase's slot */
static void config_temp(struct walk *w, struct dir *d, struct item *it)
{
	enum fsck_action act = FA_NONE;

	if (w->f->repair)
		act = unlinkat(d->fd, it->cname, 0) == 0 ? FA_REMOVED : FA_FAILED;
	fsck_report(w->f, FC_CONFIG_TEMP, false, NULL, it->cname, act, NULL,
		    "left by a crash during a config rewrite (it may still "
		    "open with a passphrase since removed)");
	it->skip = true;
}

/*
 * After an entry was looked at (a subdirectory: walked): quarantine it
 * when it cannot stay, and report. The entry's paths are entered.
 */
static void finish_entry(struct walk *w, struct dir *d, struct item *it,
			 enum fsck_class content, const char *why)
{
	struct fsck *f = w->f;
	char what[VNAME_MAX_ENCODED + 64] = "";
	enum fsck_action act = FA_NONE;
	const char *path = plain_path(w, d, it);
	int rc;

	if (it->bad == FC_COUNT && content != FC_COUNT) {
		set_why(it, content, "%s", why);
		content = FC_COUNT;
	}
	if (it->bad == FC_COUNT)
		goto out;
	if (f->repair && !d->in_lf && !d->hold) {
		if (it->bad == FC_NAME_WRONG_FORM) {
			act = fix_form(w, d, it, what, sizeof(what));
		} else {
			rc = fsck_quarantine(f, d->fd, it->cname,
					     it->kind == VNAME_ENTRY_LONG,
					     it->plain ? it->plain : it->hint,
					     fsck_class_name(it->bad),
					     d->names_lost ? NULL : d->names,
					     what, sizeof(what));
			act = rc ? FA_FAILED : FA_QUARANTINED;
			if (rc)
				snprintf(what, sizeof(what), "%s", strerror(-rc));
			d->fresh_blocked |= rc != 0;
		}
	}
	fsck_report(f, it->bad, d->in_lf, path, w->c.s, act, what, "%s",
		    it->why ? it->why : "");
	if (content != FC_COUNT) /* a bad name and bad content too */
		fsck_report(f, content, d->in_lf, path, w->c.s, act, what, "%s",
			    why);
out:
	leave(w, d);
}

/*
 * Look at entry it of d. A directory of ours to walk: its descriptor,
 * with the entry's paths entered (finish_entry after the walk). Anything
 * else is finished here: -1.
 */
static int begin_entry(struct walk *w, struct dir *d, struct item *it)
{
	struct fsck *f = w->f;
	enum fsck_class content = FC_COUNT;
	const char *path;
	char why[256] = "";
	struct stat st;
	int fd;

	if (enter(w, d, it))
		return -1;
	path = plain_path(w, d, it);
	fsck_progress_tick(f, w->c.s);
	if (fstatat(d->fd, it->cname, &st, AT_SYMLINK_NOFOLLOW) != 0) {
		if (errno != ENOENT)
			fsck_report(f, FC_UNREADABLE, d->in_lf, path, w->c.s,
				    FA_NONE, NULL, "stat: %s", strerror(errno));
		leave(w, d);
		return -1;
	}
	switch (st.st_mode & S_IFMT) {
	case S_IFDIR:
		if (it->kind != VNAME_ENTRY_ENCRYPTED &&
		    it->kind != VNAME_ENTRY_LONG) {
			f->others++; /* not ours: its insides are not judged */
			fsck_targets_unsure(f, w->c.s);
			break;
		}
		if (it->bad == FC_COUNT) {
			struct fsck_entry e = { d->fd, it->cname, path, w->c.s,
						d->names, d->in_lf };

			fsck_check_xattrs(f, &e);
		}
		fd = openat(d->fd, it->cname,
			    O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (fd >= 0)
			return fd;
		fsck_report(f, FC_UNREADABLE, d->in_lf, path, w->c.s, FA_NONE,
			    NULL, "cannot open the directory: %s", strerror(errno));
		fsck_targets_unsure(f, w->c.s);
		break;
	case S_IFREG: {
		struct fsck_entry e = { d->fd, it->cname, path, w->c.s, d->names,
					d->in_lf };

		f->files++;
		if (it->kind == VNAME_ENTRY_SIDECAR || it->kind == VNAME_ENTRY_OTHER ||
		    it->kind == VNAME_ENTRY_TEMP ||
		    it->kind == VNAME_ENTRY_UPGRADE_TEMP ||
		    it->kind == VNAME_ENTRY_CONFIG || it->kind == VNAME_ENTRY_RECORD)
			break; /* not a cloakfs file: no header to judge */
		content = fsck_check_file(f, &e, &st, why, sizeof(why));
		if (content == FC_COUNT && it->bad == FC_COUNT)
			fsck_check_xattrs(f, &e);
		break;
	}
	case S_IFLNK: {
		struct fsck_entry e = { d->fd, it->cname, path, w->c.s, d->names,
					d->in_lf };

		f->symlinks++;
		/* every symlink's text is read: one being quarantined for its
		 * name still refers to its stored target */
		content = fsck_check_symlink(f, &e, it->bad == FC_COUNT && d->names,
					     why, sizeof(why));
		if (content == FC_UNREADABLE)
			fsck_report(f, FC_UNREADABLE, d->in_lf, path, w->c.s,
				    FA_NONE, NULL, "%s", why);
		if (content == FC_UNREADABLE)
			content = FC_COUNT;
		break;
	}
	case S_IFCHR:
	case S_IFBLK:
		f->others++;
		if (it->bad == FC_COUNT)
			fsck_report(f, FC_SPECIAL_FILE, d->in_lf, path, w->c.s,
				    FA_NONE, NULL, "a %s device node (%u:%u)",
				    S_ISCHR(st.st_mode) ? "character" : "block",
				    major(st.st_rdev), minor(st.st_rdev));
		break;
	case S_IFIFO:
	case S_IFSOCK:
		f->others++; /* made by mknod through the mount: fine */
		break;
	default:
		f->others++;
		if (it->bad == FC_COUNT)
			set_why(it, FC_UNEXPECTED_TYPE, "file type 0%o",
				(unsigned int)(st.st_mode & S_IFMT));
		break;
	}
	finish_entry(w, d, it, content, why);
	return -1;
}

/* ---- the work stack ----------------------------------------------------- */

/* start on directory fd (owned from here on); its paths are entered */
static int push_dir(struct walk *w, int fd, bool in_lf, bool is_root,
		    bool is_lf, bool path_known)
{
	struct fsck *f = w->f;
	struct dir *d;
	struct stat st;
	int rc;

	if (w->depth == w->cap) {
		size_t cap = w->cap ? 2 * w->cap : 64;

		d = realloc(w->stack, cap * sizeof(*d));
		if (!d) {
			if (!is_root)
				close(fd);
			fsck_fail(f, "out of memory");
			return -ENOMEM;
		}
		w->stack = d;
		w->cap = cap;
	}
	d = &w->stack[w->depth++];
	memset(d, 0, sizeof(*d));
	d->fd = fd;
	d->clen = w->c.len;
	d->plen = w->p.len;
	d->path_known = path_known;
	d->in_lf = in_lf;
	d->is_root = is_root;
	d->is_lf = is_lf;
	if (fstat(fd, &st) == 0) {
		d->dev = st.st_dev;
		d->ino = st.st_ino;
	}
	f->dirs++;
	rc = read_items(d);
	if (rc) {
		fsck_report(f, FC_UNREADABLE, in_lf, plain_path(w, d, NULL),
			    w->c.s, FA_NONE, NULL, "reading the directory: %s",
			    strerror(-rc));
		fsck_targets_unsure(f, w->c.s);
		free_items(d);
		return 0; /* nothing in it to walk */
	}
	check_nonce(w, d);
	if (is_root && d->names && !d->names_lost)
		(void)fsck_lost_found_open(f, d->names, false);
	other_names(w, d);
	for (size_t i = 0; i < d->n && !f->operational_error; i++) {
		if (is_root && d->items[i].kind == VNAME_ENTRY_CONFIG_TEMP)
			config_temp(w, d, &d->items[i]);
		else
			judge_name(w, d, &d->items[i]);
	}
	report_nonce_copies(w, d);
	crypto_free(d->other_names); /* the names are judged */
	d->other_names = NULL;
	find_duplicates(d);
	check_sidecars(w, d);
	if (is_root)
		lf_first(d);
	return 0;
}

/* a deep directory gives up its descriptor and names while a child is walked */
static void put_away(struct walk *w, struct dir *d)
{
	if (d->is_root || w->depth <= KEEP_OPEN)
		return;
	close(d->fd);
	d->fd = -1;
	crypto_free(d->names);
	d->names = NULL;
}

/* ... and gets them back through the child's ".." (child: still open) */
static int take_back(struct walk *w, struct dir *d, int child)
{
	struct stat st;
	int err;

	if (d->fd >= 0)
		return 0;
	d->fd = openat(child, "..", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	err = d->fd < 0 || fstat(d->fd, &st) != 0 ? -errno : 0;
	if (!err && (st.st_dev != d->dev || st.st_ino != d->ino))
		err = -ESTALE;
	if (err) {
		fsck_fail(w->f, "%s: cannot go back up to it: %s", w->c.s,
			  err == -ESTALE ? "it moved while it was checked"
					 : strerror(-err));
		return err;
	}
	if (d->have_nonce) {
		d->names = keys_names_tfm(w->f->keys, d->nonce, &err);
		if (!d->names) {
			fsck_fail(w->f, "%s: name key: %s", w->c.s, strerror(-err));
			return err;
		}
	}
	return 0;
}

/* both nonces were lost: the fresh one, now that the names under the
 * old one are in lost+found (a name left: not yet, the next run) */
static void put_fresh_nonce(struct walk *w, struct dir *d)
{
	struct fsck *f = w->f;
	enum fsck_action act = FA_FAILED;
	char done[VNAME_MAX_PLAIN + 160] = "", what[VNAME_MAX_PLAIN + 256];

	if (!d->fresh_why)
		return;
	if (d->fresh_blocked || f->operational_error)
		snprintf(what, sizeof(what), "not written: not every name "
			 "under the old one left (run --repair again)");
	else if (fsck_put_dirnonce(f, d->fd, d->nonce, d->fresh_present,
				   done, sizeof(done)) == 0)
		act = FA_FIXED;
	if (act == FA_FIXED)
		snprintf(what, sizeof(what), "a new %s; the %zu names under "
			 "the old one went to lost+found%s%s",
			 DIRNONCE_FILE, d->fresh_users, done[0] ? "; " : "",
			 done);
	else if (done[0])
		snprintf(what, sizeof(what), "%s", done);
	fsck_report(f, d->fresh_present ? FC_DIRNONCE_BAD : FC_DIRNONCE_MISSING,
		    d->in_lf, plain_path(w, d, NULL), w->c.s, act, what,
		    "%s (%zu names)", d->fresh_why, d->fresh_users);
	free(d->fresh_why);
	d->fresh_why = NULL;
}

/* done with the top directory; back to its parent's entry for it */
static void pop_dir(struct walk *w)
{
	struct dir *d = &w->stack[w->depth - 1], *parent;
	int fd = d->fd;
	bool root = d->is_root;

	put_fresh_nonce(w, d);
	if (root) {
		/* every symlink was seen; lost+found is still open */
		fsck_targets_check(w->f);
		fsck_lost_found_close(w->f);
		w->f->root_names = NULL;
	}
	crypto_free(d->names);
	free_items(d);
	w->depth--;
	if (!w->depth)
		return;
	parent = &w->stack[w->depth - 1];
	if (!w->f->operational_error && take_back(w, parent, fd) == 0)
		finish_entry(w, parent, &parent->items[parent->next], FC_COUNT,
			     "");
	else
		leave(w, parent);
	parent->next++;
	close(fd);
}

void fsck_walk(struct fsck *f)
{
	struct walk w = { .f = f };

	if (pb_init(&w.c) || pb_init(&w.p)) {
		fsck_fail(f, "out of memory");
		goto out;
	}
	if (push_dir(&w, f->rootfd, false, true, false, true))
		goto out;
	while (w.depth) {
		struct dir *d = &w.stack[w.depth - 1];
		struct item *it;
		int fd;

		if (f->operational_error || d->next >= d->n) {
			pop_dir(&w);
			continue;
		}
		it = &d->items[d->next];
		if (it->skip) {
			d->next++;
			continue;
		}
		fd = begin_entry(&w, d, it);
		if (fd < 0) {
			d->next++;
			continue;
		}
		put_away(&w, d);
		if (push_dir(&w, fd, d->in_lf || it->is_lf, false, it->is_lf,
			     d->path_known && it->plain)) {
			/* d may have moved with the stack: it is not used */
			break;
		}
	}
out:
	/* after an out-of-memory stop: let go of what is left */
	while (w.depth) {
		struct dir *d = &w.stack[--w.depth];

		if (d->is_root) {
			fsck_lost_found_close(f);
			f->root_names = NULL;
		} else if (d->fd >= 0) {
			close(d->fd);
		}
		crypto_free(d->names);
		free_items(d);
	}
	free(w.stack);
	free(w.c.s);
	free(w.p.s);
}
