import type { Attributes } from '@opentelemetry/api';
import { onEveryProvider } from './provider.js';

interface Source {
  attributes: Attributes;
  read: () => Promise<number>;
  last?: { at: number; value: number };
  reading?: Promise<void>;
}

/**
 * A gauge whose value costs a query: each source is read at collection time, at most every `refreshMs` however often
 * metrics are collected; a failed read leaves the last value. Returns how to add a source (and remove it again).
 */
export function polledGauge(options: { name: string; description: string; unit?: string; refreshMs: number }) {
  const sources = new Set<Source>();
  const refresh = (source: Source): Promise<void> => {
    if (source.last && Date.now() - source.last.at < options.refreshMs) return Promise.resolve();
    source.reading ??= source
      .read()
      .then((value) => {
        source.last = { at: Date.now(), value };
      })
      .catch(() => undefined)
      .finally(() => {
        source.reading = undefined;
      });
    return source.reading;
  };
  onEveryProvider((meter) => {
    meter
      .createObservableGauge(options.name, { description: options.description, ...(options.unit ? { unit: options.unit } : {}) })
      .addCallback(async (result) => {
        await Promise.all([...sources].map(refresh));
        for (const source of sources) if (source.last) result.observe(source.last.value, source.attributes);
      });
  });
  return (attributes: Attributes, read: () => Promise<number>): (() => void) => {
    const source: Source = { attributes, read };
    sources.add(source);
    return () => void sources.delete(source);
  };
}
