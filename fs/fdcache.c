/* SPDX-License-Identifier: MIT */
/* see fdcache.h */
#include "fs/fdcache.h"

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

void fdcache_init(struct fdcache *c)
{
	c->lru.next = c->lru.prev = &c->lru;
	c->nfds = 0;
}

void fdcache_slot_init(struct fdcache_slot *s, int keep)
{
	s->fd = -1;
	s->users = 0;
	s->keep = keep;
	s->prev = s->next = NULL;
}

static int in_lru(const struct fdcache_slot *s)
{
	return s->next != NULL;
}

static void lru_remove(struct fdcache_slot *s)
{
	if (in_lru(s)) {
		s->prev->next = s->next;
		s->next->prev = s->prev;
		s->next = s->prev = NULL;
	}
}

static void lru_push(struct fdcache *c, struct fdcache_slot *s)
{
	s->next = c->lru.next;
	s->prev = &c->lru;
	c->lru.next->prev = s;
	c->lru.next = s;
}

/* a descriptor no holder uses any more: evictable unless kept */
static void idle(struct fdcache *c, struct fdcache_slot *s)
{
	if (s->fd >= 0 && s->users == 0 && !s->keep && !in_lru(s))
		lru_push(c, s);
}

int fdcache_hold(struct fdcache_slot *s)
{
	if (s->fd < 0)
		return -1;
	s->users++;
	lru_remove(s);
	return s->fd;
}

void fdcache_release(struct fdcache *c, struct fdcache_slot *s)
{
	if (s->users == 0) {
		fprintf(stderr, "cloakfs: descriptor released more often than "
			"held (slot %p)\n", (void *)s);
		abort();
	}
	if (--s->users == 0)
		idle(c, s);
}

int fdcache_install(struct fdcache *c, struct fdcache_slot *s, int fd,
		    int hold, unsigned int max, int out[FDCACHE_EVICT_BATCH])
{
	int n = 0;

	s->fd = fd;
	c->nfds++;
	if (hold)
		s->users++;
	else
		idle(c, s);
	while (c->nfds > max && n < FDCACHE_EVICT_BATCH &&
	       c->lru.prev != &c->lru) {
		struct fdcache_slot *victim = c->lru.prev;

		lru_remove(victim);
		out[n++] = victim->fd;
		victim->fd = -1;
		c->nfds--;
	}
	return n;
}

void fdcache_touch(struct fdcache *c, struct fdcache_slot *s)
{
	if (in_lru(s)) {
		lru_remove(s);
		lru_push(c, s);
	}
}

int fdcache_drop(struct fdcache *c, struct fdcache_slot *s)
{
	int fd = s->fd;

	lru_remove(s);
	if (fd >= 0)
		c->nfds--;
	s->fd = -1;
	return fd;
}

void fdcache_close(const int *fds, int n)
{
	for (int i = 0; i < n; i++)
		close(fds[i]);
}
