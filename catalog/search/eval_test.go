package search

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/snowluma/snowluma-mcp/catalog"
)

// The evaluation: the search measured as a retrieval system on a labelled
// set written blind (catalog/testdata/requests, see its README), split
// before any tuning into a tuning half and a held-out half. The ranking is
// tuned on the tuning half only; the held-out half is what the floors
// hold, and its misses are counted, never printed.

// evalDir holds the labelled set.
var evalDir = filepath.Join("..", "testdata", "requests")

// The floors for the held-out half (AGX-7): found@5 and first@1,
// in percent, and no read request given a change first. They are the
// target; not all are met yet.
const (
	floorFound5 = 97.0
	floorFirst1 = 92.0
)

// evalSets are the labelled request sets, each split into a tuning half
// and a held-out half before any tuning on it (the README). The ratchet is
// what each held-out half achieved, in whole requests: the test fails below
// it, so the search never slides back while it climbs towards the floors
// above; raise it as the search does.
var evalSets = []struct {
	name, tune, heldout string
	// the ratchet: held-out found@5 and first@1 at least, read requests
	// given a change first at most
	found5, first1, readChangeFirst int
}{
	// Each ratchet is what the held-out half read at the tenth round's
	// end (once sets bl, bm and rp had joined the tuning), in found@5,
	// first@1 and read requests given a change first; the comments give
	// the same at the third round's end (28cf376), at the fourth's
	// (a1d7213), at the fifth's (4ee2b22), at the sixth's (cd715c8), at
	// the seventh's, where the eighth began (e734ab8), and at the eighth's
	// (18d9759) for some sets, and for a later set on
	// arrival, measured before any tuning on it. A half that
	// lost ground between two looks had its ratchet lowered, not tuned
	// back: at the third look the first set's found@5 (299 → 298), set h's
	// and set p's read requests given a change first (1 → 2, 2 → 3), set
	// p's found@5 and first@1 (238 → 237, 226 → 225) and set q's first@1
	// (223 → 222); at the fourth set g's first@1 (248 → 247) and set o's
	// read requests given a change first (1 → 2); when sets s and t were
	// added (4a7a8bb) set r's first@1 (130 → 129); at the sixth round's
	// first look (caa8339) set d's first@1 (239 → 238) and set i's
	// found@5 (259 → 258); when the learned field came (learned.go) set h's,
	// set j's, set p's and set ab's first@1 (239 → 237, 239 → 237,
	// 225 → 224, 237 → 235) and set q's and set y's found@5 (240 → 239,
	// 235 → 234); when sets af and ag joined the tuning (and a vocabulary
	// word one of set af's requests repeats was dropped), set af's first@1
	// (231 → 230); when the read prior came (prior.go), set af's and set
	// aj's first@1 (230 → 228, 229 → 228); after the round's end, when sets
	// am and an joined the tuning, set u's first@1 (254 → 253); in the
	// seventh round, when sets ao, ap and rc joined the tuning with the
	// round's first rules (their first look), set j's, set ad's, set aj's
	// and set rc's first@1 (239 → 238, 233 → 232, 228 → 225, 127 → 126)
	// and set s's found@5 (255 → 254); at its second look, when sets aq,
	// rd and re joined the tuning with the rules that context is read for
	// its words and not its intent (context.go), set b's, set f's, set
	// u's, set z's and set ag's first@1 (265 → 264, 246 → 245, 253 → 252,
	// 235 → 234, 220 → 218) and set f's and set n's found@5 (256 → 255,
	// 251 → 250); at its third, when sets ar, as and rf joined, set e's,
	// set m's, set y's and set al's first@1 (251 → 250, 222 → 221,
	// 226 → 225, 222 → 221) and set ab's and set ap's found@5 (246 → 245,
	// 244 → 243); at its fourth, when sets at, au and rg joined with the
	// round's last rules, the first set's, set c's, set f's and set at's
	// first@1 (287 → 286, 258 → 257, 245 → 244, 233 → 232) and set c's and
	// set f's found@5 (265 → 264, 255 → 254); at its end, when sets av, aw
	// and rh joined the tuning, set ac's, set ae's and set aw's first@1
	// (234 → 233, 217 → 216, 234 → 232) and set af's, set ah's and set
	// aj's found@5 (239 → 238, 233 → 232, 239 → 238); with the rules set
	// av's, aw's and rh's tuning halves then chose, set ar's first@1 and
	// read requests given a change first (232 → 231, 1 → 2); when sets ax,
	// ay and ri joined the tuning last, set e's, set g's, set z's and set
	// ay's first@1 (250 → 249, 253 → 252, 235 → 234, 235 → 234) and set
	// c's, set e's and set rc's found@5 (265 → 264, 265 → 264, 140 → 139);
	// in the eighth round, when the query classifier came (classifier.go),
	// set l's and set ao's found@5 (255 → 254, 250 → 249) and set ab's
	// first@1 (238 → 237); when sets az, ba and rj joined the tuning, set
	// b's, set i's, set ar's and set rj's found@5 (274 → 273, 263 → 262,
	// 250 → 249, 137 → 136), set az's, set ri's and set rj's first@1
	// (240 → 238, 123 → 122, 123 → 122) and set ri's read requests given a
	// change first (6 → 7); when the query classifier came to weigh what a
	// request asks for (Index.intent), set s's, set an's and set ap's
	// found@5 (254 → 253, 236 → 235, 243 → 242) and set ao's first@1
	// (235 → 234); when sets bb, bc and rk joined the tuning, with what a
	// reported speaker said kept from voting (payload.go), set z's and set
	// as's first@1 (234 → 233, 252 → 251) and set an's found@5 (235 → 234);
	// after it, when the classifier came to need more than a lean to
	// overrule a cue (overruleShare, so that 发语音 stays a send), set rh's
	// found@5, first@1 and read requests given a change first (137 → 136,
	// 128 → 127, 2 → 3) and set ri's first@1 and read requests given a
	// change first (125 → 124, 4 → 5). In the ninth round, when what
	// someone is reported to have said, a later clause no comma closes and
	// what a Chinese request does not want came to be kept from voting
	// (payload.go), and a request with nothing outside its payload to
	// keep its payload's words (Index.scores), set k's, set ao's, set
	// ay's and set ba's first@1 (255 → 254, 236 → 235, 238 → 237,
	// 229 → 228), set am's and set av's found@5 (255 → 254, 253 → 252)
	// and set re's read requests given a change first (2 → 3); when sets
	// bd, be and rl joined the tuning, set c's, set h's, set k's, set u's,
	// set ag's, set ak's and set ay's first@1 (257 → 256, 245 → 244,
	// 254 → 253, 254 → 253, 225 → 224, 225 → 224, 237 → 236), set ao's
	// found@5 (250 → 249) and set re's read requests given a change first
	// (3 → 4); when the risky friend requests' actions came to keep a share
	// of their score only where a request names them (doubtShare), set
	// r's first@1 (156 → 155); when a plural read came to ask for the list
	// (listedPlural) and a folder named as where a file is to say nothing
	// of what changes (folderWhere), set rl's first@1 (133 → 132); when
	// sets bf, bg and rm joined the tuning, set d's, set n's, set ac's,
	// set ag's, set ai's, set am's and set ao's first@1 (258 → 257,
	// 244 → 243, 235 → 234, 224 → 223, 224 → 223, 242 → 241, 235 → 234).
	// In the tenth round, when sets bh, bi and rn joined the tuning, set
	// n's and set af's found@5 (252 → 251, 239 → 238), and set t's, set
	// ay's, set rc's and set rj's first@1 (247 → 246, 238 → 237,
	// 133 → 132, 131 → 129); when a CQ code came to be what is sent and a
	// state set with a filler after it to name the state, set ag's
	// first@1 (223 → 222) and set al's found@5 (235 → 234); when sets bj,
	// bk and ro joined the tuning, the first set's first@1 (290 → 288),
	// and set b's, set j's, set l's, set n's, set m's, set ba's, set rh's
	// and set rm's (267 → 266, 245 → 244, 247 → 246, 243 → 242,
	// 223 → 222, 230 → 229, 130 → 129, 130 → 129); sets bj and ro, on
	// arrival 231 and 125, read 230 and 124 once their tuning halves had
	// joined; when the query classifier became a Bernoulli model, set i's,
	// set v's and set av's first@1 (252 → 251, 244 → 243, 242 → 240).
	//
	// The first set, 306 requests: 28cf376 96.4 %, 88.2 %, 0; a1d7213
	// 96.4 %, 90.2 %, 0.
	{"the first set", "tune.jsonl", "heldout.jsonl", 304, 291, 0},
	// Set b, 276 requests: on arrival (632037f) 90.6 %, 79.0 %, 6; 28cf376
	// 96.4 %, 86.2 %, 4; a1d7213 97.5 %, 90.2 %, 1.
	{"set b", "tune-b.jsonl", "heldout-b.jsonl", 274, 268, 0},
	// Set c, 266 requests: on arrival 92.5 %, 83.5 %, 0; 28cf376 96.2 %,
	// 85.0 %, 0; a1d7213 97.4 %, 89.5 %, 0.
	{"set c", "tune-c.jsonl", "heldout-c.jsonl", 266, 257, 0},
	// Set d, 262 requests: on arrival 95.8 %, 83.2 %, 6; 28cf376 95.8 %,
	// 83.6 %, 5; a1d7213 97.3 %, 87.0 %, 2.
	{"set d", "tune-d.jsonl", "heldout-d.jsonl", 262, 259, 0},
	// Set e, 267 requests: on arrival 96.6 %, 85.0 %, 0; 28cf376 97.0 %,
	// 85.8 %, 0; a1d7213 98.5 %, 89.1 %, 0.
	{"set e", "tune-e.jsonl", "heldout-e.jsonl", 265, 255, 0},
	// Set f, 256 requests: 28cf376 98.0 %, 84.0 %, 2; on arrival (2bc7377)
	// 98.0 %, 86.7 %, 2; a1d7213 98.4 %, 89.8 %, 1.
	{"set f", "tune-f.jsonl", "heldout-f.jsonl", 256, 247, 1},
	// Set g, 263 requests: 28cf376 98.9 %, 86.7 %, 1; on arrival (ba52729)
	// 99.2 %, 90.5 %, 1; a1d7213 99.6 %, 91.6 %, 1.
	{"set g", "tune-g.jsonl", "heldout-g.jsonl", 263, 255, 0},
	// Set h, 256 requests: 28cf376 96.1 %, 85.9 %, 2; on arrival (ab13911)
	// 98.0 %, 89.5 %, 2; a1d7213 98.4 %, 89.8 %, 2.
	{"set h", "tune-h.jsonl", "heldout-h.jsonl", 255, 249, 0},
	// Set i, 265 requests: 28cf376 96.6 %, 83.0 %, 3; on arrival (e90966f)
	// 97.4 %, 88.7 %, 2; a1d7213 97.4 %, 88.3 %, 2.
	{"set i", "tune-i.jsonl", "heldout-i.jsonl", 263, 251, 1},
	// Set j, 255 requests: 28cf376 96.5 %, 87.5 %, 0; on arrival (c40b2a3)
	// 98.0 %, 91.8 %, 0; a1d7213 the same.
	{"set j", "tune-j.jsonl", "heldout-j.jsonl", 252, 245, 0},
	// Set k, 263 requests, written at the fifth round's start: on arrival
	// (a1d7213) 98.9 %, 91.6 %, 2.
	{"set k", "tune-k.jsonl", "heldout-k.jsonl", 263, 257, 0},
	// Set l, 255 requests, written during the fifth round: a1d7213 98.4 %,
	// 89.8 %, 3; on arrival (680ff83) 98.8 %, 90.6 %, 3.
	{"set l", "tune-l.jsonl", "heldout-l.jsonl", 254, 248, 0},
	// Sets n and o, 252 and 250 requests, written during the fifth round:
	// a1d7213 98.4 %, 89.7 %, 2 and 98.0 %, 88.8 %, 3; on arrival (d091ef0)
	// 98.8 %, 90.1 %, 2 and 98.4 %, 93.2 %, 1.
	{"set n", "tune-n.jsonl", "heldout-n.jsonl", 251, 245, 0},
	{"set o", "tune-o.jsonl", "heldout-o.jsonl", 249, 244, 0},
	// Sets p and q, 241 and 245 requests, written during the fifth round:
	// a1d7213 98.8 %, 90.0 %, 2 and 96.7 %, 88.2 %, 2; on arrival (997523d)
	// 98.8 %, 93.8 %, 2 and 97.6 %, 91.0 %, 1.
	{"set p", "tune-p.jsonl", "heldout-p.jsonl", 241, 233, 0},
	{"set q", "tune-q.jsonl", "heldout-q.jsonl", 243, 236, 0},
	// Sets s and t, 257 and 261 requests, written during the fifth round:
	// a1d7213 98.1 %, 91.1 %, 3 and 97.7 %, 89.3 %, 3; on arrival (4a7a8bb)
	// 98.1 %, 93.0 %, 1 and 99.2 %, 91.6 %, 2.
	{"set s", "tune-s.jsonl", "heldout-s.jsonl", 254, 249, 0},
	{"set t", "tune-t.jsonl", "heldout-t.jsonl", 261, 248, 0},
	// Sets u and v, 262 and 250 requests, written during the fifth round:
	// a1d7213 98.5 %, 91.6 %, 2 and 98.4 %, 90.8 %, 0; on arrival (f73b037)
	// 99.2 %, 94.7 %, 0 and 99.6 %, 92.8 %, 0.
	{"set u", "tune-u.jsonl", "heldout-u.jsonl", 262, 257, 0},
	{"set v", "tune-v.jsonl", "heldout-v.jsonl", 249, 243, 0},
	// Set m, 229 requests, written at the fifth round's start and kept
	// sealed (not split, not measured) until its last change: a1d7213
	// 98.7 %, 90.8 %, 1; on arrival (d7727fb) 100.0 %, 93.9 %, 1.
	// Sets w and x, 253 and 253 requests, written after the round's last
	// change but two: a1d7213 99.2 %, 93.3 %, 1 and 99.2 %, 93.7 %, 0; on
	// arrival (e027882) 99.2 %, 93.7 %, 0 and 99.2 %, 94.1 %, 0.
	{"set w", "tune-w.jsonl", "heldout-w.jsonl", 253, 247, 0},
	{"set x", "tune-x.jsonl", "heldout-x.jsonl", 253, 245, 0},
	{"set m", "tune-m.jsonl", "heldout-m.jsonl", 229, 223, 0},
	// Sets y and z, 238 and 247 requests, written at the sixth round's
	// start: a1d7213 97.1 %, 88.7 %, 1 and 97.2 %, 87.0 %, 2; on arrival
	// (4ee2b22) 98.7 %, 90.3 %, 0 and 98.8 %, 89.5 %, 2.
	{"set y", "tune-y.jsonl", "heldout-y.jsonl", 236, 228, 0},
	{"set z", "tune-z.jsonl", "heldout-z.jsonl", 246, 239, 0},
	// Sets ab, aa and ac, 246, 238 and 243 requests, written during the
	// sixth round and split in that order: a1d7213 98.4 %, 93.1 %, 2; 98.3 %,
	// 89.1 %, 1; 98.8 %, 88.5 %, 2; 4ee2b22 99.2 %, 96.3 %, 1; 98.7 %, 91.6 %,
	// 0; 98.8 %, 91.8 %, 1; on arrival (05ca5bf, 8f86693, caa8339) the same
	// but set ac's: 99.2 %, 92.2 %, 0.
	{"set ab", "tune-ab.jsonl", "heldout-ab.jsonl", 245, 240, 0},
	{"set aa", "tune-aa.jsonl", "heldout-aa.jsonl", 236, 231, 0},
	{"set ac", "tune-ac.jsonl", "heldout-ac.jsonl", 243, 235, 0},
	// Sets ad and ae, 247 and 221 requests, written during the sixth round
	// and kept sealed until the learned field was chosen: a1d7213 98.8 %,
	// 88.7 %, 1 and 98.2 %, 93.2 %, 0; 4ee2b22 100.0 %, 92.7 %, 0 and
	// 99.1 %, 96.4 %, 0; d473d86, before the learned field, the same; on
	// arrival (cdce176) 100.0 %, 93.1 %, 0 and 100.0 %, 96.8 %, 0.
	{"set ad", "tune-ad.jsonl", "heldout-ad.jsonl", 247, 237, 0},
	{"set ae", "tune-ae.jsonl", "heldout-ae.jsonl", 221, 216, 0},
	// Sets af and ag, 239 and 230 requests, written during the sixth round
	// after the learned field came: a1d7213 98.7 %, 89.1 %, 2 and 98.3 %,
	// 90.4 %, 0; 4ee2b22 and d473d86 99.6 %, 92.9 %, 0 and 100.0 %,
	// 93.5 %, 0; on arrival (e9e5336, 986802d) 100.0 %, 96.7 %, 0 and
	// 99.6 %, 95.2 %, 0.
	{"set af", "tune-af.jsonl", "heldout-af.jsonl", 238, 235, 0},
	{"set ag", "tune-ag.jsonl", "heldout-ag.jsonl", 230, 225, 0},
	// Set ah, 233 requests, written during the sixth round: a1d7213
	// 98.7 %, 90.1 %, 3; 4ee2b22 99.6 %, 94.4 %, 1; d473d86 100.0 %,
	// 94.4 %, 0; on arrival (7cc74a0) 100.0 %, 94.0 %, 0.
	{"set ah", "tune-ah.jsonl", "heldout-ah.jsonl", 233, 225, 0},
	// Sets ai and aj, 235 and 240 requests, written during the sixth round:
	// a1d7213 98.7 %, 91.5 %, 3 and 99.2 %, 90.0 %, 3; 4ee2b22 and d473d86
	// 99.6 %, 94.9 %, 0 and 99.6 %, 92.1 %, 1; on arrival (1bef3b1) 99.6 %,
	// 94.5 %, 0 and 99.6 %, 95.4 %, 2.
	{"set ai", "tune-ai.jsonl", "heldout-ai.jsonl", 235, 226, 0},
	{"set aj", "tune-aj.jsonl", "heldout-aj.jsonl", 239, 230, 1},
	// Sets ak and al, 237 and 235 requests, written once the learned field
	// and the read prior were in: a1d7213 97.9 %, 86.9 %, 0 and 97.9 %,
	// 88.9 %, 1; 4ee2b22 and d473d86 98.7 %, 90.3 %, 1 and 99.6 %, 91.5 %,
	// 1; on arrival (cc4841c) 100.0 %, 93.7 %, 1 and 99.1 %, 94.5 %, 1.
	{"set ak", "tune-ak.jsonl", "heldout-ak.jsonl", 237, 226, 1},
	{"set al", "tune-al.jsonl", "heldout-al.jsonl", 234, 227, 0},
	// Sets am and an, 256 and 236 requests, written after the round's last
	// change to the search: 4ee2b22 98.8 %, 93.4 %, 1 and 99.2 %, 94.9 %,
	// 1; on arrival (2dbc67e) 99.2 %, 92.6 %, 1 and 99.6 %, 95.8 %, 1.
	{"set am", "tune-am.jsonl", "heldout-am.jsonl", 255, 244, 1},
	{"set an", "tune-an.jsonl", "heldout-an.jsonl", 235, 231, 1},
	// Sets ao and ap, 507 and 495 requests, written at the seventh round's
	// start: on arrival (cd715c8) 98.8 %, 91.3 %, 2 and 98.4 %, 91.1 %, 1.
	{"set ao", "tune-ao.jsonl", "heldout-ao.jsonl", 250, 237, 0},
	{"set ap", "tune-ap.jsonl", "heldout-ap.jsonl", 243, 238, 0},
	// Set aq, 527 requests, written during the seventh round: on arrival
	// (f205527) 99.2 %, 93.5 %, 0; 6c33f8a 99.2 %, 93.5 %, 1.
	{"set aq", "tune-aq.jsonl", "heldout-aq.jsonl", 262, 254, 0},
	// Sets ar and as, 509 and 528 requests, written during the seventh
	// round: on arrival (1a76d75) 98.8 %, 91.3 %, 1 and 98.5 %, 95.1 %, 0.
	{"set ar", "tune-ar.jsonl", "heldout-ar.jsonl", 251, 242, 0},
	{"set as", "tune-as.jsonl", "heldout-as.jsonl", 260, 253, 0},
	// Sets at and au, 506 and 522 requests, written during the seventh
	// round: on arrival (dc4b4e3) 98.8 %, 92.5 %, 2 and 99.6 %, 93.8 %, 0.
	{"set at", "tune-at.jsonl", "heldout-at.jsonl", 251, 240, 1},
	{"set au", "tune-au.jsonl", "heldout-au.jsonl", 259, 255, 0},
	// Sets av and aw, 507 and 516 requests, written during the seventh
	// round: cd715c8 100.0 %, 93.7 %, 0 and 98.8 %, 89.5 %, 2; on arrival
	// (dcc575c) 100.0 %, 94.9 %, 0 and 99.2 %, 91.1 %, 1.
	{"set av", "tune-av.jsonl", "heldout-av.jsonl", 253, 240, 0},
	{"set aw", "tune-aw.jsonl", "heldout-aw.jsonl", 257, 243, 0},
	// Sets ax and ay, 506 and 505 requests, written after the seventh
	// round's last change to the search: cd715c8 100.0 %, 92.1 %, 1 and
	// 98.8 %, 91.3 %, 1; on arrival (1479886) 100.0 %, 93.3 %, 1 and
	// 99.2 %, 93.3 %, 1.
	{"set ax", "tune-ax.jsonl", "heldout-ax.jsonl", 252, 241, 1},
	{"set ay", "tune-ay.jsonl", "heldout-ay.jsonl", 250, 239, 1},
	// Sets az and ba, 507 and 486 requests, written in the eighth round
	// once the query classifier had come: e734ab8 98.8 %, 94.5 %, 0 and
	// 98.8 %, 91.8 %, 1; on arrival (3201298) 98.4 %, 94.9 %, 0 and
	// 98.8 %, 93.0 %, 1.
	{"set az", "tune-az.jsonl", "heldout-az.jsonl", 250, 241, 0},
	{"set ba", "tune-ba.jsonl", "heldout-ba.jsonl", 241, 230, 0},
	// Sets bb and bc, 490 and 506 requests, written in the eighth round
	// after its last change to the search: e734ab8 98.8 %, 91.4 %, 0 and
	// 98.8 %, 91.3 %, 2; on arrival (5f5eabe) 99.6 %, 91.8 %, 0 and
	// 99.2 %, 93.3 %, 1.
	{"set bb", "tune-bb.jsonl", "heldout-bb.jsonl", 242, 230, 0},
	{"set bc", "tune-bc.jsonl", "heldout-bc.jsonl", 251, 239, 0},
	// Sets bd and be, 485 and 470 requests, written in the ninth round
	// before its first change to the search: 18d9759 98.8 %, 93.4 %, 0 and
	// 99.1 %, 92.8 %, 1; at c56e97c, the round's first rules, the same.
	{"set bd", "tune-bd.jsonl", "heldout-bd.jsonl", 239, 232, 0},
	{"set be", "tune-be.jsonl", "heldout-be.jsonl", 233, 218, 1},
	// Sets bf and bg, 484 and 497 requests, written in the ninth round
	// after its first rules (c56e97c): 18d9759 99.6 %, 94.2 %, 0 and
	// 99.2 %, 94.7 %, 0; on arrival (2ffac54) the same; at 6ab23dd, the
	// round's last change before they joined, 99.6 %, 94.6 %, 0 and the
	// same.
	{"set bf", "tune-bf.jsonl", "heldout-bf.jsonl", 240, 232, 0},
	{"set bg", "tune-bg.jsonl", "heldout-bg.jsonl", 245, 235, 0},
	// Sets bh and bi, 490 and 476 requests, written in the tenth round
	// before its first change to the search: on arrival (3258402)
	// 99.6 %, 93.0 %, 0 and 100.0 %, 94.5 %, 0.
	{"set bh", "tune-bh.jsonl", "heldout-bh.jsonl", 243, 231, 0},
	{"set bi", "tune-bi.jsonl", "heldout-bi.jsonl", 237, 225, 0},
	// Sets bj and bk, 492 and 481 requests, written in the tenth round
	// after its first rules: 3258402 98.8 %, 93.9 %, 0 and 99.6 %,
	// 96.2 %, 0; on arrival (845394f) 98.8 %, 94.3 %, 0 and the same.
	{"set bj", "tune-bj.jsonl", "heldout-bj.jsonl", 242, 233, 0},
	{"set bk", "tune-bk.jsonl", "heldout-bk.jsonl", 239, 232, 0},
	// Sets bl and bm, 506 and 467 requests, written in the tenth round
	// after the classifier became a Bernoulli model: 3258402 99.6 %,
	// 94.0 %, 0 and 99.1 %, 94.4 %, 0; at 96c1084, before that change,
	// 100.0 %, 95.2 %, 0 and 99.1 %, 94.8 %, 0; on arrival (db68915) the
	// same.
	{"set bl", "tune-bl.jsonl", "heldout-bl.jsonl", 252, 240, 0},
	{"set bm", "tune-bm.jsonl", "heldout-bm.jsonl", 230, 220, 0},
	// Set r, 162 requests, only reads, written to be hard to tell from
	// writes (README.md); a stress set, not a sample of how people ask:
	// a1d7213 88.3 %, 71.6 %, 31; on arrival (2416d35) 92.0 %, 79.6 %, 20.
	{"set r", "tune-r.jsonl", "heldout-r.jsonl", 162, 156, 0},
	// Set rb, 135 requests, a second stress set like r, written during the
	// sixth round: a1d7213 95.6 %, 83.7 %, 11; 4ee2b22 and d473d86 97.8 %,
	// 88.1 %, 4; on arrival (80fa457) 99.3 %, 91.9 %, 4.
	{"set rb", "tune-rb.jsonl", "heldout-rb.jsonl", 135, 129, 1},
	// Set rc, 141 requests, a third stress set, written at the seventh
	// round's start: on arrival (cd715c8) 94.3 %, 79.4 %, 18.
	{"set rc", "tune-rc.jsonl", "heldout-rc.jsonl", 140, 133, 0},
	// Sets rd and re, 280 and 279 requests, two more stress sets, written
	// during the seventh round to a brief that asked for write words the
	// way ordinary chat holds them: on arrival (f205527 and 6c33f8a alike)
	// 91.4 %, 77.9 %, 12 and 89.9 %, 78.4 %, 13.
	{"set rd", "tune-rd.jsonl", "heldout-rd.jsonl", 137, 129, 2},
	{"set re", "tune-re.jsonl", "heldout-re.jsonl", 138, 131, 2},
	// Set rf, 279 requests, a stress set written like rd and re: on
	// arrival (1a76d75) 92.1 %, 82.7 %, 12.
	{"set rf", "tune-rf.jsonl", "heldout-rf.jsonl", 135, 130, 3},
	// Set rg, 280 requests, a stress set written like rd: on arrival
	// (dc4b4e3) 94.3 %, 87.1 %, 4.
	{"set rg", "tune-rg.jsonl", "heldout-rg.jsonl", 138, 133, 1},
	// Set rh, 280 requests, a stress set written like rd: cd715c8 92.9 %,
	// 75.7 %, 20; on arrival (dcc575c) 97.1 %, 88.6 %, 5.
	{"set rh", "tune-rh.jsonl", "heldout-rh.jsonl", 139, 135, 1},
	// Set ri, 279 requests, a stress set written like rd after the
	// seventh round's last change to the search: cd715c8 90.6 %, 75.5 %,
	// 21; on arrival (1479886) 97.1 %, 87.1 %, 6.
	{"set ri", "tune-ri.jsonl", "heldout-ri.jsonl", 137, 127, 3},
	// Set rj, 284 requests, a stress set written like rd in the eighth
	// round once the query classifier had come: e734ab8 95.8 %, 86.6 %, 6;
	// on arrival (3201298) 96.5 %, 86.6 %, 6.
	{"set rj", "tune-rj.jsonl", "heldout-rj.jsonl", 140, 133, 1},
	// Set rk, 289 requests, a stress set written like rd after the eighth
	// round's last change to the search: e734ab8 95.8 %, 86.1 %, 7; on
	// arrival (5f5eabe) 95.8 %, 90.3 %, 4.
	{"set rk", "tune-rk.jsonl", "heldout-rk.jsonl", 141, 135, 3},
	// Set rl, 274 requests, a stress set written like rd in the ninth
	// round before its first change to the search: 18d9759 97.1 %,
	// 95.6 %, 3; at c56e97c, the round's first rules, 98.5 %, 97.1 %, 2.
	{"set rl", "tune-rl.jsonl", "heldout-rl.jsonl", 135, 134, 2},
	// Set rm, 279 requests, a stress set written like rd in the ninth
	// round after its first rules: 18d9759 97.1 %, 92.8 %, 2; on arrival
	// (2ffac54) the same; at 6ab23dd 97.8 %, 93.5 %, 2.
	{"set rm", "tune-rm.jsonl", "heldout-rm.jsonl", 136, 130, 2},
	// Set rn, 274 requests, a stress set written like rd in the tenth
	// round before its first change to the search: on arrival (3258402)
	// 97.8 %, 93.4 %, 3.
	{"set rn", "tune-rn.jsonl", "heldout-rn.jsonl", 134, 129, 2},
	// Set ro, 275 requests, a stress set written like rd in the tenth
	// round after its first rules: 3258402 97.1 %, 90.5 %, 2; on arrival
	// (845394f) 97.1 %, 91.2 %, 2.
	{"set ro", "tune-ro.jsonl", "heldout-ro.jsonl", 134, 125, 1},
	// Set rp, 274 requests, a stress set written like rd in the tenth
	// round after the classifier became a Bernoulli model: 3258402
	// 100.0 %, 96.4 %, 0; at 96c1084 and on arrival (db68915) 100.0 %,
	// 97.1 %, 0.
	{"set rp", "tune-rp.jsonl", "heldout-rp.jsonl", 137, 133, 0},
}

