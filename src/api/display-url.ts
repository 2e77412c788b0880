/** Query parameters whose values are credentials, by name (`?token=…`, `&api_key=…`, `X-Amz-Signature`). */
const SECRET_PARAMETER = /token|secret|passw|pwd|api[-_]?key|access[-_]?key|signature|^sig$|auth|credential|session/i;

/**
 * A URL the server sent (a redirect's Location, a pagination link) as an error may quote it: path
 * and query, credential-looking parameter values masked, the token itself removed by `redact`,
 * and the origin only when asked (user and password never). Brackets stay literal, as the API
 * writes them.
 */
/**
 * Removes the token from text the server sent or a URL carries. Tokens shorter than 4 characters
 * are left (replacing every "ab" would mangle the text and hide nothing).
 */
export function tokenRedactor(token: string): (text: string) => string {
  return token.length >= 4 ? (text) => text.split(token).join('***') : (text) => text;
}

export function displayUrl(url: URL, redact: (text: string) => string, options: { readonly withOrigin?: boolean } = {}): string {
  const query = url.search
    .slice(1)
    .split('&')
    .filter((pair) => pair !== '')
    .map((pair) => {
      const [name = '', ...value] = pair.split('=');
      return value.length > 0 && SECRET_PARAMETER.test(safeDecode(name)) ? `${name}=***` : pair;
    });
  const text = `${options.withOrigin ? url.origin : ''}${url.pathname}${query.length > 0 ? `?${query.join('&')}` : ''}`;
  return redact(text);
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
