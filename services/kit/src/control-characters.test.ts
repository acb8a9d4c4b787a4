import { describe, expect, it } from 'vitest';
import { controlCharactersMessage, findControlCharacters, hasControlCharacters } from './control-characters.js';

describe('control characters in text', () => {
  it('refuses NUL, the other C0 controls and DEL, and keeps tab, newline and carriage return', () => {
    for (const code of [0x00, 0x01, 0x08, 0x0b, 0x0c, 0x0e, 0x1b, 0x1f, 0x7f]) expect(hasControlCharacters(`a${String.fromCharCode(code)}b`), code.toString(16)).toBe(true);
    for (const text of ['plain', 'two\nlines', 'tab\there', 'windows\r\nline', 'émoji 🧱 ünïcode', '']) expect(hasControlCharacters(text), text).toBe(false);
  });

  it('names the field where one sits, however deep, and ignores bytes', () => {
    expect(findControlCharacters({ name: 'Ada', bars: [{ label: 'ok' }, { label: 'bad\u0000' }] })).toBe('bars.1.label');
    expect(findControlCharacters('x\u0000')).toBe('(root)');
    expect(findControlCharacters({ ['k\u0001']: 'v' })).toBe('k\u0001');
    expect(findControlCharacters({ chunk: Buffer.from([0, 1, 2]), description: 'fine' })).toBeUndefined();
    expect(findControlCharacters({ page: 1, flag: true, none: null })).toBeUndefined();
    expect(controlCharactersMessage('description')).toBe('description must not contain control characters');
  });

  it('walks a value nested far deeper than the call stack goes, quickly', () => {
    // A JSON body of 200 KB can nest arrays 100,000 deep; a recursive walk overflowed the stack there (a 500).
    const depth = 100_000;
    const clean = JSON.parse(`{"a":${'['.repeat(depth)}"x"${']'.repeat(depth)}}`) as unknown;
    const dirty = JSON.parse(`{"a":${'['.repeat(depth)}"x\\u0000"${']'.repeat(depth)}}`) as unknown;
    const started = performance.now();
    expect(findControlCharacters(clean)).toBeUndefined();
    // Named, and shortened: the message names the field, not 100,000 indexes.
    expect(findControlCharacters(dirty)).toBe(`a${'.0'.repeat(depth)}`.slice(0, 200) + '…');
    expect(performance.now() - started).toBeLessThan(3_000);
  });

  it('names the first field in key order, as a depth-first walk meets it', () => {
    expect(findControlCharacters({ a: { b: 'ok', c: ['x', 'y\u0007'] }, d: 'z\u0000' })).toBe('a.c.1');
    expect(findControlCharacters({ a: 'fine', ['b\u0000']: { c: 'x\u0001' } })).toBe('b\u0000');
    expect(findControlCharacters([['ok'], ['ok', 'no\u007f']])).toBe('1.1');
  });
});
