/**
 * A small stand-in for the browser's document, for client code that builds DOM with
 * client/src/lib/dom.ts (createElement, text nodes, attributes, listeners). It has no HTML
 * parser at all: setting innerHTML or outerHTML, or insertAdjacentHTML, throws — so a test
 * that renders hostile text proves the code never asks for HTML, and `created` lists every
 * element the code made (an `<img>` in a question would have to be created to exist).
 * For code that patches lists in place (client/src/lib/keyed-list.ts) it also moves nodes
 * (`insertBefore`, `replaceWith`, `after`), finds them by one simple selector (a tag, `.class`,
 * `#id` or `[attribute="value"]`, compound, no combinators), and keeps the focus: `focus()`
 * makes an element the document's `activeElement`, and taking it out of the document blurs it,
 * as a browser does. `moves` counts the nodes put in a place among their siblings.
 */
import { afterAll, beforeAll } from "bun:test";

/** The document installed now (focus and blur need it). */
let current: FakeDocument | null = null;

class FakeNode {
  parentNode: FakeElement | null = null;
  readonly childNodes: FakeNode[] = [];
  get textContent(): string {
    return this.childNodes.map((c) => c.textContent).join("");
  }
  set textContent(text: string) {
    for (const c of [...this.childNodes]) c.remove();
    if (text !== "") (this as unknown as FakeElement).appendChild(new FakeText(text));
  }
  get nextSibling(): FakeNode | null {
    const siblings = this.parentNode?.childNodes;
    return siblings?.[siblings.indexOf(this) + 1] ?? null;
  }
  /** In the document: under its body (or the body itself). */
  get isConnected(): boolean {
    let node: FakeNode | null = this;
    while (node.parentNode) node = node.parentNode;
    return (node as FakeNode) === (current?.body as FakeNode | undefined);
  }
  remove(): void {
    const parent = this.parentNode;
    if (!parent) return;
    parent.childNodes.splice(parent.childNodes.indexOf(this), 1);
    this.parentNode = null;
    // Out of the document, the focused element loses the focus.
    const active = current?.activeElement;
    if (active && ((active as FakeNode) === this || (this instanceof FakeElement && this.contains(active)))) current!.activeElement = current!.body;
  }
  replaceWith(node: FakeNode): void {
    const parent = this.parentNode;
    if (!parent) return;
    parent.insertBefore(node, this);
    this.remove();
  }
  after(node: FakeNode): void {
    this.parentNode?.insertBefore(node, this.nextSibling);
  }
}

class FakeText extends FakeNode {
  constructor(readonly data: string) {
    super();
  }
  override get textContent(): string {
    return this.data;
  }
}

export class FakeElement extends FakeNode {
  readonly attributes = new Map<string, string>();
  readonly listeners = new Map<string, EventListener[]>();
  readonly style: Record<string, string> = {};
  className = "";
  constructor(
    readonly tagName: string,
    readonly namespaceURI: string | null = "http://www.w3.org/1999/xhtml",
  ) {
    super();
  }
  setAttribute(name: string, value: string): void {
    this.attributes.set(name, String(value));
  }
  getAttribute(name: string): string | null {
    return this.attributes.get(name) ?? null;
  }
  hasAttribute(name: string): boolean {
    return this.attributes.has(name);
  }
  addEventListener(type: string, fn: EventListener): void {
    this.listeners.set(type, [...(this.listeners.get(type) ?? []), fn]);
  }
  /** Nodes put in a place among this element's children (appended or inserted). */
  moves = 0;
  get id(): string {
    return this.getAttribute("id") ?? "";
  }
  get hidden(): boolean {
    return this.hasAttribute("hidden");
  }
  set hidden(on: boolean) {
    if (on) this.attributes.set("hidden", "");
    else this.attributes.delete("hidden");
  }
  disabled = false;
  readonly dataset: Record<string, string> = {};
  readonly classList = {
    contains: (name: string) => this.className.split(/\s+/).includes(name),
    toggle: (name: string, on?: boolean) => {
      const has = this.classList.contains(name);
      const want = on ?? !has;
      if (want && !has) this.className = `${this.className} ${name}`.trim();
      if (!want && has) this.className = this.className.split(/\s+/).filter((c) => c !== name).join(" ");
      return want;
    },
  };
  appendChild<T extends FakeNode>(child: T): T {
    return this.insertBefore(child, null);
  }
  insertBefore<T extends FakeNode>(child: T, before: FakeNode | null): T {
    if (before && before.parentNode !== this) throw new Error("insertBefore: the reference node is not a child");
    child.remove();
    child.parentNode = this;
    this.childNodes.splice(before ? this.childNodes.indexOf(before) : this.childNodes.length, 0, child);
    this.moves++;
    return child;
  }
  contains(node: FakeNode | null): boolean {
    for (let n = node; n; n = n.parentNode) if (n === this) return true;
    return false;
  }
  get children(): FakeElement[] {
    return this.childNodes.filter((c): c is FakeElement => c instanceof FakeElement);
  }
  focus(): void {
    if (current && this.isConnected) current.activeElement = this;
  }
  matches(selector: string): boolean {
    return matchesSimple(this, selector);
  }
  querySelector<T = FakeElement>(selector: string): T | null {
    return (this.descendants().find((el) => matchesSimple(el, selector)) ?? null) as T | null;
  }
  querySelectorAll(selector: string): FakeElement[] {
    return this.descendants().filter((el) => matchesSimple(el, selector));
  }
  getAttributeNames(): string[] {
    return [...this.attributes.keys()];
  }
  append(...children: FakeNode[]): void {
    for (const c of children) this.appendChild(c);
  }
  replaceChildren(...children: FakeNode[]): void {
    for (const c of [...this.childNodes]) c.remove();
    this.append(...children);
  }
  /** Every element below this one, depth first. */
  descendants(): FakeElement[] {
    return this.childNodes.flatMap((c) => (c instanceof FakeElement ? [c, ...c.descendants()] : []));
  }
  set innerHTML(_html: string) {
    throw new Error("innerHTML was set: text must go in as text");
  }
  set outerHTML(_html: string) {
    throw new Error("outerHTML was set: text must go in as text");
  }
  insertAdjacentHTML(): void {
    throw new Error("insertAdjacentHTML was called: text must go in as text");
  }
}