// tuningChangeFirst is how many of a tuning half's read requests may get
// a change first: none, but in the stress sets rj and rk, whose ones
// the cues and both models read alike (e.g. 禁言规则那条公告原文: a
// notice named by its topic, a cue word), in sets ax and bc, whose one
// is a stream download, a lookup SnowLuma's catalog marks as a write
// (download_file_stream for a received
// image in chunks, download_file_record_stream for a voice message), and
// in set be, whose one asks to save a received picture, which its writer
// labelled get_image and the search answers with download_file, and in
// the stress set rm, whose two read what the cue lists call a change
// (内容读出来, said of a merged forward, where 读出来 is reading aloud
// elsewhere; a title "got … set yesterday", then verified).
var tuningChangeFirst = map[string]int{"set rj": 1, "set rk": 2, "set ax": 1, "set bc": 1, "set be": 1, "set rm": 2}

type labelled struct {
	Q      string   `json:"q"`
	Accept []string `json:"accept"`
	Read   bool     `json:"read"`
	Lang   string   `json:"lang"`
}

type inventedName struct {
	Name   string   `json:"name"`
	Accept []string `json:"accept"`
}

func readLines[T any](t testing.TB, name string) []T {
	t.Helper()
	f, err := os.Open(filepath.Join(evalDir, name))
	require.NoError(t, err)
	defer f.Close()
	var out []T
	s := bufio.NewScanner(f)
	s.Buffer(make([]byte, 1<<20), 1<<20)
	for s.Scan() {
		if strings.TrimSpace(s.Text()) == "" {
			continue
		}
		var v T
		require.NoError(t, json.Unmarshal(s.Bytes(), &v), name)
		out = append(out, v)
	}
	require.NoError(t, s.Err())
	return out
}

