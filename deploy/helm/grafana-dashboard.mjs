// Writes snapcracks/files/grafana-dashboard.json, the chart's Grafana dashboard (metrics.dashboard.enabled):
//   node deploy/helm/grafana-dashboard.mjs
// Panels use only the metric names the components export (docs/observability.md); deploy/deploy.test.ts checks.
import { writeFileSync } from 'node:fs';

const ns = 'namespace="$namespace"';
const rate = (metric, labels = '') => `rate(${metric}{${[ns, labels].filter(Boolean).join(',')}}[$__rate_interval])`;
const p99 = (metric, by, labels = '') => `histogram_quantile(0.99, sum by (le, ${by}) (${rate(`${metric}_bucket`, labels)}))`;

let id = 0;
let y = 0;
const panels = [];
function row(title) {
  panels.push({ type: 'row', id: ++id, title, collapsed: false, gridPos: { h: 1, w: 24, x: 0, y: y++ }, panels: [] });
}
function graphs(...list) {
  const w = 24 / list.length;
  list.forEach(([title, unit, targets], i) => {
    panels.push({
      type: 'timeseries',
      id: ++id,
      title,
      datasource: { type: 'prometheus', uid: '${datasource}' },
      fieldConfig: { defaults: { unit }, overrides: [] },
      options: { legend: { displayMode: 'table', placement: 'bottom', calcs: ['lastNotNull', 'max'] }, tooltip: { mode: 'multi' } },
      targets: targets.map(([expr, legendFormat], j) => ({ refId: String.fromCharCode(65 + j), expr, legendFormat })),
      gridPos: { h: 8, w, x: i * w, y },
    });
  });
  y += 8;
}

row('HTTP (gateway): rate, errors, duration per route');
graphs(
  ['Requests/s by route', 'reqps', [[`sum by (method, route) (${rate('http_server_request_duration_seconds_count')})`, '{{method}} {{route}}']]],
  ['5xx ratio by route', 'percentunit', [[`sum by (method, route) (${rate('http_server_request_duration_seconds_count', 'status_code=~"5.."')}) / sum by (method, route) (${rate('http_server_request_duration_seconds_count')})`, '{{method}} {{route}}']]],
  ['p99 duration by route', 's', [[p99('http_server_request_duration_seconds', 'method, route'), '{{method}} {{route}}']]],
);
row('gRPC: rate, errors, duration per method');
graphs(
  ['Server calls/s by method', 'reqps', [[`sum by (component, rpc_method) (${rate('rpc_server_duration_seconds_count')})`, '{{component}} {{rpc_method}}']]],
  ['Server errors/s by method and code', 'reqps', [[`sum by (component, rpc_method, rpc_grpc_status_code) (${rate('rpc_server_duration_seconds_count', 'rpc_grpc_status_code!="0"')})`, '{{component}} {{rpc_method}} {{rpc_grpc_status_code}}']]],
  ['p99 server and client duration', 's', [
    [p99('rpc_server_duration_seconds', 'component, rpc_method'), 'server {{component}} {{rpc_method}}'],
    [p99('rpc_client_duration_seconds', 'component, rpc_service'), 'client {{component}} → {{rpc_service}}'],
  ]],
);
row('Runtime');
graphs(
  ['Event-loop delay', 's', [[`max by (component, pod) (snapcracks_nodejs_eventloop_delay_seconds{${ns}})`, '{{component}} {{pod}}']]],
  ['Event-loop utilisation', 'percentunit', [[`max by (component, pod) (snapcracks_nodejs_eventloop_utilization{${ns}})`, '{{component}} {{pod}}']]],
  ['Memory', 'bytes', [
    [`sum by (component) (snapcracks_process_resident_memory_bytes{${ns}})`, 'RSS {{component}}'],
    [`sum by (component) (snapcracks_process_heap_used_bytes{${ns}})`, 'heap {{component}}'],
  ]],
);
row('Database pools');
graphs(
  ['Connections used / pool size', 'short', [
    [`sum by (component) (snapcracks_db_pool_connections{${ns},state="used"})`, 'used {{component}}'],
    [`sum by (component) (snapcracks_db_pool_max{${ns}})`, 'max {{component}}'],
  ]],
  ['Waiting for a connection', 'short', [[`sum by (component) (snapcracks_db_pool_waiting{${ns}})`, '{{component}}']]],
  ['p99 wait for a connection', 's', [[p99('snapcracks_db_pool_wait_seconds', 'component'), '{{component}}']]],
);
row('Events: outbox and consumers');
graphs(
  ['Outbox backlog', 'short', [[`sum by (component) (snapcracks_outbox_backlog{${ns}})`, '{{component}}']]],
  ['Outbox oldest row age', 's', [[`max by (component) (snapcracks_outbox_oldest_age_seconds{${ns}})`, '{{component}}']]],
  ['Consumer lag (pending)', 'short', [[`max by (consumer) (snapcracks_consumer_lag{${ns}})`, '{{consumer}}']]],
);
graphs(
  ['Deliveries/s by outcome', 'ops', [[`sum by (consumer, outcome) (${rate('snapcracks_events_delivered_total')})`, '{{consumer}} {{outcome}}']]],
  ['Redeliveries/s', 'ops', [[`sum by (consumer) (${rate('snapcracks_events_redelivered_total')})`, '{{consumer}}']]],
  ['Dead letters (1h)', 'short', [[`sum by (consumer) (increase(snapcracks_dead_letters_total{${ns}}[1h]))`, '{{consumer}}']]],
);
row('Images, cache, limits, sessions');
graphs(
  ['Image work queue', 'short', [[`sum by (pod) (snapcracks_image_queue_depth{${ns}})`, '{{pod}}']]],
  ['p99 image processing', 's', [[p99('snapcracks_image_processing_seconds', 'kind'), '{{kind}}']]],
  ['Public page cache hit ratio', 'percentunit', [[`sum (${rate('snapcracks_public_page_cache_total', 'result="hit"')}) / sum (${rate('snapcracks_public_page_cache_total')})`, 'hit ratio']]],
);
graphs(
  ['Rate-limit refusals/s', 'reqps', [[`sum by (limit) (${rate('snapcracks_rate_limit_refusals_total')})`, '{{limit}}']]],
  ['Active sessions', 'short', [[`max (snapcracks_active_sessions{${ns}})`, 'sessions']]],
);

const dashboard = {
  title: 'Snap Cracks',
  uid: 'snapcracks',
  tags: ['snapcracks'],
  timezone: 'browser',
  schemaVersion: 39,
  version: 1,
  refresh: '30s',
  time: { from: 'now-3h', to: 'now' },
  templating: {
    list: [
      { name: 'datasource', label: 'Data source', type: 'datasource', query: 'prometheus', current: {}, hide: 0 },
      {
        name: 'namespace',
        label: 'Namespace',
        type: 'query',
        datasource: { type: 'prometheus', uid: '${datasource}' },
        query: { query: 'label_values(snapcracks_process_resident_memory_bytes, namespace)', refId: 'namespace' },
        definition: 'label_values(snapcracks_process_resident_memory_bytes, namespace)',
        refresh: 2,
        current: {},
        hide: 0,
      },
    ],
  },
  panels,
};
writeFileSync(new URL('./snapcracks/files/grafana-dashboard.json', import.meta.url), `${JSON.stringify(dashboard, null, 2)}\n`);
