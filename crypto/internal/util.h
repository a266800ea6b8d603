/* SPDX-License-Identifier: MIT */
/* Byte order and rotation helpers shared by the C ciphers. */
#ifndef CLOAKFS_CRYPTO_INTERNAL_UTIL_H
#define CLOAKFS_CRYPTO_INTERNAL_UTIL_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

/*
 * memcpy + byte swap compiles to one load or store (plus bswap where the
 * order differs); GCC does not fuse byte-wise shifts in every loop.
 */
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
#define CPU_TO_LE32(x) __builtin_bswap32(x)
#define CPU_TO_LE64(x) __builtin_bswap64(x)
#define CPU_TO_BE32(x) (x)
#define CPU_TO_BE64(x) (x)
#else
#define CPU_TO_LE32(x) (x)
#define CPU_TO_LE64(x) (x)
#define CPU_TO_BE32(x) __builtin_bswap32(x)
#define CPU_TO_BE64(x) __builtin_bswap64(x)
#endif

static inline uint32_t load_le32(const uint8_t *p)
{
	uint32_t v;

	memcpy(&v, p, sizeof(v));
	return CPU_TO_LE32(v);
}

static inline uint64_t load_le64(const uint8_t *p)
{
	uint64_t v;

	memcpy(&v, p, sizeof(v));
	return CPU_TO_LE64(v);
}

static inline void store_le32(uint8_t *p, uint32_t v)
{
	v = CPU_TO_LE32(v);
	memcpy(p, &v, sizeof(v));
}

static inline void store_le64(uint8_t *p, uint64_t v)
{
	v = CPU_TO_LE64(v);
	memcpy(p, &v, sizeof(v));
}

static inline uint32_t load_be32(const uint8_t *p)
{
	uint32_t v;

	memcpy(&v, p, sizeof(v));
	return CPU_TO_BE32(v);
}

static inline uint64_t load_be64(const uint8_t *p)
{
	uint64_t v;

	memcpy(&v, p, sizeof(v));
	return CPU_TO_BE64(v);
}

static inline void store_be32(uint8_t *p, uint32_t v)
{
	v = CPU_TO_BE32(v);
	memcpy(p, &v, sizeof(v));
}

static inline void store_be64(uint8_t *p, uint64_t v)
{
	v = CPU_TO_BE64(v);
	memcpy(p, &v, sizeof(v));
}

static inline uint32_t rol32(uint32_t x, unsigned int n)
{
	return (x << (n & 31)) | (x >> ((32 - n) & 31));
}

static inline uint32_t ror32(uint32_t x, unsigned int n)
{
	return (x >> (n & 31)) | (x << ((32 - n) & 31));
}

static inline uint64_t rol64(uint64_t x, unsigned int n)
{
	return (x << (n & 63)) | (x >> ((64 - n) & 63));
}

static inline uint64_t ror64(uint64_t x, unsigned int n)
{
	return (x >> (n & 63)) | (x << ((64 - n) & 63));
}

/*
 * explicit_bzero for a small buffer of constant size (a state, a block,
 * a tag) on the hot path of short messages: memset, then an empty asm
 * that may read the zeros, so the stores are not dropped and compile to
 * a few vector moves (explicit_bzero is two library calls). Larger or
 * variable sizes: explicit_bzero (an inlined memset of those may become
 * REP STOS, which costs ~35 cycles to start).
 */
static inline void wipe(void *p, size_t n)
{
	memset(p, 0, n);
	__asm__ __volatile__("" : : "r"(p) : "memory");
}

/*
 * wipe for a buffer of its owner's at least n rounded up to 64 bytes
 * long (a stack buffer a message went through): 64-byte constant wipes,
 * so a short message costs a few stores, no library call.
 */
static inline void wipe_blocks(void *p, size_t n)
{
	for (size_t i = 0; i < n; i += 64)
		wipe((uint8_t *)p + i, 64);
}

static inline void xor_bytes(uint8_t *dst, const uint8_t *a, const uint8_t *b,
			     size_t n)
{
	for (size_t i = 0; i < n; i++)
		dst[i] = a[i] ^ b[i];
}

#endif
