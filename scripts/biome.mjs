#!/usr/bin/env node
// Lint and format with Biome's WebAssembly build (`@biomejs/js-api` + `@biomejs/wasm-nodejs`):
// one package for every platform, so the lockfile is the same everywhere and `npm ci` works from
// any registry (the native CLI needs a package per platform, which a mirror may not carry).
// Usage: node scripts/biome.mjs check | format
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { Biome } from '@biomejs/js-api/nodejs';

const mode = process.argv[2];
if (mode !== 'check' && mode !== 'format') {
  process.stderr.write('usage: node scripts/biome.mjs check|format\n');
  process.exit(2);
}

// biome.jsonc: whole-line `//` comments only, so dropping those lines leaves JSON.
const config = JSON.parse(
  readFileSync('biome.jsonc', 'utf8')
    .split('\n')
    .filter((line) => !line.trimStart().startsWith('//'))
    .join('\n'),
);
const { includes, ...rest } = config.files ?? {};
const patterns = (includes ?? []).map((pattern) => ({ exclude: pattern.startsWith('!'), test: globTest(pattern.replace(/^!/, '')) }));
const { $schema: _schema, vcs: _vcs, files: _files, ...settings } = { ...config, files: rest };

const git = (args) => execFileSync('git', args, { encoding: 'utf8' }).split('\n').filter(Boolean);
const files = [...new Set([...git(['ls-files']), ...git(['ls-files', '--others', '--exclude-standard'])])]
  .filter((file) => patterns.some((p) => !p.exclude && p.test(file)) && !patterns.some((p) => p.exclude && p.test(file)))
  .filter((file) => /\.(ts|js|mjs|json|jsonc)$/.test(file))
  .sort();

const biome = new Biome();
const { projectKey } = biome.openProject('.');
biome.applyConfiguration(projectKey, settings);

let problems = 0;
let changed = 0;
for (const filePath of files) {
  let content;
  try {
    content = readFileSync(filePath, 'utf8');
  } catch {
    continue; // deleted in the working tree
  }
  const formatted = biome.formatContent(projectKey, content, { filePath });
  if (formatted.content !== content) {
    if (mode === 'format') {
      writeFileSync(filePath, formatted.content);
      changed += 1;
    } else {
      problems += 1;
      process.stdout.write(`${filePath}: not formatted (run npm run format)\n`);
    }
  }
  if (mode === 'check') {
    const linted = biome.lintContent(projectKey, content, { filePath });
    if (linted.diagnostics.length > 0) {
      problems += linted.diagnostics.length;
      for (const diagnostic of linted.diagnostics) process.stdout.write(`${describe(filePath, content, diagnostic)}\n`);
    }
  }
}
biome.shutdown();
if (mode === 'format') {
  process.stdout.write(`formatted ${changed} of ${files.length} files\n`);
} else {
  process.stdout.write(`checked ${files.length} files: ${problems === 0 ? 'no problems' : `${problems} problems`}\n`);
  process.exitCode = problems === 0 ? 0 : 1;
}

/** `path:line:column category: message`, the way compilers print it. */
function describe(filePath, content, diagnostic) {
  const [start] = diagnostic.location?.span ?? [0];
  const before = Buffer.from(content, 'utf8').subarray(0, start).toString('utf8').split('\n');
  const message = diagnostic.description || (diagnostic.message ?? []).map((part) => part.content).join('');
  return `${filePath}:${before.length}:${(before.at(-1)?.length ?? 0) + 1} ${diagnostic.category ?? 'biome'}: ${message}`;
}

/** `dir/**`, `*.ext` or an exact path, as biome.jsonc writes them. */
function globTest(pattern) {
  if (pattern.endsWith('/**')) {
    const dir = pattern.slice(0, -2);
    return (file) => file.startsWith(dir);
  }
  if (pattern.startsWith('**/')) {
    const name = pattern.slice(3);
    return (file) => file === name || file.endsWith(`/${name}`);
  }
  if (pattern.startsWith('*.')) {
    const ext = pattern.slice(1);
    return (file) => !file.includes('/') && file.endsWith(ext);
  }
  return (file) => file === pattern;
}
