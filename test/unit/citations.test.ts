import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * Citations in the repository point at documents the repository holds: the README's sections
 * and the pages of docs/. The public contract and the upstream API description that code once
 * cited by section number live outside the repository, so such a citation leads a reader nowhere.
 */

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const SCANNED = ['src', 'sql', 'test', 'bench', 'jobs'];

// Built from parts so that this file does not match its own patterns.
const SECTION = '\u00a7';
const FORBIDDEN: readonly { readonly name: string; readonly pattern: RegExp }[] = [
  { name: 'the public contract by section number', pattern: new RegExp(['contract', SECTION].join(' '), 'i') },
  { name: 'the upstream API description as "spec" and a section number', pattern: new RegExp(`\\bspec (${SECTION}|\\d|section \\d)`, 'i') },
  { name: 'a path into the shared folder', pattern: new RegExp(['\\.\\.', 'shared'].join('/')) },
];

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    return entry.isDirectory() ? filesUnder(path) : [path];
  });
}

/** `path:line: text` of every line matching the pattern, in the scanned folders. */
function linesMatching(pattern: RegExp): string[] {
  return SCANNED.flatMap((folder) => filesUnder(join(ROOT, folder))).flatMap((file) =>
    readFileSync(file, 'utf8')
      .split('\n')
      .flatMap((line, n) => (pattern.test(line) ? [`${relative(ROOT, file)}:${n + 1}: ${line.trim()}`] : [])),
  );
}

/** The section of a markdown file from its `## title` heading to the next `## ` heading. */
function section(markdown: string, title: string): string {
  const start = markdown.indexOf(`\n## ${title}\n`);
  if (start < 0) throw new Error(`no "## ${title}" section`);
  const end = markdown.indexOf('\n## ', start + 1);
  return markdown.slice(start, end < 0 ? undefined : end);
}

/** Folders named in the first column of the README's folder table ("How it works"). */
function foldersInReadme(): Set<string> {
  const table = section(readFileSync(join(ROOT, 'README.md'), 'utf8'), 'How it works');
  return new Set([...table.matchAll(/^\| `([^`]+?)\/` \|/gm)].map((match) => match[1]));
}

describe('citations', () => {
  for (const { name, pattern } of FORBIDDEN) {
    it(`no file under ${SCANNED.join('/, ')}/ cites ${name}: a README section or a docs/ page instead`, () => {
      expect(linesMatching(pattern)).toEqual([]);
    });
  }

  it('every "docs/api.md §n" names a section of docs/api.md', () => {
    const api = readFileSync(join(ROOT, 'docs/api.md'), 'utf8');
    // Headings "## 6. Upsert event", "### 2.1 Statistics resources", and the endpoint rows "| 4.12 |".
    const known = new Set([...api.matchAll(/^(?:#{2,3} (\d+(?:\.\d+)?)\.? |\| (\d+\.\d+) \|)/gm)].map((m) => m[1] ?? m[2]));
    const cited = linesMatching(new RegExp(`docs/api\\.md ${SECTION}\\d`)).flatMap((line) =>
      [...line.matchAll(new RegExp(`docs/api\\.md ${SECTION}(\\d+(?:\\.\\d+)?)`, 'g'))].map((m) => ({ line, number: m[1] })),
    );
    expect(cited.length).toBeGreaterThan(0);
    expect(cited.filter(({ number }) => !known.has(number)).map(({ line, number }) => `${SECTION}${number} in ${line}`)).toEqual([]);
  });
});

describe("the README's folder table", () => {
  const listed = foldersInReadme();

  it('lists every folder of src/', () => {
    const folders = readdirSync(join(ROOT, 'src'), { withFileTypes: true })
      .filter((e) => e.isDirectory())
      .map((e) => `src/${e.name}`);
    expect(folders.length).toBeGreaterThan(0);
    expect(folders.filter((folder) => !listed.has(folder))).toEqual([]);
  });

  it('lists every top-level folder the repository tracks', () => {
    // git knows which folders belong to the repository (dist/, data/ and node_modules/ do not).
    const tracked = execFileSync('git', ['ls-files'], { cwd: ROOT, encoding: 'utf8' }).split('\n');
    const folders = [...new Set(tracked.filter((path) => path.includes('/')).map((path) => path.split('/')[0]))];
    expect(folders).toContain('src');
    expect(folders.filter((folder) => folder !== 'src' && !listed.has(folder))).toEqual([]);
  });

  it('names no folder that does not exist', () => {
    const missing = [...listed].filter((folder) => {
      try {
        readdirSync(join(ROOT, folder));
        return false;
      } catch {
        return true;
      }
    });
    expect(missing).toEqual([]);
  });
});
