/**
 * @module base/log
 * Log lines in one of two forms: one JSON object per line (for machines: the default when
 * stdout is not a terminal, or `--log-format json`), or short readable lines for a person at
 * a terminal (`--log-format pretty`, the default on a TTY). Callers pass only what is safe to
 * log: paths without query strings, never tokens or file contents.
 */
import type { LogFormat } from "./config.ts";
import { writeStdout } from "../tools/stdout.ts";

export interface Logger {
  info(event: string, fields?: Record<string, unknown>): void;
  error(event: string, fields?: Record<string, unknown>): void;
}

export function jsonLogger(write: (line: string) => void = writeStdout): Logger {
  const emit = (level: string, event: string, fields?: Record<string, unknown>) =>
    write(`${JSON.stringify({ time: new Date().toISOString(), level, event, ...fields })}\n`);
  return {
    info: (event, fields) => emit("info", event, fields),
    error: (event, fields) => emit("error", event, fields),
  };
}

/** Which form `format` means for an output that is (or is not) a terminal. */
export function resolveLogFormat(format: LogFormat, isTTY: boolean): "json" | "pretty" {
  return format === "auto" ? (isTTY ? "pretty" : "json") : format;
}

const ANSI = { dim: "\x1b[2m", red: "\x1b[31m", yellow: "\x1b[33m", green: "\x1b[32m", reset: "\x1b[0m" };

/**
 * `12:03:04 POST /api/present 200 31 ms` for requests, `12:03:04 sweep expired=2` for other
 * events; errors in red with their stack. Colour only when asked (a terminal without NO_COLOR).
 */
export function prettyLogger(write: (line: string) => void, options: { color: boolean }): Logger {
  const paint = (code: string, text: string) => (options.color ? `${code}${text}${ANSI.reset}` : text);
  const emit = (level: "info" | "error", event: string, fields: Record<string, unknown> = {}) => {
    const time = paint(ANSI.dim, new Date().toTimeString().slice(0, 8));
    if (event === "request") {
      const { method, path, status, ms, requestId, ...rest } = fields;
      const code = Number(status);
      const colour = code >= 500 ? ANSI.red : code >= 400 ? ANSI.yellow : ANSI.green;
      const extra = Object.keys(rest).length > 0 ? ` ${describe(rest)}` : "";
      write(`${time} ${String(method)} ${String(path)} ${paint(colour, String(status))} ${String(ms)} ms ${paint(ANSI.dim, String(requestId))}${extra}\n`);
      return;
    }
    const { stack, ...rest } = fields;
    const head = level === "error" ? paint(ANSI.red, `error ${event}`) : event;
    write(`${time} ${head}${Object.keys(rest).length > 0 ? ` ${describe(rest)}` : ""}\n`);
    if (typeof stack === "string") write(`${paint(ANSI.dim, stack)}\n`);
  };
  return {
    info: (event, fields) => emit("info", event, fields),
    error: (event, fields) => emit("error", event, fields),
  };
}

/** `key=value` pairs; strings with spaces quoted, objects as JSON. */
function describe(fields: Record<string, unknown>): string {
  return Object.entries(fields)
    .map(([key, value]) => {
      const text = typeof value === "string" ? (/[\s"=]/.test(value) ? JSON.stringify(value) : value) : JSON.stringify(value);
      return `${key}=${text}`;
    })
    .join(" ");
}

export const silentLogger: Logger = { info() {}, error() {} };

/** Describe an unexpected error for the log only (never for a response). */
export function errorFields(error: unknown): Record<string, unknown> {
  if (error instanceof Error) {
    const fields: Record<string, unknown> = { error: error.name, message: error.message, stack: error.stack };
    if (error.cause !== undefined) fields.cause = errorFields(error.cause);
    return fields;
  }
  return { error: String(error) };
}
