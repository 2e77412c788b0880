/**
 * The per-column versions of one user or venue, as stored in receiver_field_versions.versions.
 * Full-form events set every column at once, so most columns share one version: it is stored
 * once under "*", and only columns set by another event are listed (`{"*": v1, "phone": v2}`).
 * That keeps the row about one version long instead of one per column.
 */
export function encodeVersions(versions: Readonly<Record<string, string>>): string {
  const counts = new Map<string, number>();
  for (const version of Object.values(versions)) counts.set(version, (counts.get(version) ?? 0) + 1);
  let common: string | undefined;
  for (const [version, count] of counts) if (common === undefined || count > (counts.get(common) ?? 0)) common = version;
  const out: Record<string, string> = common === undefined ? {} : { '*': common };
  for (const [column, version] of Object.entries(versions)) if (version !== common) out[column] = version;
  return JSON.stringify(out);
}

/** Expands the stored form for `columns`; a column never set has no version. */
export function decodeVersions(text: string, columns: readonly string[]): Record<string, string> {
  const stored = JSON.parse(text) as Record<string, string>;
  const out: Record<string, string> = {};
  for (const column of columns) {
    const version = stored[column] ?? stored['*'];
    if (version !== undefined) out[column] = version;
  }
  return out;
}
