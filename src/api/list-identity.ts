/**
 * Which list a URL asks for: its path and every query parameter but the page parameters. A
 * links.next must name the same list as the first request (docs/api-assumptions.md, "Lists read page
 * by page"): a next page of another venue's roles, read as this venue's, would close every role the
 * other list lacks. What a server may change from page to page is the `page` family alone
 * (JSON:API reserves it for pagination): `page[number]`, `page[size]` (a server may clamp it),
 * or a `page[cursor]` instead of a number.
 */

/** `page`, `page[number]`, `page[size]`, `page[cursor]`, `page[after]`… */
export function isPageParameter(name: string): boolean {
  return name === 'page' || name.startsWith('page[');
}

/**
 * What `next` changes of the list `first` asks for, as "changes filter[venue]" or "changes the
 * path"; undefined when it names the same list. Compared after percent-decoding (`%5B` is `[`,
 * `%2C` is `,`, `+` is a space in a query) and regardless of parameter order; values are
 * compared as sent otherwise (an id in other letters is another value). Names only, never values:
 * a value may be a credential.
 */
export function listChange(first: URL, next: URL): string | undefined {
  if (decodedPath(first) !== decodedPath(next)) return 'changes the path';
  const before = listParameters(first);
  const after = listParameters(next);
  const names = [...new Set([...before.keys(), ...after.keys()])].sort();
  const changed = names.filter((name) => !sameValues(before.get(name), after.get(name)));
  if (changed.length === 0) return undefined;
  const how = (name: string): string => (!after.has(name) ? `drops ${name}` : !before.has(name) ? `adds ${name}` : `changes ${name}`);
  return changed.map(how).join(', ');
}

/** Non-page parameters → their values, sorted (a parameter may repeat). */
function listParameters(url: URL): Map<string, string[]> {
  const parameters = new Map<string, string[]>();
  for (const [name, value] of url.searchParams) {
    if (isPageParameter(name)) continue;
    const values = parameters.get(name) ?? [];
    values.push(value);
    parameters.set(name, values);
  }
  for (const values of parameters.values()) values.sort();
  return parameters;
}

function sameValues(a: readonly string[] | undefined, b: readonly string[] | undefined): boolean {
  return a !== undefined && b !== undefined && a.length === b.length && a.every((value, index) => value === b[index]);
}

/** The path with each segment percent-decoded (`/core/venue%2Droles/` is `/core/venue-roles/`). */
function decodedPath(url: URL): string {
  return url.pathname
    .split('/')
    .map((segment) => {
      try {
        // An encoded slash stays one: it is part of the segment, not a separator.
        return decodeURIComponent(segment).replaceAll('/', '%2F');
      } catch {
        return segment;
      }
    })
    .join('/');
}
