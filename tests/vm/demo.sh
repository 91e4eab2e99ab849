#!/bin/bash
# make demo: boot Debian's 6.1 kernel in QEMU with stacklat loaded, drive
# network traffic and disk I/O through it and print what stacklat shows.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
exec "$here/run.sh" --demo "${DEMO_KERNEL:-6.1}"
