/**
 * @module scripts/release/targets
 * The platforms a release ships, named as users look for them (`deckhand-darwin-arm64`), with
 * the Bun runtime each is compiled against and what its executable must look like.
 */

export type Arch = "x64" | "arm64";
export type ExecutableFormat = "elf" | "macho" | "pe";

export interface ReleaseTarget {
  /** `linux-x64`, … : the suffix of every file of this platform. */
  name: string;
  bunTarget: Bun.Build.CompileTarget;
  format: ExecutableFormat;
  arch: Arch;
  /** The binary's file name in dist/release/. */
  binary: string;
  /** The name of the binary inside its archive, as users will run it. */
  inArchive: string;
  archive: string;
}

function target(os: "linux" | "darwin" | "windows", arch: Arch): ReleaseTarget {
  const name = `${os}-${arch}`;
  const exe = os === "windows" ? ".exe" : "";
  return {
    name,
    bunTarget: `bun-${os}-${arch}`,
    format: os === "linux" ? "elf" : os === "darwin" ? "macho" : "pe",
    arch,
    binary: `deckhand-${name}${exe}`,
    inArchive: `deckhand${exe}`,
    // Windows users open .zip with Explorer; everyone else has tar.
    archive: `deckhand-${name}.${os === "windows" ? "zip" : "tar.gz"}`,
  };
}

export const TARGETS: readonly ReleaseTarget[] = [
  target("linux", "x64"),
  target("linux", "arm64"),
  target("darwin", "arm64"),
  target("darwin", "x64"),
  target("windows", "x64"),
];

/** Targets by name ("linux-x64,linux-arm64"); "all" or nothing = every target. */
export function selectTargets(list: string | undefined): ReleaseTarget[] {
  if (!list || list === "all") return [...TARGETS];
  return list.split(",").map((name) => {
    const found = TARGETS.find((t) => t.name === name.trim());
    if (!found) throw new Error(`Unknown target "${name}". Known: ${TARGETS.map((t) => t.name).join(", ")}.`);
    return found;
  });
}
