// SPDX-License-Identifier: MIT
/*
 * POLYVAL with VPCLMULQDQ on ymm registers (2 blocks each), 16 blocks a
 * step: the polyval-vpclmul-avx2 and ghash-vpclmul-avx2 drivers. The body
 * is polyval-x86-core.h, the ymm operations polyval-x86-ymm.h; compiled
 * with -mpclmul -mavx2 -mvpclmulqdq.
 */
#include "crypto/arch/x86/polyval-x86-ymm.h"

#define POLYVAL_ISA vpclmul_avx2

#include "crypto/arch/x86/polyval-x86-core.h"
