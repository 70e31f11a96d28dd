package envelope

import (
	"context"
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/snowluma/snowluma-mcp/catalog"
	"github.com/snowluma/snowluma-mcp/fault"
	"github.com/snowluma/snowluma-mcp/pipeline"
)

func TestEnvelope(t *testing.T) {
	t.Parallel()
	write := &catalog.Action{Name: "send_group_msg"}
	read := &catalog.Action{Name: "get_status", ReadOnly: true}
	tests := []struct {
		name    string
		action  *catalog.Action
		result  *pipeline.Result
		err     error
		isError bool
		outcome pipeline.Outcome
		kind    string
		message string
	}{
		{"marks a plain result a success", nil, &pipeline.Result{Payload: 1}, nil, false, "success", "", ""},
		{"keeps a handler's business verdict", read, &pipeline.Result{Diagnostics: pipeline.Diagnostics{Outcome: "failed", Kind: "business_failure"}}, nil, false, "failed", "business_failure", ""},
		{"turns a gate refusal into a failed tool error", nil, nil, fault.Errorf(fault.CodeModeDenied, "gate", "no"), true, "failed", "mode_denied", "no"},
		{"calls a timed-out write unknown", write, nil, fault.Errorf(fault.CodeTimeout, "http", "slow"), true, "unknown", "timeout", "slow"},
		{"calls a cancelled write unknown", write, nil, fault.Errorf(fault.CodeCancelled, "http", "stop"), true, "unknown", "cancelled", "stop"},
		{"calls a timed-out read failed", read, nil, fault.Errorf(fault.CodeTimeout, "http", "slow"), true, "failed", "timeout", "slow"},
		{"calls a refused write failed", write, nil, fault.Errorf(fault.CodeInvalidArgument, "validate", "bad"), true, "failed", "invalid_argument", "bad"},
		{"hides the text of an unclassified error", nil, nil, errors.New("secret detail"), true, "failed", "internal", "internal error"},
		{"reports a missing result as internal", nil, nil, nil, true, "failed", "internal", "the tool returned no result"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			h := New().Wrap(func(context.Context, *pipeline.Call) (*pipeline.Result, error) { return tt.result, tt.err })
			r, err := h(context.Background(), &pipeline.Call{Tool: &pipeline.Tool{Name: "t"}, Action: tt.action})
			require.NoError(t, err, "the envelope never lets an error escape")
			assert.Equal(t, tt.isError, r.IsError)
			assert.Equal(t, tt.outcome, r.Diagnostics.Outcome)
			assert.Equal(t, tt.kind, r.Diagnostics.Kind)
			if tt.isError {
				assert.Nil(t, r.Payload)
				assert.Equal(t, tt.message, r.Diagnostics.Message)
				assert.Equal(t, tt.message, r.Text)
				assert.NotEmpty(t, r.Diagnostics.NextStep)
			}
		})
	}
}

func TestEveryCodeHasANextStep(t *testing.T) {
	t.Parallel()
	for _, code := range []fault.Code{fault.CodeInvalidArgument, fault.CodeModeDenied, fault.CodeUnknownAction, fault.CodeWrongTool,
		fault.CodeInputDeclined, fault.CodeCancelled, fault.CodeTimeout, fault.CodeTransport, fault.CodeUpstreamHTTP,
		fault.CodeUpstreamAuth, fault.CodeBadReply, fault.CodeStreamFailed, fault.CodeStreamBroken, fault.CodeLimit, fault.CodeUnsupported, fault.CodeInternal} {
		assert.NotEmpty(t, nextSteps[code], code)
	}
}
