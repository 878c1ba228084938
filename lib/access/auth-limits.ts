/** Sign-in constants free of the database, for schemas the registry (and so proxy.ts) imports. */
export const SESSION_COOKIE = "mayday.session_token";
export const MIN_PASSWORD_LENGTH = 12;
export const MAX_PASSWORD_LENGTH = 256;