/** One compound selector of tags, `.classes`, `#id` and `[attribute="value"]`s. */
function matchesSimple(el: FakeElement, selector: string): boolean {
  const parts = selector.match(/^[a-z0-9-]+|\.[\w-]+|#[\w-]+|\[[\w-]+(?:="[^"]*")?\]/gi) ?? [];
  if (parts.join("") !== selector) throw new Error(`the fake document does not understand the selector ${selector}`);
  return parts.every((part) => {
    if (part.startsWith(".")) return el.className.split(/\s+/).includes(part.slice(1));
    if (part.startsWith("#")) return el.getAttribute("id") === part.slice(1);
    if (part.startsWith("[")) {
      const [, name, value] = /^\[([\w-]+)(?:="([^"]*)")?\]$/.exec(part)!;
      return value === undefined ? el.hasAttribute(name!) : el.getAttribute(name!) === value;
    }
    return el.tagName === part.toLowerCase();
  });
}

export interface FakeDocument {
  /** Tag names of every element created, in order. */
  created: string[];
  createElement(tag: string): FakeElement;
  /** SVG and the like: the tag is kept as written (SVG's names are case-sensitive). */
  createElementNS(namespace: string, tag: string): FakeElement;
  createTextNode(text: string): FakeText;
  body: FakeElement;
  activeElement: FakeElement;
  /** Listeners on the document itself, by event type. */
  listeners: Map<string, EventListener[]>;
  addEventListener(type: string, fn: EventListener): void;
  /** Call the document's listeners of `type` with an event whose target is `target`. */
  dispatch(type: string, target: FakeElement): void;
}

/** The fake document for the tests of one file: installed before its first test, taken away after its last. */
export function fakeDocumentForFile(): () => FakeDocument {
  let fake: ReturnType<typeof installFakeDocument> | null = null;
  beforeAll(() => void (fake = installFakeDocument()));
  afterAll(() => fake?.uninstall());
  return () => fake!.doc;
}

/** Install a fake `document` (and `CSS.escape`) as the global ones; returns it and a function that takes them away again. */
export function installFakeDocument(): { doc: FakeDocument; uninstall: () => void } {
  const created: string[] = [];
  const body = new FakeElement("body");
  const doc: FakeDocument = {
    created,
    createElement(tag) {
      created.push(tag.toLowerCase());
      return new FakeElement(tag.toLowerCase());
    },
    createElementNS(namespace, tag) {
      created.push(tag);
      return new FakeElement(tag, namespace);
    },
    createTextNode: (text) => new FakeText(text),
    body,
    activeElement: body,
    listeners: new Map(),
    addEventListener(type, fn) {
      doc.listeners.set(type, [...(doc.listeners.get(type) ?? []), fn]);
    },
    dispatch(type, target) {
      for (const fn of doc.listeners.get(type) ?? []) fn({ type, target } as unknown as Event);
    },
  };
  const g = globalThis as { document?: unknown; CSS?: unknown };
  const before = { document: g.document, css: g.CSS };
  g.document = doc;
  g.CSS ??= { escape: (text: string) => text.replace(/["\\]/g, "\\$&") };
  current = doc;
  return {
    doc,
    uninstall: () => {
      current = null;
      if (before.document === undefined) delete g.document;
      else g.document = before.document;
      if (before.css === undefined) delete g.CSS;
      else g.CSS = before.css;
    },
  };
}
