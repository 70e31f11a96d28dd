// A headless MCP Apps host for the browser test: it renders the panel in a
// sandboxed iframe through ext-apps' AppBridge, hands it a tool input and
// result, and forwards the panel's tools/call to the harness
// (window.hostCallTool, exposed by Playwright), which sends it to the real
// server over stdio.
import { AppBridge, PostMessageTransport } from '@modelcontextprotocol/ext-apps/app-bridge';

let current = null;
let context = null; // the host context current was given

window.openPanel = async ({ html, theme, locale, serverTools, toolInput, toolResult }) => {
  if (current) await current.close().catch(() => {});
  document.body.dataset.theme = theme;
  document.getElementById('theme').textContent = theme;
  const slot = document.getElementById('slot');
  slot.replaceChildren();
  const frame = document.createElement('iframe');
  frame.id = 'panel';
  frame.setAttribute('sandbox', 'allow-scripts');
  slot.append(frame);

  const caps = { openLinks: {}, logging: {} };
  if (serverTools) caps.serverTools = {};
  // A scenario without a locale is a host that gives none.
  const hostContext = locale === undefined || locale === null ? { theme } : { theme, locale };
  const bridge = new AppBridge(null, { name: 'snowluma-test-host', version: '1.0.0' }, caps, { hostContext });
  bridge.oncalltool = (params) => window.hostCallTool(params);
  bridge.onsizechange = ({ height }) => { if (height) frame.style.height = `${Math.min(Math.max(height, 200), 900)}px`; };
  const initialized = new Promise((resolve) => { bridge.oninitialized = resolve; });
  frame.srcdoc = html;
  await bridge.connect(new PostMessageTransport(frame.contentWindow, frame.contentWindow));
  await initialized;
  current = bridge;
  context = hostContext;
  if (toolInput) await bridge.sendToolInput({ arguments: toolInput });
  if (toolResult) await bridge.sendToolResult(toolResult);
  return true;
};
// setLocale changes the host's locale the way a host does when its user
// switches language: AppBridge sends ui/notifications/host-context-changed
// with the new locale.
window.setLocale = (locale) => {
  context = { ...context, locale };
  current.setHostContext(context);
  return true;
};
window.hostReady = true;
