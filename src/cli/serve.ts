/**
 * @module cli/serve
 * `deckhand serve`: start the server with its logs in the chosen form and, for a person at a
 * terminal, the start-up banner; run until SIGTERM or SIGINT, then shut down gracefully.
 */
import { networkInterfaces } from "node:os";
import { parseServeArgs } from "../base/config.ts";
import { jsonLogger, prettyLogger, resolveLogFormat } from "../base/log.ts";
import { startServer } from "../server.ts";
import { ownerOnlyFiles } from "../store/permissions.ts";
import { stdoutFlushed, stdoutIsTerminal, writeStdout } from "../tools/stdout.ts";
import { VERSION } from "../binary/version.ts";
import { bannerText } from "./banner.ts";

export async function runServeCommand(args: string[]): Promise<number> {
  const config = parseServeArgs(args);
  ownerOnlyFiles();
  const terminal = await stdoutIsTerminal();
  const form = resolveLogFormat(config.logFormat, terminal);
  const write = writeStdout;
  // https://no-color.org: colour only on a terminal, and never when NO_COLOR is set.
  const color = terminal && !process.env.NO_COLOR;
  const logger = form === "pretty" ? prettyLogger(write, { color }) : jsonLogger(write);
  const running = await startServer(config, { logger });
  if (form === "pretty") {
    write(
      bannerText({
        version: VERSION,
        host: config.host,
        port: running.server.port ?? config.port,
        tls: config.tlsCert !== null,
        baseUrl: config.baseUrl,
        requireAuth: config.requireAuth,
        dataDir: config.dataDir,
        interfaces: networkInterfaces(),
        color,
      }),
    );
  }
  await new Promise<void>((resolve) => {
    const stop = () => {
      process.off("SIGTERM", stop);
      process.off("SIGINT", stop);
      logger.info("shutdown", {});
      void running.shutdown().then(resolve);
    };
    process.on("SIGTERM", stop);
    process.on("SIGINT", stop);
  });
  // The log lines go through Bun's stdout sink (tools/stdout): out before the process exits.
  await stdoutFlushed();
  return 0;
}
