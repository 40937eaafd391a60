/**
 * @module scripts/release/executable
 * Read an executable's header to tell its format and CPU, so a release can prove that
 * `deckhand-darwin-arm64` really is an arm64 Mach-O (and so on) without running it.
 * Only the few header fields that answer that question are read.
 */
import type { Arch, ExecutableFormat } from "./targets.ts";

export interface ExecutableKind {
  format: ExecutableFormat;
  arch: Arch | `unknown (${number})`;
}

// ELF e_machine values (System V ABI).
const EM_X86_64 = 62;
const EM_AARCH64 = 183;
// Mach-O cputype values (<mach/machine.h>): CPU_ARCH_ABI64 | CPU_TYPE_X86 / CPU_TYPE_ARM.
const CPU_TYPE_X86_64 = 0x01000007;
const CPU_TYPE_ARM64 = 0x0100000c;
// PE COFF Machine values.
const IMAGE_FILE_MACHINE_AMD64 = 0x8664;
const IMAGE_FILE_MACHINE_ARM64 = 0xaa64;

function arch(code: number, x64: number, arm64: number): ExecutableKind["arch"] {
  return code === x64 ? "x64" : code === arm64 ? "arm64" : `unknown (${code})`;
}

/** The format and CPU of an executable from its first bytes (4 KiB are plenty); null if none. */
export function executableKind(head: Uint8Array): ExecutableKind | null {
  const view = new DataView(head.buffer, head.byteOffset, head.byteLength);
  if (head.length >= 20 && head[0] === 0x7f && head[1] === 0x45 && head[2] === 0x4c && head[3] === 0x46) {
    // EI_DATA (byte 5) 1 = little-endian; e_machine is the u16 at offset 18.
    return { format: "elf", arch: arch(view.getUint16(18, head[5] === 1), EM_X86_64, EM_AARCH64) };
  }
  // MH_MAGIC_64 0xfeedfacf, stored little-endian on both macOS CPUs.
  if (head.length >= 8 && view.getUint32(0, true) === 0xfeedfacf) {
    return { format: "macho", arch: arch(view.getUint32(4, true), CPU_TYPE_X86_64, CPU_TYPE_ARM64) };
  }
  if (head.length >= 0x40 && head[0] === 0x4d && head[1] === 0x5a) {
    // "MZ"; e_lfanew at 0x3c points at "PE\0\0", followed by the COFF Machine u16.
    const pe = view.getUint32(0x3c, true);
    if (pe + 6 <= head.length && view.getUint32(pe, true) === 0x00004550) {
      return { format: "pe", arch: arch(view.getUint16(pe + 4, true), IMAGE_FILE_MACHINE_AMD64, IMAGE_FILE_MACHINE_ARM64) };
    }
  }
  return null;
}
