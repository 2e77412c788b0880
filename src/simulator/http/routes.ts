import { listDocument, singleDocument, type Document, type Resource } from '../jsonapi.js';
import type { GroundTruth } from '../truth/ground-truth.js';
import { isSeriesStream, isSummaryStream } from '../truth/streams.js';
import type { World } from '../world/world.js';
import { notFound } from './http-error.js';
import { paginate, type LinkBase, type PageSizes } from './pagination.js';
import { dateRange, requiredFilter, seriesRange } from './query.js';

export interface RouteContext extends LinkBase {
  readonly truth: GroundTruth;
  readonly world: World;
  readonly query: URLSearchParams;
  readonly pageSizes: PageSizes;
}

interface Route {
  /** Matched against the path; capture groups are passed to `handle`. */
  readonly pattern: RegExp;
  readonly handle: (context: RouteContext, params: readonly string[]) => Document;
}

const list = (context: RouteContext, items: readonly Resource[]): Document => {
  const page = paginate(items, context.query, context.pageSizes, context);
  return listDocument(page.data, page.links);
};

/** Every endpoint of docs/api.md §4, one row each. Paths end with a slash, as the platform writes them. */
const ROUTES: readonly Route[] = [
  {
    // 4.1–4.9: history endpoints need from/to; summaries default to the whole history.
    pattern: /^\/analytics\/([a-z-]+)\/([^/]+)\/$/,
    handle({ truth, query }, [stream = '', venueId = '']) {
      if (isSeriesStream(stream)) {
        const { from, to } = seriesRange(query);
        return singleDocument(truth.seriesResource(venueId, stream, from, to));
      }
      if (isSummaryStream(stream)) {
        const { from, to } = dateRange(query, false);
        return singleDocument(truth.summaryResource(venueId, stream, from, to));
      }
      throw notFound(`unknown analytics endpoint "${stream}"`);
    },
  },
  {
    // 4.10: one resource per venue for the range; all venues without filter[venue].
    pattern: /^\/statistics\/rating-statistics-summaries\/$/,
    handle(context) {
      const { from, to } = dateRange(context.query, false);
      const venue = context.query.get('filter[venue]');
      const venueIds = venue ? [venue] : context.world.venues.map((v) => v.id);
      return list(
        context,
        venueIds.map((id) => context.truth.ratingStatisticsResource(id, from, to)),
      );
    },
  },
  {
    pattern: /^\/core\/venue-roles\/$/,
    handle: (context) => list(context, context.truth.venueRoles(requiredFilter(context.query, 'filter[venue]'))),
  },
  {
    pattern: /^\/core\/project-roles\/$/,
    handle: (context) => list(context, context.truth.projectRoles(requiredFilter(context.query, 'filter[project]'))),
  },
  {
    // 4.14: unknown ids are simply absent; without the filter, every account.
    pattern: /^\/accounts\/filtered-accounts\/$/,
    handle(context) {
      const filter = context.query.get('filter[id][in]');
      const ids =
        filter === null
          ? undefined
          : filter
              .split(',')
              .map((id) => id.trim())
              .filter(Boolean);
      return list(context, context.truth.accounts(ids));
    },
  },
  {
    // 4.15 and 4.16 (`me`).
    pattern: /^\/accounts\/filtered-accounts\/([^/]+)\/$/,
    handle: ({ truth }, [id = '']) => singleDocument(truth.account(safeDecode(id))),
  },
];

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

export function route(context: RouteContext): Document {
  for (const { pattern, handle } of ROUTES) {
    const match = pattern.exec(context.path);
    if (match) return handle(context, match.slice(1));
  }
  const hint = context.path.endsWith('/') ? '' : ' (paths end with a slash)';
  throw notFound(`no endpoint at ${context.path}${hint}`);
}
