import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * Citations in the repository point at documents the repository holds: the README's sections
 * and the pages of docs/, and the links between those documents lead somewhere. The public contract and the upstream API description that code once
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

/** Folders named in the first column of the folder table (docs/architecture.md, "The folders"). */
function foldersInTable(): Set<string> {
  const table = section(readFileSync(join(ROOT, 'docs/architecture.md'), 'utf8'), 'The folders');
  return new Set([...table.matchAll(/^\| `([^`]+?)\/` \|/gm)].map((match) => match[1]));
}

/** The lines of a markdown text outside fenced code blocks. */
function proseLines(markdown: string): string[] {
  let fenced = false;
  return markdown.split('\n').filter((line) => {
    if (line.startsWith('```')) fenced = !fenced;
    return !fenced && !line.startsWith('```');
  });
}

/** The anchors GitHub gives a markdown file's headings: lower case, punctuation dropped, spaces to '-', repeats numbered. */
function anchorsOf(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const line of proseLines(markdown)) {
    const heading = /^#{1,6} (.+)$/.exec(line);
    if (!heading) continue;
    const slug = heading[1]
      .trim()
      .toLowerCase()
      .replace(/[^\p{L}\p{N} _-]/gu, '')
      .replace(/ /g, '-');
    const n = seen.get(slug) ?? 0;
    seen.set(slug, n + 1);
    anchors.add(n === 0 ? slug : `${slug}-${n}`);
  }
  return anchors;
}

/** Heading titles of a markdown file, any level, as written (backticks dropped). */
function headingsOf(markdown: string): Set<string> {
  return new Set(proseLines(markdown).flatMap((line) => /^#{1,6} (.+)$/.exec(line)?.[1].replace(/`/g, '').trim() ?? []));
}

/** Every markdown file of the repository, tracked or new (ignored ones, e.g. node_modules, left out). */
function markdownFiles(): string[] {
  const listed = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', '*.md'], { cwd: ROOT, encoding: 'utf8' });
  return [...new Set(listed.split('\n').filter((path) => path !== ''))];
}

/** `file: target` of every relative link or image of a markdown file that leads nowhere. */
function brokenLinks(file: string): string[] {
  const text = proseLines(readFileSync(join(ROOT, file), 'utf8')).join('\n');
  return [...text.matchAll(/!?\[[^\]]*\]\(([^)\s]+)\)/g)].flatMap((match) => {
    const target = match[1];
    if (/^[a-z]+:/i.test(target)) return [];
    const [path, anchor] = target.split('#');
    const resolved = path === '' ? join(ROOT, file) : resolve(dirname(join(ROOT, file)), path);
    if (!existsSync(resolved)) return [`${file}: ${target} (no such file)`];
    if (anchor === undefined || !resolved.endsWith('.md')) return [];
    return anchorsOf(readFileSync(resolved, 'utf8')).has(anchor) ? [] : [`${file}: ${target} (no such heading)`];
  });
}

/** A scanned file's text with comment continuations joined, so that a citation broken over two comment lines reads as one. */
function joinedText(file: string): string {
  return readFileSync(file, 'utf8').replace(/\n\s*(?:\*(?!\/)|\/\/|--|#)?\s*/g, ' ');
}

/** Every `README, "Title"`, `docs/page.md` or `src/x/README.md` (with or without a "Title") cited in the scanned folders. */
function documentCitations(): { where: string; document: string; title?: string }[] {
  return SCANNED.flatMap((folder) => filesUnder(join(ROOT, folder)))
    .filter((file) => file !== fileURLToPath(import.meta.url))
    .flatMap((file) =>
      [...joinedText(file).matchAll(/(?<![\w/.-])((?:[\w-]+\/)*README(?:\.md)?|docs\/[\w-]+\.md)(?:,? "([^"]+)")?/g)]
        // A bare "README" in prose ("the receiver README") names no section; a path or a title does.
        .filter((match) => match[1] !== 'README' || match[2] !== undefined)
        .map((match) => ({
          where: relative(ROOT, file),
          document: match[1].endsWith('README') ? `${match[1]}.md` : match[1],
          title: match[2],
        })),
    );
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

  it('every README or docs/ page a code comment cites exists, and so does the section it names', () => {
    const citations = documentCitations();
    expect(citations.filter(({ document }) => document.startsWith('docs/')).length).toBeGreaterThan(0);
    const missing = citations.flatMap(({ where, document, title }) => {
      const path = join(ROOT, document);
      if (!existsSync(path)) return [`${where}: ${document} (no such file)`];
      if (title === undefined || headingsOf(readFileSync(path, 'utf8')).has(title)) return [];
      return [`${where}: ${document}, "${title}" (no such heading)`];
    });
    expect(missing).toEqual([]);
  });
});

describe('links between the documents', () => {
  const files = markdownFiles();

  it('finds the README and the docs/ pages', () => {
    expect(files).toContain('README.md');
    expect(files.filter((file) => file.startsWith('docs/')).length).toBeGreaterThan(5);
  });

  it('every relative link or image of a markdown file leads to a file, and to a heading of it when it names one', () => {
    expect(files.flatMap(brokenLinks)).toEqual([]);
  });

  it('the README links every page of docs/', () => {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    const pages = files.filter((file) => /^docs\/[^/]+\.md$/.test(file));
    expect(pages.filter((page) => !readme.includes(`](${page}`))).toEqual([]);
  });
});

describe('the folder table of docs/architecture.md', () => {
  const listed = foldersInTable();

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
