/**
 * Credentials written into a URL (`https://user:password@host/`). The API client never sends
 * them (it keeps the origin and path only), but the text of the URL would show them wherever
 * it is printed: `venue-etl config`, a log line, an error message.
 */
const USERINFO = /^([a-z][a-z\d+.-]*:\/\/)([^/?#@\s]*)@/i;

function splitUserinfo(text: string): { scheme: string; user: string; password: string | undefined } | undefined {
  const match = USERINFO.exec(text);
  if (!match) return undefined;
  const userinfo = match[2]!;
  const colon = userinfo.indexOf(':');
  return colon < 0
    ? { scheme: match[1]!, user: userinfo, password: undefined }
    : { scheme: match[1]!, user: userinfo.slice(0, colon), password: userinfo.slice(colon + 1) };
}

/**
 * The secret parts of a URL's user info, as written and percent-decoded: the password, or the
 * user name when there is no password (a token used as the user name).
 */
export function urlCredentials(text: string): string[] {
  const parts = splitUserinfo(text);
  if (!parts) return [];
  const secret = parts.password ?? parts.user;
  if (secret === '') return [];
  let decoded = secret;
  try {
    decoded = decodeURIComponent(secret);
  } catch {
    // Not valid percent-encoding: the text as written is what can leak.
  }
  return decoded === secret ? [secret] : [secret, decoded];
}

/** `http://u:pass@host/` → `http://u:***@host/`, `http://token@host/` → `http://***@host/`; other text unchanged. */
export function maskUrlCredentials(text: string): string {
  const parts = splitUserinfo(text);
  if (!parts || (parts.password ?? parts.user) === '') return text;
  const masked = parts.password === undefined ? '***' : `${parts.user}:***`;
  return text.replace(USERINFO, `${parts.scheme}${masked}@`);
}
