#!/bin/sh
# Make the build context of deploy/container/Containerfile from a Linux deckhand binary:
#   rootfs/usr/local/bin/deckhand, the shared libraries it links (from this machine, which
#   must match the binary's CPU), a passwd entry for uid 65532, and an empty data/ for /data.
#
#   deploy/container/make-context.sh BINARY OUTDIR
set -eu
if [ $# -ne 2 ]; then echo "usage: $0 BINARY OUTDIR" >&2; exit 2; fi
binary=$1
out=$2
here=$(cd "$(dirname "$0")" && pwd)

rm -rf "$out"
mkdir -p "$out/rootfs/usr/local/bin" "$out/rootfs/etc" "$out/rootfs/tmp" "$out/data"
cp "$binary" "$out/rootfs/usr/local/bin/deckhand"
chmod 0755 "$out/rootfs/usr/local/bin/deckhand"
chmod 1777 "$out/rootfs/tmp"
# Bun's runtime links glibc dynamically: libc, libm, libdl, libpthread and the loader.
ldd "$binary" | awk '$2 == "=>" && $3 ~ /^\// { print $3 } $1 ~ /^\// { print $1 }' | while read -r lib; do
  mkdir -p "$out/rootfs$(dirname "$lib")"
  cp -L "$lib" "$out/rootfs$lib"
done
printf 'root:x:0:0:root:/:/nonexistent\ndeckhand:x:65532:65532:deckhand:/data:/nonexistent\n' > "$out/rootfs/etc/passwd"
printf 'root:x:0:\ndeckhand:x:65532:\n' > "$out/rootfs/etc/group"
cp "$here/Containerfile" "$out/Containerfile"
