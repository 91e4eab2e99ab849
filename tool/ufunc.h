/* SPDX-License-Identifier: GPL-2.0 */
/* User-space functions for "func add|del" (issue 27): ufunc.c. */
#ifndef STACKLAT_UFUNC_H
#define STACKLAT_UFUNC_H

#include <stddef.h>

/*
 * Resolve SPEC (PATH:SYMBOL, LIB:SYMBOL) to what the module takes,
 * "/PATH:0xOFFSET:SYMBOL", in @out (@len bytes).  Returns 0 then; 1 when
 * SPEC is a kernel function (SYMBOL, MODULE:SYMBOL); -1 with a message in
 * @err when it names a user function that cannot be resolved.
 */
int ufunc_resolve(const char *spec, char *out, size_t len, char *err,
		  size_t errlen);

#endif
