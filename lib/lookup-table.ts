/**
 * A constant table looked up by words that come from outside (a caller's address, an agent's
 * severity, a GIS file's field): it has no prototype, so "constructor" or "toString" finds
 * nothing instead of one of Object's own functions (a spoken "0 > St, constructor" once gave an
 * EIDO civic address whose state was Object itself).
 */
export function lookupTable<T>(entries: Record<string, T>): Readonly<Record<string, T>> {
  return Object.freeze(Object.assign(Object.create(null) as Record<string, T>, entries));
}
