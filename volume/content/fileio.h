/* SPDX-License-Identifier: MIT */
/*
 * Content I/O on a ciphertext file descriptor: plaintext reads, writes
 * and truncates with the sector rules of content.h, read-modify-write of
 * partial units, lazy headers (an empty file has none; the first write
 * makes one with a fresh nonce) and holes. fs/ calls these per FUSE
 * request; fsck and tools use them without FUSE.
 *
 * A struct content_file is not locked: the caller serialises all calls on
 * one file (fs/ holds its inode lock) and keeps one per inode, since it
 * caches the header (a truncate to 0 and rewrite through another handle
 * changes the nonce). A write or truncate that fails (a step's I/O error,
 * or the keys locked between its steps) leaves the file as it was: all
 * its crypto is done and the old bytes it overwrites are saved before its
 * first step, and a failing step is undone from them, with no key
 * (steps.h). Writes longer than a few MiB go in pieces, each old or
 * new. Against crashes they are not atomic: a torn write can leave one
 * unit garbage (as in gocryptfs), never other units or other files.
 *
 * Errors: -errno of the syscalls, -EBADMSG (damaged header or unit, or
 * in an authenticated volume a unit that fails its tag; fs/ reports EIO), -EILSEQ (see content_encrypt_units), crypto errors.
 */
#ifndef CLOAKFS_VOLUME_CONTENT_FILEIO_H
#define CLOAKFS_VOLUME_CONTENT_FILEIO_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "crypto/crypto.h"
#include "volume/content/content.h"
#include "volume/content/header.h"
#include "volume/keys/keyring.h"

/* holds no key: the file's key is the keyring's (keyring.h) */
struct content_file {
	int fd;                          /* not owned */
	struct keyring *kr;             /* not owned, outlives the file */
	struct content_geom geom;
	struct file_header hdr;          /* valid if have_header */
	int have_header;
	int shared;                      /* other machines write the file
					  * too (struct volume.shared); set
					  * after fileio_open */
	int lease;                       /* with shared: a read lease, a
					  * shared lock on the whole
					  * ciphertext kept across reads */
	long long lease_start_ms;        /* when it was taken, */
	long long lease_used_ms;         /* and when a read last ended */
	uint64_t seen_size;              /* with shared: the plaintext size
					  * at the last look, a hint only */
};

/*
 * Start using fd, a file of a volume of this cipher: reads and checks the
 * header of a non-empty file (no key needed). Writes read back partial
 * units, so fd must be O_RDWR (never O_APPEND) even for a plaintext
 * O_WRONLY open; O_RDONLY is enough for reads. Reads and writes take the
 * file's key from kr in short sections between their I/O, and answer
 * -EACCES while kr is locked.
 */
int fileio_open(struct content_file *f, int fd, struct keyring *kr,
		enum volume_cipher cipher, uint32_t sector_size);
/* forget the header; the fd stays open */
void fileio_close(struct content_file *f);

/*
 * Another machine may have changed the file (f->shared): forget its
 * header and drop the backing file's cached pages, so that what comes
 * next reads both from the storage (close-to-open).
 *
 * With f->shared, fileio_write, fileio_append, fileio_truncate,
 * fileio_zero and fileio_allocate run under byte-range locks on the
 * ciphertext file (volume/rangelock.h) and read its header and size
 * afresh inside them: a write inside the size locks its units'
 * ciphertext (and the header shared), anything that changes the size or
 * the header locks the whole file; a new file's header is written once
 * (the second machine finds and uses the first one's), a
 * read-modify-write of a unit never interleaves with another machine's,
 * and an append goes at the end the storage has. Each syncs once before
 * it unlocks. A lock that does not come in time fails the call with
 * -ENOLCK, changing nothing.
 */
void fileio_forget_cached(struct content_file *f);
/*
 * Before a read of plaintext [off, off + len) (then fileio_read_*):
 * *plain, the file's size. With f->shared, the read runs under a read
 * lease: a shared byte-range lock on the whole ciphertext, taken by the
 * first read (the header and size then read afresh from the storage and
 * every cached page of the file dropped) and kept by the reads that
 * follow, which use that header, size and those pages as they are: no
 * other machine changes a byte of the file while the lease is held. So a
 * read never decrypts one version's units under another version's
 * header (another machine's truncate to 0 and rewrite gives the file a
 * new nonce), nor a unit half old and half new. A lease older than
 * FILEIO_LEASE_MAX_MS is given back and taken anew by the next read. 0
 * or -errno (-ENOLCK). One reader at a time per content_file (the lock
 * belongs to its descriptor). fileio_read_end notes the read's end for
 * fileio_lease_idle.
 */
int fileio_read_begin(struct content_file *f, uint64_t off, uint64_t len,
		      uint64_t *plain);
void fileio_read_end(struct content_file *f);

/* a lease unused this long is given back (fileio_lease_idle), and one
 * this old by the next read: another machine's writer waits no longer
 * than that (plus its lock polling) once reads pause */
#define FILEIO_LEASE_IDLE_MS 50
#define FILEIO_LEASE_MAX_MS 250
/*
 * Give the read lease back if it went unused FILEIO_LEASE_IDLE_MS; 1 if
 * it is still held. fileio_lease_end: give it back now (before this
 * mount changes the file, at a handle's release; the changes of this
 * file do it themselves).
 */
