import { dirname, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { API } from 'typescript/unstable/sync';
import {
  isArrowFunction,
  isConstructorDeclaration,
  isFunctionDeclaration,
  isFunctionExpression,
  isGetAccessorDeclaration,
  isMethodDeclaration,
  isPropertyAssignment,
  isPropertyDeclaration,
  isSetAccessorDeclaration,
  isVariableDeclaration,
  type Node,
  type SourceFile,
} from 'typescript/unstable/ast';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const SRC = resolve(ROOT, 'src');

/** The house rule (docs/development.md, "Functions and imports"): no function in src/ over 100 lines. */
const MAX_LINES = 100;
/** The rate limiter is read in five minutes (docs/rate-limits.md): its functions stay under 60 lines. */
const RATE_LIMIT_FILES = ['rate-learner.ts', 'throttle.ts', 'token-bucket.ts', 'rate-meter.ts', 'rate-limit-headers.ts'].map((file) => `api/${file}`);
const RATE_LIMIT_MAX_LINES = 60;

interface FunctionSpan {
  /** `folder/file.ts name`, e.g. `export/export-parquet.ts exportParquet`. */
  readonly id: string;
  readonly line: number;
  readonly lines: number;
}

function isFunctionLike(node: Node): boolean {
  return (
    isFunctionDeclaration(node) ||
    isFunctionExpression(node) ||
    isArrowFunction(node) ||
    isMethodDeclaration(node) ||
    isConstructorDeclaration(node) ||
    isGetAccessorDeclaration(node) ||
    isSetAccessorDeclaration(node)
  );
}

/** The function's own name, or the name it is given (`const f = () => …`, `{ run() {…} }`, `run: async () => …`). */
function nameOf(node: Node, file: SourceFile): string {
  const named = node as Node & { readonly name?: Node };
  if (named.name !== undefined) return named.name.getText(file);
  const parent = node.parent;
  if (parent !== undefined && (isVariableDeclaration(parent) || isPropertyAssignment(parent) || isPropertyDeclaration(parent)))
    return parent.name.getText(file);
  return '(anonymous)';
}

/** Every function with a body in a file, nested ones too, with its lines from its first token to its last. */
function functionsOf(file: SourceFile): FunctionSpan[] {
  const spans: FunctionSpan[] = [];
  const path = relative(SRC, file.fileName).split(sep).join('/');
  const visit = (node: Node): void => {
    if (isFunctionLike(node) && (node as Node & { readonly body?: Node }).body !== undefined) {
      const first = file.getLineAndCharacterOfPosition(node.getStart(file)).line;
      const last = file.getLineAndCharacterOfPosition(node.end).line;
      spans.push({ id: `${path} ${nameOf(node, file)}`, line: first + 1, lines: last - first + 1 });
    }
    node.forEachChild(visit);
  };
  file.forEachChild(visit);
  return spans;
}

describe('the functions of src/', () => {
  let api: API;
  let spans: FunctionSpan[];

  beforeAll(() => {
    // The compiler's own parser (the TypeScript API runs the compiler as a child process).
    api = new API({ cwd: ROOT });
    const project = api.updateSnapshot({ openProjects: [resolve(ROOT, 'tsconfig.json')] }).getProject(resolve(ROOT, 'tsconfig.json'));
    if (project === undefined) throw new Error('tsconfig.json did not load as a project');
    const files = project.program.getSourceFileNames().filter((name) => name.startsWith(SRC + sep) && !name.endsWith('.d.ts'));
    spans = files.flatMap((name) => {
      const file = project.program.getSourceFile(name);
      if (file === undefined) throw new Error(`no source file for ${name}`);
      return functionsOf(file);
    });
  });

  afterAll(() => api?.close());

  it('are all seen, with their lengths', () => {
    // The check is only worth something if it sees the functions that certainly exist.
    expect(spans.length).toBeGreaterThan(1500);
    const exportParquet = spans.find((span) => span.id === 'export/export-parquet.ts exportParquet');
    expect(exportParquet?.lines).toBeGreaterThan(10);
    expect(spans.some((span) => span.id === 'cli/main.ts runCli')).toBe(true);
  });

  it(`are at most ${MAX_LINES} lines long`, () => {
    const over = spans
      .filter((span) => span.lines > MAX_LINES)
      .sort((a, b) => b.lines - a.lines)
      .map((span) => `${span.id} (line ${span.line}): ${span.lines} lines`);
    expect(over).toEqual([]);
  });

  it(`are at most ${RATE_LIMIT_MAX_LINES} lines long in the rate limiter`, () => {
    const ofRateLimiter = spans.filter((span) => RATE_LIMIT_FILES.includes(span.id.split(' ')[0]!));
    expect(ofRateLimiter.length).toBeGreaterThan(15);
    const over = ofRateLimiter.filter((span) => span.lines > RATE_LIMIT_MAX_LINES).map((span) => `${span.id} (line ${span.line}): ${span.lines} lines`);
    expect(over).toEqual([]);
  });
});
