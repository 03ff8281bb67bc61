import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startNodeGateway, type NodeGateway } from './start-node-gateway.js';

// Debian's chromium, installed by .ci/run (apt-get install -y chromium). Missing, the launch fails the
// test: a browser test that skips itself would pass without ever having looked at the page.
const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

let gateway: NodeGateway;
let browser: BrowserContext;
let profile: string;

beforeAll(async () => {
  gateway = await startNodeGateway();
  profile = await mkdtemp(join(tmpdir(), 'infergate-docs-browser-'));
  // A fresh profile per run, so nothing cached from an earlier run can hide a missing asset.
  browser = await chromium.launchPersistentContext(profile, {
    executablePath: chromiumPath,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await gateway?.close();
  if (profile !== undefined) await rm(profile, { recursive: true, force: true });
});

interface DocumentedOperation {
  summary: string;
  operationId: string;
}

describe('the /docs page in headless Chromium', () => {
  it('shows every endpoint of the document and renders without console errors or requests elsewhere', async () => {
    const openapi = (await (await fetch(`${gateway.baseUrl}/openapi.json`)).json()) as {
      paths: Record<string, Record<string, DocumentedOperation>>;
    };
    const operations = Object.entries(openapi.paths).flatMap(([path, methods]) =>
      Object.entries(methods).map(([method, operation]) => ({
        method: method.toUpperCase(),
        path,
        summary: operation.summary,
      })),
    );

    const page = await browser.newPage();
    const problems: string[] = [];
    const elsewhere: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') problems.push(`console: ${message.text()}`);
    });
    page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
    page.on('response', (answer) => {
      if (answer.status() >= 400) problems.push(`${answer.status()}: ${answer.url()}`);
    });
    page.on('requestfailed', (request) =>
      problems.push(`request failed: ${request.url()} ${request.failure()?.errorText ?? ''}`),
    );
    page.on('request', (request) => {
      const url = new URL(request.url());
      if (url.protocol.startsWith('http') && url.origin !== new URL(gateway.baseUrl).origin)
        elsewhere.push(request.url());
    });

    const response = await page.goto(`${gateway.baseUrl}/docs`, { waitUntil: 'load' });
    expect(response?.status()).toBe(200);
    // The reference renders sections as it goes: wait until every operation's path is on the page.
    const paths = operations.map((operation) => operation.path);
    await page
      .waitForFunction(
        (expected) => expected.every((path) => document.body.innerText.includes(path)),
        paths,
        { timeout: 30_000 },
      )
      .catch(() => undefined);
    const text = await page.evaluate(() => document.body.innerText);
    // The endpoints the gateway answers with a 404 of their own are one section, not one entry each.
    expect(text).toContain('Endpoints this gateway does not serve');
    expect(text.split('Unsupported: the gateway stores no data').length - 1).toBe(0);
    const missing = operations.filter((operation) => !text.includes(operation.summary));
    expect(
      missing.map((operation) => `${operation.method} ${operation.path} (${operation.summary})`),
    ).toEqual([]);
    for (const operation of operations)
      expect(text, operation.path).toContain(operation.path.replace(/\{[^}]+\}/g, (name) => name));
    expect(problems).toEqual([]);
    expect(elsewhere).toEqual([]);
    await page.close();
  }, 90_000);
});
