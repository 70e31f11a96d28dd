// What the panel decides, apart from the page: whether sending is allowed
// and how a send's outcome reads. Kept free of the DOM so the rules are in
// one place. Every function takes L, the localizer for the host's language
// (strings.js); ids, mode and kind names and the server's own words are put
// in verbatim, never formatted.

export function targetLine(d, L) {
  return L.t(d.message_type === 'group' ? 'to.group' : 'to.private', { id: d.target_id });
}

export function sendLabel(d, L) {
  if (!d) return L.t('send.plain');
  return L.t(d.message_type === 'group' ? 'send.group' : 'send.private', { id: d.target_id });
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
export function sendBlocker(state, L) {
  switch (state.phase) {
    case 'waiting': return L.t('blocker.waiting');
    case 'refused': return L.t('blocker.refused');
    case 'sending': return L.t('blocker.sending');
    case 'done': return L.t('blocker.done');
  }
  if (!state.draft?.can_send) {
    return state.draft?.mode ? L.t('blocker.mode', { mode: state.draft.mode }) : L.t('blocker.noMode');
  }
  if (!state.hostCanCall) return L.t('blocker.noTools');
  return null;
}

// diagnosticLines are the server's diagnostics, each value as the server
// wrote it under a label in the panel's language.
function diagnosticLines(d, L) {
  return [
    d.kind && L.t('diag.kind', { value: d.kind }),
    d.message && L.t('diag.message', { value: d.message }),
    d.next_step && L.t('diag.next', { value: d.next_step }),
  ];
}

// describeRefusal is what the person sees when preview_message itself
// refused the draft.
export function describeRefusal(result, L) {
  const d = result?.structuredContent?.diagnostics ?? {};
  return { kind: 'bad', badge: L.t('badge.draft'), title: L.t('refused.title'), lines: diagnosticLines(d, L) };
}

// describeSend turns invoke_action's result, or the error the host raised,
// into what the person sees. Success is SnowLuma's acknowledgement only.
// answeredAt (ms since the epoch) is when the answer arrived, so a refusal
// can say at what time a send could go again.
export function describeSend(result, err, answeredAt, L) {
  if (err) {
    return {
      kind: 'unknown', badge: L.t('badge.unknown'), title: L.t('hostError.title'),
      lines: [String(err?.message ?? err), L.t('hostError.note')],
    };
  }
  const d = result?.structuredContent?.diagnostics ?? {};
  const envelope = result?.structuredContent?.result;
  if (!result?.isError && d.outcome === 'success') {
    const id = envelope?.data?.message_id;
    const held = d.held_ms > 0;
    return {
      kind: 'ok', badge: L.t(held ? 'badge.held' : 'badge.sent'),
      title: held ? L.t('held.title', { wait: L.seconds(d.held_ms) }) : L.t('sent.title'),
      lines: [
        id !== undefined && id !== null ? L.t('sent.messageId', { id }) : '',
        held ? L.t('held.note', { wait: L.seconds(d.held_ms) }) : '',
        L.t('sent.note'),
      ],
    };
  }
  if (d.kind === 'rate_limited') {
    return {
      kind: 'bad', badge: L.t('badge.tooFast'), title: L.t('tooFast.title'),
      lines: [
        d.message && L.t('diag.message', { value: d.message }),
        d.retry_after_ms > 0
          ? L.t('tooFast.retry', { wait: L.seconds(d.retry_after_ms), time: L.time(new Date(answeredAt + d.retry_after_ms)) }) : '',
        L.t('tooFast.note'),
      ],
    };
  }
  if (d.outcome === 'unknown') {
    return {
      kind: 'unknown', badge: L.t('badge.unknown'), title: L.t('unknown.title'),
      lines: [...diagnosticLines(d, L), L.t('unknown.note')],
    };
  }
  return {
    kind: 'bad', badge: L.t('badge.failed'), title: L.t('failed.title'),
    lines: [L.t('diag.outcome', { value: d.outcome ?? 'failed' }), ...diagnosticLines(d, L), L.t('failed.note')],
  };
}