int fileio_lease_idle(struct content_file *f);
void fileio_lease_end(struct content_file *f);
/* the part of fileio_forget_cached for a backing file fd not yet read
 * through a content_file: its cached pages and attributes */
void fileio_fresh_view(int fd);

/* plaintext size, from the ciphertext size (and header) */
int fileio_size(struct content_file *f, uint64_t *plain);

/* how a file's header or size is damaged (fileio_read_header) */
enum fileio_damage {
	FILEIO_SHORT,    /* 1 to 31 bytes: shorter than the header */
	FILEIO_HEADER,   /* the header does not decode: herr says why */
	FILEIO_GAP,      /* 33 to 32 + bs - 1 bytes, or a sealed file whose
			  * last unit has 1 to 32 bytes: no file has this size */
	FILEIO_TINY_LEN, /* the header's tiny length does not fit the size */
};
struct fileio_bad {
	enum fileio_damage what;
	enum header_error herr;
};

/*
 * The header of ciphertext file fd (open for reading), of size csize, and
 * the plaintext size they give (docs/format.md section 6): the one
 * reading of both, for content I/O, the mount's attributes and
 * cloakfs-fsck. An empty file has no header (*h zeroed). 0; -EBADMSG or
 * -EINVAL (a header of another format) with *bad saying why (bad may be
 * NULL); -ENODATA when the file is shorter than csize (it shrank); other
 * -errno.
 */
int fileio_read_header(int fd, const struct content_geom *g, uint64_t csize,
		       struct file_header *h, uint64_t *plain,
		       struct fileio_bad *bad);

/*
 * The plaintext size of a ciphertext file of size csize, without a
 * content_file: the file is read only when its size needs the header,
 * through fd (open for reading) or, when fd is -1, pathfd (an O_PATH
 * descriptor). A damaged size gives its error, and *plain the
 * ciphertext size less the header (what a listing shows for it).
 */
int fileio_plain_size(int fd, int pathfd, const struct content_geom *g,
		      uint64_t csize, uint64_t *plain);

/*
 * SEEK_DATA/SEEK_HOLE (lseek(2)) from plaintext offset off in ciphertext
 * file fd (open for reading) of geometry g and plaintext size plain:
 * *out, a plaintext offset on a unit's start (or off, or plain), or
 * -ENXIO past the end (sparse.h says how units are judged).
 */
int fileio_seek(int fd, const struct content_geom *g, uint64_t plain,
		int64_t off, int whence, int64_t *out);

/*
 * Reserve the ciphertext blocks of plaintext [off, off + len) of
 * ciphertext file fd without changing its size (fallocate(2)
 * FALLOC_FL_KEEP_SIZE; unwritten blocks read as holes). A filesystem
 * without fallocate is no error.
 */
int fileio_reserve(int fd, uint64_t off, uint64_t len);

/* like pread/pwrite: bytes done or -errno; a read past the end gives 0 */
ssize_t fileio_read(struct content_file *f, void *buf, size_t len,
		    uint64_t off);
ssize_t fileio_write(struct content_file *f, const void *buf, size_t len,
		     uint64_t off);
/* fileio_write at the end of the file, however far another machine has
 * grown it (f->shared): bytes done, *off where they went; or -errno */
ssize_t fileio_append(struct content_file *f, const void *buf, size_t len,
		      uint64_t *off);
/*
 * fileio_read for a file of plaintext size plain (from fileio_size while
 * nothing changed it since). It only reads f, so several may run at once
 * on one file while no write, truncate or fileio_size changes it.
 */
ssize_t fileio_read_sized(const struct content_file *f, uint64_t plain,
			  void *buf, size_t len, uint64_t off);
/*
 * fileio_read_sized that also says where a sealed unit failed its tag
 * (-EBADMSG): *bad_off, the plaintext offset of that unit's first byte
 * (bad_off may be NULL). The units before and after it read normally
 * in reads of their own.
 */
ssize_t fileio_read_checked(const struct content_file *f, uint64_t plain,
			    void *buf, size_t len, uint64_t off,
			    uint64_t *bad_off);

/* set the plaintext size; growing leaves holes (read as zeros) */
int fileio_truncate(struct content_file *f, uint64_t size);

/*
 * Plaintext [off, off + len) reads zeros afterwards (fallocate(2)
 * FALLOC_FL_PUNCH_HOLE, FALLOC_FL_ZERO_RANGE); keep_size: the part past
 * the end is ignored, else the file grows to off + len. In an XTS file
 * the partial units at the edges are re-encrypted and the whole units
 * become holes (their ciphertext punched to zeros by the store, so
 * -EOPNOTSUPP where it cannot punch), in one run of steps: old or new.
 * A sealed file has no holes: zeros are sealed in, in pieces of 64 KiB,
 * each old or new (a failure leaves the pieces before it done, as a
 * long write does). A part wholly past the end is a grow (truncate).
 */
int fileio_zero(struct content_file *f, uint64_t off, uint64_t len,
		int keep_size);
/*
 * Preallocation (fallocate(2) mode 0 or FALLOC_FL_KEEP_SIZE): the blocks
 * of plaintext [off, off + len) reserved (fileio_reserve), then without
 * keep_size the file grown to off + len when it is shorter (never cut).
 * With f->shared, fileio_zero and this run under the lock fileio_write
 * takes, on the size as the storage has it.
 */
int fileio_allocate(struct content_file *f, uint64_t off, uint64_t len,
		    int keep_size);

#endif
