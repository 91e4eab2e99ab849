// SPDX-License-Identifier: GPL-2.0
/*
 * Storage pipelines: "storage" (syscall, VFS and filesystem layers per
 * operation, inclusive and self time, keyed by task) and "block" (queue,
 * insert, issue, complete per request and per disk).
 */
#include "sl.h"

struct sl_pipeline sl_pipe_storage = {
	.name = "storage",
	.desc = "read/write/open/fsync per layer: syscall, VFS, filesystem (inclusive and self)",
	.key = STACKLAT_KEY_TASK,
};

struct sl_pipeline sl_pipe_block = {
	.name = "block",
	.desc = "block requests: Q2I, I2D, D2C, Q2C per disk",
	.key = STACKLAT_KEY_REQUEST,
};
