package stdio

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"math/big"
	"reflect"
	"testing"
	"unicode/utf8"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"

	"github.com/snowluma/snowluma-mcp/internal/members"
)

// FuzzAdmit feeds arbitrary input through framing and admission. The
// property: nothing panics, and every non-blank line either becomes a
// message the SDK carries exactly (the id it will echo is the id that was
// sent) or gets exactly one well-formed JSON-RPC error reply with a
// non-zero code. The seeds in testdata/fuzz/FuzzAdmit run with every
// `go test`.
func FuzzAdmit(f *testing.F) {
	f.Fuzz(func(t *testing.T, in []byte) {
		lr := newLineReader(bytes.NewReader(in), 1<<12)
		for {
			data, err := lr.next()
			if errors.Is(err, errTooLong) {
				checkReply(t, tooLong(1<<12).reply())
				continue
			}
			if err != nil {
				if !errors.Is(err, io.EOF) {
					t.Fatalf("reading from memory failed: %v", err)
				}
				return
			}
			if bytes.ContainsRune(data, '\n') {
				t.Fatalf("a framed line contains a newline: %q", data)
			}
			msg, refused := admit(data)
			switch {
			case msg != nil && refused != nil:
				t.Fatalf("both admitted and refused: %q", data)
			case refused != nil:
				checkReply(t, refused.reply())
			case msg != nil:
				checkCarried(t, data, msg)
			case len(bytes.TrimSpace(data)) > 0:
				t.Fatalf("a non-blank line got neither a message nor a reply: %q", data)
			}
		}
	})
}

// checkReply requires one line of valid JSON-RPC error response.
func checkReply(t *testing.T, reply []byte) {
	t.Helper()
	if bytes.ContainsAny(reply, "\r\n") {
		t.Fatalf("the reply spans lines: %q", reply)
	}
	var r map[string]json.RawMessage
	if err := json.Unmarshal(reply, &r); err != nil {
		t.Fatalf("the reply is not JSON: %v: %q", err, reply)
	}
	var e struct {
		Code    *int64  `json:"code"`
		Message *string `json:"message"`
	}
	rawID, hasID := r["id"]
	if string(r["jsonrpc"]) != `"2.0"` || !hasID || json.Unmarshal(r["error"], &e) != nil || e.Code == nil || e.Message == nil {
		t.Fatalf("the reply is not a JSON-RPC error response: %q", reply)
	}
	if *e.Code == 0 {
		t.Fatalf("the reply has code 0: %q", reply)
	}
	switch id := bytes.TrimSpace(rawID); {
	case string(id) == "null", len(id) > 0 && id[0] == '"':
	default:
		if _, ok := new(big.Float).SetString(string(id)); !ok {
			t.Fatalf("the reply's id is neither null, a string nor a number: %q", reply)
		}
	}
}

// checkCarried requires that the SDK's view of msg, once encoded as the SDK
// would send it back, has the id and method of the line as sent.
func checkCarried(t *testing.T, line []byte, msg jsonrpc.Message) {
	t.Helper()
	var sent map[string]json.RawMessage
	if err := json.Unmarshal(line, &sent); err != nil {
		t.Fatalf("admitted a line that is not a JSON object: %q", line)
	}
	enc, err := jsonrpc.EncodeMessage(msg)
	if err != nil {
		t.Fatalf("the SDK cannot encode what was admitted: %v: %q", err, line)
	}
	var back map[string]json.RawMessage
	if err := json.Unmarshal(enc, &back); err != nil {
		t.Fatalf("the SDK's encoding is not JSON: %q", enc)
	}
	if !sameID(sent["id"], back["id"]) {
		t.Fatalf("id %s was sent but the SDK holds %s: %q", sent["id"], back["id"], line)
	}
	if req, ok := msg.(*jsonrpc.Request); ok {
		var method string
		if json.Unmarshal(sent["method"], &method) != nil || method != req.Method {
			t.Fatalf("method %s was sent but the SDK holds %q", sent["method"], req.Method)
		}
	}
}

// sameID compares two JSON ids by value: strings by their text, numbers
// exactly, absence only with absence.
func sameID(a, b json.RawMessage) bool {
	if a == nil || b == nil {
		return a == nil && b == nil
	}
	var sa, sb string
	if json.Unmarshal(a, &sa) == nil && json.Unmarshal(b, &sb) == nil {
		// Decoding replaces invalid UTF-8 with U+FFFD on both sides, so
		// equal strings alone would miss an id the reply cannot echo.
		return sa == sb && utf8.Valid(a)
	}
	na, okA := new(big.Rat).SetString(string(bytes.TrimSpace(a)))
	nb, okB := new(big.Rat).SetString(string(bytes.TrimSpace(b)))
	return okA && okB && na.Cmp(nb) == 0
}

// FuzzPlainRequestMatchesDecodeMessage: for every line admission builds
// itself, the message is the one jsonrpc.DecodeMessage gives. The seeds
// run with every `go test`.
func FuzzPlainRequestMatchesDecodeMessage(f *testing.F) {
	for _, s := range []string{
		`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`,
		`{"jsonrpc":"2.0","id":"a b","method":"tools/call","params":{"name":"x","arguments":{"k":[1,2.5,"\u00e9"]}}}`,
		`{"jsonrpc":"2.0","id":-9007199254740992,"method":"m","params": { "x" : [1, 2] } }`,
		`{"jsonrpc":"2.0","id":-0,"method":"m","params":null}`,
		`{"jsonrpc":"2.0","id":1,"id":"z","method":"a","method":"b"}`,
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
		`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":3}}`,
		`{"jsonrpc":"2.0","id":"\u0041","method":"m"}`,
		`{"jsonrpc":"2.0","id":1,"method":"\u0041"}`,
		`{"jsonrpc":"2.0","id":1,"method":""}`,
		`{"jsonrpc":"2.0","id":1,"method":"m","extra":true}`,
		`{"jsonrpc":"2.0","id":1,"result":{}}`,
		`{"jsonrpc":"2.0","id":1,"method":5}`,
		`{"jsonrpc":"2.0","jsonrpc":"1.0","id":1,"method":"a"}`,
		`{"jsonrpc" : "2.0" , "id" : 7 , "method" : "中文" }`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if !utf8.Valid(data) || !json.Valid(data) {
			return
		}
		probe := members.Map(data) // as admit reads the line
		if probe == nil {
			return
		}
		if _, bad := unusableID(probe); bad {
			return
		}
		req, ok := plainRequest(probe)
		if !ok {
			return
		}
		want, err := jsonrpc.DecodeMessage(data)
		if err != nil {
			t.Fatalf("built a request from %q, which DecodeMessage refuses: %v", data, err)
		}
		if !reflect.DeepEqual(want, jsonrpc.Message(req)) {
			t.Fatalf("for %q built %#v, DecodeMessage gives %#v", data, req, want)
		}
	})
}
