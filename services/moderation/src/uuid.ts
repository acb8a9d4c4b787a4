const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Whether PostgreSQL's uuid columns take `value` (any version): anything else would fail the query, not match nothing. */
export function isUuid(value: string): boolean {
  return UUID.test(value);
}
