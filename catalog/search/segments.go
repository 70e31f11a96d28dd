package search

import (
	"context"
	"strings"
)

// Much of what a request asks to send is not an action but a segment of
// one message: a picture, a voice clip, a file, a face, an @, a reply, a
// forward. Searched for by its words, it finds the wrong thing (the
// can_send_image placeholder, the text-to-speech actions). So such a
// request is answered with the actions that send it and a short hint with
// the segment's JSON shape, as SnowLuma v1.11.1 reads it
// (packages/onebot/src/event-converter/element-codecs.ts,
// message-parser.ts).

// msgSegment is one message segment a request may ask to send.
type msgSegment struct {
	name     string   // what the hint calls it, as a sentence starts
	en       []string // English words naming it (whole words)
	pieces   []string // Chinese words and English phrases naming it (pieces of the query)
	needSend bool     // found only beside a word for sending (图片 alone may ask to read one)
	actions  []string // the actions that send it, the usual first
	usage    string   // how it goes into their params
	fine     []string // other words a request to send it may hold (聊天记录 for a forward)
	notOne   bool     // not for one message named by its id (forwarding one is an action of its own)
}

var messageActions = []string{"send_group_msg", "send_private_msg", "send_msg"}

// inMessage is the usage of a segment that goes into message.
func inMessage(shape string) string { return "message: [" + shape + "]" }

// withText is the usage of a segment that goes before a message's text.
func withText(shape string) string {
	return "message: [" + shape + `, {"type":"text","data":{"text":"…"}}]`
}

const mediaFile = `"file":"https://… or file:///… or base64://…"`

var segments = []msgSegment{
	{"An image", []string{"image", "images", "picture", "pictures", "photo", "photos", "pic", "pics", "img", "screenshot"}, []string{"图片", "照片", "截图", "图"}, true,
		messageActions, inMessage(`{"type":"image","data":{` + mediaFile + `}}`), nil, false},
	{"A voice message", []string{"voice", "audio", "recording", "ptt"}, []string{"语音", "录音"}, true,
		messageActions, inMessage(`{"type":"record","data":{`+mediaFile+`}}`) + "; the AI voice actions speak text instead", nil, false},
	{"A video", []string{"video", "videos"}, []string{"视频"}, true,
		messageActions, inMessage(`{"type":"video","data":{` + mediaFile + `}}`), nil, false},
	{"A file", []string{"file", "files", "document", "attachment"}, []string{"文件"}, true,
		append(append([]string{}, messageActions...), "upload_group_file", "upload_private_file"),
		inMessage(`{"type":"file","data":{"file":"https://… or file:///…","name":"report.pdf"}}`) + "; or upload it with upload_group_file or upload_private_file", nil, false},
	{"A face (QQ emoji)", []string{"face", "faces", "emoji", "emoticon"}, []string{"表情", "小黄脸"}, true,
		messageActions, inMessage(`{"type":"face","data":{"id":"14"}}`), nil, false},
	{"An @ mention", []string{"mention", "mentions", "at-mention"}, []string{"艾特", "提及", "圈人", "at someone", "at somebody", "at everyone", "at all members"}, false,
		[]string{"send_group_msg", "send_msg"}, withText(`{"type":"at","data":{"qq":"10001"}}`) + ` ("qq":"all" mentions everyone)`, nil, false},
	{"A reply", []string{"reply", "replies", "quote"}, []string{"回复", "引用"}, false,
		messageActions, withText(`{"type":"reply","data":{"id":"<message_id>"}}`), nil, false},
	{"A forward", []string{"forward", "forwarded"}, []string{"转发"}, false,
		[]string{"send_group_forward_msg", "send_private_forward_msg", "send_forward_msg"},
		`messages: [{"type":"node","data":{"id":"<message_id>"}}, …], a node per message`, []string{"聊天记录", "记录", "history", "合并", "merged", "combined", "bundle", "nodes", "打包"}, true},
}

// sendWordsEN and sendWordsZH are the words for sending a segment.
var (
	sendWordsEN = []string{"send", "sends", "sending", "post", "share", "attach", "insert", "include", "with"}
	sendWordsZH = []string{"发", "附", "带"}
)

// aboutAnyMessage are words a request to send a segment may hold without
// asking for anything else: whom it goes to and that it is a message (each
// stands for its synonym group).
var aboutAnyMessage = words("群", "好友", "私聊", "消息", "成员", "发送", "全员", "陌生人", "告诉")

// Hint is what a search for sending a message segment gets beside its
// actions: the actions that send it, the usual first, and a line with
// the segment's JSON shape. A query that reads (intent.go) or asks for no
// segment gets none.
type Hint struct {
	Actions []string
	Text    string
}

