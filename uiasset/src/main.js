// The message preview panel. It shows a preview_message draft and sends it
// through the host with invoke_action, once, after a click. Every string
// from outside (the draft, results, diagnostics) is set with textContent:
// nothing is ever parsed as HTML. The panel's own words come from
// strings.js in the host's language, and the whole page is drawn again
// from state when the host's locale changes, the outcome of a send included.
import { App, applyDocumentTheme } from '@modelcontextprotocol/ext-apps';
import { describeRefusal, describeSend, draftText, sendBlocker, sendLabel, targetLine } from './model.js';
import { localizer } from './strings.js';

const $ = (id) => document.getElementById(id);
const el = {
  badge: $('badge'), to: $('to'), replyLabel: $('reply-label'), reply: $('reply'), text: $('text'),
  count: $('count'), send: $('send'), reason: $('reason'), status: $('status'), call: $('call'),
};

// state.phase: 'waiting' (no server draft yet), 'ready', 'refused' (the
// server rejected the draft), 'sending', 'done'. Once a send has started
// the phase never returns to 'ready': a failed or uncertain send is not
// retried from here. input is the tool input, shown until the server's
// draft arrives; refusal is preview_message's refusing result; outcome is
// the send's result or the host's error, and when it arrived.
const state = { phase: 'waiting', input: null, draft: null, refusal: null, outcome: null, hostCanCall: false };
let L = localizer(undefined);

function showDraft(d) {
  el.to.textContent = targetLine(d, L);
  const reply = d.reply_to !== undefined && d.reply_to !== null;
  el.replyLabel.hidden = el.reply.hidden = !reply;
  el.reply.textContent = reply ? L.t('reply.line', { id: d.reply_to }) : '';
  const text = draftText(d);
  el.text.textContent = text;
  el.count.textContent = state.draft ? L.t('text.count', { count: L.count([...text].length) }) : '';
}

function showStatus(s) {
  el.status.hidden = !s;
  if (!s) return;
  el.status.dataset.kind = s.kind;
  el.status.replaceChildren();
  const strong = document.createElement('strong');
  strong.textContent = s.title;
  el.status.append(strong, s.lines.filter(Boolean).join('\n'));
}

// status is what the status box says in the current phase, or null.
function status() {
  switch (state.phase) {
    case 'refused': return describeRefusal(state.refusal, L);
    case 'sending': return { kind: 'unknown', badge: L.t('badge.sending'), title: L.t('sending.title'), lines: [L.t('sending.note')] };
    case 'done': return describeSend(state.outcome.result, state.outcome.err, state.outcome.at, L);
  }
  return null;
}

function render() {
  // The phase is on the page for a host or a test to wait on in any language.
  document.body.dataset.phase = state.phase;
  document.documentElement.lang = L.tag;
  document.title = L.t('page.title');
  for (const node of document.querySelectorAll('[data-i18n]')) node.textContent = L.t(node.dataset.i18n);
  for (const node of document.querySelectorAll('[data-i18n-label]')) node.setAttribute('aria-label', L.t(node.dataset.i18nLabel));
  const d = state.draft ?? state.input;
  if (d) showDraft(d);
  else el.to.textContent = L.t('to.waiting');
  const blocker = sendBlocker(state, L);
  el.send.disabled = blocker !== null;
  el.reason.textContent = blocker ?? L.t('reason.ready');
  el.send.textContent = sendLabel(state.draft, L);
  if (state.draft) {
    el.call.textContent = JSON.stringify({ name: 'invoke_action', arguments: state.draft.invoke_action }, null, 2);
  }
  const s = status();
  el.badge.textContent = s?.badge ?? L.t('badge.draft');
  showStatus(s);
}

// follow applies the host's context: its theme and its locale.
function follow(ctx) {
  if (ctx?.theme) applyDocumentTheme(ctx.theme);
  L = localizer(ctx);
  render();
}

const app = new App({ name: 'snowluma-message-preview', version: '1.0.0' }, {}, { autoResize: true });

// Set before connect(): the host sends these once.
app.ontoolinput = ({ arguments: args }) => {
  if (state.phase === 'waiting' && args) {
    state.input = args;
    render();
  }
};
app.ontoolresult = (result) => {
  if (state.phase !== 'waiting') return;
  const draft = result?.structuredContent?.result;
  if (result?.isError || !draft || !draft.invoke_action) {
    state.phase = 'refused';
    state.refusal = result;
  } else {
    state.phase = 'ready';
    state.draft = draft;
  }
  render();
};
// The notification carries only what changed; the App has merged it into
// the whole context by the time this runs.
app.onhostcontextchanged = () => follow(app.getHostContext());

el.send.addEventListener('click', async () => {
  // Checked and changed synchronously: a second click, even in the same
  // event loop turn as the first, finds the phase already 'sending'.
  if (sendBlocker(state, L) !== null) return;
  state.phase = 'sending';
  render();
  let result = null;
  let err = null;
  try {
    result = await app.callServerTool({ name: 'invoke_action', arguments: state.draft.invoke_action });
  } catch (e) {
    err = e;
  }
  state.outcome = { result, err, at: Date.now() };
  state.phase = 'done';
  render();
});

render();
await app.connect();
state.hostCanCall = Boolean(app.getHostCapabilities()?.serverTools);
follow(app.getHostContext());
