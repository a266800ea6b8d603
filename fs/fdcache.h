/* SPDX-License-Identifier: MIT */
/*
 * The cache of open O_PATH descriptors (docs/design.md, "Descriptors"):
 * a slot per inode holds its descriptor or none (evicted); slots whose
 * descriptor no request holds sit on an LRU list, and the oldest of them
 * are closed when more than a given number are open. Held and kept
 * slots are never evicted.
 *
 * Not locked: the caller guards the cache and all its slots with one
 * lock (the inode table's), and closes the evicted descriptors after
 * dropping it.
 */
#ifndef CLOAKFS_FS_FDCACHE_H
#define CLOAKFS_FS_FDCACHE_H

/* descriptors evicted per insertion, at most */
#define FDCACHE_EVICT_BATCH 8

struct fdcache_slot {
	int fd;                    /* or -1: none (evicted) */
	unsigned int users;        /* holds in progress: not evictable */
	int keep;                  /* never evicted */
	struct fdcache_slot *prev, *next; /* on the LRU list: idle */
};

struct fdcache {
	struct fdcache_slot lru;   /* list head: lru.next is the newest */
	unsigned int nfds;         /* open now (held ones included) */
};

void fdcache_init(struct fdcache *c);
/* an empty slot (keep: never evict its descriptor) */
void fdcache_slot_init(struct fdcache_slot *s, int keep);

/* s's descriptor, held (off the LRU list); -1 if it has none */
int fdcache_hold(struct fdcache_slot *s);
/* end a hold; the last one makes s evictable (abort()s if none) */
void fdcache_release(struct fdcache *c, struct fdcache_slot *s);

/*
 * Give the empty slot s descriptor fd, held once when hold is set, and
 * evict the oldest idle descriptors beyond max open: they go into out[]
 * for the caller to close. Returns how many.
 */
int fdcache_install(struct fdcache *c, struct fdcache_slot *s, int fd,
		    int hold, unsigned int max, int out[FDCACHE_EVICT_BATCH]);
/* s was used just now: the newest idle one */
void fdcache_touch(struct fdcache *c, struct fdcache_slot *s);
/* take s's descriptor out of the cache, held or not: the fd to close,
 * or -1 */
int fdcache_drop(struct fdcache *c, struct fdcache_slot *s);

/* close the n descriptors of fds (evicted, outside the lock) */
void fdcache_close(const int *fds, int n);

#endif
