import { EtlError, type ErrorCode } from '../errors/index.js';

/**
 * Answers that are well-formed but cannot be true: they fail their slice (its stored rows stay
 * as they were, its cursor does not move, `sync_errors` names it) and the run goes on. Not
 * retried within the run: the same request would most likely get the same answer; the next run
 * asks again.
 */
function answerError(code: ErrorCode, stream: string, path: string, problem: string, hint: string): EtlError {
  return new EtlError(code, `${stream}: ${path} ${problem}`, { hint, details: { stream, path, retriable: false } });
}

const KEPT = 'Nothing of this slice was stored and the rows already held for its window were kept; the next run asks again.';

/** A series without a point for every day (or hour) of its window, or a list without the resource asked for. */
export function incompleteAnswer(stream: string, path: string, problem: string): EtlError {
  return answerError(
    'VENUE_API_INCOMPLETE_ANSWER',
    stream,
    path,
    problem,
    `The API answered without part of the requested window (it sends a point for every day, or every hour of a one-day range, 0 when nothing happened). ${KEPT} If it persists, the API lost those days: report it upstream.`,
  );
}

/** A resource about another venue or project than the one the request named. */
export function wrongScope(stream: string, path: string, problem: string): EtlError {
  return answerError(
    'VENUE_API_WRONG_SCOPE',
    stream,
    path,
    problem,
    `The API answered about another venue or project than the one asked for, so it was not stored under either. ${KEPT} If it persists, report it upstream.`,
  );
}

/** The same point (or summary value) twice with different values. */
export function contradictoryValues(stream: string, path: string, problem: string): EtlError {
  return answerError(
    'VENUE_API_CONTRADICTORY_VALUES',
    stream,
    path,
    problem,
    `The API sent the same point twice with different values; venue-etl cannot tell which is right. ${KEPT}`,
  );
}

/** A value its metric cannot take: a negative, fractional or too large count, a rate outside 1 to 5. */
export function badValue(stream: string, path: string, problem: string): EtlError {
  return answerError(
    'VENUE_API_BAD_VALUE',
    stream,
    path,
    problem,
    `The API sent a value its metric cannot have (see the metric's domain in docs/api-assumptions.md, Values). ${KEPT}`,
  );
}

/** An answer at another grain than the slice asked for, or an hourly point outside the requested day. */
export function wrongGrain(stream: string, path: string, problem: string): EtlError {
  return answerError(
    'VENUE_API_WRONG_GRAIN',
    stream,
    path,
    problem,
    `A one-day range must be answered with that day's 24 UTC hours, a longer one with one point per day; storing another grain would mix the two in one key. ${KEPT} If it persists, report it upstream.`,
  );
}