// SegmentHint returns the hint for query, if it asks to send a segment
// and nothing else: a request whose other words name an action's own
// object ("发公告带图片" is an announcement with its picture, "post a
// picture" a Qzone post) is left to the ranking. Once ctx is done it
// returns none.
func (c *Index) SegmentHint(ctx context.Context, query string) (Hint, bool) {
	// A read by its cue words gets none, nor a request whose cue to send
	// the trained models overrule (Index.intent: a voice message's text
	// asked for, 转个文字); one no cue speaks for keeps its hint whatever
	// they find (艾特全体成员 alone asks to send one).
	if cue := cueIntentOf(query); cue == intentRead || (cue != intentNone && c.parsed().intent(query) == intentRead) {
		return Hint{}, false
	}
	// What the request carries (a URL, a quote, an @name) asks for no
	// segment: only what it asks to send does.
	q := strings.ToLower(withoutPayload(query))
	if strings.Contains(q, "ing ") {
		q = strings.TrimSpace(gerundNoun.ReplaceAllString(" "+q+" ", " $1 ")) // image sending capability: a noun, sending nothing
	}
	en := words(englishWords(q)...)
	for _, w := range strings.Fields(q) {
		en[strings.Trim(w, ".,!?;:\"'()")] = true // at-mention, with its hyphen
	}
	hasAny := func(enWords []string, zh []string) bool {
		for _, w := range enWords {
			if en[w] {
				return true
			}
		}
		for _, w := range zh {
			if strings.Contains(q, w) {
				return true
			}
		}
		return false
	}
	sending := hasAny(sendWordsEN, sendWordsZH)
	for _, s := range segments {
		if !hasAny(s.en, s.pieces) || (s.needSend && !sending) || (s.notOne && oneMessage.MatchString(query)) {
			continue
		}
		if !c.onlyAbout(ctx, q, s) {
			return Hint{}, false
		}
		actions := ordered(s.actions, q)
		if s.name == "A file" && carriesDocument(query) {
			actions = uploadFirst(actions) // a document on disk is uploaded
		}
		send := actions[:min(3, len(actions))]
		return Hint{Actions: actions, Text: s.name + " is a message segment, not an action: send it with " +
			strings.Join(send[:len(send)-1], ", ") + " or " + send[len(send)-1] + ", " + s.usage + "."}, true
	}
	return Hint{}, false
}

// onlyAbout reports whether every search term of query (Catalog.terms:
// words some action holds) is about sending s: one of its words, a word
// for sending, or whom a message goes to.
func (c *Index) onlyAbout(ctx context.Context, query string, s msgSegment) bool {
	ok := words(append(append(append(append([]string{}, s.en...), s.pieces...), s.fine...), sendWordsEN...)...)
	for _, w := range sendWordsZH {
		ok[w] = true
	}
	ts, _ := c.terms(ctx, query)
	if ctx.Err() != nil {
		return false
	}
	for _, t := range ts {
		about := false
		for _, w := range t.words {
			about = about || ok[w] || aboutAnyMessage[w]
		}
		if !about {
			return false
		}
	}
	return true
}

// oneMessage is a request naming one message by its id or as this one.
var oneMessage = lazy(`(?i)` + messageByID + `|\b(?:this|that)(?:\s+[a-z]+)?\s+(?:message|msg)\b|这条|那条|该消息`)

// carriesDocument reports a request carrying a document: its name (.pdf,
// .zip …) or a path on disk.
func carriesDocument(query string) bool {
	if !strings.ContainsAny(query, "./\\") {
		return false // no file name, no path: most requests
	}
	return docFile.MatchString(query) || diskPath.MatchString(query)
}

var diskPath = lazy(`(?:^|\s)(?:/|~/|[A-Za-z]:\\)\S+|file://`)

// uploadFirst puts the upload actions first, the private one first when
// the private send led.
func uploadFirst(actions []string) []string {
	var up, rest []string
	for _, a := range actions {
		if strings.HasPrefix(a, "upload_") {
			up = append(up, a)
		} else {
			rest = append(rest, a)
		}
	}
	if len(rest) > 0 && strings.Contains(rest[0], "private") && len(up) == 2 {
		up[0], up[1] = up[1], up[0]
	}
	return append(up, rest...)
}

// ordered puts the private send first when the query is about a friend, a
// private chat or a QQ number and names no group (the group send leads
// otherwise).
func ordered(actions []string, q string) []string {
	out := append([]string{}, actions...)
	group, private := false, strings.ContainsAny(q, "0123456789")
	for _, w := range []string{"group", "群", "grp"} {
		group = group || strings.Contains(q, w)
	}
	for _, w := range []string{"private", "friend", "私聊", "好友", "私信"} {
		private = private || strings.Contains(q, w)
	}
	if private && !group && len(out) > 1 && strings.Contains(out[1], "private") {
		out[0], out[1] = out[1], out[0]
	}
	return out
}
