package pipeline

import (
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"

	"github.com/snowluma/snowluma-mcp/catalog"
	"github.com/snowluma/snowluma-mcp/internal/fault"
)

func TestFailure(t *testing.T) {
	t.Parallel()
	write := &catalog.Action{Name: "send_group_msg"}
	stream := &catalog.Action{Name: "download_file_stream", Stream: true}
	read := &catalog.Action{Name: "get_status", ReadOnly: true}
	tests := []struct {
		name    string
		action  *catalog.Action
		err     error
		outcome Outcome
		kind    string
		message string
	}{
		{"turns a gate refusal into a failed tool error", nil, fault.Errorf(fault.CodeModeDenied, "no"), "failed", "mode_denied", "no"},
		{"calls a timed-out write unknown", write, fault.Errorf(fault.CodeTimeout, "slow"), "unknown", "timeout", "slow"},
		{"calls a cancelled write unknown", write, fault.Errorf(fault.CodeCancelled, "stop"), "unknown", "cancelled", "stop"},
		{"calls a write whose request may have arrived unknown", write, fault.Errorf(fault.CodeTransport, "reset"), "unknown", "transport", "reset"},
		{"calls a write whose dial failed failed", write, fault.Errorf(fault.CodeTransport, "refused").Unsent(), "failed", "transport", "refused"},
		{"calls a stream that never got a slot failed", stream, fault.Errorf(fault.CodeLimit, "busy").Unsent(), "failed", "limit", "busy"},
		{"calls a limit on a write failed", write, fault.Errorf(fault.CodeLimit, "full"), "failed", "limit", "full"},
		{"calls a stream cancelled while waiting failed", stream, fault.Errorf(fault.CodeCancelled, "gave up").Unsent(), "failed", "cancelled", "gave up"},
		{"calls a timed-out read failed", read, fault.Errorf(fault.CodeTimeout, "slow"), "failed", "timeout", "slow"},
		{"calls a refused write failed", write, fault.Errorf(fault.CodeInvalidArgument, "bad"), "failed", "invalid_argument", "bad"},
		{"hides the text of an unclassified error", nil, errors.New("secret detail"), "failed", "internal", "internal error"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			r := Failure(&Call{Resolved: Resolved{Action: tt.action}}, tt.err)
			assert.True(t, r.IsError)
			assert.Nil(t, r.Payload)
			assert.Equal(t, tt.outcome, r.Diagnostics.Outcome)
			assert.Equal(t, tt.kind, r.Diagnostics.Kind)
			assert.Equal(t, tt.message, r.Diagnostics.Message)
			assert.Equal(t, tt.message, r.Text)
			assert.NotEmpty(t, r.Diagnostics.NextStep)
		})
	}
}

func TestFailureCarriesWhenARefusedSendCouldGo(t *testing.T) {
	t.Parallel()
	send := &catalog.Action{Name: "send_group_msg"}
	refusal := fault.Errorf(fault.CodeRateLimited, "group 20001's send budget is spent").Unsent().After(12400 * time.Millisecond)
	r := Failure(&Call{Resolved: Resolved{Action: send}}, refusal)
	assert.Equal(t, OutcomeFailed, r.Diagnostics.Outcome, "a refused send was not sent")
	assert.Equal(t, "rate_limited", r.Diagnostics.Kind)
	assert.Equal(t, int64(12400), r.Diagnostics.RetryAfterMS)
	assert.Contains(t, r.Diagnostics.NextStep, "retry_after_ms")
	assert.Zero(t, Failure(&Call{Resolved: Resolved{Action: send}}, fault.Errorf(fault.CodeTimeout, "slow")).Diagnostics.RetryAfterMS)
}

func TestFailureSaysTheNextStepOfItsOwnCause(t *testing.T) {
	t.Parallel()
	own := fault.Errorf(fault.CodeConfiguration, "no upload root").Unsent().Then("Tell the user to set SNOWLUMA_MCP_UPLOAD_ROOT.")
	tests := []struct {
		name string
		err  error
		want string
	}{
		{"says the cause's own step", own, "Tell the user to set SNOWLUMA_MCP_UPLOAD_ROOT."},
		{"finds it through a wrapping error", fmt.Errorf("upload: %w", own), "Tell the user to set SNOWLUMA_MCP_UPLOAD_ROOT."},
		{"falls back to the code's default", fault.Errorf(fault.CodeConfiguration, "bad"), NextStep(fault.CodeConfiguration)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			assert.Equal(t, tt.want, Failure(&Call{}, tt.err).Diagnostics.NextStep)
		})
	}
}
