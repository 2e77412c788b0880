import { z } from 'zod';

const UUID = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;

export const uuid = z.string().regex(UUID, 'must be a UUID');

/**
 * Longest name accepted. Names are shown in terminal tables and on dashboard bars; the
 * simulator's longest is 31 characters ("Central Coworking Space Lisbon").
 */
const MAX_NAME_LENGTH = 200;
const NAME_RULE = `must be 1–${MAX_NAME_LENGTH} characters, without line breaks or other control characters`;

/** A venue's name in the config: shown by reports, `status` and the dashboard, accepted by `--venues`. */
const VenueName = z
  .string()
  .trim()
  .min(1, NAME_RULE)
  .max(MAX_NAME_LENGTH, NAME_RULE)
  // biome-ignore lint/suspicious/noControlCharactersInRegex: the control characters are what is refused
  .refine((name) => !/[\u0000-\u001f\u007f]/.test(name), NAME_RULE);

/** One entry of `scope.venues`: the venue's id, or `{"id": "…", "name": "…"}` (docs/configuration.md, "Venue names"). */
export const VenueEntry = z.union([uuid, z.strictObject({ id: uuid, name: VenueName.optional() })], {
  error: 'must be a venue id (UUID) or an object {"id": "<UUID>", "name": "<name>"}',
});
export type VenueEntry = z.infer<typeof VenueEntry>;

/** Lower case: the key venueNames is looked up by (ids compare case-insensitively). */
export const venueKey = (id: string): string => id.toLowerCase();

const entryId = (entry: VenueEntry): string => (typeof entry === 'string' ? entry : entry.id);
const entryName = (entry: VenueEntry): string | undefined => (typeof entry === 'string' ? undefined : entry.name);

/** The list of `scope.venues`, refusing one id given two different names. */
export const VenueEntries = z.array(VenueEntry).superRefine((entries, ctx) => {
  const named = new Map<string, { name: string; index: number }>();
  entries.forEach((entry, index) => {
    const name = entryName(entry);
    if (name === undefined) return;
    const earlier = named.get(venueKey(entryId(entry)));
    if (earlier === undefined) named.set(venueKey(entryId(entry)), { name, index });
    else if (earlier.name !== name) {
      ctx.addIssue({
        code: 'custom',
        path: [index, 'name'],
        message: `venue ${entryId(entry)} is already named "${earlier.name}" at scope.venues[${earlier.index}]: give it one name`,
      });
    }
  });
});

/**
 * `scope` as the commands read it: `venues` the ids (as written, in order), `venueNames` the
 * names the entries carry, by lower-case id. Plain-id configs read exactly as before.
 */
export function splitVenueEntries(entries: readonly VenueEntry[]): { venues: string[]; venueNames: Record<string, string> } {
  const venueNames: Record<string, string> = {};
  for (const entry of entries) {
    const name = entryName(entry);
    if (name !== undefined) venueNames[venueKey(entryId(entry))] = name;
  }
  return { venues: entries.map(entryId), venueNames };
}

/** The entries again, for printing the resolved config: a named venue as `{id, name}`, the others as their id. */
export function joinVenueEntries(scope: { readonly venues: readonly string[]; readonly venueNames: Readonly<Record<string, string>> }): VenueEntry[] {
  return scope.venues.map((id) => {
    const name = scope.venueNames[venueKey(id)];
    return name === undefined ? id : { id, name };
  });
}
