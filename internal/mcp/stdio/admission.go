package stdio

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/big"
	"strconv"
	"unicode/utf8"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"

	"github.com/snowluma/snowluma-mcp/internal/members"
)

// refusal is the one error reply owed for a line that is not admitted.
// Each refused line gets exactly one, so the peer is never left waiting and
// the SDK never sees what it would mishandle (it ends the whole session on
// a malformed line, and silently rewrites ids it cannot carry).
type refusal struct {
	id      any // nil, string, int64 or json.RawMessage; written as null when nil
	code    int64
	message string
}

// reply encodes the refusal as a JSON-RPC error response.
func (r *refusal) reply() []byte {
	id := r.id
	if raw, ok := id.(json.RawMessage); ok && raw == nil {
		id = nil
	}
	type wireError struct {
		Code    int64  `json:"code"`
		Message string `json:"message"`
	}
	data, err := json.Marshal(struct {
		JSONRPC string    `json:"jsonrpc"`
		ID      any       `json:"id"`
		Error   wireError `json:"error"`
	}{"2.0", id, wireError{r.code, r.message}})
	if err != nil {
		// Only an id that is not valid JSON could fail; answer as if
		// there were none rather than leave the line unanswered.
		data, _ = json.Marshal(struct {
			JSONRPC string    `json:"jsonrpc"`
			ID      any       `json:"id"`
			Error   wireError `json:"error"`
		}{"2.0", nil, wireError{r.code, r.message}})
	}
	return data
}

// tooLong is the refusal of a line over max bytes.
func tooLong(max int) *refusal {
	return &refusal{code: jsonrpc.CodeInvalidRequest, message: fmt.Sprintf("message longer than %d bytes", max)}
}

// admit decodes one line. It returns the message when the SDK can carry it
// exactly, a refusal when it cannot, and neither for a blank line.
func admit(data []byte) (jsonrpc.Message, *refusal) {
	data = bytes.TrimSpace(data)
	if len(data) == 0 {
		return nil, nil
	}
	if !utf8.Valid(data) {
		// JSON text is UTF-8; decoders would quietly replace the bad
		// bytes, changing string ids the reply must echo.
		return nil, &refusal{code: jsonrpc.CodeParseError, message: "parse error: the line is not valid UTF-8"}
	}
	if !members.Valid(data) {
		return nil, &refusal{code: jsonrpc.CodeParseError, message: "parse error: the line is not valid JSON"}
	}
	if data[0] == '[' {
		return nil, &refusal{code: jsonrpc.CodeInvalidRequest, message: "batch messages are not supported; send one message per line"}
	}
	// The line is checked once, above; its members are then read in one
	// scan, without decoding or copying them (the params alias the line,
	// which is read afresh for each message).
	probe := members.Map(data)
	if id, bad := unusableID(probe); bad {
		return nil, &refusal{id: id, code: jsonrpc.CodeInvalidRequest, message: "invalid request id: an id must be a string or an integer of at most 2^53, never null"}
	}
	if req, ok := plainRequest(probe); ok {
		return req, nil
	}
	msg, err := jsonrpc.DecodeMessage(data)
	if err != nil {
		return nil, &refusal{id: idOf(data), code: jsonrpc.CodeInvalidRequest, message: "invalid JSON-RPC message: " + err.Error()}
	}
	if resp, ok := msg.(*jsonrpc.Response); ok && resp.Result == nil && resp.Error == nil {
		return nil, &refusal{id: idOf(data), code: jsonrpc.CodeInvalidRequest, message: "invalid JSON-RPC message: no method, result or error"}
	}
	return msg, nil
}

// unusableID finds ids the SDK would mangle: null (it would treat the
// request as a notification and never answer) and numbers it cannot carry
// exactly (fractions, beyond 2^53). It returns the id as sent, for the error
// reply to echo.
// probe is the line's members (members.Map), nil when it is not an
// object.
func unusableID(probe map[string]json.RawMessage) (json.RawMessage, bool) {
	raw, present := probe["id"]
	if !present {
		return nil, false
	}
	raw = bytes.TrimSpace(raw)
	switch {
	case string(raw) == "null":
		return nil, true
	case len(raw) > 0 && raw[0] != '"' && raw[0] != '{' && raw[0] != '[':
		n, err := strconv.ParseInt(string(raw), 10, 64)
		if err != nil || n > 1<<53 || n < -(1<<53) {
			if _, isNumber := new(big.Float).SetString(string(raw)); !isNumber {
				return nil, true // true or false: no id worth echoing
			}
			return raw, true
		}
	}
	return nil, false
}

// idOf recovers a usable request ID from a malformed message, if it has one.
func idOf(data []byte) any {
	var probe struct {
		ID any `json:"id"`
	}
	if json.Unmarshal(data, &probe) != nil {
		return nil
	}
	switch probe.ID.(type) {
	case string, float64:
		return probe.ID
	}
	return nil
}

// plainRequest builds the message for the common line, a request with
// nothing unusual in it, from the members admit has already decoded, and
// reports whether it could. jsonrpc.DecodeMessage would decode the whole
// line twice more, each time through a fresh 32 KiB buffer: that was a
// third of what a query_action call allocated. Anything else (a response,
// an unknown member, escapes in the method or id, a wrong version) is left
// to DecodeMessage, so its answer and its error messages stay the SDK's.
// Given a probe that passed unusableID, the result is what DecodeMessage
// returns for the same line (FuzzPlainRequestMatchesDecodeMessage).
func plainRequest(probe map[string]json.RawMessage) (*jsonrpc.Request, bool) {
	if probe == nil || string(probe["jsonrpc"]) != `"2.0"` {
		return nil, false
	}
	for k := range probe {
		switch k {
		case "jsonrpc", "id", "method", "params":
		default:
			return nil, false
		}
	}
	method, ok := plainString(probe["method"])
	if !ok {
		return nil, false
	}
	req := &jsonrpc.Request{Method: method}
	if raw, present := probe["id"]; present {
		var v any
		if s, ok := plainString(raw); ok {
			v = s
		} else if n, err := strconv.ParseInt(string(raw), 10, 64); err == nil {
			v = float64(n) // as decoded; unusableID has checked it is exact
		} else {
			return nil, false
		}
		id, err := jsonrpc.MakeID(v)
		if err != nil {
			return nil, false
		}
		req.ID = id
	}
	if raw, present := probe["params"]; present {
		req.Params = raw
	}
	return req, true
}

// plainString returns the text of a JSON string without escapes.
func plainString(raw json.RawMessage) (string, bool) {
	if len(raw) < 2 || raw[0] != '"' || raw[len(raw)-1] != '"' || bytes.IndexByte(raw, '\\') >= 0 {
		return "", false
	}
	return string(raw[1 : len(raw)-1]), true
}
