import { describe, expect, it } from 'vitest';
import { buildCatalogue } from '../../src/catalogue/index.js';
import { emptyScopeWarning } from '../../src/runner/empty-scope.js';

const catalogue = buildCatalogue();
const V1 = '11111111-1111-4111-8111-111111111111';
const P1 = '33333333-3333-4333-8333-333333333333';

describe('the warning of a sync whose streams need ids the scope does not list', () => {
  it('names the list that is empty and the streams that load nothing, and how to fill it', () => {
    const both = emptyScopeWarning(catalogue, ['venue-users-history', 'project-roles'], { venues: [], projects: [] });
    expect(both).toMatch(/^scope\.venues and scope\.projects list no ids, so the venue and project streams load nothing\. /);
    expect(both).toContain('`venue-etl init --venues ID,ID --projects ID,ID`');
    expect(emptyScopeWarning(catalogue, ['rating-history', 'project-roles'], { venues: [V1], projects: [] })).toMatch(
      /^scope\.projects lists no ids, so the project streams load nothing\./,
    );
    expect(emptyScopeWarning(catalogue, ['venue-roles', 'project-roles'], { venues: [], projects: [P1] })).toMatch(
      /^scope\.venues lists no ids, so the venue streams load nothing\./,
    );
  });

  it('says nothing when the streams it runs need no ids from the empty list', () => {
    expect(emptyScopeWarning(catalogue, ['accounts'], { venues: [], projects: [] })).toBeUndefined();
    expect(emptyScopeWarning(catalogue, ['venue-users-history'], { venues: [V1], projects: [] })).toBeUndefined();
    expect(emptyScopeWarning(catalogue, ['project-roles'], { venues: [], projects: [P1] })).toBeUndefined();
    expect(emptyScopeWarning(catalogue, catalogue.streams, { venues: [V1], projects: [P1] })).toBeUndefined();
  });
});
