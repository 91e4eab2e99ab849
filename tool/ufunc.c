// SPDX-License-Identifier: GPL-2.0
/*
 * User-space functions for "func add|del" (issue 27): PATH:SYMBOL or
 * LIB:SYMBOL to "/PATH:0xOFFSET:SYMBOL", the file offset of the symbol's
 * first instruction, which the module puts a uprobe and a uretprobe on.
 *
 * LIB is found the way bcc finds it: in the dynamic loader's cache
 * (ldconfig -p), as libLIB.so... or LIB.so... (c: libc.so.6, pthread:
 * libpthread.so.0), the first entry of this program's ELF class.  A
 * MODULE:SYMBOL of the kernel has the same form: a loaded kernel module
 * of that name (/sys/module/LIB) wins, and a path (with a '/') is always
 * a file.  The symbol is looked up with libelf in .symtab, else .dynsym
 * (a stripped file keeps its exported functions there): a function
 * (STT_FUNC: an STT_GNU_IFUNC's address is its resolver's) defined in
 * the file; its virtual address becomes a file offset through the
 * PT_LOAD program header that holds it.
 */
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "stacklat.h"
#include "stacklat_filter.h"
#include "ufunc.h"

/* the path of library @lib from ldconfig -p in @out, or false */
static bool ufunc_lib(const char *lib, char *out, size_t len)
{
	char line[PATH_MAX + 256], want1[128], want2[128];
	bool found = false;
	FILE *f;

	snprintf(want1, sizeof(want1), "lib%s.so", lib);
	snprintf(want2, sizeof(want2), "%s.so", lib);
	f = popen("/sbin/ldconfig -p 2>/dev/null", "r");
	if (!f)
		return false;
	while (!found && fgets(line, sizeof(line), f)) {
		char *name = line + strspn(line, " \t"), *arrow, *nl;
		size_t n = strcspn(name, " ");
		const char *w = NULL;

		if (!strncmp(name, want1, strlen(want1)))
			w = want1;
		else if (!strncmp(name, want2, strlen(want2)))
			w = want2;
		/* libc.so.6 or libc.so, not libcap.so */
		if (!w || (n > strlen(w) && name[strlen(w)] != '.'))
			continue;
		/* this program's class: x86-64 entries for a 64-bit tool */
		if (sizeof(void *) == 8 && !strstr(line, "64"))
			continue;
		arrow = strstr(line, "=> ");
		if (!arrow)
			continue;
		arrow += 3;
		nl = strchr(arrow, '\n');
		if (nl)
			*nl = '\0';
		snprintf(out, len, "%s", arrow);
		found = true;
	}
	pclose(f);
	return found;
}

/*
 * @sym in the symbol table section @scn: its address in *@addr, 1 found,
 * 0 not, -1 when it has functions of that name at different addresses
 * (the addresses in @err).
 */
static int ufunc_find_in(Elf *e, Elf_Scn *scn, const char *sym,
			 GElf_Addr *addr, char *err, size_t errlen)
{
	GElf_Shdr sh;
	Elf_Data *d;
	size_t i, n;
	int found = 0;

	if (!gelf_getshdr(scn, &sh) || !sh.sh_entsize)
		return 0;
	d = elf_getdata(scn, NULL);
	if (!d)
		return 0;
	n = sh.sh_size / sh.sh_entsize;
	for (i = 0; i < n; i++) {
		GElf_Sym s;
		const char *name;

		if (!gelf_getsym(d, (int)i, &s) ||
		    GELF_ST_TYPE(s.st_info) != STT_FUNC ||
		    s.st_shndx == SHN_UNDEF || !s.st_value)
			continue;
		name = elf_strptr(e, sh.sh_link, s.st_name);
		if (!name || strcmp(name, sym))
			continue;
		if (found && *addr != s.st_value) {
			snprintf(err, errlen,
				 "%s is at more than one address (0x%llx, 0x%llx): not traced",
				 sym, (unsigned long long)*addr,
				 (unsigned long long)s.st_value);
			return -1;
		}
		*addr = s.st_value;
		found = 1;
	}
	return found;
}

