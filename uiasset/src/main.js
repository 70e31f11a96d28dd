// The message preview panel. It shows a preview_message draft and sends it
// through the host with invoke_action, once, after a click. Every string
// from outside (the draft, results, diagnostics) is set with textContent:
// nothing is ever parsed as HTML.
import { App, applyDocumentTheme } from '@modelcontextprotocol/ext-apps';
import { describeSend, draftText, sendBlocker, targetLine } from './model.js';

const $ = (id) => document.getElementById(id);
const el = {
  badge: $('badge'), to: $('to'), replyLabel: $('reply-label'), reply: $('reply'), text: $('text'),
  count: $('count'), send: $('send'), reason: $('reason'), status: $('status'), call: $('call'),
};

// state.phase: 'waiting' (no server draft yet), 'ready', 'refused' (the
// server rejected the draft), 'sending', 'done'. Once a send has started
// the phase never returns to 'ready': a failed or uncertain send is not
// retried from here.
const state = { phase: 'waiting', draft: null, hostCanCall: false };

function showDraft(d) {
  el.to.textContent = targetLine(d);
  const reply = d.reply_to !== undefined && d.reply_to !== null;
  el.replyLabel.hidden = el.reply.hidden = !reply;
  el.reply.textContent = reply ? `message ${d.reply_to} (shown as a quote above the text)` : '';
  const text = draftText(d);
  el.text.textContent = text;
  el.count.textContent = `${[...text].length} characters, sent exactly as shown`;
}

function render() {
  const blocker = sendBlocker(state);
  el.send.disabled = blocker !== null;
  el.reason.textContent = blocker ?? 'Nothing is sent until you click, and a send is never repeated.';
  if (state.draft) {
    el.send.textContent = state.draft.message_type === 'group'
      ? `Send to group ${state.draft.target_id}` : `Send to user ${state.draft.target_id}`;
    el.call.textContent = JSON.stringify({ name: 'invoke_action', arguments: state.draft.invoke_action }, null, 2);
  }
}

function showStatus(kind, title, lines) {
  el.status.hidden = false;
  el.status.dataset.kind = kind;
  el.status.replaceChildren();
  const strong = document.createElement('strong');
  strong.textContent = title;
  el.status.append(strong, lines.filter(Boolean).join('\n'));
}

const app = new App({ name: 'snowluma-message-preview', version: '1.0.0' }, {}, { autoResize: true });

// Set before connect(): the host sends these once.
app.ontoolinput = ({ arguments: args }) => {
  if (state.phase === 'waiting' && args) showDraft(args);
};
app.ontoolresult = (result) => {
  if (state.phase !== 'waiting') return;
  const draft = result?.structuredContent?.result;
  if (result?.isError || !draft || !draft.invoke_action) {
    state.phase = 'refused';
    const d = result?.structuredContent?.diagnostics;
    showStatus('bad', 'The server refused this draft', [d?.message, d?.next_step]);
  } else {
    state.phase = 'ready';
    state.draft = draft;
    showDraft(draft);
  }
  render();
};
app.onhostcontextchanged = (ctx) => { if (ctx?.theme) applyDocumentTheme(ctx.theme); };

el.send.addEventListener('click', async () => {
  // Checked and changed synchronously: a second click, even in the same
  // event loop turn as the first, finds the phase already 'sending'.
  if (sendBlocker(state) !== null) return;
  state.phase = 'sending';
  el.badge.textContent = 'sending…';
  render();
  showStatus('unknown', 'Sending…', ['Waiting for SnowLuma to answer. A send may first wait a few seconds for its send budget, which keeps the account from sending too fast.']);
  let outcome;
  try {
    const result = await app.callServerTool({ name: 'invoke_action', arguments: state.draft.invoke_action });
    outcome = describeSend(result, null);
  } catch (err) {
    outcome = describeSend(null, err);
  }
  state.phase = 'done';
  el.badge.textContent = outcome.badge;
  showStatus(outcome.kind, outcome.title, outcome.lines);
  render();
});

render();
await app.connect();
state.hostCanCall = Boolean(app.getHostCapabilities()?.serverTools);
const theme = app.getHostContext()?.theme;
if (theme) applyDocumentTheme(theme);
render();
