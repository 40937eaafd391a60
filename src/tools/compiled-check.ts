/**
 * @module tools/compiled-check
 * A TypeBox schema's compiled checker, built on its first use rather than when the module
 * loads: compiling the live protocol's three schemas took ~20 ms of every server start, before
 * the listener could answer, for checks no first request makes (cold start: docs/performance.md).
 */
import type { TSchema } from "@sinclair/typebox";
import { type TypeCheck, TypeCompiler } from "@sinclair/typebox/compiler";

export function compiledOnFirstUse<T extends TSchema>(schema: T): () => TypeCheck<T> {
  let check: TypeCheck<T> | undefined;
  return () => (check ??= TypeCompiler.Compile(schema));
}
