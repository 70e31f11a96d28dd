// What the panel decides, apart from the page: whether sending is allowed
// and how a send's outcome reads. Kept free of the DOM so the rules are in
// one place.

export function targetLine(d) {
  return d.message_type === 'group'
    ? `Group chat ${d.target_id}`
    : `Private chat with user ${d.target_id}`;
}

// draftText is the message text exactly as invoke_action would send it:
// the draft carries it once, as the text segment of its params, so what
// the panel shows is what a click sends.
export function draftText(d) {
  const segments = d?.invoke_action?.params?.message;
  const text = Array.isArray(segments) ? segments.find((s) => s?.type === 'text') : undefined;
  return typeof text?.data?.text === 'string' ? text.data.text : '';
}

// sendBlocker returns why the button is disabled, or null when a click may
// send.
export function sendBlocker(state) {
  switch (state.phase) {
    case 'waiting': return 'Waiting for the server to build the draft.';
    case 'refused': return 'This draft cannot be sent; fix it and preview again.';
    case 'sending': return 'Sending… (a second click does nothing).';
    case 'done': return 'This draft has been used. Check the outcome, then preview a new draft to send again.';
  }
  if (!state.draft?.can_send) {
    return `Sending is off: the server runs in ${state.draft?.mode ?? 'a read-only'} mode, and sending needs write mode.`;
  }
  if (!state.hostCanCall) return 'Sending is off: this host does not let the panel call server tools.';
  return null;
}

// seconds renders milliseconds for a person, to a tenth of a second.
export function seconds(ms) {
  return `${(Math.ceil(ms / 100) / 10).toFixed(1)} s`;
}

// describeSend turns invoke_action's result, or the error the host raised,
// into what the person sees. Success is SnowLuma's acknowledgement only.
export function describeSend(result, err) {
  if (err) {
    return {
      kind: 'unknown', badge: 'outcome unknown', title: 'Outcome unknown: the host reported an error',
      lines: [String(err?.message ?? err), 'The message may or may not have been sent. Check the conversation before drafting it again; this panel does not retry.'],
    };
  }
  const d = result?.structuredContent?.diagnostics ?? {};
  const envelope = result?.structuredContent?.result;
  const diag = [d.kind && `kind: ${d.kind}`, d.message && `message: ${d.message}`, d.next_step && `next step: ${d.next_step}`];
  if (!result?.isError && d.outcome === 'success') {
    const id = envelope?.data?.message_id;
    const held = d.held_ms > 0
      ? `It was held ${seconds(d.held_ms)} before sending, for its send budget: this server paces sends so QQ does not restrict the account.` : '';
    return {
      kind: 'ok', badge: d.held_ms > 0 ? 'acknowledged after a wait' : 'acknowledged',
      title: d.held_ms > 0 ? `SnowLuma acknowledged the message after a ${seconds(d.held_ms)} wait` : 'SnowLuma acknowledged the message',
      lines: [id !== undefined ? `message_id ${id}` : '', held, 'This means SnowLuma accepted it; it is not proof that QQ delivered or displayed it.'],
    };
  }
  if (d.kind === 'rate_limited') {
    return {
      kind: 'bad', badge: 'not sent: too fast', title: 'Not sent: the send budget is spent',
      lines: [d.message && `message: ${d.message}`, d.retry_after_ms > 0 ? `A send could go again in ${seconds(d.retry_after_ms)}.` : '',
        'Nothing was sent, and nothing is retried: this server paces sends so QQ does not restrict the account. Preview a new draft after the wait.'],
    };
  }
  if (d.outcome === 'unknown') {
    return {
      kind: 'unknown', badge: 'outcome unknown', title: 'Outcome unknown: it may have been sent',
      lines: [...diag, 'Check the conversation before drafting it again; this panel does not retry.'],
    };
  }
  return {
    kind: 'bad', badge: 'not sent', title: 'The send failed',
    lines: [`outcome: ${d.outcome ?? 'failed'}`, ...diag, 'Nothing is retried. Fix the cause, then preview a new draft.'],
  };
}
