// SPDX-License-Identifier: MIT
/*
 * Fused AES-GCM with VAES and VPCLMULQDQ on zmm registers, four blocks a
 * vector (the body: aes-gcm-x86-core.h; contract: aes-gcm-x86.h). The
 * tail's partial vectors are AVX-512BW masked loads and stores.
 *
 * Built with -mvaes -mvpclmulqdq -mavx512f -mavx512vl -mavx512bw -mavx2
 * -maes -mpclmul (crypto/arch/x86/meson.build).
 */
#include <immintrin.h>
#include <stddef.h>
#include <stdint.h>

#include "crypto/arch/x86/polyval-x86-zmm.h"
#include "crypto/arch/x86/x86-zmm-clear.h"

#define GCM_ISA vaes_avx512
#define GCM_TAIL_CASES(X) X(1) X(2) X(3) X(4)
#define V_INLINE static inline __attribute__((always_inline))

/* n (any) low bits set, at most 64: the bytes a masked access takes */
V_INLINE __mmask64 bytes_mask(size_t n)
{
	return n >= 64 ? ~(__mmask64)0 : ((__mmask64)1 << n) - 1;
}

#define v_storeu(p, v) _mm512_storeu_si512((void *)(p), v)
#define v_aesenc _mm512_aesenc_epi128
#define v_aesenclast _mm512_aesenclast_epi128
#define v_add32 _mm512_add_epi32
#define v_lane_dw0(n) _mm512_maskz_set1_epi32(0x1111, n)
#define v_lane_index() _mm512_set_epi32(0, 0, 0, 3, 0, 0, 0, 2, 0, 0, 0, 1, 0, 0, 0, 0)
#define v_load_part(p, n) _mm512_maskz_loadu_epi8(bytes_mask(n), p)
#define v_store_part(p, v, n) _mm512_mask_storeu_epi8(p, bytes_mask(n), v)
#define v_keep_bytes(v, n) _mm512_maskz_mov_epi8(bytes_mask(n), v)
/* two qwords a block */
#define v_load_powers(p, m) _mm512_maskz_loadu_epi64((__mmask8)bytes_mask(2 * (m)), p)
#define v_clear_all x86_zmm_clear_all

#include "crypto/arch/x86/aes-gcm-x86-core.h"
