/**
 * @module shared/live-schema-kit
 * The building blocks every live-protocol schema shares (./live-protocol.ts and
 * ./live-audience-protocol.ts): kept apart so both files use the same closed objects, version
 * literal and page bound without importing each other (a cycle would leave one half undefined
 * while the other is evaluated).
 */
import { type ObjectOptions, type TProperties, Type } from "@sinclair/typebox";

/**
 * Every object of the protocol is closed (`additionalProperties: false`): a message is exactly
 * its schema, so nothing unknown is stored, saved or relayed (an extra property once carried
 * 60 KB of junk per stroke into every late joiner's hello, and HTML to the presenter).
 */
export function Obj<T extends TProperties>(properties: T, options: ObjectOptions = {}) {
  return Type.Object(properties, { additionalProperties: false, ...options });
}

/** The protocol version every message carries (`LIVE_PROTOCOL_VERSION`). */
export const V = Type.Literal(1);
export const Page = Type.Integer({ minimum: 1, maximum: 100_000, description: "1-based PDF page" });
