/**
 * @module http/mcp
 * /mcp — placeholder until the MCP endpoint lands (issue 4): answers 405 problem documents.
 */
import { Elysia } from "elysia";
import { AppError } from "../errors.ts";
import type { AppDeps } from "./deps.ts";

export function mcpController(_deps: AppDeps) {
  return new Elysia({ name: "mcp" }).all("/mcp", () => {
    throw new AppError("METHOD_NOT_ALLOWED");
  });
}
