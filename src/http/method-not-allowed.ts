/**
 * @module http/method-not-allowed
 * The router answers 404 for a path it knows under another method (`PUT /api/present`);
 * HTTP says 405 with `Allow` naming the methods that path takes (RFC 9110 §15.5.6). The
 * app's routes are the source of truth: a path matches a route pattern with `:param`
 * segments; the client's catch-all (`*`) routes are no evidence for a method.
 */

interface RouteLike {
  method: string;
  path: string;
}

const patterns = new WeakMap<readonly RouteLike[], Array<{ method: string; pattern: RegExp }>>();

function compile(routes: readonly RouteLike[]): Array<{ method: string; pattern: RegExp }> {
  let compiled = patterns.get(routes);
  if (!compiled) {
    compiled = routes
      .filter((r) => !r.path.includes("*") && /^[A-Z]+$/.test(r.method))
      .map((r) => ({
        method: r.method,
        pattern: new RegExp(`^${r.path.split("/").map((s) => (s.startsWith(":") ? "[^/]+" : s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"))).join("/")}/?$`),
      }));
    patterns.set(routes, compiled);
  }
  return compiled;
}

/** The methods `path` is served with (GET implies HEAD), sorted; empty for an unknown path. */
export function allowedMethods(routes: readonly RouteLike[], path: string): string[] {
  const methods = new Set(compile(routes).filter((r) => r.pattern.test(path)).map((r) => r.method));
  if (methods.has("GET")) methods.add("HEAD");
  return [...methods].sort();
}
