#!/usr/bin/env bun
/**
 * @module main
 * CLI entry: parse argv, run a command. The only place that reads process.argv.
 *
 * For `deckhand check` it starts compiling mupdf's WASM before the command's module loads:
 * the compile is most of the command's time (~250 ms of ~450; docs/performance.md) and runs on JSC's
 * compiler threads, so it overlaps loading and evaluating the command's module graph (~35 ms)
 * instead of starting after it (traced under load: the module loaded ~35 ms later, the compile
 * ended ~50 ms sooner; figures in docs/performance.md). The compile is kept on a global
 * (pdf/mupdf's compileMupdfWasm), so the command's own copy of pdf/mupdf takes the same one.
 */
import { mupdfWasmStream } from "./binary/assets.ts";
import { isCommand, isWorkerProcess, loadCommand, runWorkerProcess } from "./binary/commands.ts";
import { compileMupdfWasm, useMupdfWasm } from "./pdf/mupdf.ts";
import { ownerOnlyFiles } from "./store/permissions.ts";
import { VERSION, versionLine } from "./binary/version.ts";

// Each command's code is an entrypoint of its own, loaded when it runs (src/binary/commands.ts).

const HELP = `deckhand ${VERSION} — hand a PDF deck to a browser and present it offline.

Usage: deckhand [command] [options]

Commands:
  serve              run the server (the default when no command is given)
  present FILE.pdf   upload a deck to a running server and print its handoff link
  check FILE.pdf…    validate decks' notes and media sidecars (no server needed)
  token              create, list or revoke access tokens
  mcp                run the MCP tools over stdio for desktop agents
  healthcheck        exit 0 when the server on this machine answers /healthz (containers)

Serve options (environment variable in brackets):
  --port N             port to listen on (8080) [DECKHAND_PORT]
  --host ADDR          address to bind (127.0.0.1) [DECKHAND_HOST]
  --data-dir DIR       database and staged PDFs (./deckhand-data) [DECKHAND_DATA_DIR]
  --database-url URL   keep rows in PostgreSQL (postgres://…) instead of SQLite in the
                       data dir [DECKHAND_DATABASE_URL]
  --storage URL        keep staged PDFs in an S3-compatible bucket (s3://bucket/prefix)
                       instead of the data dir; credentials and endpoint from S3_* or
                       AWS_* variables [DECKHAND_STORAGE]
  --base-url URL       public URL for handoff links (from the request) [DECKHAND_BASE_URL]
  --trust-proxy        honour X-Forwarded-Proto/Host/For [DECKHAND_TRUST_PROXY]
  --max-upload-mb N    largest accepted PDF (100) [DECKHAND_MAX_UPLOAD_MB]
  --max-staged-gb N    total bytes of unclaimed decks (5) [DECKHAND_MAX_STAGED_GB]
  --require-auth       require an access token for present, check and mcp [DECKHAND_REQUIRE_AUTH]
  --rate-limit N       anonymous uploads per minute per address, 0 = off (60) [DECKHAND_RATE_LIMIT]
  --tls-cert FILE      serve HTTPS with this certificate [DECKHAND_TLS_CERT]
  --tls-key FILE       and this private key [DECKHAND_TLS_KEY]
  --allow-origin URL   a browser origin that may call /mcp besides loopback pages and
                       --base-url (repeatable, or comma-separated) [DECKHAND_ALLOW_ORIGIN]
  --max-uploads N      uploads receiving at once (64) [DECKHAND_MAX_UPLOADS]
  --max-uploads-per-address N
                       uploads receiving at once from one address or IPv6 /64 (4)
                       [DECKHAND_MAX_UPLOADS_PER_ADDRESS]
  --body-timeout S     seconds an upload may send nothing before it is dropped (20)
                       [DECKHAND_BODY_TIMEOUT]
  --dependency-timeout S
                       seconds a call to PostgreSQL or the bucket may take before
                       503 STORAGE_UNAVAILABLE (5) [DECKHAND_DEPENDENCY_TIMEOUT]
  --live-ttl H         hours a live talk lasts at most (12) [DECKHAND_LIVE_TTL]
  --max-viewers N      viewers one live talk admits (1000) [DECKHAND_MAX_VIEWERS]
  --max-viewers-per-address N
                       viewers of one live talk from one address or IPv6 /64 at most
                       (half of --max-viewers; the address's share also shrinks as the
                       talk fills) [DECKHAND_MAX_VIEWERS_PER_ADDRESS]
  --max-live-sockets N live sockets this instance holds (0: from its descriptor limit)
                       [DECKHAND_MAX_LIVE_SOCKETS]
  --live-presenter-grace M
                       minutes a live talk waits for its presenter to come back (15)
                       [DECKHAND_LIVE_PRESENTER_GRACE]
  --pdf-workers N      processes that read PDFs with mupdf (2) [DECKHAND_PDF_WORKERS]
  --pdf-timeout S      seconds one PDF may take to read (10) [DECKHAND_PDF_TIMEOUT]
  --pdf-memory-mb N    memory one PDF reader may use (512) [DECKHAND_PDF_MEMORY_MB]
  --pdf-strike-limit N PDF reading time one address may use, in --pdf-timeout deadlines; back at
                       one a minute; spent, 429 for about a minute (2; 0: never) [DECKHAND_PDF_STRIKE_LIMIT]
  --log-format F       auto, json or pretty: auto is pretty (a banner and readable lines)
                       on a terminal, one JSON object per line otherwise (auto) [DECKHAND_LOG_FORMAT]

  -h, --help           this help
  -v, --version        the version, the commit it was built from and the Bun version

Run \`deckhand COMMAND --help\` for a command's own options.`;

