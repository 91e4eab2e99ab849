/* SPDX-License-Identifier: GPL-2.0 */
/* Strict parsing of the command line (no libnl, no kernel access). */
#ifndef STACKLAT_TOOL_PARSE_H
#define STACKLAT_TOOL_PARSE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model.h"

#define SHOW_MAX_PIPES	32

/* Unsigned decimal in [@min, @max]: digits only, no sign, no spaces. */
int parse_u64_range(const char *s, uint64_t min, uint64_t max, uint64_t *out);

/* Seconds, maybe fractional ("2", "0.5", ".25"), 1 ms .. 1 day, as ns. */
int parse_interval(const char *s, uint64_t *ns);

/* True if @s looks like a number: INTERVAL/COUNT, not a pipeline name. */
bool is_number_word(const char *s);

/*
 * The words after "filter PIPELINE": either "clear" alone, or one or more
 * KEY=VALUE.  Keys: tgid tid lport rport proto ifindex iface dev op fs.
 * Returns 0, or -1 with a message in @err (nothing else is touched then).
 */
int parse_filter(int argc, char **argv, struct filter_spec *f, char *err,
		 size_t errlen);

/*
 * The cgroup v2 hierarchy mounted at @root, walked: its directories' inode
 * numbers (cgroup ids) and paths under the mount ("/", "/a/b").
 */
struct cg_name {
	uint64_t id;
	char *path;
};

struct cg_names {
	char root[256];			/* the cgroup2 mount; set by the caller */
	struct cg_name *e;		/* by id */
	size_t n, cap;
	bool loaded;			/* walked at least once */
	bool rewalked;			/* walked again in this sample */
};

/* (Re)walk @n->root; 0, or -1 (out of memory, @n->root gone). */
int cg_names_load(struct cg_names *n);
void cg_names_free(struct cg_names *n);
/* The path of cgroup @id, or NULL when the walk does not have it. */
const char *cg_names_find(const struct cg_names *n, uint64_t id);

/*
 * The path of cgroup v2 id @id under the cgroup2 mount ("/" its root,
 * "/a/b"), from a walk of the mount cached until an id misses; "-" for 0;
 * the id in @buf when no directory has it (removed, or another mount
 * namespace's).
 */
const char *cgroup_path_of(uint64_t id, char *buf, size_t len);

/* " tgid=42 proto=tcp" as the kernel prints it, or " none". */
void filter_format(const struct filter_spec *f, char *buf, size_t len);

struct show_args {
	bool json;
	const char *pipes[SHOW_MAX_PIPES];
	int npipes;
	uint64_t interval_ns;	/* 0: one sample, cumulative */
	uint64_t count;		/* 0: forever (with an interval) */
};

/* show [-j|--json] [PIPELINE...] [INTERVAL [COUNT]] (argv[0] is "show") */
int parse_show_args(int argc, char **argv, struct show_args *a, char *err,
		    size_t errlen);

struct hist_args {
	bool fine;
	bool json;
	const char *pipe;
	const char *stage;	/* NULL: all stages */
};

/* hist [--fine] [-j|--json] PIPELINE [STAGE] (argv[0] is "hist") */
int parse_hist_args(int argc, char **argv, struct hist_args *a, char *err,
		    size_t errlen);

/*
 * A duration: digits and a unit, ns us ms or s ("250us", "10ms"), or "0";
 * at most 3600 s.  Returns 0, or -1 (nothing written).
 */
int parse_duration(const char *s, uint64_t *ns);

/* A pipeline, stage or hook name: 1..31 chars of [A-Za-z0-9_.:-]. */
bool valid_name(const char *s);

/* Where the cgroup v2 hierarchy is mounted (/proc/self/mounts), or NULL. */
const char *cgroup2_mount(char *buf, size_t len);

#endif
