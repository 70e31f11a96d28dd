// Every string the panel itself shows, in both of its languages, and the
// formatting that goes with a language. The panel follows the host's locale
// (hostContext.locale, BCP 47): Simplified Chinese for every zh tag, English
// for any other tag and when the host gives none. The Chinese uses
// SnowLuma's own WebUI terms where it has them (群聊, 私聊, QQ 号, 消息 id,
// 发送失败, 目标, 消息内容), so the panel reads like the rest of the
// operator's tools. test/strings.test.mjs checks that both languages have
// every key with the same placeholders, and that every key the source uses
// exists.
//
// A placeholder is {name}. Values put into one are either already
// formatted here (counts, durations, times) or shown verbatim (ids, mode
// and kind names, and the server's own words): fill never formats a value.

export const strings = {
  en: {
    'page.title': 'SnowLuma message preview',
    'heading': 'Message draft',
    'label.to': 'To',
    'label.reply': 'Replying to',
    'label.text': 'Text',
    'text.aria': 'message text',
    'call.summary': 'The exact invoke_action call a click sends',
    'to.waiting': 'waiting for the draft…',
    'to.group': 'Group chat {id}',
    'to.private': 'Private chat with user {id}',
    'reply.line': 'message {id} (shown as a quote above the text)',
    'text.count': '{count} characters, sent exactly as shown',
    'send.plain': 'Send',
    'send.group': 'Send to group {id}',
    'send.private': 'Send to user {id}',
    'reason.ready': 'Nothing is sent until you click, and a send is never repeated.',
    'blocker.waiting': 'Waiting for the server to build the draft.',
    'blocker.refused': 'This draft cannot be sent; fix it and preview again.',
    'blocker.sending': 'Sending… (a second click does nothing).',
    'blocker.done': 'This draft has been used. Check the outcome, then preview a new draft to send again.',
    'blocker.mode': 'Sending is off: the server runs in {mode} mode, and sending needs write mode.',
    'blocker.noMode': 'Sending is off: the server did not say it may send, and sending needs write mode.',
    'blocker.noTools': 'Sending is off: this host does not let the panel call server tools.',
    'badge.draft': 'not sent',
    'badge.sending': 'sending…',
    'badge.sent': 'acknowledged',
    'badge.held': 'acknowledged after a wait',
    'badge.tooFast': 'not sent: too fast',
    'badge.unknown': 'outcome unknown',
    'badge.failed': 'not sent',
    'sending.title': 'Sending…',
    'sending.note': 'Waiting for SnowLuma to answer. A send may first wait a few seconds for its send budget, which keeps the account from sending too fast.',
    'refused.title': 'The server refused this draft',
    'hostError.title': 'Outcome unknown: the host reported an error',
    'hostError.note': 'The message may or may not have been sent. Check the conversation before drafting it again; this panel does not retry.',
    'sent.title': 'SnowLuma acknowledged the message',
    'held.title': 'SnowLuma acknowledged the message after a {wait} wait',
    'sent.messageId': 'message_id {id}',
    'held.note': 'It was held {wait} before sending, for its send budget: this server paces sends so QQ does not restrict the account.',
    'sent.note': 'This means SnowLuma accepted it; it is not proof that QQ delivered or displayed it.',
    'tooFast.title': 'Not sent: the send budget is spent',
    'tooFast.retry': 'A send could go again in {wait} (at {time}).',
    'tooFast.note': 'Nothing was sent, and nothing is retried: this server paces sends so QQ does not restrict the account. Preview a new draft after the wait.',
    'unknown.title': 'Outcome unknown: it may have been sent',
    'unknown.note': 'Check the conversation before drafting it again; this panel does not retry.',
    'failed.title': 'The send failed',
    'failed.note': 'Nothing is retried. Fix the cause, then preview a new draft.',
    'diag.outcome': 'outcome: {value}',
    'diag.kind': 'kind: {value}',
    'diag.message': 'message: {value}',
    'diag.next': 'next step: {value}',
    'unit.seconds': '{n} s',
  },
  zh: {
    'page.title': 'SnowLuma 消息预览',
    'heading': '消息草稿',
    'label.to': '目标',
    'label.reply': '回复',
    'label.text': '消息内容',
    'text.aria': '消息内容',
    'call.summary': '点击后原样发出的 invoke_action 调用',
    'to.waiting': '等待草稿…',
    'to.group': '群聊 {id}',
    'to.private': '私聊 QQ 号 {id}',
    'reply.line': '消息 id {id}（作为引用显示在正文上方）',
    'text.count': '{count} 个字符，按所示原样发送',
    'send.plain': '发送',
    'send.group': '发送到群 {id}',
    'send.private': '发送给 QQ 号 {id}',
    'reason.ready': '点击之前不会发送任何内容，且只会发送一次。',
    'blocker.waiting': '正在等待服务器生成草稿。',
    'blocker.refused': '此草稿无法发送；请修正后重新预览。',
    'blocker.sending': '发送中…（再次点击无效）。',
    'blocker.done': '此草稿已点过发送。请查看结果；如需再次发送，请重新生成草稿。',
    'blocker.mode': '无法发送：服务器当前为 {mode} 模式，需要 write 模式才能发送。',
    'blocker.noMode': '无法发送：服务器未声明允许发送（需要 write 模式）。',
    'blocker.noTools': '无法发送：此宿主不允许面板调用服务器工具。',
    'badge.draft': '未发送',
    'badge.sending': '发送中…',
    'badge.sent': '已确认',
    'badge.held': '等待后已确认',
    'badge.tooFast': '未发送：发送过快',
    'badge.unknown': '结果未知',
    'badge.failed': '发送失败',
    'sending.title': '发送中…',
    'sending.note': '正在等待 SnowLuma 响应。为防止账号发送过快，可能需要先等几秒，待发送额度恢复后再发出。',
    'refused.title': '服务器拒绝了此草稿',
    'hostError.title': '结果未知：宿主报告了错误',
    'hostError.note': '消息可能已发送，也可能没有。重新起草前请先在 QQ 里查看这个聊天；此面板不会重试。',
    'sent.title': 'SnowLuma 已确认收到消息',
    'held.title': '等待 {wait}后，SnowLuma 已确认收到消息',
    'sent.messageId': '消息 id {id}',
    'held.note': '为等待发送额度，发送前暂缓了 {wait}。本服务器会限制发送速度，以免账号被 QQ 风控。',
    'sent.note': '这表示 SnowLuma 已接受该消息，并不证明 QQ 已送达或显示。',
    'tooFast.title': '未发送：发送额度已用完',
    'tooFast.retry': '{wait}后（{time}）可以再次发送。',
    'tooFast.note': '没有发送任何内容，也不会重试。本服务器会限制发送速度，以免账号被 QQ 风控。请稍后重新生成草稿。',
    'unknown.title': '结果未知：可能已经发送',
    'unknown.note': '重新起草前请先在 QQ 里查看这个聊天；此面板不会重试。',
    'failed.title': '发送失败',
    'failed.note': '不会重试。请先排除原因，再重新生成草稿。',
    'diag.outcome': '结果：{value}',
    'diag.kind': '类型：{value}',
    'diag.message': '说明：{value}',
    'diag.next': '下一步：{value}',
    'unit.seconds': '{n} 秒',
  },
};

