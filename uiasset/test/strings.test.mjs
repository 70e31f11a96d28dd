// The panel's string table and the words and formats built from it. Run by
// node --test from uiasset/strings_test.go, so it is part of make test.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { describeRefusal, describeSend, sendBlocker, sendLabel, targetLine } from '../src/model.js';
import { formatTag, language, localizer, strings } from '../src/strings.js';

const source = (name) => readFileSync(new URL(`../${name}`, import.meta.url), 'utf8');
const placeholders = (s) => [...s.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();

test('both languages have every key, none empty, with the same placeholders', () => {
  assert.deepEqual(Object.keys(strings).sort(), ['en', 'zh']);
  const keys = new Set([...Object.keys(strings.en), ...Object.keys(strings.zh)]);
  for (const key of keys) {
    for (const lang of ['en', 'zh']) {
      assert.ok(key in strings[lang], `${key} is missing in ${lang}`);
      assert.ok(strings[lang][key].trim() !== '', `${key} is empty in ${lang}`);
    }
    assert.deepEqual(placeholders(strings.zh[key]), placeholders(strings.en[key]), `${key}: the placeholders differ`);
  }
});

test('the Chinese is Chinese: every string has Han characters', () => {
  for (const [key, value] of Object.entries(strings.zh)) {
    assert.match(value, /\p{Script=Han}/u, `${key} is not translated: ${value}`);
  }
});

// Every key the page and the code use is in the table, and every key in the
// table is used: a missing one would throw at render, an unused one is a
// string nobody checks.
test('an acknowledged send is not called sent: SnowLuma acknowledging is not QQ delivering', () => {
  // The English says acknowledged; the Chinese said 已发送 (sent), which
  // the panel's own note denies (issue 52's review, U2).
  assert.equal(strings.zh['badge.sent'], '已确认');
  assert.equal(strings.zh['badge.held'], '等待后已确认');
  for (const key of ['badge.sent', 'badge.held', 'sent.title', 'held.title']) {
    assert.doesNotMatch(strings.zh[key], /已发送|已送达/, key);
  }
});

test('every key used exists, and every key exists because it is used', () => {
  const code = source('src/main.js') + source('src/model.js') + source('src/strings.js').split('export function language')[1];
  const html = source('index.html');
  const used = new Set([
    ...[...code.matchAll(/'([a-z][A-Za-z]*(?:\.[A-Za-z]+)?)'/g)].map((m) => m[1]).filter((k) => k.includes('.') || k in strings.en),
    ...[...html.matchAll(/data-i18n(?:-label)?="([^"]+)"/g)].map((m) => m[1]),
  ]);
  for (const key of used) assert.ok(key in strings.en, `the source uses ${key}, which the table lacks`);
  for (const key of Object.keys(strings.en)) assert.ok(used.has(key), `${key} is in the table but nothing uses it`);
});

test('the language follows the host locale: Chinese for every zh tag, English otherwise', () => {
  for (const zh of ['zh', 'zh-CN', 'zh-TW', 'zh-HK', 'zh-Hans', 'zh-Hant-TW', 'ZH-cn', 'zh_CN', ' zh-SG']) {
    assert.equal(language(zh), 'zh', zh);
    assert.equal(formatTag(zh), 'zh-CN', `${zh} is shown in Simplified Chinese`);
  }
  for (const en of [undefined, null, '', 'en', 'en-US', 'fr-FR', 'ja', 'zhx', 'z', 42, {}]) {
    assert.equal(language(en), 'en', String(en));
  }
  assert.equal(formatTag('en-gb'), 'en-GB');
  assert.equal(formatTag('en_US'), 'en-US');
  assert.equal(formatTag('fr-FR'), 'en', 'another language is shown and formatted in English');
  assert.equal(formatTag('en-!!'), 'en', 'a malformed tag falls back to en');
  assert.equal(formatTag(undefined), 'en');
});

test('counts, durations and times are formatted for the locale', () => {
  const zh = localizer({ locale: 'zh-TW', timeZone: 'Asia/Shanghai' });
  const en = localizer({ locale: 'en-US', timeZone: 'Asia/Shanghai' });
  const gb = localizer({ locale: 'en-GB', timeZone: 'Asia/Shanghai' });
  assert.equal(en.count(12345), '12,345');
  assert.equal(zh.count(12345), '12,345');
  assert.equal(en.seconds(5000), '5.0 s');
  assert.equal(zh.seconds(5000), '5.0 秒');
  assert.equal(en.seconds(1234501), '1,234.6 s', 'rounded up to a tenth, grouped');
  const at = new Date(Date.UTC(2026, 11, 3, 10, 52, 3));
  assert.equal(zh.time(at), '18:52:03');
  assert.match(en.time(at), /^6:52:03\sPM$/);
  assert.equal(gb.time(at), '18:52:03');
  assert.doesNotThrow(() => localizer({ locale: 'zh', timeZone: 'Not/AZone' }).time(at), 'an unknown zone falls back to the browser\'s');
  assert.equal(localizer(undefined).lang, 'en');
});

test('ids are shown verbatim in both languages, negative ones included', () => {
  for (const locale of ['zh-CN', 'en-US']) {
    const L = localizer({ locale });
    const group = { message_type: 'group', target_id: 1234567890 };
    const user = { message_type: 'private', target_id: 2854196310 };
    assert.ok(targetLine(group, L).includes('1234567890'), targetLine(group, L));
    assert.ok(targetLine(user, L).includes('2854196310'), targetLine(user, L));
    assert.ok(sendLabel(group, L).endsWith(' 1234567890'), sendLabel(group, L));
    assert.ok(L.t('reply.line', { id: -1559550018 }).includes('-1559550018'));
    const sent = describeSend({ structuredContent: { result: { data: { message_id: -2147483648 } }, diagnostics: { outcome: 'success' } } }, null, 0, L);
    assert.ok(sent.lines[0].endsWith(' -2147483648'), sent.lines[0]);
  }
});

// Each outcome, in each language: the panel's own words come from the
// table, the server's words stay exactly as written.
test('every outcome reads in both languages and keeps the server\'s words', () => {
  const server = { message: 'group 123456789\'s send budget is spent $& {value}', next_step: 'wait, then preview again' };
  const results = {
    sent: { structuredContent: { result: { data: { message_id: 7 } }, diagnostics: { outcome: 'success' } } },
    held: { structuredContent: { result: { data: { message_id: 7 } }, diagnostics: { outcome: 'success', held_ms: 4321 } } },
    tooFast: { isError: true, structuredContent: { diagnostics: { outcome: 'failed', kind: 'rate_limited', retry_after_ms: 599000, ...server } } },
    unknown: { isError: true, structuredContent: { diagnostics: { outcome: 'unknown', kind: 'upstream_async', ...server } } },
    failed: { isError: true, structuredContent: { diagnostics: { outcome: 'failed', kind: 'upstream_auth', ...server } } },
  };
  const titles = {
    en: { sent: 'SnowLuma acknowledged the message', held: 'SnowLuma acknowledged the message after a 4.4 s wait', tooFast: 'Not sent: the send budget is spent', unknown: 'Outcome unknown: it may have been sent', failed: 'The send failed' },
    zh: { sent: 'SnowLuma 已确认收到消息', held: '等待 4.4 秒后，SnowLuma 已确认收到消息', tooFast: '未发送：发送额度已用完', unknown: '结果未知：可能已经发送', failed: '发送失败' },
  };
  for (const [locale, lang] of [['zh-CN', 'zh'], ['en', 'en']]) {
    const L = localizer({ locale });
    for (const [name, result] of Object.entries(results)) {
      const s = describeSend(result, null, Date.UTC(2026, 0, 1), L);
      assert.equal(s.title, titles[lang][name], `${lang} ${name}`);
      const text = s.lines.filter(Boolean).join('\n');
      if (result.isError) assert.ok(text.includes(server.message), `${lang} ${name}: the server's message verbatim:\n${text}`);
      if (name === 'unknown' || name === 'failed') assert.ok(text.includes(server.next_step), `${lang} ${name}: the next step verbatim`);
    }
    const hostError = describeSend(null, new Error('the host broke'), 0, L);
    assert.equal(hostError.kind, 'unknown');
    assert.equal(hostError.lines[0], 'the host broke');
    const refusal = describeRefusal({ isError: true, structuredContent: { diagnostics: server } }, L);
    assert.deepEqual(refusal.lines.filter(Boolean), [L.t('diag.message', { value: server.message }), L.t('diag.next', { value: server.next_step })]);
    assert.ok(refusal.lines.join('\n').includes(server.message), 'the refusal keeps the server\'s words');
  }
  const zh = localizer({ locale: 'zh-CN' });
  assert.equal(sendBlocker({ phase: 'ready', draft: { can_send: false, mode: 'read' } }, zh), '无法发送：服务器当前为 read 模式，需要 write 模式才能发送。');
  assert.equal(sendBlocker({ phase: 'ready', draft: { can_send: true }, hostCanCall: true }, zh), null);
});
