/**
 * @module deck/name-tree
 * The `EmbeddedFiles` name tree of a PDF, walked iteratively with a visited set and caps
 * (mupdf's own walker overflows the stack on looping `Kids`): each (name, file specification)
 * pair in document order, and loops, excess depth or size and malformed nodes as findings.
 * Browser-safe: the mupdf document comes in as a parameter.
 */
import { finding, type Finding } from "./sidecar/findings.ts";
import type { PdfDoc, PdfObj } from "./mupdf-types.ts";

/** The caps of the walk (deck/attachments' DiscoveryLimits carries them). */
export interface NameTreeLimits {
  maxNameTreeNodes: number;
  maxNameTreeDepth: number;
}

/**
 * Walk `/Root /Names /EmbeddedFiles` depth-first in document order and call `visit` for each
 * (key, value) leaf pair. Loops, excess depth, excess size and malformed nodes become findings.
 */
export function walkEmbeddedFiles(doc: PdfDoc, limits: NameTreeLimits, issues: Finding[], visit: (key: string, value: PdfObj) => void): void {
  const root = doc.getTrailer().get("Root", "Names", "EmbeddedFiles");
  if (root.isNull()) return;
  const stack: { node: PdfObj; depth: number }[] = [{ node: root, depth: 0 }];
  const visited = new Set<number>();
  let nodes = 0;
  const reported = new Set<string>();
  const once = (code: "NAME_TREE_LOOP" | "NAME_TREE_TOO_DEEP" | "NAME_TREE_TOO_LARGE" | "NAME_TREE_MALFORMED", message: string) => {
    if (reported.has(code)) return;
    reported.add(code);
    issues.push(finding(code, message));
  };
  while (stack.length > 0) {
    const { node, depth } = stack.pop() as { node: PdfObj; depth: number };
    if (node.isIndirect()) {
      const number = node.asIndirect();
      if (visited.has(number)) {
        once("NAME_TREE_LOOP", "The attachment list (EmbeddedFiles name tree) has a Kids entry that points back to a node already read; the loop was skipped. Re-save the PDF with a current tool to rebuild it.");
        continue;
      }
      visited.add(number);
    }
    if (++nodes > limits.maxNameTreeNodes) {
      once("NAME_TREE_TOO_LARGE", `The attachment list (EmbeddedFiles name tree) has more than ${limits.maxNameTreeNodes} nodes; the rest were skipped.`);
      break;
    }
    if (!node.isDictionary()) {
      once("NAME_TREE_MALFORMED", "The attachment list (EmbeddedFiles name tree) has a node that is not a dictionary; it was skipped.");
      continue;
    }
    const names = node.get("Names");
    const kids = node.get("Kids");
    if (names.isArray()) readNamePairs(names, issues, once, visit);
    else if (!names.isNull()) once("NAME_TREE_MALFORMED", "The attachment list (EmbeddedFiles name tree) has a /Names entry that is not an array; it was skipped.");
    if (kids.isArray()) {
      if (depth + 1 > limits.maxNameTreeDepth) {
        once("NAME_TREE_TOO_DEEP", `The attachment list (EmbeddedFiles name tree) is deeper than ${limits.maxNameTreeDepth} levels; deeper nodes were skipped.`);
      } else {
        const count = kids.length;
        if (stack.length + count + nodes > limits.maxNameTreeNodes + 1) {
          once("NAME_TREE_TOO_LARGE", `The attachment list (EmbeddedFiles name tree) has more than ${limits.maxNameTreeNodes} nodes; the rest were skipped.`);
        }
        const room = Math.max(0, Math.min(count, limits.maxNameTreeNodes + 1 - nodes - stack.length));
        // Pushed in reverse so that the first kid is read first (document order).
        for (let i = room - 1; i >= 0; i--) stack.push({ node: kids.get(i), depth: depth + 1 });
      }
    } else if (!kids.isNull()) once("NAME_TREE_MALFORMED", "The attachment list (EmbeddedFiles name tree) has a /Kids entry that is not an array; it was skipped.");
    if (names.isNull() && kids.isNull()) once("NAME_TREE_MALFORMED", "The attachment list (EmbeddedFiles name tree) has a node with neither /Names nor /Kids; it was skipped.");
  }
}

function readNamePairs(
  names: PdfObj,
  _issues: Finding[],
  once: (code: "NAME_TREE_MALFORMED", message: string) => void,
  visit: (key: string, value: PdfObj) => void,
): void {
  const length = names.length;
  if (length % 2 !== 0) once("NAME_TREE_MALFORMED", "The attachment list (EmbeddedFiles name tree) has a /Names array of odd length; its last entry was skipped.");
  for (let i = 0; i + 1 < length; i += 2) {
    const key = names.get(i);
    if (!key.isString()) {
      once("NAME_TREE_MALFORMED", "The attachment list (EmbeddedFiles name tree) has a name that is not a string; that entry was skipped.");
      continue;
    }
    visit(key.asString(), names.get(i + 1));
  }
}