// outcome is how the search served one labelled request.
type outcome struct {
	found5, first1, readChangeFirst bool
	pointed                         []string // the ranked list a model is pointed to
	keywordsFirst                   string
}

// serve runs a request as a first call makes it, in default mode, and in
// keywords mode: found@5 is an accepted action in the first five of
// actions or of suggestions; first@1 an accepted action first in the list
// the reply points to (suggestions when there are any, else actions); a
// read request must get a read first in that list and in keywords mode's.
func serve(x *Index, r labelled) outcome {
	ctx := context.Background()
	found, suggested := x.Find(ctx, r.Q, catalog.Filter{})
	accepted := func(as []*catalog.Action, n int) bool {
		for _, a := range as[:min(n, len(as))] {
			if contains(r.Accept, a.Name) {
				return true
			}
		}
		return false
	}
	pointed := suggested
	if len(pointed) == 0 {
		pointed = found
	}
	o := outcome{found5: accepted(found, 5) || accepted(suggested, 5), first1: accepted(pointed, 1), pointed: names(pointed[:min(5, len(pointed))])}
	if r.Read {
		o.readChangeFirst = len(pointed) > 0 && !pointed[0].ReadOnly
		kw := x.SearchKeywords(ctx, r.Q, catalog.Filter{})
		if x.OnlyChanges(r.Q, kw) {
			kw = x.Suggest(ctx, r.Q, catalog.Filter{})
		}
		if len(kw) > 0 {
			o.keywordsFirst = kw[0].Name
			o.readChangeFirst = o.readChangeFirst || !kw[0].ReadOnly
		}
	}
	return o
}

