/* SPDX-License-Identifier: MIT */
/*
 * Memory for secrets (master keys, PRKs, KEKs, passphrases, and every
 * crypto transform context, which holds a key schedule): its own
 * anonymous mapping, mlock'ed so it never reaches swap, MADV_DONTDUMP so
 * it never reaches a core file, and wiped before it is unmapped. (No
 * MADV_WIPEONFORK: a forked child that frees what it inherited must find
 * the record intact.)
 *
 * mlock can fail under a small RLIMIT_MEMLOCK; the allocation then still
 * succeeds (the other protections hold) and secmem_unlocked_count() says
 * how often that happened, so a tool can warn once.
 *
 * Memory locks are not inherited by fork(): a forked child locks every
 * live allocation again (the background mount forks after its keys are
 * made).
 */
#ifndef CLOAKFS_CRYPTO_SECMEM_H
#define CLOAKFS_CRYPTO_SECMEM_H

#include <stddef.h>

/* zero-filled; NULL with errno set (ENOMEM) on failure; len 0 is 1 */
void *secmem_alloc(size_t len);
/* wipe, unlock, unmap; NULL is a no-op */
void secmem_free(void *p);
/* usable size of an allocation */
size_t secmem_size(const void *p);
/* allocations whose mlock failed so far */
unsigned long secmem_unlocked_count(void);

/*
 * Wipe the first len bytes of a malloc'ed buffer that held plaintext (a
 * read or write buffer), then free it: freed heap memory is handed out
 * again and stays readable until overwritten. NULL is a no-op.
 */
void wipe_free(void *p, size_t len);

/*
 * Zero the SIMD registers and the SECMEM_SCRUB_BYTES of stack below the
 * caller's frame. SIMD cores leave round keys in vector registers and
 * spill them to the stack where the compiler chooses, and nothing wipes a
 * dead frame or a register (a later XSAVE to the stack would copy it, as
 * the dynamic linker's lazy-binding trampoline does): call this after a batch of
 * keyed work (a file request, a name, an unlock) so that no key schedule
 * stays in a thread's stack, which is neither locked nor excluded from
 * core dumps, after the key is gone.
 */
#define SECMEM_SCRUB_BYTES (16 * 1024)
void secmem_scrub_stack(void);

#endif
