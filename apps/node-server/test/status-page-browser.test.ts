import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  closedPort,
  startScriptedUpstream,
  upstreamsServingEverything,
  type ScriptedUpstream,
} from '@infergate/testkit';
import { startNodeGateway, type NodeGateway } from './start-node-gateway.js';

/*
 * The operator page at /status, in headless Chromium (Debian's, as the /docs test uses), after
 * scripted traffic: chat answered by one upstream, embeddings sent to a dead one. The page asks for an
 * operator key, then shows the upstreams with the dead one's last failure, the key's last minute
 * against its limits and the failures. Set STATUS_PAGE_SCREENSHOT to a file to keep a screenshot.
 */

const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const operatorKey = 'ig-status-ops-0123456789abcdef0123456789';
const teamKey = 'ig-status-team-0123456789abcdef012345678';
const chatModel = 'alpha36-35b-a3b-instruct';
const embeddingModel = 'gamma-m3';

let upstream: ScriptedUpstream;
let gateway: NodeGateway;
let browser: BrowserContext;
let profile: string;

beforeAll(async () => {
  upstream = await startScriptedUpstream();
  upstream.setDefaultScript('ok:2:0');
  const dead = `http://127.0.0.1:${await closedPort()}`;
  // Everything on the scripted upstream but the embedding model, which only a dead upstream serves.
  const upstreams = upstreamsServingEverything(upstream.url).flatMap((entry) => {
    if (!(embeddingModel in entry.models)) return [entry];
    const { [embeddingModel]: served, ...others } = entry.models;
    return [
      { ...entry, models: others },
      { ...entry, name: 'dead-embeddings', url: dead, models: { [embeddingModel]: served } },
    ];
  });
  gateway = await startNodeGateway({
    upstreams,
    keys: [
      { key: operatorKey, name: 'ops', operator: true },
      {
        key: teamKey,
        name: 'team-a',
        limits: { requests_per_minute: 100, tokens_per_minute: 50_000 },
        budget: { amount: 5, currency: 'USD', period: 'day' },
      },
    ],
    prices: { [chatModel]: { input_per_million: 1, output_per_million: 2, currency: 'USD' } },
  });
  profile = await mkdtemp(join(tmpdir(), 'infergate-status-browser-'));
  browser = await chromium.launchPersistentContext(profile, {
    executablePath: chromiumPath,
    headless: true,
    viewport: { width: 1100, height: 1400 },
    args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'],
  });
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await gateway?.close();
  await upstream?.close();
  if (profile !== undefined) await rm(profile, { recursive: true, force: true });
});

async function post(path: string, body: object): Promise<number> {
  const response = await fetch(`${gateway.baseUrl}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${teamKey}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  await response.arrayBuffer();
  return response.status;
}

describe('the /status page', () => {
  it('opens its data to operator keys only on the main port', async () => {
    const statusOf = async (key?: string) => {
      const response = await fetch(`${gateway.baseUrl}/status.json`, {
        headers: key === undefined ? {} : { authorization: `Bearer ${key}` },
      });
      await response.arrayBuffer();
      return response.status;
    };
    expect(await statusOf()).toBe(401);
    expect(await statusOf(teamKey)).toBe(403);
    expect(await statusOf(operatorKey)).toBe(200);
  });

  it('renders upstreams, keys and recent failures after traffic with a dead upstream', async () => {
    for (let index = 0; index < 5; index++)
      expect(
        await post('/v1/chat/completions', {
          model: chatModel,
          messages: [{ role: 'user', content: 'Hello?' }],
        }),
      ).toBe(200);
    for (let index = 0; index < 3; index++)
      expect(await post('/v1/embeddings', { model: embeddingModel, input: 'hello' })).toBe(502);

    const page = await browser.newPage();
    const problems: string[] = [];
    const elsewhere: string[] = [];
    page.on('console', (message) => {
      // The first read of the data has no key yet: its 401 is how the page learns to ask for one.
      if (message.type() === 'error' && !message.text().includes('401'))
        problems.push(`console: ${message.text()}`);
    });
    page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
    page.on('request', (request) => {
      const url = new URL(request.url());
      if (url.protocol.startsWith('http') && url.origin !== new URL(gateway.baseUrl).origin)
        elsewhere.push(request.url());
    });

    const response = await page.goto(`${gateway.baseUrl}/status`, { waitUntil: 'load' });
    expect(response?.status()).toBe(200);
    await page.waitForSelector('#key-form', { state: 'visible', timeout: 10_000 });
    await page.fill('#key', operatorKey);
    await page.click('#key-form button');
    await page.waitForFunction(() => document.querySelector('#failures table') !== null, null, {
      timeout: 10_000,
    });

    const rows = (selector: string) =>
      page.$$eval(`${selector} tr`, (trs) =>
        trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent ?? '')),
      );
    const upstreamRows = await rows('#upstreams');
    const deadRow = upstreamRows.find((cells) => cells[0] === 'dead-embeddings');
    expect(deadRow?.[1]).toMatch(/unreachable|ejected/);
    expect(deadRow?.[5]).toContain('502 refused');
    expect(upstreamRows.some((cells) => cells[1] === 'up' || cells[5] === '-')).toBe(true);

    const keyRows = await rows('#keys');
    const team = keyRows.find((cells) => cells[0] === 'team-a');
    expect(team?.[1]).toBe('8 of 100 ');
    expect(team?.[2]).toMatch(/^\d+ of 50000 $/);
    // Five priced chats spent a few ten-thousandths of a dollar; the period is the UTC day.
    expect(team?.[4]).toMatch(/^4\.999\d* of 5 USD per day left, resets /);

    const failureRows = await rows('#failures');
    const failures = failureRows.filter((cells) => cells.length > 0);
    expect(failures).toHaveLength(3);
    for (const cells of failures) {
      expect(cells.slice(1)).toEqual([
        'createEmbedding',
        '502',
        embeddingModel,
        'dead-embeddings',
        'refused',
      ]);
    }
    const text = await page.evaluate(() => document.body.innerText);
    expect(text).toContain('This replica only');
    expect(text).not.toContain(teamKey);
    expect(text).not.toContain(operatorKey);
    expect(await page.$$('#charts svg polyline')).toHaveLength(4);

    if (process.env.STATUS_PAGE_SCREENSHOT)
      await page.screenshot({ path: process.env.STATUS_PAGE_SCREENSHOT, fullPage: true });
    expect(problems).toEqual([]);
    expect(elsewhere).toEqual([]);
    await page.close();
  }, 60_000);
});
