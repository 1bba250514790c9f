import { describe, expect, it } from 'vitest';
import { inputProblems, MAX_INPUT_DEPTH, numberProblem, textProblem } from './input-rules.ts';
import { defineLabels } from './field-words.ts';

defineLabels({ unitNumber: 'Unit number' });

describe('the input rules every request holds to', () => {
  it('refuses NUL and lone surrogates in text, saying which line of a text of several', () => {
    expect(textProblem('Truck\u0000 1')).toBe('must not contain the NUL character (U+0000)');
    expect(textProblem('a,b\nc,\u0000')).toBe('must not contain the NUL character (U+0000) (line 2)');
    expect(textProblem('a\ud800b')).toMatch(/lone UTF-16 surrogate/);
    expect(textProblem('\udc00')).toMatch(/lone UTF-16 surrogate/);
    // A pair is one character (an emoji), not a lone surrogate.
    expect(textProblem('Truck 🚚 \ud83d\ude9a')).toBeNull();
  });

  it('refuses subnormal and infinite numbers; zero and normal numbers pass', () => {
    expect(numberProblem(5e-324)).toMatch(/subnormal/);
    expect(numberProblem(-1e-320)).toMatch(/subnormal/);
    expect(numberProblem(Infinity)).toMatch(/finite/);
    for (const ok of [0, -0, 2.2250738585072014e-308, 1e308, -42.5]) expect(numberProblem(ok)).toBeNull();
  });

  it('names each bad field by its label and path, field names included', () => {
    const problems = inputProblems({ unitNumber: 'T\u0000', stops: [{ name: 'ok' }, { laborHours: 5e-324 }], ['bad\u0000key']: 1 });
    expect(problems).toEqual([
      { path: ['unitNumber'], message: 'Unit number must not contain the NUL character (U+0000)' },
      { path: ['stops', 1, 'laborHours'], message: 'laborHours must be 0 or a number further from zero (a subnormal number cannot be stored)' },
      { path: [], message: 'The request body has a field name that is not valid text' },
    ]);
  });

  it(`stops at ${MAX_INPUT_DEPTH} levels of nesting instead of walking (or crashing on) 5000`, () => {
    let deep: unknown = 'leaf';
    for (let i = 0; i < 5000; i++) deep = [deep];
    const problems = inputProblems({ attributes: deep });
    expect(problems).toHaveLength(1);
    expect(problems[0]!.message).toMatch(new RegExp(`^attributes \\(item 1\\) is nested too deeply \\(at most ${MAX_INPUT_DEPTH} levels\\)$`));
    expect(problems[0]!.path).toHaveLength(MAX_INPUT_DEPTH);
    expect(inputProblems({ geometry: { coordinates: [[[-96.8, 32.7]]] } })).toEqual([]);
  });
});
