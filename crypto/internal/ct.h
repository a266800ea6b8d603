/* SPDX-License-Identifier: MIT */
/*
 * Constant-time helpers. Rules for all code in crypto/ that touches
 * secrets (keys, plaintext, tags):
 *  - no branch and no table index may depend on a secret;
 *  - masks are all-zeros or all-ones of their unsigned type; "ctl" values
 *    are 0 or 1 exactly, never any other non-zero value;
 *  - comparisons of secrets (tags) go through ct_memeq, never memcmp;
 *  - stack copies of keys and states are wiped with explicit_bzero.
 * Unsigned types only: signed shifts and overflow are not defined the way
 * the masks need.
 */
#ifndef CLOAKFS_CRYPTO_INTERNAL_CT_H
#define CLOAKFS_CRYPTO_INTERNAL_CT_H

#include <stddef.h>
#include <stdint.h>

#ifdef CLOAKFS_HAVE_VALGRIND
#include <valgrind/memcheck.h>
#endif

/* 0xffffffff if ctl == 1, 0 if ctl == 0 */
static inline uint32_t ct_mask32(uint32_t ctl)
{
	return (uint32_t)0 - ctl;
}

static inline uint64_t ct_mask64(uint64_t ctl)
{
	return (uint64_t)0 - ctl;
}

/* 1 if x != 0 else 0 */
static inline uint32_t ct_nonzero32(uint32_t x)
{
	return (x | ((uint32_t)0 - x)) >> 31;
}

/* 1 if the n bytes are equal, else 0; time depends on n only */
static inline uint32_t ct_memeq(const void *a, const void *b, size_t n)
{
	const volatile uint8_t *pa = a, *pb = b;
	uint32_t d = 0;

	for (size_t i = 0; i < n; i++)
		d |= (uint32_t)(pa[i] ^ pb[i]);
	return 1u ^ ct_nonzero32(d);
}

/* 1 if all n bytes are zero, else 0 */
static inline uint32_t ct_is_zero(const void *a, size_t n)
{
	const volatile uint8_t *p = a;
	uint32_t d = 0;

	for (size_t i = 0; i < n; i++)
		d |= p[i];
	return 1u ^ ct_nonzero32(d);
}

/*
 * A secret-derived value that is public from here on (the verdict of a tag
 * check: rejecting a forgery reveals it anyway), so code may branch on the
 * result. Under valgrind this marks it defined: the constant-time check
 * (tests/ct/ct_check.c, secrets marked undefined) then reports only what
 * comes before this point. Elsewhere it is the value itself (plus a few
 * no-op instructions when built with the valgrind header).
 */
static inline uint32_t ct_declassify32(uint32_t x)
{
#ifdef CLOAKFS_HAVE_VALGRIND
	VALGRIND_MAKE_MEM_DEFINED(&x, sizeof(x));
#endif
	return x;
}

#endif