/* @sym of ELF file @path as a file offset in *@off; -1 and @err if not */
static int ufunc_offset(const char *path, const char *sym,
			unsigned long long *off, char *err, size_t errlen)
{
	int fd, ret = -1, r = 0, tables = 0;
	Elf_Scn *scn = NULL;
	GElf_Addr addr = 0;
	size_t i, nph;
	Elf *e;

	if (elf_version(EV_CURRENT) == EV_NONE) {
		snprintf(err, errlen, "libelf: %s", elf_errmsg(-1));
		return -1;
	}
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	e = elf_begin(fd, ELF_C_READ, NULL);
	if (!e || elf_kind(e) != ELF_K_ELF) {
		snprintf(err, errlen, "%s: not an ELF file", path);
		goto out;
	}
	/* .symtab first (static functions too), else .dynsym */
	for (i = 0; i < 2 && r == 0; i++) {
		unsigned int type = i ? SHT_DYNSYM : SHT_SYMTAB;

		scn = NULL;
		while (r == 0 && (scn = elf_nextscn(e, scn))) {
			GElf_Shdr sh;

			if (!gelf_getshdr(scn, &sh) || sh.sh_type != type)
				continue;
			tables++;
			r = ufunc_find_in(e, scn, sym, &addr, err, errlen);
		}
	}
	if (r < 0)
		goto out;
	if (!r) {
		if (!tables)
			snprintf(err, errlen, "%s: no symbol table (.symtab or .dynsym)",
				 path);
		else
			snprintf(err, errlen, "%s: no function '%s' in .symtab or .dynsym",
				 path, sym);
		goto out;
	}
	if (elf_getphdrnum(e, &nph)) {
		snprintf(err, errlen, "%s: no program headers", path);
		goto out;
	}
	for (i = 0; i < nph; i++) {
		GElf_Phdr ph;

		if (!gelf_getphdr(e, (int)i, &ph) || ph.p_type != PT_LOAD)
			continue;
		if (addr >= ph.p_vaddr && addr < ph.p_vaddr + ph.p_filesz) {
			*off = addr - ph.p_vaddr + ph.p_offset;
			ret = 0;
			goto out;
		}
	}
	snprintf(err, errlen, "%s: %s (0x%llx) is in no loaded segment", path,
		 sym, (unsigned long long)addr);
out:
	if (e)
		elf_end(e);
	close(fd);
	return ret;
}

int ufunc_resolve(const char *spec, char *out, size_t len, char *err,
		  size_t errlen)
{
	char file[PATH_MAX], real[PATH_MAX], lib[128], mod[160];
	const char *colon = strrchr(spec, ':'), *sym;
	unsigned long long off;
	struct stat st;
	int n;

	if (!colon || colon == spec)
		return 1;
	sym = colon + 1;
	if ((size_t)(colon - spec) >= sizeof(file))
		goto toolong;
	memcpy(file, spec, colon - spec);
	file[colon - spec] = '\0';
	if (!strchr(file, '/')) {
		/* LIB:SYMBOL, or the kernel's MODULE:SYMBOL */
		if (strlen(file) >= sizeof(lib))
			return 1;
		snprintf(mod, sizeof(mod), "/sys/module/%.127s", file);
		if (!stat(mod, &st))
			return 1;
		if (!ufunc_lib(file, real, sizeof(real))) {
			if (stacklat_valid_symbol(spec))
				return 1;	/* the module says */
			snprintf(err, errlen,
				 "no library '%s' in the loader's cache (ldconfig -p) and no kernel module of that name",
				 file);
			return -1;
		}
	} else if (!realpath(file, real)) {
		snprintf(err, errlen, "%s: %s", file, strerror(errno));
		return -1;
	}
	if (!*sym) {
		snprintf(err, errlen, "%s: which function?", spec);
		return -1;
	}
	if (stat(real, &st) || !S_ISREG(st.st_mode)) {
		snprintf(err, errlen, "%s: not a regular file", real);
		return -1;
	}
	if (ufunc_offset(real, sym, &off, err, errlen))
		return -1;
	n = snprintf(out, len, "%s:0x%llx:%s", real, off, sym);
	if (n < 0 || (size_t)n >= len || !stacklat_valid_upoint(out)) {
		/* a name the module does not show: the offset names it */
		n = snprintf(out, len, "%s:0x%llx", real, off);
		if (n < 0 || (size_t)n >= len)
			goto toolong;
		if (!stacklat_valid_upoint(out)) {
			snprintf(err, errlen,
				 "%s: the module takes a path of printable characters without blanks or quotes",
				 real);
			return -1;
		}
	}
	return 0;
toolong:
	snprintf(err, errlen,
		 "%s: too long: the module takes /PATH:0xOFFSET:NAME in %d characters",
		 spec, STACKLAT_SYM_MAX - 1);
	return -1;
}
