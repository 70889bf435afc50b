#!/bin/sh
# Prepares a Debian or Ubuntu machine for bench/: installs libaio, which Artemis's ASYNCIO journal
# (the journal `artemis create` chooses where libaio loads) needs. Without it the artemis peer
# falls back to NIO, and the results say so (setup.csv, journal-type). Run as root, once:
#   sudo bench/setup.sh
# The package is libaio1 up to Debian 12 and Ubuntu 23.10, libaio1t64 from Debian 13 and
# Ubuntu 24.04 on (the 64-bit time_t rename). Artemis's native binding links libaio.so.1; where
# the t64 package ships only libaio.so.1t64, the script links libaio.so.1 to it.
set -eu

if [ "$(id -u)" -ne 0 ]; then
    echo "bench/setup.sh: run as root (sudo bench/setup.sh)" >&2
    exit 1
fi
if ! command -v apt-get >/dev/null 2>&1; then
    echo "bench/setup.sh: no apt-get; install libaio (libaio.so.1) with this system's package manager" >&2
    exit 1
fi

apt-get update -qq
if apt-cache show libaio1t64 >/dev/null 2>&1; then
    package=libaio1t64
else
    package=libaio1
fi
apt-get install -y -qq "$package"

libdir=$(dirname "$(dpkg -L "$package" | grep -m1 '/libaio\.so\.1')")
if [ ! -e "$libdir/libaio.so.1" ] && [ -e "$libdir/libaio.so.1t64" ]; then
    ln -s libaio.so.1t64 "$libdir/libaio.so.1"
    ldconfig
fi
echo "bench/setup.sh: $package installed ($libdir/libaio.so.1); the artemis peer will use ASYNCIO"
