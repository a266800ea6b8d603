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
 * changes the nonce). Writes are not atomic against
 * crashes: a torn write can leave one unit garbage (as in gocryptfs), never
 * other units or other files.
 *
 * Errors: -errno of the syscalls, -EBADMSG (damaged header or unit;
 * fs/ reports EIO), -EILSEQ (see content_encrypt_units), crypto errors.
 */
#ifndef CLOAKFS_VOLUME_FILEIO_H
#define CLOAKFS_VOLUME_FILEIO_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "crypto/crypto.h"
#include "volume/content.h"
#include "volume/header.h"
#include "volume/keyring.h"

/* holds no key: the file's key is the keyring's (keyring.h) */
struct content_file {
	int fd;                          /* not owned */
	struct vkeyring *kr;             /* not owned, outlives the file */
	struct content_geom geom;
	struct file_header hdr;          /* valid if have_header */
	int have_header;
};

/*
 * Start using fd, a file of a volume of this cipher: reads and checks the
 * header of a non-empty file (no key needed). Writes read back partial
 * units, so fd must be O_RDWR (never O_APPEND) even for a plaintext
 * O_WRONLY open; O_RDONLY is enough for reads. Reads and writes take the
 * file's key from kr in short sections between their I/O, and answer
 * -EACCES while kr is locked.
 */
int fileio_open(struct content_file *f, int fd, struct vkeyring *kr,
		enum volume_cipher cipher, uint32_t sector_size);
/* forget the header; the fd stays open */
void fileio_close(struct content_file *f);

/* plaintext size, from the ciphertext size (and header) */
int fileio_size(struct content_file *f, uint64_t *plain);

/* like pread/pwrite: bytes done or -errno; a read past the end gives 0 */
ssize_t fileio_read(struct content_file *f, void *buf, size_t len,
		    uint64_t off);
ssize_t fileio_write(struct content_file *f, const void *buf, size_t len,
		     uint64_t off);
/*
 * fileio_read for a file of plaintext size plain (from fileio_size while
 * nothing changed it since). It only reads f, so several may run at once
 * on one file while no write, truncate or fileio_size changes it.
 */
ssize_t fileio_read_sized(const struct content_file *f, uint64_t plain,
			  void *buf, size_t len, uint64_t off);

/* set the plaintext size; growing leaves holes (read as zeros) */
int fileio_truncate(struct content_file *f, uint64_t size);

#endif