// figures are one half's measurements.
type figures struct {
	n, found5, first1, readChangeFirst int
}

func (f figures) String() string {
	return fmt.Sprintf("%d requests: found@5 %d (%.1f %%), first@1 %d (%.1f %%), read requests with a change first %d",
		f.n, f.found5, pct(f.found5, f.n), f.first1, pct(f.first1, f.n), f.readChangeFirst)
}

func pct(k, n int) float64 { return 100 * float64(k) / float64(max(n, 1)) }

// measure serves every request of a half; show, for the tuning half only,
// logs each miss.
func measure(t testing.TB, x *Index, rs []labelled, show bool) figures {
	f := figures{n: len(rs)}
	for _, r := range rs {
		o := serve(x, r)
		if o.found5 {
			f.found5++
		}
		if o.first1 {
			f.first1++
		}
		if o.readChangeFirst {
			f.readChangeFirst++
		}
		if show && (!o.found5 || !o.first1 || o.readChangeFirst) {
			t.Logf("miss: %q accept %v read %v: got %v (keywords first %s)", r.Q, r.Accept, r.Read, o.pointed, o.keywordsFirst)
		}
	}
	return f
}

// TestSearchGeneralises prints found@5 and first@1 for both halves of
// every set and holds each held-out half to its ratchet, printing beside it
// the floors (found@5 ≥ 97 %, first@1 ≥ 92 %, no read request with
// a change first in default mode's list or keywords mode's) and whether
// each is met. Run with -v to see the figures; EVAL_SHOW_TUNE=1 also logs
// the tuning halves' misses (never a held-out half's).
func TestSearchGeneralises(t *testing.T) {
	x := load(t)
	for _, set := range evalSets {
		tune := measure(t, x, readLines[labelled](t, set.tune), os.Getenv("EVAL_SHOW_TUNE") != "")
		held := measure(t, x, readLines[labelled](t, set.heldout), false)
		t.Logf("%s, tuning half: %v", set.name, tune)
		t.Logf("%s, held-out half: %v", set.name, held)
		target := func(what string, met bool, got, want string) {
			verdict := "not met"
			if met {
				verdict = "met"
			}
			t.Logf("%s, held-out %s %s: target %s %s", set.name, what, got, want, verdict)
		}
		target("found@5", pct(held.found5, held.n) >= floorFound5, fmt.Sprintf("%.1f %%", pct(held.found5, held.n)), fmt.Sprintf("≥ %.0f %%", floorFound5))
		target("first@1", pct(held.first1, held.n) >= floorFirst1, fmt.Sprintf("%.1f %%", pct(held.first1, held.n)), fmt.Sprintf("≥ %.0f %%", floorFirst1))
		target("read requests with a change first", held.readChangeFirst == 0, fmt.Sprint(held.readChangeFirst), "0")
		assert.GreaterOrEqual(t, held.found5, set.found5, "%s: held-out found@5 fell below the ratchet", set.name)
		assert.GreaterOrEqual(t, held.first1, set.first1, "%s: held-out first@1 fell below the ratchet", set.name)
		assert.LessOrEqual(t, held.readChangeFirst, set.readChangeFirst, "%s: held-out read requests given a change first rose above the ratchet", set.name)
		assert.LessOrEqual(t, tune.readChangeFirst, tuningChangeFirst[set.name], "%s: tuning-half read requests given a change first", set.name)
	}
}

