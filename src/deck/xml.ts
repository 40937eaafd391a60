/**
 * @module deck/xml
 * Untrusted XML (XMP packets in PDFs, the parts of a PowerPoint file) read with fast-xml-parser,
 * never by hand. What makes XML dangerous is refused before it is parsed: a document type
 * declaration (the only place entities can be declared, so no "billion laughs" and no external
 * entity can exist), text past a size cap, nesting past a depth cap. The result is a small
 * namespace-resolved tree (each element knows its namespace URI and local name, so readers do
 * not depend on the prefixes a producer chose). Browser-safe.
 */
import { XMLParser, XMLValidator } from "fast-xml-parser";

export interface XmlElement {
  /** The qualified name as written, e.g. "p:sld". */
  name: string;
  /** The local part, e.g. "sld". */
  local: string;
  /** The namespace URI the prefix (or the default namespace) stands for; "" when none. */
  ns: string;
  /** Attributes by qualified name (values with the standard entities decoded). */
  attrs: Record<string, string>;
  children: XmlNode[];
}
export type XmlNode = XmlElement | { text: string };

export type XmlParse = { ok: true; root: XmlElement } | { ok: false; reason: "doctype" | "too-large" | "malformed" | "too-deep" | "empty" };

/** Nesting no real XMP packet or OOXML part reaches (PowerPoint's deepest is ~20). */
export const MAX_XML_DEPTH = 256;

/**
 * True when the text declares a document type or entities. A substring test, not a parse: it
 * also refuses the words inside a comment or CDATA, which no producer of these files writes.
 */
export function declaresDoctype(text: string): boolean {
  return /<!\s*(DOCTYPE|ENTITY)/i.test(text);
}

const parser = new XMLParser({
  preserveOrder: true,
  ignoreAttributes: false,
  attributeNamePrefix: "",
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: false,
  // Only the predefined and numeric entities remain once a DOCTYPE is refused.
  processEntities: true,
  htmlEntities: true,
  maxNestedTags: MAX_XML_DEPTH,
});

/** Parse `text` (at most `maxChars` characters) into a namespace-resolved element tree. */
export function parseXml(text: string, maxChars: number): XmlParse {
  if (text.length > maxChars) return { ok: false, reason: "too-large" };
  if (declaresDoctype(text)) return { ok: false, reason: "doctype" };
  let raw: unknown;
  try {
    if (XMLValidator.validate(text) !== true) return { ok: false, reason: "malformed" };
    raw = parser.parse(text);
  } catch (error) {
    return { ok: false, reason: /nest/i.test(String(error)) ? "too-deep" : "malformed" };
  }
  const root = convert(raw);
  return root ? { ok: true, root } : { ok: false, reason: "empty" };
}

type RawNode = Record<string, unknown>;

/** fast-xml-parser's ordered output → XmlElement, iteratively (no recursion on hostile depth). */
function convert(raw: unknown): XmlElement | null {
  if (!Array.isArray(raw)) return null;
  const top: XmlElement = { name: "#document", local: "#document", ns: "", attrs: {}, children: [] };
  const stack: { list: unknown[]; parent: XmlElement; scope: Map<string, string> }[] = [{ list: raw, parent: top, scope: new Map([["xml", "http://www.w3.org/XML/1998/namespace"]]) }];
  while (stack.length > 0) {
    const { list, parent, scope } = stack.pop() as (typeof stack)[number];
    for (const item of list) {
      if (typeof item !== "object" || item === null) continue;
      const node = item as RawNode;
      if ("#text" in node) {
        parent.children.push({ text: String(node["#text"]) });
        continue;
      }
      const name = Object.keys(node).find((k) => k !== ":@");
      if (name === undefined || name.startsWith("?") || name.startsWith("!")) continue;
      const attrs: Record<string, string> = {};
      const rawAttrs = node[":@"];
      if (rawAttrs && typeof rawAttrs === "object") for (const [k, v] of Object.entries(rawAttrs)) attrs[k] = String(v);
      let childScope = scope;
      for (const [k, v] of Object.entries(attrs)) {
        if (k === "xmlns" || k.startsWith("xmlns:")) {
          if (childScope === scope) childScope = new Map(scope);
          childScope.set(k === "xmlns" ? "" : k.slice(6), v);
        }
      }
      const colon = name.indexOf(":");
      const prefix = colon >= 0 ? name.slice(0, colon) : "";
      const element: XmlElement = { name, local: colon >= 0 ? name.slice(colon + 1) : name, ns: childScope.get(prefix) ?? "", attrs, children: [] };
      parent.children.push(element);
      const children = node[name];
      if (Array.isArray(children)) stack.push({ list: children, parent: element, scope: childScope });
    }
  }
  // The stack is LIFO but each list is walked in order and pushed after its parent is placed:
  // siblings keep their order because each element's children are filled from its own list.
  return top.children.find((c): c is XmlElement => "local" in c) ?? null;
}

/** Child elements of `element`, optionally only those with this local name (and namespace). */
export function childElements(element: XmlElement, local?: string, ns?: string): XmlElement[] {
  return element.children.filter((c): c is XmlElement => "local" in c && (local === undefined || c.local === local) && (ns === undefined || c.ns === ns));
}

/** Every element below `element` (depth first, document order), iteratively. */
export function* descendants(element: XmlElement): Generator<XmlElement> {
  const stack: XmlElement[] = [...childElements(element)].reverse();
  while (stack.length > 0) {
    const next = stack.pop() as XmlElement;
    yield next;
    const kids = childElements(next);
    for (let i = kids.length - 1; i >= 0; i--) stack.push(kids[i] as XmlElement);
  }
}

/** The concatenated text inside `element` (all descendants). */
export function textOf(element: XmlElement): string {
  const parts: string[] = [];
  const stack: XmlNode[] = [element];
  while (stack.length > 0) {
    const node = stack.pop() as XmlNode;
    if ("text" in node) parts.push(node.text);
    else for (let i = node.children.length - 1; i >= 0; i--) stack.push(node.children[i] as XmlNode);
  }
  return parts.join("");
}

/** A prefixed attribute by its local name, whatever the prefix: "id" finds "r:id" (not a plain "id"). */
export function prefixedAttr(element: XmlElement, local: string): string | undefined {
  for (const [k, v] of Object.entries(element.attrs)) if (k.endsWith(`:${local}`) && !k.startsWith("xmlns")) return v;
  return undefined;
}
