/**
 * @module log
 * One JSON object per line on stdout. Callers pass only what is safe to log: paths without
 * query strings, never tokens or file contents.
 */

export interface Logger {
  info(event: string, fields?: Record<string, unknown>): void;
  error(event: string, fields?: Record<string, unknown>): void;
}

export function jsonLogger(write: (line: string) => void = (line) => process.stdout.write(line)): Logger {
  const emit = (level: string, event: string, fields?: Record<string, unknown>) =>
    write(`${JSON.stringify({ time: new Date().toISOString(), level, event, ...fields })}\n`);
  return {
    info: (event, fields) => emit("info", event, fields),
    error: (event, fields) => emit("error", event, fields),
  };
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
