/* SPDX-License-Identifier: MIT */
/*
 * The kernel's read-ahead window of a FUSE mount: each mount has a
 * backing device info (bdi) of its own, /sys/class/bdi/MAJ:MIN, whose
 * read_ahead_kb starts at 128 KiB. With 128 KiB the kernel keeps one
 * 128 KiB READ in flight on a sequential read, so the daemon's decryption
 * and the kernel's copy to the reader take turns; a larger window sends
 * several larger READs at once, which the thread pool serves in parallel.
 */
#ifndef CLOAKFS_FS_READAHEAD_H
#define CLOAKFS_FS_READAHEAD_H

/* default window: see docs/performance.md ("Levers") for the measurement */
#define CLOAKFS_READAHEAD_KB_DEFAULT 4096

/*
 * Set read_ahead_kb of the FUSE mount at mountpoint (absolute, as given
 * to the mount) to kb. 0, or -errno: no such mount in /proc/self/mountinfo
 * (-ENOENT), or sysfs refused (-EACCES when not root, for instance).
 * Call it after the FUSE INIT exchange (from the first open, say): the
 * kernel lowers the window to what the INIT reply allows, never above
 * the 128 KiB it offers, and INIT comes after the mount. Needs only libc
 * and base/mountinfo.c: bench/passthrough-ll.c uses it too, so the
 * ceiling has the same window.
 */
int readahead_set(const char *mountpoint, unsigned int kb);

#endif
