import type { Histogram, Meter } from '@opentelemetry/api';
import { memoisedPerProvider } from './provider.js';

/** Request and call latencies, in seconds: 5 ms to 10 s (a gRPC deadline is 5 s, an upload's longer). */
export const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
/** Image work, in seconds: a thumbnail takes tens of ms, a large HEIC photo many seconds. */
export const IMAGE_BUCKETS = [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 20, 30];
/** Waits for a pooled connection, in seconds: nearly always under a millisecond, seconds when the pool is saturated. */
export const POOL_WAIT_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

function histogram(meter: Meter, name: string, description: string, boundaries: number[]): Histogram {
  return meter.createHistogram(name, { description, unit: 's', advice: { explicitBucketBoundaries: boundaries } });
}

/**
 * The instruments recorded on hot paths, made once per meter provider. Names are OpenTelemetry's (dots); the Prometheus
 * endpoint renders them with underscores and their unit (`s` → `_seconds`), counters with `_total`.
 */
export const instruments = memoisedPerProvider((meter) => ({
  httpServerDuration: histogram(meter, 'http.server.request.duration', 'HTTP requests answered by the gateway, by route template', LATENCY_BUCKETS),
  rpcServerDuration: histogram(meter, 'rpc.server.duration', 'gRPC calls served, by method and status code', LATENCY_BUCKETS),
  rpcClientDuration: histogram(meter, 'rpc.client.duration', 'gRPC calls made to peers, by method and status code', LATENCY_BUCKETS),
  poolWait: histogram(meter, 'snapcracks.db.pool.wait', 'Time to get a connection from the pool (including opening one)', POOL_WAIT_BUCKETS),
  eventsDelivered: meter.createCounter('snapcracks.events.delivered', {
    description: 'Bus messages handed to a consumer, by outcome: ok (acknowledged), retry (to be delivered again), dead (given up)',
  }),
  eventsRedelivered: meter.createCounter('snapcracks.events.redelivered', { description: 'Bus messages delivered again (a retry or an unanswered delivery)' }),
  deadLetters: meter.createCounter('snapcracks.dead_letters', { description: 'Events stored as dead letters after the last delivery failed' }),
  eventsRefused: meter.createCounter('snapcracks.events.refused', {
    description: 'Bus messages refused before any handler, by reason: not signed by the component that owns their type, or holding another type',
  }),
  imageProcessing: histogram(meter, 'snapcracks.image.processing', 'Image work on the media threads, by kind (queue wait excluded)', IMAGE_BUCKETS),
  publicPageCache: meter.createCounter('snapcracks.public_page_cache', { description: 'Public page lookups, by result: hit or miss (a backend call)' }),
  personalFeedPages: meter.createCounter('snapcracks.personal_feed.pages', {
    description: "Need-your-vote pages, by source: memory (the gateway's copy of the order) or photo_service (not loaded yet, or a card not to be had)",
  }),
  identityRefusals: meter.createCounter('snapcracks.identity.refusals', {
    description: 'gRPC calls refused for their caller identity (missing, forged, misaddressed or stale proof or user assertion), by method',
  }),
  rateLimitRefusals: meter.createCounter('snapcracks.rate_limit.refusals', { description: 'Requests refused with 429, by limit' }),
}));

export type KitInstruments = ReturnType<typeof instruments>;
