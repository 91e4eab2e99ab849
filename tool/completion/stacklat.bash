# bash completion for stacklat(8)
# SPDX-License-Identifier: GPL-2.0

# Pipeline names: the module's debugfs files (root only), else nothing.
_stacklat_pipelines()
{
	local d=/sys/kernel/debug/stacklat f
	[[ -r $d ]] || return 0
	for f in "$d"/*; do
		f=${f##*/}
		case $f in
		status | control | hist | '*') ;;
		*) printf '%s\n' "$f" ;;
		esac
	done
}

# Stage names of a pipeline: first column of its debugfs table.
_stacklat_stages()
{
	local t=/sys/kernel/debug/stacklat/$1
	[[ -r $t ]] || return 0
	awk 'NR > 1 && NF { print $1 }' "$t" 2>/dev/null
}

_stacklat()
{
	# Words from the line itself: bash splits KEY=VALUE at '=' in
	# COMP_WORDS, this keeps "proto=t" one word.
	local line=${COMP_LINE:0:COMP_POINT} cur cword
	local -a words
	read -ra words <<<"$line"
	[[ -z $line || $line =~ [[:space:]]$ ]] && words+=("")
	cword=$((${#words[@]} - 1))
	cur=${words[cword]}
	local cmds="status show hist top events metrics inflight enable disable reset filter sample cgtotals func span stacks help"
	local keys="tgid= tid= lport= rport= proto= ifindex= iface= dev= op= fs="

	if ((cword == 1)); then
		mapfile -t COMPREPLY < <(compgen -W "$cmds --help --version" -- "$cur")
		return
	fi
	local cmd=${words[1]} i nargs=0
	for ((i = 2; i < cword; i++)); do
		[[ ${words[i]} == -* ]] || ((nargs++))
	done
	case $cmd in
	help)
		((cword == 2)) && mapfile -t COMPREPLY < <(compgen -W "$cmds" -- "$cur")
		;;
	show)
		if [[ $cur == -* ]]; then
			mapfile -t COMPREPLY < <(compgen -W "-j --json --help" -- "$cur")
		else
			mapfile -t COMPREPLY < <(compgen -W "$(_stacklat_pipelines)" -- "$cur")
		fi
		;;
	hist)
		if [[ $cur == -* ]]; then
			mapfile -t COMPREPLY < <(compgen -W "--fine --help" -- "$cur")
		elif ((nargs == 0)); then
			mapfile -t COMPREPLY < <(compgen -W "$(_stacklat_pipelines)" -- "$cur")
		elif ((nargs == 1)); then
			local p
			for ((i = 2; i < cword; i++)); do
				[[ ${words[i]} == -* ]] || { p=${words[i]}; break; }
			done
			mapfile -t COMPREPLY < <(compgen -W "$(_stacklat_stages "$p")" -- "$cur")
		fi
		;;
	top)
		if [[ $cur == -* ]]; then
			mapfile -t COMPREPLY < <(compgen -W "-p --pid -x --errors -s --sort -n --top -P --process -r --peers --by -j --json --stacks --help" -- "$cur")
		elif [[ ${words[cword - 1]} == --by ]]; then
			mapfile -t COMPREPLY < <(compgen -W "cgroup" -- "$cur")
		elif [[ ${words[cword - 1]} == -s || ${words[cword - 1]} == --sort ]]; then
			local sorts="count time total max p99" w
			for w in "${words[@]}"; do
				[[ $w == files ]] && sorts="bytes reads writes rbytes wbytes opens count"
				[[ $w == net ]] && sorts="bytes sent recv count"
			done
			mapfile -t COMPREPLY < <(compgen -W "$sorts" -- "$cur")
		elif ((nargs == 0)); then
			mapfile -t COMPREPLY < <(compgen -W "syscalls disk sched offcpu cpu futex lock files net" -- "$cur")
		fi
		;;
	enable | disable | reset)
		((nargs == 0)) &&
			mapfile -t COMPREPLY < <(compgen -W "$(_stacklat_pipelines)" -- "$cur")
		;;
	filter)
		if ((nargs == 0)); then
			mapfile -t COMPREPLY < <(compgen -W "$(_stacklat_pipelines)" -- "$cur")
		else
			local vals=
			case $cur in
			proto=*) vals="tcp udp" ;;
			op=*) vals="read write open fsync" ;;
			fs=*) vals="ext4 xfs btrfs bdev" ;;
			iface=*) vals=$(ls /sys/class/net 2>/dev/null) ;;
			dev=*) vals=$(ls /sys/class/block 2>/dev/null) ;;
			esac
			case $cur in
			*=*)
				# readline replaces only what follows the '=' when
				# '=' breaks words (the default)
				local pre=${cur%%=*}=
				[[ $COMP_WORDBREAKS == *=* ]] && pre=
				[[ -n $vals ]] &&
					mapfile -t COMPREPLY < <(compgen -P "$pre" -W "$vals" -- "${cur#*=}")
				;;
			*)
				if ((nargs == 1)); then
					mapfile -t COMPREPLY < <(compgen -W "clear $keys" -- "$cur")
				else
					mapfile -t COMPREPLY < <(compgen -W "$keys" -- "$cur")
				fi
				compopt -o nospace 2>/dev/null
				[[ ${COMPREPLY[0]} == clear ]] && ((${#COMPREPLY[@]} == 1)) && compopt +o nospace 2>/dev/null
				;;
			esac
		fi
		;;
	func)
		if ((nargs == 0)); then
			mapfile -t COMPREPLY < <(compgen -W "add del" -- "$cur")
		elif ((nargs == 1)) && [[ ${words[2]} == del ]]; then
			mapfile -t COMPREPLY < <(compgen -W "$(_stacklat_stages func)" -- "$cur")
		elif ((nargs == 1)) && [[ -r /proc/kallsyms && ${#cur} -ge 3 ]]; then
			mapfile -t COMPREPLY < <(awk -v p="$cur" '$2 ~ /^[tT]$/ && index($3, p) == 1 { print $3 }' /proc/kallsyms 2>/dev/null | head -n 200)
		fi
		;;
	span)
		if ((nargs == 0)); then
			mapfile -t COMPREPLY < <(compgen -W "add del list" -- "$cur")
		elif ((nargs == 1)) && [[ ${words[2]} == del ]]; then
			mapfile -t COMPREPLY < <(compgen -W "$(_stacklat_stages span)" -- "$cur")
		elif [[ ${words[2]} == add ]] && ((nargs == 4)); then
			mapfile -t COMPREPLY < <(compgen -W "thread arg0 arg1 arg2 arg3" -- "$cur")
		elif [[ ${words[2]} == add ]] && ((nargs == 2 || nargs == 3)) && [[ -r /proc/kallsyms && ${#cur} -ge 3 ]]; then
			mapfile -t COMPREPLY < <(awk -v p="$cur" '$2 ~ /^[tT]$/ && index($3, p) == 1 { print $3 }' /proc/kallsyms 2>/dev/null | head -n 200)
		fi
		;;
	sample)
		if ((nargs == 0)); then
			mapfile -t COMPREPLY < <(compgen -W "func net_rx net_tx syscalls storage block reqresp" -- "$cur")
		elif ((nargs == 1)); then
			mapfile -t COMPREPLY < <(compgen -W "auto 1 4 16 64" -- "$cur")
		fi
		;;
	cgtotals)
		if ((nargs == 0)); then
			mapfile -t COMPREPLY < <(compgen -W "func storage" -- "$cur")
		elif ((nargs == 1)); then
			mapfile -t COMPREPLY < <(compgen -W "on off" -- "$cur")
		fi
		;;
	stacks)
		if ((nargs == 0)); then
			mapfile -t COMPREPLY < <(compgen -W "add del on off show" -- "$cur")
		elif ((nargs == 1)) && [[ ${words[2]} == on || ${words[2]} == off ]]; then
			mapfile -t COMPREPLY < <(compgen -W "netdrop tcpretrans" -- "$cur")
		elif ((nargs == 1)) && [[ ${words[2]} == show ]]; then
			mapfile -t COMPREPLY < <(compgen -W "-n -j --json" -- "$cur")
		elif ((nargs == 1)) && [[ ${words[2]} == add && -r /proc/kallsyms && ${#cur} -ge 3 ]]; then
			mapfile -t COMPREPLY < <(awk -v p="$cur" '$2 ~ /^[tT]$/ && index($3, p) == 1 { print $3 }' /proc/kallsyms 2>/dev/null | head -n 200)
		fi
		;;
	esac
}
complete -F _stacklat stacklat