// language picks the panel's language for a host locale: 'zh' for every
// tag whose language subtag is zh (zh, zh-CN, zh-TW, zh-Hant-HK, ZH_cn…),
// 'en' for anything else, including no locale at all.
export function language(locale) {
  return typeof locale === 'string' && /^\s*zh(?:[-_]|\s*$)/i.test(locale) ? 'zh' : 'en';
}

// formatTag is the BCP 47 tag the panel formats numbers and times with and
// puts in <html lang>: zh-CN for Chinese (Simplified, whatever zh tag the
// host gave); for English, the host's own en-* tag when it is a valid one
// (so en-GB gets a 24-hour clock), else plain en.
export function formatTag(locale) {
  if (language(locale) === 'zh') return 'zh-CN';
  if (typeof locale === 'string' && /^\s*en(?:[-_]|\s*$)/i.test(locale)) {
    try {
      return Intl.getCanonicalLocales(locale.trim().replace(/_/g, '-'))[0];
    } catch {
      return 'en';
    }
  }
  return 'en';
}

// fill puts vars into a template's {name} placeholders, as given.
function fill(template, vars) {
  return template.replace(/\{(\w+)\}/g, (whole, name) => (name in vars ? String(vars[name]) : whole));
}

// localizer returns the panel's words and formats for a host context:
// t(key, vars) for a string; count, seconds and time for numbers a person
// reads. Ids never go through these: they are put in as the server sent them.
export function localizer(hostContext) {
  const lang = language(hostContext?.locale);
  const tag = formatTag(hostContext?.locale);
  const table = strings[lang];
  const whole = new Intl.NumberFormat(tag, { maximumFractionDigits: 0 });
  const tenths = new Intl.NumberFormat(tag, { minimumFractionDigits: 1, maximumFractionDigits: 1 });
  let clock;
  try {
    clock = new Intl.DateTimeFormat(tag, { timeStyle: 'medium', timeZone: hostContext?.timeZone });
  } catch {
    // A time zone the browser does not know: the browser's own zone.
    clock = new Intl.DateTimeFormat(tag, { timeStyle: 'medium' });
  }
  const t = (key, vars = {}) => {
    if (!(key in table)) throw new Error(`panel string ${key} is missing in ${lang}`);
    return fill(table[key], vars);
  };
  return {
    lang, tag, t,
    count: (n) => whole.format(n),
    // Milliseconds for a person, rounded up to a tenth of a second.
    seconds: (ms) => t('unit.seconds', { n: tenths.format(Math.ceil(ms / 100) / 10) }),
    time: (date) => clock.format(date),
  };
}
