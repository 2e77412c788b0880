/** Venue names: the labels reports show (sql/views/venue-labels.sql) and what `--venues` takes. */
export { venueLabelInput, BUILT_IN_LABEL_INPUT } from './label-input.js';
export { createVenueLabels, readVenueCandidates, type VenueLabelInput } from '../warehouse/venue-labels.js';
export { selectVenues, idsOnly, KNOWN_VENUES_SELECTION, MIN_PREFIX_LENGTH, type SelectionContext } from './select-venues.js';
export { configVenueCandidates, selectConfigVenues } from './config-candidates.js';
export { checkVenuesWhereNothingIsStored } from './before-open.js';
export type { VenueCandidate } from '../warehouse/venue-candidate.js';
