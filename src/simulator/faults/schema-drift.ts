import type { DriftFault } from './fault-spec.js';

/** The attribute `drift-extra` adds: a field no schema knows. */
export const DRIFT_EXTRA_ATTRIBUTE = 'unexpected-attribute';

interface MutableResource {
  id: unknown;
  attributes: Record<string, unknown>;
}

interface MutableDocument {
  data?: MutableResource | MutableResource[];
  jsonapi?: { version: string };
}

/**
 * Applies schema drift to every resource of a successful document, as an upstream schema
 * change would. Works on a copy; returns it with the kinds that actually changed something
 * (e.g. `drift-string-number` does nothing to a resource without numbers).
 */
export function applyDrift(document: unknown, kinds: readonly DriftFault[]): { document: unknown; applied: DriftFault[] } {
  if (kinds.length === 0) return { document, applied: [] };
  const copy = structuredClone(document) as MutableDocument;
  const resources = copy.data === undefined ? [] : Array.isArray(copy.data) ? copy.data : [copy.data];
  const applied = kinds.filter((kind) => driftOne(kind, copy, resources));
  return { document: copy, applied };
}

function driftOne(kind: DriftFault, document: MutableDocument, resources: MutableResource[]): boolean {
  switch (kind) {
    case 'drift-version':
      document.jsonapi = { version: '2.0' };
      return true;
    case 'drift-extra':
      for (const resource of resources) resource.attributes[DRIFT_EXTRA_ATTRIBUTE] = 'drift';
      return resources.length > 0;
    case 'drift-null-id':
      for (const resource of resources) resource.id = null;
      return resources.length > 0;
    case 'drift-missing': {
      // The last attribute, the same one in every resource: a field the upstream stopped sending.
      const name = Object.keys(resources[0]?.attributes ?? {}).at(-1);
      if (name === undefined) return false;
      for (const resource of resources) delete resource.attributes[name];
      return true;
    }
    case 'drift-string-number':
      return resources.map(stringifyFirstCount).some(Boolean);
  }
}

/** The first numeric attribute (or the values of the first series) sent as strings. */
function stringifyFirstCount(resource: MutableResource): boolean {
  for (const [name, value] of Object.entries(resource.attributes)) {
    if (typeof value === 'number') {
      resource.attributes[name] = String(value);
      return true;
    }
    if (Array.isArray(value) && value.length > 0 && value.every((p) => Array.isArray(p) && p.length === 2 && typeof p[1] === 'number')) {
      resource.attributes[name] = value.map(([ts, n]: [unknown, number]) => [ts, String(n)]);
      return true;
    }
  }
  return false;
}
