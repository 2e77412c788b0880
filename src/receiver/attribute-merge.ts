import type { AttributeValue } from '../warehouse/index.js';
import type { AttributeField } from './attribute-fields.js';
import type { JournaledEvent } from './journaled-event.js';

/**
 * A user's or venue's attributes with, per column, the version (see `eventVersion`) of the
 * event that set it. Each column is a last-writer-wins register: an event sets a column only
 * if it sent the field (null included: "the user has no phone now") and is newer than the
 * event that set it before. Absent fields keep what is stored, so a short form of the payload
 * never blanks columns, and the result does not depend on the order events are merged in.
 */
export interface AttributeState {
  readonly values: Readonly<Record<string, AttributeValue>>;
  readonly versions: Readonly<Record<string, string>>;
}

export interface AttributeMerge {
  readonly state: AttributeState;
  /** The row in users/venues must be written (new entity, or a value changed). */
  readonly valuesChanged: boolean;
  /** The versions must be written (a column was set, even to the value it had). */
  readonly versionsChanged: boolean;
}

/** The newest sent value of every column, per entity id, over a batch of events. */
export function newestAttributes<S>(
  events: readonly JournaledEvent[],
  pick: (event: JournaledEvent) => { readonly id: string; readonly source: S },
  fields: readonly AttributeField<S>[],
): Map<string, AttributeState> {
  const out = new Map<string, { values: Record<string, AttributeValue>; versions: Record<string, string> }>();
  for (const event of events) {
    const { id, source } = pick(event);
    let entry = out.get(id);
    if (!entry) {
      entry = { values: {}, versions: {} };
      out.set(id, entry);
    }
    for (const field of fields) {
      const value = field.read(source);
      if (value === undefined) continue;
      const before = entry.versions[field.column];
      if (before === undefined || event.version > before) {
        entry.values[field.column] = value;
        entry.versions[field.column] = event.version;
      }
    }
  }
  return out;
}

/** Applies a batch's newest values over what is stored (undefined: the entity is new). */
export function mergeAttributes(stored: AttributeState | undefined, incoming: AttributeState, columns: readonly string[]): AttributeMerge {
  const values: Record<string, AttributeValue> = {};
  const versions: Record<string, string> = { ...stored?.versions };
  let valuesChanged = stored === undefined;
  let versionsChanged = false;
  for (const column of columns) {
    const current = stored?.values[column] ?? null;
    const version = incoming.versions[column];
    const storedVersion = stored?.versions[column];
    if (version !== undefined && (storedVersion === undefined || version > storedVersion)) {
      const value = incoming.values[column] ?? null;
      values[column] = value;
      versions[column] = version;
      versionsChanged = true;
      if (value !== current) valuesChanged = true;
    } else {
      values[column] = current;
    }
  }
  return { state: { values, versions }, valuesChanged, versionsChanged };
}
