package fake_test

// Param coercion over the wire, as action-kit's coercers answer
// (intCore, stringCore and f.bool in packages/onebot/src/action-kit.ts):
// "expected <kind>" only for a value that is not a finite number or a
// numeric string, bounds after truncation, and bools from any number.

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/snowluma/snowluma-mcp/e2e/fake"
)

func TestIntegerParamsAreCoercedLikeIntCore(t *testing.T) {
	t.Parallel()
	const (
		ok         = `{"status":"ok","retcode":0,"data":{}}`
		notFound   = `{"status":"failed","retcode":100,"data":null,"wording":"message not found"}`
		groupBelow = `{"status":"failed","retcode":1400,"data":null,"wording":"group_id: must be >= 1"}`
		groupKind  = `{"status":"failed","retcode":1400,"data":null,"wording":"group_id: expected a positive integer"}`
		msgZero    = `{"status":"failed","retcode":1400,"data":null,"wording":"message_id: must not be 0"}`
		msgKind    = `{"status":"failed","retcode":1400,"data":null,"wording":"message_id: expected a message id"}`
	)
	sign := func(v string) string { return `{"action":"set_group_sign","params":{"group_id":` + v + `}}` }
	get := func(v string) string { return `{"action":"get_msg","params":{"message_id":` + v + `}}` }
	tests := []struct {
		name, body, want string
	}{
		{"a positive integer", sign(`123456789`), ok},
		{"a fraction is truncated", sign(`1.9`), ok},
		{"a numeric string", sign(`"123"`), ok},
		{"a string with surrounding JavaScript whitespace", sign(`"\ufeff 12\u3000"`), ok},
		{"a hexadecimal string", sign(`"0x10"`), ok},
		{"a binary string", sign(`"0b11"`), ok},
		{"an exponent string", sign(`"1e3"`), ok},
		{"a number beyond int64 is still a number", sign(`1e300`), ok},
		{"zero is below the minimum", sign(`0`), groupBelow},
		{"a negative number is below the minimum", sign(`-5`), groupBelow},
		{"a fraction truncated to zero is below the minimum", sign(`0.9`), groupBelow},
		{"a numeric string of zero is below the minimum", sign(`"0"`), groupBelow},
		{"a word is not a number", sign(`"abc"`), groupKind},
		{"an empty string is not a number", sign(`""`), groupKind},
		{"a blank string is not a number", sign(`"  "`), groupKind},
		{"U+0085 is not JavaScript whitespace", sign(`"\u00855"`), groupKind},
		{"a signed hexadecimal string is not a number", sign(`"-0x10"`), groupKind},
		{"digit separators are not a number", sign(`"1_000"`), groupKind},
		{"a hexadecimal float is not a number", sign(`"0x1p3"`), groupKind},
		{"Infinity is not finite", sign(`"Infinity"`), groupKind},
		{"a number beyond float64 parses to Infinity", sign(`1e400`), groupKind},
		{"a boolean is not a number", sign(`true`), groupKind},
		{"an array is not a number", sign(`[1]`), groupKind},
		{"an object is not a number", sign(`{}`), groupKind},
		{"null is present and not a number", sign(`null`), groupKind},
		{"message_id 0", get(`0`), msgZero},
		{"message_id -0", get(`-0`), msgZero},
		{"message_id truncated to 0", get(`"0.5"`), msgZero},
		{"a negative message_id is valid", get(`-5`), notFound},
		{"a message_id beyond 32 bits is valid and names no message", get(`4294967296`), notFound},
		{"a word message_id", get(`"abc"`), msgKind},
		{"a negative duration", `{"action":"set_group_ban","params":{"group_id":1,"user_id":2,"duration":-1}}`,
			`{"status":"failed","retcode":1400,"data":null,"wording":"duration: must be >= 0"}`},
		{"a duration truncated to zero", `{"action":"set_group_ban","params":{"group_id":1,"user_id":2,"duration":-0.5}}`,
			`{"status":"ok","retcode":0,"data":null}`},
		{"a negative history count", `{"action":"get_group_msg_history","params":{"group_id":1,"count":-1}}`,
			`{"status":"failed","retcode":1400,"data":null,"wording":"count: must be >= 0"}`},
		{"a non-integer history anchor", `{"action":"get_group_msg_history","params":{"group_id":1,"message_id":"x"}}`,
			`{"status":"failed","retcode":1400,"data":null,"wording":"message_id: expected an integer"}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			assert.Equal(t, tt.want, post(t, tt.body, nil).body)
		})
	}
}

func TestBooleanParamsAreCoercedLikeFBool(t *testing.T) {
	t.Parallel()
	reset := failedTerminal("100", fake.WordingResetCompleted) + fake.Delimiter
	noReset := failedTerminal("100", fake.WordingTotalRequired) + fake.Delimiter
	invalid := failedTerminal("1400", "reset: expected a boolean") + fake.Delimiter
	tests := []struct {
		name, value, want string
	}{
		{"true", `true`, reset},
		{"false", `false`, noReset},
		{"one", `1`, reset},
		{"zero", `0`, noReset},
		{"any non-zero number", `2`, reset},
		{"a negative number", `-1`, reset},
		{"a fraction", `0.5`, reset},
		{"a number beyond float64", `1e400`, reset},
		{"yes", `"yes"`, reset},
		{"on, trimmed and lower-cased", `" ON "`, reset},
		{"the string true in capitals", `"TRUE"`, reset},
		{"the string 1", `"1"`, reset},
		{"off in mixed case", `"Off"`, noReset},
		{"no between ideographic spaces", `"\u3000no\u3000"`, noReset},
		{"the string 0", `"0"`, noReset},
		{"the string 2", `"2"`, invalid},
		{"the string 1.0", `"1.0"`, invalid},
		{"an empty string", `""`, invalid},
		{"an array", `[]`, invalid},
		{"null", `null`, invalid},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			r := streamCall(t, fake.UploadAction, `{"stream_id":"never_created","reset":`+tt.value+`}`)
			assert.Equal(t, tt.want, r.body)
		})
	}
}
