import { EtlError } from '../errors/index.js';
import { closestName } from '../infra/did-you-mean.js';
import type { VenueCandidate } from '../warehouse/venue-candidate.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Shortest id prefix taken: the dashboard's and the labels' short id. Among 5,000 random ids two
 * share their first 8 hex digits with a chance of about 0.3 % (n²/2 of 2^32); the error then
 * lists both, and 9 or more characters tell them apart.
 */
export const MIN_PREFIX_LENGTH = 8;

/** Matches listed in an ambiguity error before "and N more". */
const LISTED = 10;

/** Where the candidates came from, for the messages. */
export interface SelectionContext {
  /** e.g. '--venues'. */
  readonly option: string;
  /** How to see what is known (a command, or the config key), for the hint. */
  readonly knownHint: string;
}

/** `--venues` resolved against every venue the warehouse and the config know (read commands, reset). */
export const KNOWN_VENUES_SELECTION: SelectionContext = {
  option: '--venues',
  knownHint: 'the venues known: venue-etl sql "SELECT * FROM venue_labels"',
};

interface Problem {
  readonly ambiguous: boolean;
  readonly text: string;
}

/**
 * The venue ids a selection names. Each entry of `texts` is one option as typed: a whole text that
 * is a venue's name or label names that venue (a name may hold commas); otherwise it is split at
 * commas and each part is a venue id (taken as it is, known or not, as before), a unique prefix of
 * at least 8 characters of a known id (dashes optional), or a known venue's exact name or label.
 * Ambiguity and parts that name nothing are usage errors listing every problem (exit 2).
 */
export function selectVenues(texts: readonly string[], candidates: readonly VenueCandidate[], context: SelectionContext): string[] {
  const ids: string[] = [];
  const problems: Problem[] = [];
  for (const text of texts) {
    const whole = text.trim();
    const wholeMatches = whole.includes(',') ? byName(whole, candidates) : [];
    const parts = wholeMatches.length > 0 ? [whole] : splitList(whole);
    if (parts.length === 0) problems.push({ ambiguous: false, text: `${context.option} needs at least one venue` });
    for (const part of parts) {
      if (UUID.test(part)) {
        ids.push(part);
        continue;
      }
      const matches = matching(part, candidates);
      if (matches.length === 1 && matches[0] !== undefined) ids.push(matches[0].id);
      else if (matches.length > 1) problems.push({ ambiguous: true, text: ambiguity(part, matches) });
      else problems.push({ ambiguous: false, text: noMatch(part, candidates) });
    }
  }
  if (problems.length > 0) throw selectionError(problems, context);
  return [...new Set(ids)];
}

/** Whether every part of the selection is a whole id: then nothing needs looking up. */
export function idsOnly(texts: readonly string[]): boolean {
  return texts.every((text) => splitList(text).every((part) => UUID.test(part)));
}

function splitList(text: string): string[] {
  return text
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean);
}

function byName(text: string, candidates: readonly VenueCandidate[]): VenueCandidate[] {
  return candidates.filter((c) => c.name === text || c.label === text);
}

/** Hex digits (dashes allowed) of an id prefix long enough to be taken as one; undefined otherwise. */
function prefixDigits(text: string): string | undefined {
  if (!/^[0-9a-f-]+$/i.test(text)) return undefined;
  const digits = text.replaceAll('-', '').toLowerCase();
  return digits.length >= MIN_PREFIX_LENGTH ? digits : undefined;
}

/** Venues whose name or label is the text, and those whose id starts with it. */
function matching(text: string, candidates: readonly VenueCandidate[]): VenueCandidate[] {
  const digits = prefixDigits(text);
  const found = new Map<string, VenueCandidate>();
  for (const candidate of byName(text, candidates)) found.set(candidate.id, candidate);
  if (digits !== undefined) {
    for (const candidate of candidates) if (candidate.id.replaceAll('-', '').toLowerCase().startsWith(digits)) found.set(candidate.id, candidate);
  }
  return [...found.values()];
}

function describe(candidate: VenueCandidate): string {
  const shown = candidate.label ?? candidate.name;
  return shown === undefined || shown === null ? candidate.id : `${candidate.id}  ${shown}`;
}

function ambiguity(text: string, matches: readonly VenueCandidate[]): string {
  const listed = matches.slice(0, LISTED).map((m) => `    ${describe(m)}`);
  const more = matches.length > LISTED ? [`    and ${matches.length - LISTED} more`] : [];
  return [`"${text}" fits ${matches.length} venues:`, ...listed, ...more].join('\n');
}

function noMatch(text: string, candidates: readonly VenueCandidate[]): string {
  const hex = /^[0-9a-f-]+$/i.test(text);
  const digits = text.replaceAll('-', '').length;
  const short = hex && digits < MIN_PREFIX_LENGTH ? ` (an id prefix needs at least ${MIN_PREFIX_LENGTH} characters)` : '';
  return `"${text}" is no venue's name, label or id${hex && !short ? ' prefix' : ''}${short}${suggestion(text, candidates)}`;
}

/** `; did you mean "North Hostel Lisbon"?` among the names and labels, or the same-length starts of the ids. */
function suggestion(text: string, candidates: readonly VenueCandidate[]): string {
  const known = new Set<string>();
  for (const c of candidates) {
    if (c.name !== null) known.add(c.name);
    if (c.label !== undefined) known.add(c.label);
    if (/^[0-9a-f-]+$/i.test(text) && text.length >= MIN_PREFIX_LENGTH) known.add(c.id.slice(0, text.length).toLowerCase());
  }
  const close = closestName(text, [...known]);
  return close === undefined ? '' : `; did you mean "${close}"?`;
}

function selectionError(problems: readonly Problem[], context: SelectionContext): EtlError {
  const ambiguous = problems.some((p) => p.ambiguous);
  const message =
    problems.length === 1 && problems[0] !== undefined
      ? `${context.option}: ${problems[0].text}`
      : `${context.option}: ${problems.length} venues not found or not unique:\n${problems.map((p) => `  - ${p.text}`).join('\n')}`;
  return new EtlError(ambiguous ? 'VENUE_ETL_AMBIGUOUS_VENUE' : 'VENUE_ETL_UNKNOWN_VENUE', message, {
    hint: ambiguous
      ? `give the whole id, or enough of its first characters to tell the venues apart; ${context.knownHint}`
      : `${context.option} takes venue ids, id prefixes of ${MIN_PREFIX_LENGTH} or more characters, and exact names; ${context.knownHint}`,
    details: { problems: problems.map((p) => p.text) },
  });
}
