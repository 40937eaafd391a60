/**
 * A small stand-in for the browser's document, for client code that builds DOM with
 * client/src/lib/dom.ts (createElement, text nodes, attributes, listeners). It has no HTML
 * parser at all: setting innerHTML or outerHTML, or insertAdjacentHTML, throws — so a test
 * that renders hostile text proves the code never asks for HTML, and `created` lists every
 * element the code made (an `<img>` in a question would have to be created to exist).
 */

class FakeNode {
  parentNode: FakeElement | null = null;
  readonly childNodes: FakeNode[] = [];
  get textContent(): string {
    return this.childNodes.map((c) => c.textContent).join("");
  }
  remove(): void {
    const parent = this.parentNode;
    if (!parent) return;
    parent.childNodes.splice(parent.childNodes.indexOf(this), 1);
    this.parentNode = null;
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
  appendChild<T extends FakeNode>(child: T): T {
    child.remove();
    child.parentNode = this;
    this.childNodes.push(child);
    return child;
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

export interface FakeDocument {
  /** Tag names of every element created, in order. */
  created: string[];
  createElement(tag: string): FakeElement;
  /** SVG and the like: the tag is kept as written (SVG's names are case-sensitive). */
  createElementNS(namespace: string, tag: string): FakeElement;
  createTextNode(text: string): FakeText;
}

/** Install a fake `document` as the global one; returns it and a function that takes it away again. */
export function installFakeDocument(): { doc: FakeDocument; uninstall: () => void } {
  const created: string[] = [];
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
  };
  const g = globalThis as { document?: unknown };
  const before = g.document;
  g.document = doc;
  return { doc, uninstall: () => (before === undefined ? delete g.document : (g.document = before)) };
}
