/** The offline sentence encoder, with the real model (loads in about a second; each test shares one worker). */
import { afterAll, describe, expect, it, vi } from 'vitest';
import { LOCAL_ENCODER_DIMENSIONS, LOCAL_ENCODER_MODEL, type LocalEncoder, createLocalEncoder, withoutSubject } from './local-encoder';

const dot = (a: Float32Array, b: Float32Array) => a.reduce((s, x, i) => s + x * b[i], 0);
type Crashable = LocalEncoder & { _crash(how: 'throw' | 'terminate'): void };

const encoder = createLocalEncoder({ batchSize: 8 });
afterAll(() => encoder.close());

describe('createLocalEncoder', { timeout: 60_000 }, () => {
  it('starts lazily and puts a paraphrased question nearer its fact than unrelated facts', async () => {
    expect(encoder.name).toBe(LOCAL_ENCODER_MODEL);
    expect(encoder.dimensions).toBe(512);
    expect(encoder.stats().starts).toBe(0);
    const [job, nurse, cat, paris] = await encoder.embed([
      "What's the user's job?",
      'The user works as a pediatric nurse',
      'The user has a cat named Miso',
      'The user visited Paris last spring',
    ]);
    expect(encoder.stats()).toMatchObject({ starts: 1, backend: 'wasm', failures: 0 });
    for (const v of [job, nurse, cat, paris]) {
      expect(v).toBeInstanceOf(Float32Array);
      expect(v.length).toBe(LOCAL_ENCODER_DIMENSIONS);
      expect(dot(v, v)).toBeCloseTo(1, 5);
    }
    expect(dot(job, nurse)).toBeGreaterThan(dot(job, cat));
    expect(dot(job, nurse)).toBeGreaterThan(dot(job, paris));

    const [pet, dog, salary] = await encoder.embed([
      'Does the user have any animals at home?',
      'The user adopted a rescue greyhound last year',
      'The user earns about 80k a year',
    ]);
    expect(dot(pet, dog)).toBeGreaterThan(dot(pet, salary));
  });

  it('gives the same vector to a text alone or batched with others, in input order', async () => {
    const texts = Array.from({ length: 19 }, (_, i) => `The user's note number ${i} is about ${['gardening', 'chess', 'taxes'][i % 3]}`);
    const before = encoder.stats().messages;
    const [all, ...singles] = await Promise.all([encoder.embed(texts), ...texts.slice(0, 5).map((t) => encoder.embed([t]))]);
    expect(all).toHaveLength(19);
    singles.forEach(([v], i) => expect(dot(v, all[i])).toBeCloseTo(1, 4));
    // 24 texts of 6 concurrent calls, 8 per message
    expect(encoder.stats().messages - before).toBe(3);
    expect(dot(all[0], all[3])).toBeGreaterThan(dot(all[0], all[1]));
  });

  it('sends a query ahead of the rest of a big call, and long texts a few per message', async () => {
    const done: string[] = [];
    const bulk = encoder.embed(Array.from({ length: 30 }, (_, i) => `stored memory ${i}`)).then(() => done.push('bulk'));
    const query = encoder.embed(['a query arriving later']).then(() => done.push('query'));
    await Promise.all([bulk, query]);
    expect(done).toEqual(['query', 'bulk']);

    const passages = Array.from({ length: 5 }, (_, i) => `passage ${i} `.padEnd(900, 'lorem ipsum dolor sit amet '));
    const before = encoder.stats().messages;
    expect(await encoder.embed(passages)).toHaveLength(5);
    // 2,400 characters per message, a text counted up to 600: four per message
    expect(encoder.stats().messages - before).toBe(2);
  });

  it('embeds empty texts and cuts long ones at 128 tokens', async () => {
    const long = Array.from({ length: 200 }, (_, i) => `word${i}`).join(' ');
    const [empty, blank, a, b] = await encoder.embed(['', '   ', long, `${long} and then a completely different ending about volcanoes`]);
    expect(dot(empty, empty)).toBeCloseTo(1, 5);
    expect(dot(blank, blank)).toBeCloseTo(1, 5);
    expect(dot(a, b)).toBeCloseTo(1, 5);
    expect(await encoder.embed([])).toEqual([]);
  });

  it('rejects a bad request and goes on with the same worker', async () => {
    const starts = encoder.stats().starts;
    await expect(encoder.embed(['fine', 42 as unknown as string])).rejects.toThrow(/not a string/);
    expect((await encoder.embed(['still working']))[0]).toHaveLength(512);
    expect(encoder.stats().starts).toBe(starts);
  });

  it('replaces a worker that crashed, failing only the call it was running', async () => {
    const enc = encoder as Crashable;
    const starts = enc.stats().starts;
    enc._crash('throw');
    await vi.waitFor(() => expect(enc.stats().running).toBe(false));
    expect((await enc.embed(['after an uncaught error']))[0]).toHaveLength(512);
    expect(enc.stats().starts).toBe(starts + 1);

    const running = enc.embed(['the call the worker is running']);
    await new Promise((r) => setImmediate(r));
    const queued = enc.embed(['a call waiting behind it']);
    enc._crash('terminate');
    await expect(running).rejects.toThrow(/exited/);
    expect((await queued)[0]).toHaveLength(512);
    expect(enc.stats().starts).toBe(starts + 2);
  });

  it('fails the waiting calls when the model does not load in time, and tries again on the next call', async () => {
    const slow = createLocalEncoder({ startTimeoutMs: 1 });
    await expect(slow.embed(['x'])).rejects.toThrow(/did not load/);
    await expect(slow.embed(['y'])).rejects.toThrow(/did not load/);
    expect(slow.stats().starts).toBe(2);
    await slow.close();
  });

  it('close() fails what is queued and refuses later calls', async () => {
    const enc = createLocalEncoder();
    await enc.start();
    const pending = expect(enc.embed(['one', 'two'])).rejects.toThrow(/closed/);
    await enc.close();
    await pending;
    await expect(enc.embed(['three'])).rejects.toThrow(/closed/);
    await enc.close();
  });
});

describe('withoutSubject', () => {
  it('removes "the user" in its forms, so the vectors compare what is said about the user', () => {
    expect(withoutSubject("The user works as a nurse at the user's hospital.")).toBe('works as a nurse at hospital.');
    expect(withoutSubject("What's the user's job?")).toBe("What's job?");
    expect(withoutSubject('Users and the users’ data')).toBe('and data');
    expect(withoutSubject('a username is kept')).toBe('a username is kept');
  });
});
