/** Any origin will do: only whether `next` leaves it matters. */
const HERE = "https://mayday.invalid";

// Browsers strip tabs and newlines from a URL before resolving it ("/\t/evil.example" is "//evil.example").
const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f]/;

/**
 * Only paths on this site, so sign-in cannot be used to send someone elsewhere (an open redirect).
 * `next` is resolved as a browser resolves it (backslashes, dot segments, encodings); accepted is
 * its normalised path, which resolves to the same place again ("/.//evil.example" resolves here, but
 * its normalised "//evil.example" would not, so it is refused). Anything else becomes "/".
 */
export function safeNextPath(next: string | string[] | undefined): string {
  const value = Array.isArray(next) ? next[0] : next;
  if (!value?.startsWith("/") || CONTROL_CHARACTERS.test(value)) return "/";
  try {
    const resolved = new URL(value, HERE);
    const path = `${resolved.pathname}${resolved.search}${resolved.hash}`;
    return resolved.origin === HERE && new URL(path, HERE).href === resolved.href ? path : "/";
  } catch {
    // Not a URL at all ("//" names an empty host).
    return "/";
  }
}
