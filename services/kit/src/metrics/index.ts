export { startMetrics, processMetrics, processComponent, onEveryProvider } from './provider.js';
export { instruments, LATENCY_BUCKETS, IMAGE_BUCKETS, POOL_WAIT_BUCKETS, type KitInstruments } from './instruments.js';
export { startMetricsServer, renderPrometheus, DEFAULT_METRICS_PORT, type MetricsServer, type MetricsRoute } from './server.js';
export { instrumentPool, traceQueries } from './pg.js';
export { observeOutbox } from './outbox.js';
export { polledGauge } from './polled-gauge.js';
