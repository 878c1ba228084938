/**
 * Duplicate callers: the share of a request's calls that report an event an earlier call of it
 * reported (docs/simulation.md, "Duplicates"). Pure data, shared by the API and the form.
 */
export const DUPLICATE_SHARE = 0.3;
/** Disasters run high: one district in Hurricane Harvey saw about 55% duplicate callers. */
export const MAX_DUPLICATE_SHARE = 0.9;
