package diagnostics

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/snowluma/snowluma-mcp/internal/fault"
	"github.com/snowluma/snowluma-mcp/pipeline"
	"github.com/snowluma/snowluma-mcp/stages/stagetest"
)

var tool = stagetest.Invoke

func TestDiagnostics(t *testing.T) {
	t.Parallel()
	const write, read = "send_group_msg", "get_status"
	tests := []struct {
		name    string
		action  string // "" for a call without one
		result  *pipeline.Result
		err     error
		isError bool
		outcome pipeline.Outcome
		kind    string
		message string
	}{
		{"marks a plain result a success", "", &pipeline.Result{Payload: 1}, nil, false, "success", "", ""},
		{"keeps a handler's business verdict", read, &pipeline.Result{Diagnostics: pipeline.Diagnostics{Outcome: "failed", Kind: "business_failure"}}, nil, false, "failed", "business_failure", ""},
		{"turns a gate refusal into a failed tool error", "", nil, fault.Errorf(fault.CodeModeDenied, "no").Unsent(), true, "failed", "mode_denied", "no"},
		{"calls a timed-out write unknown", write, nil, fault.Errorf(fault.CodeTimeout, "slow"), true, "unknown", "timeout", "slow"},
		{"calls a cancelled write unknown", write, nil, fault.Errorf(fault.CodeCancelled, "stop"), true, "unknown", "cancelled", "stop"},
		{"calls a write with a transport failure unknown", write, nil, fault.Errorf(fault.CodeTransport, "reset"), true, "unknown", "transport", "reset"},
		{"calls a write with an upstream server error unknown", write, nil, fault.Errorf(fault.CodeUpstreamHTTP, "502"), true, "unknown", "upstream_http", "502"},
		{"calls a write with a bad reply unknown", write, nil, fault.Errorf(fault.CodeBadReply, "html"), true, "unknown", "bad_reply", "html"},
		{"calls a write whose transport failure sent nothing failed", write, nil, fault.Errorf(fault.CodeTransport, "connection refused").Unsent(), true, "failed", "transport", "connection refused"},
		{"calls a write cancelled before sending failed", write, nil, fault.Errorf(fault.CodeCancelled, "stop").Unsent(), true, "failed", "cancelled", "stop"},
		{"finds nothing sent inside a wrapped error", write, nil, fmt.Errorf("dial: %w", fault.Errorf(fault.CodeTransport, "refused").Unsent()), true, "failed", "transport", "dial: refused"},
		{"calls a write over a limit failed", write, nil, fault.Errorf(fault.CodeLimit, "all slots busy"), true, "failed", "limit", "all slots busy"},
		{"calls a timed-out read failed", read, nil, fault.Errorf(fault.CodeTimeout, "slow"), true, "failed", "timeout", "slow"},
		{"calls a refused write failed", write, nil, fault.Errorf(fault.CodeInvalidArgument, "bad"), true, "failed", "invalid_argument", "bad"},
		{"calls a stream failure failed", write, nil, fault.Errorf(fault.CodeStreamFailed, "retcode 100"), true, "failed", "stream_failed", "retcode 100"},
		{"hides the text of an unclassified error", "", nil, errors.New("secret detail"), true, "failed", "internal", "internal error"},
		{"hides an unclassified error on a write and calls it failed", write, nil, errors.New("secret detail"), true, "failed", "internal", "internal error"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			o := stagetest.Run(context.Background(), New(), stagetest.Call(tool, tt.action, ""), stagetest.Answer(tt.result, tt.err))
			r := o.Result
			require.NoError(t, o.Err, "the diagnostics stage never lets an error escape")
			require.NotNil(t, r)
			assert.Equal(t, tt.isError, r.IsError)
			assert.Equal(t, tt.outcome, r.Diagnostics.Outcome)
			assert.Equal(t, tt.kind, r.Diagnostics.Kind)
			if tt.isError {
				assert.Nil(t, r.Payload)
				assert.Equal(t, tt.message, r.Diagnostics.Message)
				assert.Equal(t, tt.message, r.Text)
				assert.NotEmpty(t, r.Diagnostics.NextStep)
				assert.NotContains(t, r.Text, "secret detail")
				return
			}
			assert.IsType(t, json.RawMessage{}, r.Payload, "every payload leaves encoded")
		})
	}
}

func TestDiagnosticsEncodesThePayload(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		payload any
		want    string
	}{
		{"encodes a Go value", map[string]any{"count": 2, "items": []string{"a"}}, `{"count":2,"items":["a"]}`},
		{"encodes a number", 1, `1`},
		{"encodes a missing payload as null", nil, `null`},
		{"keeps raw JSON byte for byte", json.RawMessage(`{"b":1.0,"a":null}`), `{"b":1.0,"a":null}`},
		{"does not escape HTML", struct {
			Message string `json:"message"`
		}{"a<b>&c"}, `{"message":"a<b>&c"}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			o := stagetest.Run(context.Background(), New(), stagetest.Call(tool, "", ""), stagetest.Answer(&pipeline.Result{Payload: tt.payload}, nil))
			r := o.Result
			require.NoError(t, o.Err)
			require.IsType(t, json.RawMessage{}, r.Payload)
			assert.Equal(t, tt.want, string(r.Payload.(json.RawMessage)))
			assert.False(t, r.IsError)
			assert.Equal(t, pipeline.OutcomeSuccess, r.Diagnostics.Outcome)
		})
	}
}

func TestDiagnosticsRefusesAnUnencodablePayload(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		payload any
	}{
		{"turns a channel into an internal tool error", make(chan int)},
		{"turns a function into an internal tool error", func() {}},
		{"turns invalid raw JSON into an internal tool error", json.RawMessage(`{"a":`)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			o := stagetest.Run(context.Background(), New(), stagetest.Call(tool, "", ""),
				stagetest.Answer(&pipeline.Result{Payload: tt.payload, Diagnostics: pipeline.Diagnostics{Outcome: pipeline.OutcomeSuccess}}, nil))
			r := o.Result
			require.NoError(t, o.Err, "the diagnostics stage never lets an error escape")
			assert.True(t, r.IsError)
			assert.Nil(t, r.Payload)
			assert.Equal(t, pipeline.OutcomeFailed, r.Diagnostics.Outcome)
			assert.Equal(t, string(fault.CodeInternal), r.Diagnostics.Kind)
			assert.Contains(t, r.Diagnostics.Message, "encode result")
			assert.NotEmpty(t, r.Diagnostics.NextStep)
		})
	}
}

func TestDiagnosticsRecordsHowLongASendWasHeld(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		held   time.Duration
		result *pipeline.Result
		err    error
		want   int64
	}{
		{"on a result", 1800 * time.Millisecond, &pipeline.Result{Payload: 1}, nil, 1800},
		{"on a failure after the wait", 250 * time.Millisecond, nil, fault.Errorf(fault.CodeTimeout, "slow"), 250},
		{"not at all when nothing was held", 0, &pipeline.Result{Payload: 1}, nil, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			o := stagetest.Run(context.Background(), New(), stagetest.Call(tool, "send_group_msg", ""), func(_ context.Context, c *pipeline.Call) (*pipeline.Result, error) {
				c.Held = tt.held
				return tt.result, tt.err
			})
			require.NoError(t, o.Err)
			assert.Equal(t, tt.want, o.Result.Diagnostics.HeldMS)
		})
	}
}
