import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const SRC = resolve(dirname(fileURLToPath(import.meta.url)), '../../src');

/** Folders every other one may use: they import no other folder of src/. */
const FOUNDATION = ['calendar', 'errors', 'infra'];

const IMPORT = /(?:\bfrom\s*|\bimport\s*\(?\s*)'(\.{1,2}\/[^']+)'/g;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

/** The top folder under src/ of a file (`(root)` for src/cli.ts). */
function folderOf(path: string): string {
  const parts = relative(SRC, path).split(sep);
  return parts.length === 1 ? '(root)' : parts[0];
}

/** folder -> the folders its files import, each with one file that does it (for the message). */
function folderGraph(): Map<string, Map<string, string>> {
  const graph = new Map<string, Map<string, string>>();
  for (const file of sourceFiles(SRC)) {
    const from = folderOf(file);
    const edges = graph.get(from) ?? new Map<string, string>();
    graph.set(from, edges);
    for (const match of readFileSync(file, 'utf8').matchAll(IMPORT)) {
      const target = resolve(dirname(file), match[1]);
      if (!target.startsWith(SRC + sep)) continue;
      const to = folderOf(target);
      if (to !== from && !edges.has(to)) edges.set(to, `${relative(SRC, file)} imports ${match[1]}`);
    }
  }
  return graph;
}

/**
 * file -> the files it imports (relative to src/, e.g. `warehouse/open.ts`), each with the import
 * as written. Type-only imports count: a reader follows them as much as any other.
 */
function fileGraph(): Map<string, Map<string, string>> {
  const graph = new Map<string, Map<string, string>>();
  for (const file of sourceFiles(SRC)) {
    const edges = new Map<string, string>();
    graph.set(relative(SRC, file), edges);
    for (const match of readFileSync(file, 'utf8').matchAll(IMPORT)) {
      const target = resolve(dirname(file), match[1]).replace(/\.js$/, '.ts');
      if (target.startsWith(SRC + sep)) edges.set(relative(SRC, target), `imports ${match[1]}`);
    }
  }
  return graph;
}

/** Strongly connected components with more than one node: each is a set of folders (or files) in a cycle (Tarjan). */
function cycles(graph: Map<string, Map<string, string>>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (node: string): void => {
    index.set(node, index.size);
    low.set(node, index.get(node)!);
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node)?.keys() ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node)!, low.get(next)!));
      } else if (onStack.has(next)) {
        low.set(node, Math.min(low.get(node)!, index.get(next)!));
      }
    }
    if (low.get(node) !== index.get(node)) return;
    const component: string[] = [];
    for (let member = stack.pop(); member !== undefined; member = stack.pop()) {
      onStack.delete(member);
      component.push(member);
      if (member === node) break;
    }
    if (component.length > 1) found.push(component.sort());
  };
  for (const node of graph.keys()) if (!index.has(node)) visit(node);
  return found;
}

const describeCycle = (graph: Map<string, Map<string, string>>, members: readonly string[]): string =>
  members.flatMap((from) => members.filter((to) => graph.get(from)?.has(to)).map((to) => `${from} -> ${to} (${graph.get(from)!.get(to)})`)).join('; ');

describe('the folders of src/', () => {
  const graph = folderGraph();

  it('sees the imports it checks', () => {
    // The check is only worth something if it finds the edges that certainly exist.
    expect(graph.get('cli')?.has('runner')).toBe(true);
    expect(graph.get('runner')?.has('api')).toBe(true);
    expect(graph.size).toBeGreaterThan(15);
  });

  it('import each other without cycles', () => {
    expect(cycles(graph).map((members) => describeCycle(graph, members))).toEqual([]);
  });

  it('keep the foundation free of every other folder', () => {
    const upward = FOUNDATION.flatMap((folder) =>
      [...(graph.get(folder) ?? new Map<string, string>()).entries()].map(([to, where]) => `${folder} -> ${to} (${where})`),
    );
    expect(upward).toEqual([]);
  });
});

describe('the files of src/', () => {
  const graph = fileGraph();

  it('sees the imports it checks', () => {
    expect(graph.get('cli/main.ts')?.has('cli/commands/index.ts')).toBe(true);
    expect(graph.get('warehouse/open.ts')?.has('warehouse/warehouse.ts')).toBe(true);
    expect(graph.size).toBeGreaterThan(300);
  });

  // A circle between files is the one a folder check cannot see: a file that every writer imports
  // reaching back to the warehouse's opener tied 18 files of warehouse/ into one knot.
  it('import each other without cycles', () => {
    expect(cycles(graph).map((members) => describeCycle(graph, members))).toEqual([]);
  });
});
