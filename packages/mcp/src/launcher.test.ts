import { describe, expect, it } from 'vitest';
import { USAGE, parseLauncherArgs } from './launcher';

describe('parseLauncherArgs', () => {
  it('points at /mcp of the service URL, with or without the path given', () => {
    for (const url of ['http://localhost:3000', 'http://localhost:3000/', 'http://localhost:3000/mcp']) {
      expect(parseLauncherArgs(['--url', url, '--key', 'mem_sk_x'])).toEqual({ url: new URL('http://localhost:3000/mcp'), key: 'mem_sk_x' });
    }
    expect(parseLauncherArgs(['--url', 'https://m.example/base', '--key', 'k', '--uui', 'mem_uui_y'])).toEqual({
      url: new URL('https://m.example/base/mcp'),
      key: 'k',
      uui: 'mem_uui_y',
    });
  });

  it('falls back to MEMORY_URL, MEMORY_API_KEY and MEMORY_UUI; flags win', () => {
    const env = { MEMORY_URL: 'http://a:1', MEMORY_API_KEY: 'env-key', MEMORY_UUI: 'mem_uui_env' };
    expect(parseLauncherArgs([], env)).toEqual({ url: new URL('http://a:1/mcp'), key: 'env-key', uui: 'mem_uui_env' });
    expect(parseLauncherArgs(['--key', 'flag-key'], env)).toMatchObject({ key: 'flag-key' });
  });

  it('explains what is missing or wrong', () => {
    expect(parseLauncherArgs(['--url', 'http://a:1'])).toMatch(/^--url and --key are required/);
    expect(parseLauncherArgs(['--url', 'nope', '--key', 'k'])).toMatch(/^--url is not a URL/);
    expect(parseLauncherArgs(['--url', 'ftp://a', '--key', 'k'])).toMatch(/must be http or https/);
    expect(parseLauncherArgs(['--bogus'])).toContain(USAGE);
    expect(parseLauncherArgs(['--help'])).toBe(USAGE);
  });
});
