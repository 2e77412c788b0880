/**
 * Secret values known at run time (API token, receiver credentials). Every log line and every
 * error printed for a human passes through `scrubSecrets`, so a secret cannot leak through a
 * key name that redaction paths did not foresee (pino's `redact` is case-sensitive).
 */
const secrets = new Set<string>();

/** Registers a value to be masked wherever it appears. Short values are ignored (too common). */
export function registerSecret(value: string | undefined): void {
  if (!value || value.length < 4) return;
  secrets.add(value);
  // The bearer form and the bare base64 part of a Basic credential are secrets as well.
  const basic = /^Basic\s+(.+)$/i.exec(value);
  if (basic?.[1] && basic[1].length >= 4) secrets.add(basic[1]);
  const bearer = /^Bearer\s+(.+)$/i.exec(value);
  if (bearer?.[1] && bearer[1].length >= 4) secrets.add(bearer[1]);
}

/**
 * `scheme://user:password@`: a password written into any URL, registered or not (one shorter
 * than the registry's 4 characters, a URL that never went through the config).
 */
const URL_PASSWORD = /\b([a-z][a-z\d+.-]*:\/\/[^\s/?#@:]*):[^\s/?#@]+@/gi;

export function scrubSecrets(text: string): string {
  let out = text;
  for (const secret of secrets) {
    if (out.includes(secret)) out = out.split(secret).join('***');
  }
  return out.includes('@') ? out.replace(URL_PASSWORD, '$1:***@') : out;
}
