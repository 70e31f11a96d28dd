package deadline

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/snowluma/snowluma-mcp/catalog"
	"github.com/snowluma/snowluma-mcp/internal/fault"
	"github.com/snowluma/snowluma-mcp/stages/stagetest"
)

func TestDeadline(t *testing.T) {
	t.Parallel()
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	tests := []struct {
		name        string
		ctx         context.Context
		action      *catalog.Action
		wantLimit   bool
		wantErrCode fault.Code
	}{
		{"bounds an ordinary call by the timeout", context.Background(), &catalog.Action{Name: "get_status"}, true, ""},
		{"bounds a docs call too", context.Background(), nil, true, ""},
		{"leaves streams to their own timeouts", context.Background(), &catalog.Action{Name: "download_file_stream", Stream: true}, false, ""},
		{"refuses a call cancelled before it starts", cancelled, nil, false, fault.CodeCancelled},
		{"refuses a write cancelled before it starts as unsent", cancelled, &catalog.Action{Name: "send_group_msg"}, false, fault.CodeCancelled},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			c := stagetest.Call(stagetest.Invoke, "", "")
			c.Action = tt.action
			before := time.Now()
			o := stagetest.Run(tt.ctx, New(time.Hour), c, nil)
			if tt.wantErrCode != "" {
				assert.Equal(t, tt.wantErrCode, fault.CodeOf(o.Err))
				assert.True(t, fault.NothingSent(o.Err), "nothing was sent before the call started")
				assert.False(t, o.Reached())
				return
			}
			require.NoError(t, o.Err)
			deadline, has := o.Ctx.Deadline()
			assert.Equal(t, tt.wantLimit, has)
			if has {
				// The deadline is the timeout from the call's start, not a
				// measured duration.
				assert.False(t, deadline.Before(before.Add(time.Hour)))
				assert.False(t, deadline.After(time.Now().Add(time.Hour)))
			}
		})
	}
}
