import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { blocksRead, CONFIG_COMMANDS } from '../../src/config/index.js';

const DOC = resolve(dirname(fileURLToPath(import.meta.url)), '../../docs/configuration.md');

/** The rows of the "What each command reads" table: command -> the blocks it lists. */
function documentedBlocks(): Map<string, string[]> {
  const text = readFileSync(DOC, 'utf8');
  const section = text.slice(text.indexOf('## What each command reads'));
  const table = section.slice(section.indexOf('| command | blocks it reads |'), section.indexOf('\n\n', section.indexOf('| command | blocks it reads |')));
  const rows = new Map<string, string[]>();
  for (const line of table.split('\n').slice(2)) {
    const [commands = '', blocks = ''] = line.split('|').slice(1, 3);
    const names = (cell: string): string[] => [...cell.matchAll(/`([^`]+)`/g)].map((m) => m[1]!);
    for (const command of names(commands)) rows.set(command, names(blocks));
  }
  return rows;
}

describe('docs/configuration.md, "What each command reads"', () => {
  it('lists every command with the blocks it reads', () => {
    const documented = documentedBlocks();
    expect([...documented.keys()].sort()).toEqual([...CONFIG_COMMANDS].sort());
    for (const command of CONFIG_COMMANDS) expect(documented.get(command), command).toEqual(blocksRead(command));
  });
});
