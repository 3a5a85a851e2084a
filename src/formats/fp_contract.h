/* Forbid contracting a*b + c into one fused multiply-add in the files that
 * compute GELU forms.
 *
 * A contraction rounds once where the source rounds twice, so results would
 * depend on the build's -march.  GCC 12 on x86-64 contracts only for targets
 * with FMA (plain -O2 builds do not), but with -march=haswell and the GNU
 * dialects' default -ffp-contract=fast it does, across statements too.  GCC
 * ignores "#pragma STDC FP_CONTRACT OFF" (and warns under -Wall), so GCC gets
 * its own pragma; both were checked on gcc 12.2 with -march=haswell.
 * Include this before the first function definition of the file.  Fused
 * operations that a modelled library really performs are written as fmaf(). */
#ifndef GA_FP_CONTRACT_H
#define GA_FP_CONTRACT_H

#if defined(__clang__)
#pragma STDC FP_CONTRACT OFF
#elif defined(__GNUC__)
#pragma GCC optimize("fp-contract=off")
#endif

#endif
