import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCommandFrom } from '../../src/demo/demo.js';

describe("the demo's next steps", () => {
  const checkout = join('/', 'home', 'ana', 'venue-etl');
  const installed = join('/', 'usr', 'lib', 'node_modules', 'venue-etl');

  it('say npx venue-etl in a folder of the checkout, where npx finds its bin', () => {
    expect(runCommandFrom(join(checkout, 'demo-data'), checkout)).toEqual({ command: 'npx venue-etl', linkNote: false });
    expect(runCommandFrom(checkout, checkout)).toEqual({ command: 'npx venue-etl', linkNote: false });
  });

  it('say venue-etl outside a checkout, and how to link one when run from a checkout', () => {
    expect(runCommandFrom(join('/', 'tmp', 'demo'), installed)).toEqual({ command: 'venue-etl', linkNote: false });
    expect(runCommandFrom(join(installed, 'demo-data'), installed)).toEqual({ command: 'venue-etl', linkNote: false });
    expect(runCommandFrom(join('/', 'tmp', 'demo'), checkout)).toEqual({ command: 'venue-etl', linkNote: true });
    // A sibling folder whose name starts like the checkout's is not inside it.
    expect(runCommandFrom(`${checkout}-demo`, checkout)).toEqual({ command: 'venue-etl', linkNote: true });
  });
});