// TestInventedNamesAreOfferedTheirAction: an unknown action name, made of
// a request's words or off only in case or blanks, is offered its
// intended action among the (at most three) real ones its failure names.
func TestInventedNamesAreOfferedTheirAction(t *testing.T) {
	x := load(t)
	for _, half := range []string{"names-tune.jsonl", "names-heldout.jsonl"} {
		missed := 0
		items := readLines[inventedName](t, half)
		for _, n := range items {
			got := x.Offer(n.Name)
			ok := false
			for _, g := range got {
				ok = ok || contains(n.Accept, g)
			}
			if !ok {
				missed++
				if half == "names-tune.jsonl" && os.Getenv("EVAL_SHOW_TUNE") != "" {
					t.Logf("miss: %q accept %v: offered %v", n.Name, n.Accept, got)
				}
			}
		}
		t.Logf("%s: %d names, %d offered their action", half, len(items), len(items)-missed)
		assert.Zero(t, missed, "%s: names not offered their action", half)
	}
}

// TestTheVocabularyCopiesNoLabelledRequest: the vocabulary is words, never
// a labelled request of either half: no request of three words or more
// (five characters or more in Chinese) occurs in it. A request that is a
// single word ("禁言") is a word the vocabulary may well hold.
func TestTheVocabularyCopiesNoLabelledRequest(t *testing.T) {
	var labels []string
	for _, set := range evalSets {
		for _, r := range append(readLines[labelled](t, set.tune), readLines[labelled](t, set.heldout)...) {
			q := strings.ToLower(strings.TrimSpace(r.Q))
			if len(strings.Fields(q)) >= 3 || (isHan(q) && len([]rune(q)) >= 5) {
				labels = append(labels, q)
			}
		}
	}
	require.NotEmpty(t, labels)
	for action, v := range vocabulary {
		text := strings.ToLower(v)
		for _, l := range labels {
			assert.False(t, strings.Contains(text, l), "the vocabulary of %s holds a labelled request", action)
		}
	}
}

