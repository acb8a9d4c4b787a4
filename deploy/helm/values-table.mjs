// Writes the table of every chart value into snapcracks/README.md (between the values-table markers), from
// values.schema.json (types, descriptions) and values.yaml (defaults):
//   node deploy/helm/values-table.mjs
// deploy/deploy.test.ts checks that the README names every value of the schema.
import { readFileSync, writeFileSync } from 'node:fs';
import { parse } from 'yaml';

const chart = new URL('./snapcracks/', import.meta.url);
const schema = JSON.parse(readFileSync(new URL('values.schema.json', chart), 'utf8'));
const defaults = parse(readFileSync(new URL('values.yaml', chart), 'utf8'));
const resolve = (s) => (s.$ref ? { ...schema.definitions[s.$ref.replace('#/definitions/', '')], ...(s.description ? { description: s.description } : {}) } : s);

function typeOf(s) {
  if (s.enum) return s.enum.map((v) => JSON.stringify(v)).join(' \\| ');
  if (s.oneOf) return s.oneOf.map((o) => (o.const !== undefined ? JSON.stringify(o.const) : o.type)).join(' \\| ');
  return [s.type ?? 'any'].flat().join(' \\| ');
}
const rows = [];
function walk(s, path, value) {
  const r = resolve(s);
  if (r.properties) {
    for (const [key, child] of Object.entries(r.properties)) walk(child, path ? `${path}.${key}` : key, value?.[key]);
    return;
  }
  const shown = value === undefined ? '' : `\`${JSON.stringify(value)}\``;
  rows.push(`| \`${path}\` | ${typeOf(r)} | ${shown.replaceAll('|', '\\|')} | ${(r.description ?? '').replaceAll('|', '\\|')} |`);
}
walk(schema, '', defaults);
const table = ['| Value | Type | Default | Meaning |', '|---|---|---|---|', ...rows].join('\n');
const readmeUrl = new URL('README.md', chart);
const readme = readFileSync(readmeUrl, 'utf8');
const start = '<!-- values-table:start (node deploy/helm/values-table.mjs) -->';
const end = '<!-- values-table:end -->';
const [before, rest] = readme.split(start);
if (rest === undefined) throw new Error(`README.md lacks ${start}`);
writeFileSync(readmeUrl, `${before}${start}\n${table}\n${end}${rest.split(end)[1]}`);
console.log(`${rows.length} values`);
