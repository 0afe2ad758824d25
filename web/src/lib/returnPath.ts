const hasControlCharacter = (text: string) => [...text].some((ch) => ch.charCodeAt(0) < 0x20 || ch.charCodeAt(0) === 0x7f);

/**
 * Where to go after signing in, from the `next` query parameter or the remembered attempted URL:
 * only a path of this site ("/usage?tab=1#x"). Anything that could leave the site is refused: other
 * origins, protocol-relative "//host", "/\host" (browsers read "\" as "/"), schemes such as
 * "javascript:", and control characters (a tab or newline inside "/\t/host" is dropped by URL parsers).
 */
export function safeReturnPath(raw: string | null | undefined): string | null {
  if (!raw || !raw.startsWith("/") || raw.startsWith("//") || raw.includes("\\") || hasControlCharacter(raw)) return null;
  let url: URL;
  try {
    url = new URL(raw, window.location.origin);
  } catch {
    return null;
  }
  // Dot segments collapse after the check above ("/..//host" is "//host"): look at the path again.
  if (url.origin !== window.location.origin || url.pathname.startsWith("//")) return null;
  // Back to the login itself would be a loop.
  if (url.pathname === "/login") return null;
  return `${url.pathname}${url.search}${url.hash}`;
}

/** The login link that brings the visitor back to `path` afterwards. */
export function loginLinkFor(path: string): string {
  const next = safeReturnPath(path);
  return next ? `/login?next=${encodeURIComponent(next)}` : "/login";
}
