/* SPDX-License-Identifier: GPL-2.0 */
/* "stacklat stacks show": kernel stacks sorted and printed (stacks.c). */
#ifndef STACKLAT_TOOL_STACKS_H
#define STACKLAT_TOOL_STACKS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "nl.h"

/* Sort @s by count, most first (ties: pipeline, then id). */
void stacks_sort(struct stack_set *s);
/*
 * The first @n stacks of @s (0: all): as text, "stack ID PIPELINE
 * count=N sum=S" and the frames indented; or one JSON line.
 */
void stacks_print(FILE *f, const struct stack_set *s, size_t n, bool json,
		  uint64_t time_ns);

#endif
