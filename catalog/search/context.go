package search

import (
	"strings"
)

// A request often tells what happened before it asks anything: someone
// else's doing (有人申请进群，…; "…, he set a custom status"), or what the
// asker means to do once the answer is in (想清理好友，先把好友列出来). Such a
// clause names the thing the request is about, so its words still vote
// for which action serves it, but its verbs are not the request's: they
// are blanked before the intent is read (intent.go), never before the
// terms are.

var (
	// contextClauses are the clauses that tell context, blanked in turn:
	// someone else's doing (有人… up to its comma, 管理员说…, 管理员刚上传了…;
	// in English he, she, someone, my friend 10003 … up to the clause's
	// end, and what the asker has been doing), what the asker supposes
	// (好像, 似乎, 听说 …) or what the answer is for (…的脚本要用), and dm or
	// pm in the past (the pdf he dm'd me: sent).
	contextClauses = markedPatterns{
		mark([]string{"有人"}, `有人[^，,。！!？?]*[，,]`),
		mark([]string{"说", "讲", "提到", "发现", "觉得", "了"}, `(^|[^跟和对给向让叫])(?:管理员|管理|群主|他|她|好友|群友|对方|老板)\s*\d*\s*(?:说|讲|提到|发现|觉得|(?:刚刚|刚才|刚|已经|又)(?:上传|发|传|改|踢|撤回|删|禁言|设|加)了)(?:[^的，,。！!？?\s][^，,。！!？?\s]*)?`),
		mark([]string{"been", "i was"}, `(?i)\b(?:been|i'?ve\s+been|i\s+was)\s+[a-z]+ing\b[^,，.。;；]*`),
		mark([]string{"he ", "she ", "they ", "some", "ppl", "people", "friend ", "member ", "admin ", "owner "}, `(?i)(?:^|[,，;；.。—]\s*|\b(?:apparently|because|since|cuz|coz)\s+)(?:he|she|they|someone|somebody|some1|ppl|people|my\s+friend|a\s+friend|a\s+member|the\s+admin|an\s+admin|the\s+owner)(?:\s+\d{4,})?\s+(?:just\s+|already\s+|has\s+|have\s+|had\s+)?[a-z]+\b[^,，.。;；—-]*`),
		mark([]string{"好像", "似乎", "据说", "听说", "貌似", "用"}, `(?:好像|似乎|据说|听说|貌似)[^，,。]*|[^，,。\s]*用\s*$`),
		mark([]string{"md", "m'd", "m’d"}, `(?i)\b[dp]m(?:'|’)?d\b`),
	}
	// meantFirst is what the asker means to do, told before what to do
	// first (想清理一下，先…).
	meantFirst = lazy(`^([^。]*(?:想|打算|准备|计划)[^，,。]*)[，,]\s*先`)
	// compound is a word joined to a prefix that makes it describe a
	// thing (auto-kick, anti-spam), or a verb joined to what it acts on
	// before the thing that names (add-friend requests, join-group
	// settings): submatch 1 the prefix, 2 the thing, kept.
	compound = lazy(`(?i)\b(auto|anti|self|non|pre)-[a-z]+|\b[a-z]+-((?:friend|group|member|admin)s?\s+(?:requests?|reqs?|notices?|notifications?|list|rules?|settings?|options?|limits?))\b`)
)

// withoutContext is raw, a request without its payload, with the clauses
// that tell context blanked.
func withoutContext(raw string) string {
	lower := strings.ToLower(raw)
	raw = contextClauses.blank(raw, lower)
	if strings.Contains(raw, "-") {
		raw = compound.ReplaceAllString(raw, "$1$2") // the auto-kick script, add-friend requests: things, no kick or add
	}
	if strings.Contains(raw, "先") {
		if m := meantFirst.FindStringSubmatchIndex(raw); m != nil {
			raw = blanked(raw[:m[3]]) + raw[m[3]:]
		}
	}
	return raw
}
