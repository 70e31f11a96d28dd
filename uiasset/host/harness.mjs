// The browser test's driver. It connects a real MCP client (v2 SDK, either
// protocol generation) that advertises MCP Apps to the snowluma-mcp binary,
// reads the panel resource, and renders the panel in headless Chromium
// inside the AppBridge test host (dist/index.html). For each scenario it
// calls preview_message, shows the panel the input and result, clicks as
// told, and reports what the panel shows and what it sent. Everything goes
// to stdout as one JSON object; the Go test (e2e/panel_test.go) asserts on
// it and on what the fake SnowLuma recorded.
//
// Environment:
//   PANEL_BINARY      the snowluma-mcp binary
//   PANEL_SERVER_ENV  JSON object: the server's environment
//   PANEL_ERA         legacy | modern
//   PANEL_SCENARIOS   JSON array of {name, theme, locale, switchLocale, serverTools, hostFails, args, traceparent, action, screenshot}
//                     action: none | click | dblclick | force (a forced click on a disabled button)
//                     locale: the host context's locale (absent: the host gives none)
//                     switchLocale: a locale the host switches to after the action; the report
//                     then has what the panel showed before the switch as well
//   PANEL_CHROMIUM    the browser (default /usr/bin/chromium)
import { readFileSync } from 'node:fs';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { chromium } from 'playwright-core';

// A safety bound for a broken build, never an assertion about speed.
setTimeout(() => { console.error('harness: safety bound reached'); process.exit(3); }, 240_000).unref();

const era = process.env.PANEL_ERA;
const scenarios = JSON.parse(process.env.PANEL_SCENARIOS);
const hostHtml = readFileSync(new URL('./dist/index.html', import.meta.url), 'utf8');
const UI_MIME = 'text/html;profile=mcp-app';

const client = new Client({ name: 'snowluma-panel-harness', version: '1.0.0' }, {
  capabilities: { extensions: { 'io.modelcontextprotocol/ui': { mimeTypes: [UI_MIME] } } },
  versionNegotiation: era === 'modern' ? { mode: { pin: '2026-07-28' } } : { mode: 'legacy' },
});
client.onerror = (e) => console.error('harness client error:', e?.message ?? e);
await client.connect(new StdioClientTransport({
  command: process.env.PANEL_BINARY, args: [], env: JSON.parse(process.env.PANEL_SERVER_ENV), stderr: 'inherit',
}));

const out = { era: client.getProtocolEra(), protocolVersion: client.getNegotiatedProtocolVersion(), renders: [], requests: [], hostCalls: [], relaunches: 0 };
const tools = await client.listTools({}, { cacheMode: 'bypass' });
const preview = tools.tools.find((t) => t.name === 'preview_message');
out.tool = { resourceUri: preview?._meta?.ui?.resourceUri ?? null, legacyResourceUri: preview?._meta?.['ui/resourceUri'] ?? null };
const listed = await client.listResources({}, { cacheMode: 'bypass' });
out.resourceListed = listed.resources.some((r) => r.uri === out.tool.resourceUri);
const read = await client.readResource({ uri: out.tool.resourceUri }, { cacheMode: 'bypass' });
const panelHtml = read.contents[0].text;
out.resource = { mimeType: read.contents[0].mimeType, bytes: Buffer.byteLength(panelHtml), ttlMs: read.ttlMs ?? null, cacheScope: read.cacheScope ?? null };

// The host page's tools/call goes to the real client; render is the
// scenario being shown, so each host call can be credited to it.
let render = null;
const hostCallTool = async (params) => {
  out.hostCalls.push({ render: render.name, name: params.name, arguments: params.arguments });
  // A host that fails the call itself: the panel cannot know whether
  // anything was sent.
  if (render.hostFails) throw new Error('the test host failed this call');
  // Another send to the same chat that just went out before the panel's
  // (a host, or an agent, sending too): the panel's send then waits for
  // its budget, however slowly the page itself got to the click.
  if (render.sendFirst) {
    await client.callTool({ name: 'invoke_action', arguments: render.sendFirst, _meta: { traceparent: render.traceparent } }, { timeout: 60_000 });
  }
  // The panel's own _meta passes through (ext-apps adds a progressToken);
  // the traceparent lets the test find this call's requests at the fake.
  const _meta = { ...(params._meta ?? {}), traceparent: render.traceparent };
  return client.callTool({ name: params.name, arguments: params.arguments, _meta }, { timeout: 60_000 });
};

// openHost starts the browser and loads the test host into one page. It
// runs before any scenario, so nothing has been shown or sent yet.
async function openHost() {
  const browser = await chromium.launch({
    executablePath: process.env.PANEL_CHROMIUM || '/usr/bin/chromium', headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
  });
  try {
    const page = await browser.newPage({ viewport: { width: 720, height: 600 } });
    // Every request any frame makes, and every WebSocket: the page must make none.
    page.on('request', (r) => out.requests.push(r.url()));
    page.on('websocket', (w) => out.requests.push(w.url()));
    page.on('pageerror', (e) => console.error('harness page error:', e.message));
    await page.exposeFunction('hostCallTool', hostCallTool);
    await page.setContent(hostHtml);
    await page.waitForFunction(() => window.hostReady === true);
    return { browser, page };
  } catch (e) {
    await browser.close().catch(() => {});
    throw e;
  }
}

