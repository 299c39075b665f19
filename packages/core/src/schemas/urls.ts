/** URL rules the request schemas validate with (agents' redirect, website and logo URLs). */
const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * An agent's redirect_uri, website_url and logo_url: an absolute https URL (http only for a loopback host, for
 * local development), without user:password and, for redirects, without a fragment (RFC 6749 3.1.2).
 * The empty string is handled by the caller (it means "none").
 */
export function urlProblem(value: string, opts: { redirect: boolean }): string | null {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return 'must be an absolute URL';
  }
  const loopback = LOOPBACK_HOSTS.has(url.hostname.toLowerCase()) || url.hostname.endsWith('.localhost');
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && loopback)) return 'must use https (http only for localhost)';
  if (url.username || url.password) return 'must not contain a user name or password';
  if (opts.redirect && (url.hash || value.includes('#'))) return 'must not contain a fragment (#…)';
  return null;
}
