/** Seconds a sender should wait before retrying a 503. */
export const RETRY_AFTER_SECONDS = 5;