// browserDied tells a browser that went away (playwright's target-closed
// error, which is what a crashed Chromium leaves behind) from every other
// failure, which is a real one and is never retried.
function browserDied(e) {
  return /^TargetClosedError/.test(e?.constructor?.name ?? '') || /has been closed|crashed/i.test(e?.message ?? '');
}

// howItDied is playwright's record of the browser's exit (exit code and
// signal) when it has one, else the first line of the error.
function howItDied(e) {
  const message = String(e?.message ?? e);
  return message.match(/process did exit: ([^>]*)>/)?.[1] ?? message.split('\n')[0];
}

// Debian's Chromium has died with SIGSEGV while starting, before it loaded
// any page, on a busy 2-core machine (issue 23): the browser's own fault,
// nothing to do with the panel. Such a death is relaunched once and said
// so on stderr and in the report. Only this bring-up is retried: once a
// scenario has started, a dying browser fails the run, because a scenario
// may already have sent something.
let host;
try {
  host = await openHost();
} catch (e) {
  if (!browserDied(e)) throw e;
  console.error(`harness: chromium died before any page loaded (${howItDied(e)}); relaunching it once`);
  out.relaunches = 1;
  host = await openHost().catch((again) => {
    console.error('harness: chromium died again after the relaunch; giving up');
    throw again;
  });
}
const { browser, page } = host;
try {
  for (const sc of scenarios) {
    render = sc;
    const result = await client.callTool({ name: 'preview_message', arguments: sc.args, _meta: { traceparent: sc.traceparent } });
    await page.evaluate((o) => window.openPanel(o), {
      html: panelHtml, theme: sc.theme, locale: sc.locale, serverTools: sc.serverTools, toolInput: sc.args, toolResult: result,
    });
    const panel = page.frameLocator('#panel');
    // The panel has the result once it leaves the waiting phase: it shows
    // the draft (ready), or the server's refusal of it (refused).
    await panel.locator('body[data-phase]:not([data-phase="waiting"])').waitFor({ state: 'attached' });
    const button = panel.locator('#send');
    const before = await button.isDisabled();
    if (sc.action === 'click') await button.click();
    if (sc.action === 'dblclick') await button.dblclick();
    if (sc.action === 'force') await button.click({ force: true });
    if (sc.action === 'click' || sc.action === 'dblclick') {
      await panel.locator('body[data-phase="done"]').waitFor({ state: 'attached' });
      // Clicking the used draft again must do nothing either.
      await button.click({ force: true });
    }
    const frame = await (await page.$('#panel')).contentFrame();
    const look = () => frame.evaluate(() => ({
      to: document.getElementById('to').textContent,
      reply: document.getElementById('reply').hidden ? null : document.getElementById('reply').textContent,
      text: document.getElementById('text').textContent,
      textElements: document.getElementById('text').children.length,
      foreignElements: document.querySelectorAll('img, iframe, object, embed, video, audio, link, script:not([type="module"])').length,
      scripts: document.querySelectorAll('script').length,
      // Resource loads the panel's own document started (CSP-blocked ones never start).
      resourceLoads: performance.getEntriesByType('resource').map((e) => e.name),
      pwned: Boolean(window.__pwned),
      theme: document.documentElement.dataset.theme ?? null,
      background: getComputedStyle(document.body).backgroundColor,
      buttonText: document.getElementById('send').textContent,
      buttonDisabled: document.getElementById('send').disabled,
      reason: document.getElementById('reason').textContent,
      badge: document.getElementById('badge').textContent,
      status: document.getElementById('status').hidden ? null : document.getElementById('status').textContent,
      statusKind: document.getElementById('status').dataset.kind ?? null,
      statusTitle: document.getElementById('status').hidden ? null : document.querySelector('#status strong')?.textContent ?? null,
      // The page's own words as a person sees them: what is hidden or in
      // the closed <details> is not in innerText.
      visible: document.body.innerText,
      lang: document.documentElement.lang,
      title: document.title,
      heading: document.getElementById('heading').textContent,
      labels: [...document.querySelectorAll('dt')].filter((e) => !e.hidden).map((e) => e.textContent),
      summary: document.querySelector('summary').textContent,
      count: document.getElementById('count').textContent,
      textLabel: document.getElementById('text').getAttribute('aria-label'),
    }));
    let seen = await look();
    if (sc.switchLocale !== undefined) {
      const before = seen;
      await page.evaluate((locale) => window.setLocale(locale), sc.switchLocale);
      // The notification is asynchronous: wait until the page is drawn in
      // the new language.
      await frame.waitForFunction((lang) => document.documentElement.lang !== lang, before.lang);
      seen = await look();
      seen.beforeSwitch = before;
    }
    seen.name = sc.name;
    seen.disabledBeforeAction = before;
    seen.previewIsError = Boolean(result.isError);
    if (sc.screenshot) await page.screenshot({ path: sc.screenshot, fullPage: true });
    out.renders.push(seen);
  }
} finally {
  await browser.close();
  await client.close();
}
process.stdout.write(JSON.stringify(out) + '\n');
// The page must make no network request at all: fail the run when it did
// (the report above still lists them for the Go test's message).
if (out.requests.length > 0) {
  console.error('harness: the page made network requests:', out.requests);
  process.exitCode = 4;
}
