/* SPDX-License-Identifier: MIT */
/*
 * Read-write locks that favour writers: glibc's default lets a steady
 * stream of readers (read-ahead READs, keyring users) starve a writer.
 */
#ifndef CLOAKFS_VOLUME_RWLOCK_H
#define CLOAKFS_VOLUME_RWLOCK_H

#include <pthread.h>

/* 0 or a positive errno, as pthread_rwlock_init */
int rwlock_init_writer_first(pthread_rwlock_t *lock);

#endif
