/* SPDX-License-Identifier: MIT */
/*
 * Descriptor helpers for the volume's small files: whole-buffer writes,
 * and opening a file of the format for reading without trusting what the
 * ciphertext directory holds. A ciphertext directory is input from
 * outside (a synced folder, a USB stick others can write): a FIFO, socket,
 * device or symlink where a format file belongs is damage, reported, never
 * a hang (docs/security.md).
 */
#ifndef CLOAKFS_VOLUME_FDIO_H
#define CLOAKFS_VOLUME_FDIO_H

#include <dirent.h>
#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/*
 * The error for "something other than a regular file is there": damage of
 * the on-disk structure, as file systems report it for their own metadata.
 */
#define VOLUME_ENOTREG EUCLEAN

/* write all len bytes, retrying short writes and EINTR; 0 or -errno */
int fdio_write_all(int fd, const void *buf, size_t len);

/* read until max bytes or end of file, retrying EINTR; count or -errno */
ssize_t fdio_read_upto(int fd, void *buf, size_t max);

/*
 * pread/pwrite of all len bytes at off, retrying short transfers and
 * EINTR: 0 or -errno; a read that meets the end of the file first is
 * -ENODATA, a write that makes no progress -EIO.
 */
int fdio_pread_all(int fd, void *buf, size_t len, uint64_t off);
int fdio_pwrite_all(int fd, const void *buf, size_t len, uint64_t off);

/*
 * Open name in dirfd (AT_FDCWD for a path) read-only, if it is a regular
 * file. It is looked at through an O_PATH descriptor first, so a FIFO,
 * socket or device is never opened (no blocking open, no driver side
 * effect), and a symlink is never followed; the open itself is
 * O_NONBLOCK and checked again, for whatever was swapped in between.
 * Returns the descriptor (blocking, close-on-exec), or -errno:
 * -VOLUME_ENOTREG when something else is there, its S_IFMT in *type
 * (type may be NULL).
 */
int fdio_open_regular(int dirfd, const char *name, mode_t *type);

/*
 * Read at most max bytes of the regular file name in dirfd (AT_FDCWD: a
 * path), opened with fdio_open_regular. Returns the count (max means
 * there may be more), or -errno (-VOLUME_ENOTREG: *type as above).
 */
ssize_t fdio_read_file(int dirfd, const char *name, void *buf, size_t max,
			 mode_t *type);

/* "a FIFO", "a socket", "a symlink", "a directory", ... for messages */
const char *volume_type_name(mode_t type);

/*
 * The path a descriptor refers to (readlink of /proc/self/fd/N), for
 * messages that name a directory: 0, or -errno (buf then empty).
 */
int fdio_path(int fd, char *buf, size_t len);

/*
 * A listing of directory dfd (which may be an O_PATH descriptor) through
 * a descriptor of its own, so dfd's position is not shared; 0 or -errno.
 */
int fdio_opendir(int dfd, DIR **dp);

#endif
