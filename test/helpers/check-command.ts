/**
 * `deckhand check` as its own process with the bounds a test chooses (DECKHAND_TEST_CHECK_LIMITS,
 * JSON: {timeoutMs, memoryBytes}): a file past a bound ends the whole process, so a test of
 * that runs the command here and reads its exit status, stdout and stderr.
 *
 *   bun test/helpers/check-command.ts [check arguments…]
 */
import { runCheckCommand } from "../../src/cli/check.ts";

const limits = JSON.parse(process.env.DECKHAND_TEST_CHECK_LIMITS ?? "{}") as { timeoutMs?: number; memoryBytes?: number };
const code = await runCheckCommand(process.argv.slice(2), { out: (text) => Bun.write(Bun.stdout, text), err: (text) => Bun.write(Bun.stderr, text), limits });
process.exit(code);
