/**
 * @module deck/sidecar/typst
 * Render a Typst content tree (as `typst query` / `json.encode` serialises content: objects
 * with a `func` and its fields) to markdown. Unknown elements keep their text and are
 * reported once each. Browser-safe; iterative depth is bounded against hostile nesting.
 */

/** Nested content deeper than this is cut off: no real note nests 64 levels. */
const MAX_DEPTH = 64;

export interface TypstRender {
  markdown: string;
  /** `func` names without a markdown equivalent, each listed once. */
  unsupported: string[];
}

/**
 * Markdown metacharacters in Typst text are literal characters: escape them. Only with the
 * backslashes CommonMark honours (before ASCII punctuation): a line's "1. " becomes "1\. ", not
 * "\1. ", which a renderer shows with its backslash.
 */
export function escapeMarkdown(text: string): string {
  return text
    .replace(/[\\`*_[\]<>~|]/g, (c) => `\\${c}`)
    .replace(/^(\s*)([#>+-]|(\d+)([.)]))(\s)/gm, (_m, ws: string, mark: string, digits: string | undefined, close: string | undefined, sp: string) => (digits ? `${ws}${digits}\\${close}${sp}` : `${ws}\\${mark}${sp}`));
}

type Node = Record<string, unknown>;

function isNode(value: unknown): value is Node {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Elements that only wrap their content for layout or style: their content is kept as is. */
const TRANSPARENT = new Set(["styled", "box", "block", "align", "pad", "par", "place", "hide", "move", "scale", "rotate", "text-style", "context", "columns", "colbreak", "underline", "overline", "smallcaps", "highlight", "sub", "super", "cite", "ref", "figure", "caption", "footnote", "grid", "table", "cell", "terms", "stack", "repeat", "layout", "metadata", "counter", "state", "label"]);

export function renderTypst(root: unknown): TypstRender {
  const unsupported = new Set<string>();

  const render = (value: unknown, depth: number): string => {
    if (depth > MAX_DEPTH) return "";
    if (typeof value === "string") return escapeMarkdown(value);
    if (typeof value === "number" || typeof value === "boolean") return escapeMarkdown(String(value));
    if (Array.isArray(value)) return value.map((v) => render(v, depth + 1)).join("");
    if (!isNode(value)) return "";
    const func = typeof value.func === "string" ? value.func : "";
    const body = () => render(value.body ?? value.child ?? value.children ?? value.text ?? "", depth + 1);
    switch (func) {
      case "sequence":
        return Array.isArray(value.children) ? value.children.map((v) => render(v, depth + 1)).join("") : "";
      case "text":
        return typeof value.text === "string" ? escapeMarkdown(value.text) : body();
      case "space":
        return " ";
      case "linebreak":
        return "\\\n";
      case "parbreak":
        return "\n\n";
      case "h":
        return " ";
      case "v":
        return "\n";
      case "smartquote":
        return value.double === false ? "'" : '"';
      case "symbol":
        return typeof value.text === "string" ? escapeMarkdown(value.text) : "";
      case "strong":
        return wrapInline("**", body());
      case "emph":
        return wrapInline("_", body());
      case "strike":
        return wrapInline("~~", body());
      case "raw": {
        const text = typeof value.text === "string" ? value.text : "";
        if (value.block === true) {
          const lang = typeof value.lang === "string" ? value.lang.replace(/[^A-Za-z0-9_+-]/g, "") : "";
          const fence = text.includes("```") ? "~~~~" : "```";
          return `\n\n${fence}${lang}\n${text}\n${fence}\n\n`;
        }
        const ticks = text.includes("`") ? "`` " : "`";
        return `${ticks}${text}${ticks === "`` " ? " ``" : "`"}`;
      }
      case "link": {
        const dest = typeof value.dest === "string" ? value.dest : null;
        const label = body() || (dest ? escapeMarkdown(dest) : "");
        if (!dest || !/^(https?:|mailto:)/i.test(dest)) return label;
        const safe = dest.replace(/[<>\s]/g, encodeURIComponent);
        return /[()]/.test(safe) ? `[${label}](<${safe}>)` : `[${label}](${safe})`;
      }
      case "heading": {
        const raw = typeof value.level === "number" ? value.level : typeof value.depth === "number" ? value.depth : 1;
        const level = Math.min(Math.max(Math.trunc(raw) || 1, 1), 6);
        return `\n\n${"#".repeat(level)} ${body().trim()}\n\n`;
      }
      case "list":
        return `\n\n${listItems(value, depth, () => "- ")}\n\n`;
      case "enum": {
        const start = typeof value.start === "number" ? Math.trunc(value.start) : 1;
        return `\n\n${listItems(value, depth, (i, item) => `${typeof item.number === "number" ? Math.trunc(item.number) : start + i}. `)}\n\n`;
      }
      case "item":
      case "list.item":
        return `\n- ${indentContinuation(body().trim())}\n`;
      case "enum.item":
        return `\n${typeof value.number === "number" ? Math.trunc(value.number) : 1}. ${indentContinuation(body().trim())}\n`;
      case "quote":
        return `\n\n${body().trim().split("\n").map((line) => `> ${line}`).join("\n")}\n\n`;
      case "equation":
      case "math.equation":
        return `$${plainText(value.body, depth + 1)}$`;
      case "image":
        return typeof value.alt === "string" ? escapeMarkdown(value.alt) : "";
      default:
        if (!TRANSPARENT.has(func)) unsupported.add(func || "(no func)");
        return body();
    }
  };

  const listItems = (node: Node, depth: number, marker: (i: number, item: Node) => string): string => {
    const children = Array.isArray(node.children) ? node.children : [];
    return children
      .map((child, i) => {
        const item = isNode(child) ? child : {};
        const content = isNode(child) && (child.func === "item" || child.func === "list.item" || child.func === "enum.item") ? render(child.body ?? "", depth + 2) : render(child, depth + 2);
        return `${marker(i, item)}${indentContinuation(content.trim())}`;
      })
      .join("\n");
  };

  const plainText = (value: unknown, depth: number): string => {
    if (depth > MAX_DEPTH) return "";
    if (typeof value === "string") return value;
    if (Array.isArray(value)) return value.map((v) => plainText(v, depth + 1)).join("");
    if (!isNode(value)) return "";
    if (typeof value.text === "string") return value.text;
    if (value.func === "space") return " ";
    return plainText(value.body ?? value.children ?? value.child ?? "", depth + 1);
  };

  const markdown = tidy(render(root, 0));
  return { markdown, unsupported: [...unsupported] };
}

function wrapInline(marker: string, inner: string): string {
  const trimmed = inner.trim();
  if (!trimmed) return inner;
  // Markdown emphasis must hug its text: keep surrounding spaces outside the markers.
  const lead = inner.slice(0, inner.length - inner.trimStart().length);
  const trail = inner.slice(inner.trimEnd().length);
  return `${lead}${marker}${trimmed}${marker}${trail}`;
}

function indentContinuation(text: string): string {
  return text.replace(/\n/g, "\n  ");
}

/** Collapse the blank lines that block elements produce and trim the ends. */
export function tidy(markdown: string): string {
  return markdown
    .replace(/[ \t]+\n/g, (m) => (m.startsWith("\\") ? m : "\n"))
    .replace(/\n{3,}/g, "\n\n")
    // Consecutive loose `item` elements form one tight list.
    .replace(/(?<=(?:^|\n)- [^\n]*)\n\n(?=- )/g, "\n")
    .trim();
}