async function main(argv: string[]): Promise<number> {
  const [first, ...rest] = argv;
  if (first === "-h" || first === "--help" || first === "help") {
    console.log(HELP);
    return 0;
  }
  if (first === "-v" || first === "--version") {
    console.log(versionLine());
    return 0;
  }
  const command = first === undefined || first.startsWith("-") ? "serve" : first;
  const args = command === "serve" && first !== "serve" ? argv : rest;
  if (!isCommand(command)) {
    console.error(`Unknown command "${command}". Run \`deckhand --help\`.`);
    return 2;
  }
  const help = args.includes("--help") || args.includes("-h");
  // Its error, if any, is the command's to report (loadMupdf awaits the same promise).
  if (command === "check" && !help) compileMupdfWasm().catch(() => {});
  const { run, usage } = await loadCommand(command);
  if (help) {
    console.log(usage ?? HELP);
    return 0;
  }
  // Access tokens are secrets: the files the token command writes are the owner's alone.
  if (command === "token") ownerOnlyFiles();
  return run(args);
}

// In the binary mupdf's WASM is the embedded copy (pdf/mupdf cannot find it beside mupdf's JS).
useMupdfWasm(mupdfWasmStream);
// The binary starts its own PDF worker processes with a hidden command (pdf/worker/pool).
if (isWorkerProcess(process.argv)) await runWorkerProcess();
else runMain();

/**
 * Exit once stdout has taken everything written to it. On a pipe, writes are asynchronous:
 * `process.exit` right after a large write cut `deckhand check --json` at 64 KiB.
 */
function exitWhenFlushed(code: number): void {
  process.stdout.write("", () => process.exit(code));
}

function runMain(): void {
  main(process.argv.slice(2)).then(
    (code) => exitWhenFlushed(code),
    (error: unknown) => {
      // By name: the command's classes are its module graph's, not main.ts's (src/binary/commands.ts).
      const name = error instanceof Error ? error.name : "";
      if (name === "ConfigError" || name === "DataDirLockedError" || (error instanceof TypeError && "code" in error && String(error.code).startsWith("ERR_PARSE_ARGS"))) {
        console.error(`deckhand: ${(error as Error).message}`);
        process.exit(2);
      }
      console.error(error);
      process.exit(1);
    },
  );
}