// TestTheDocsCountTheSets holds the tools page, in both languages, to the
// number of request sets the search is measured on.
func TestTheDocsCountTheSets(t *testing.T) {
	t.Parallel()
	en := []string{"", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen", "twenty", "twenty-one", "twenty-two", "twenty-three", "twenty-four", "twenty-five", "twenty-six", "twenty-seven", "twenty-eight", "twenty-nine", "thirty", "thirty-one", "thirty-two", "thirty-three", "thirty-four", "thirty-five", "thirty-six", "thirty-seven", "thirty-eight", "thirty-nine", "forty", "forty-one", "forty-two", "forty-three", "forty-four", "forty-five", "forty-six", "forty-seven", "forty-eight", "forty-nine", "fifty", "fifty-one", "fifty-two", "fifty-three", "fifty-four", "fifty-five", "fifty-six", "fifty-seven", "fifty-eight", "fifty-nine", "sixty", "sixty-one", "sixty-two", "sixty-three", "sixty-four", "sixty-five", "sixty-six", "sixty-seven", "sixty-eight", "sixty-nine", "seventy", "seventy-one", "seventy-two", "seventy-three", "seventy-four", "seventy-five", "seventy-six", "seventy-seven", "seventy-eight", "seventy-nine", "eighty"}
	zh := []string{"", "一", "两", "三", "四", "五", "六", "七", "八", "九", "十", "十一", "十二", "十三", "十四", "十五", "十六", "十七", "十八", "十九", "二十", "二十一", "二十二", "二十三", "二十四", "二十五", "二十六", "二十七", "二十八", "二十九", "三十", "三十一", "三十二", "三十三", "三十四", "三十五", "三十六", "三十七", "三十八", "三十九", "四十", "四十一", "四十二", "四十三", "四十四", "四十五", "四十六", "四十七", "四十八", "四十九", "五十", "五十一", "五十二", "五十三", "五十四", "五十五", "五十六", "五十七", "五十八", "五十九", "六十", "六十一", "六十二", "六十三", "六十四", "六十五", "六十六", "六十七", "六十八", "六十九", "七十", "七十一", "七十二", "七十三", "七十四", "七十五", "七十六", "七十七", "七十八", "七十九", "八十"}
	n := len(evalSets)
	require.Less(t, n, len(en), "name more numbers")
	for _, doc := range []struct{ path, want string }{
		{"../../docs/tools.md", "measured on " + en[n] + " labelled sets"},
		{"../../docs/zh-CN/tools.md", "排序用" + zh[n] + "组带标注的请求"},
	} {
		b, err := os.ReadFile(doc.path)
		require.NoError(t, err)
		assert.Contains(t, strings.Join(strings.Fields(string(b)), " "), doc.want, doc.path)
	}
}
