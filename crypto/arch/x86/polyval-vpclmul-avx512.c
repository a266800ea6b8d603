// SPDX-License-Identifier: MIT
/*
 * POLYVAL with VPCLMULQDQ on zmm registers (4 blocks each), 16 blocks a
 * step: the polyval-vpclmul-avx512 and ghash-vpclmul-avx512 drivers. The
 * body is polyval-x86-core.h, the zmm operations polyval-x86-zmm.h;
 * compiled with -mpclmul -mavx512f -mavx512bw -mvpclmulqdq.
 */
#include "crypto/arch/x86/polyval-x86-zmm.h"

#define POLYVAL_ISA vpclmul_avx512

#include "crypto/arch/x86/polyval-x86-core.h"
