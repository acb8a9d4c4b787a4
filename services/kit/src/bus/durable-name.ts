const DURABLE_NAME = /^[A-Za-z0-9_-]+$/;

/** Durable names become part of JetStream consumer names, which allow only these characters. */
export function assertDurableName(name: string): void {
  if (!DURABLE_NAME.test(name)) throw new Error(`Invalid durable name "${name}": use letters, digits, "_" and "-"`);
}
