/**
 * Event types are dot-separated lowercase tokens ("photo.photo.status_changed"). Subscriptions name them
 * exactly or with NATS wildcards: `*` stands for one token, a final `>` for one or more.
 */
const TOKEN = /^[a-z0-9_]+$/;

/** Throws unless `pattern` is an event type or a wildcard pattern over event types. */
export function assertEventTypePattern(pattern: string): void {
  const tokens = pattern.split('.');
  const valid = tokens.every((token, index) => TOKEN.test(token) || token === '*' || (token === '>' && index === tokens.length - 1));
  if (!valid) throw new Error(`Invalid event type pattern "${pattern}": use lowercase dot-separated tokens, "*" or a final ">"`);
}

export function matchesEventType(pattern: string, type: string): boolean {
  const wanted = pattern.split('.');
  const actual = type.split('.');
  for (const [index, token] of wanted.entries()) {
    if (token === '>') return actual.length > index;
    if (index >= actual.length || (token !== '*' && token !== actual[index])) return false;
  }
  return wanted.length === actual.length;
}
