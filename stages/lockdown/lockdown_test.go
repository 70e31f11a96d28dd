package lockdown

import (
	"context"
	"encoding/json"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/snowluma/snowluma-mcp/internal/content"
	"github.com/snowluma/snowluma-mcp/internal/fault"
	"github.com/snowluma/snowluma-mcp/internal/snowluma/frame"
	"github.com/snowluma/snowluma-mcp/internal/snowluma/onebot"
	"github.com/snowluma/snowluma-mcp/pipeline"
	"github.com/snowluma/snowluma-mcp/stages/stagetest"
)

// snowLuma answers get_login_info, counting the questions, or fails.
type snowLuma struct {
	mu    sync.Mutex
	asked int
	down  bool
}

func (s *snowLuma) Do(_ context.Context, action string, _ json.RawMessage) (*onebot.Reply, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if action != loginAction {
		return nil, errors.New("unexpected action " + action)
	}
	s.asked++
	if s.down {
		return nil, fault.Errorf(fault.CodeTransport, "connection refused")
	}
	return &onebot.Reply{Raw: json.RawMessage(`{"status":"ok","retcode":0,"data":{"user_id":10001,"nickname":"bot"}}`), Status: "ok", Retcode: "0"}, nil
}

func (s *snowLuma) Stream(context.Context, string, json.RawMessage) (frame.Body, error) {
	return nil, errors.New("no streams here")
}

func (s *snowLuma) questions() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.asked
}

// newStage is the stage with the bundled catalog and no client of its
// own: the calls carry theirs.
func newStage(f *content.Filter) Stage {
	return New(f, nil, stagetest.Catalog(), nil, time.Minute)
}

// read is a query_action call of the read action, with SnowLuma's client
// bound as the bind stage binds it.
func read(action string, sl onebot.Executor) *pipeline.Call {
	c := stagetest.Call(stagetest.Query, action, "")
	c.OneBot = sl
	return c
}

// replying is a handler that returns env as SnowLuma's envelope.
func replying(env string) pipeline.Handler {
	return func(context.Context, *pipeline.Call) (*pipeline.Result, error) {
		return &pipeline.Result{Payload: json.RawMessage(env)}, nil
	}
}

const history = `{"status":"ok","retcode":0,"data":{"messages":[` +
	`{"message_id":1,"user_id":10001,"raw_message":"mine","sender":{"user_id":10001}},` +
	`{"message_id":2,"user_id":10009,"raw_message":"evil","sender":{"user_id":10009}}]}}`

func TestStage(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		filter  *content.Filter
		action  string
		env     string
		down    bool
		want    string
		kind    string
		queries int
	}{
		{"marks a stranger's message, asking SnowLuma once who the account is", content.New(nil), "get_group_msg_history", history, false,
			`{"status":"ok","retcode":0,"data":{"messages":[` +
				`{"message_id":1,"user_id":10001,"raw_message":"mine","sender":{"user_id":10001}},` +
				`{"message_id":2,"user_id":10009,"raw_message":"evil","sender":{"user_id":10009},"third_party":{"author":10009}}]}}`, "", 1},
		{"withholds a stranger's message in lockdown", content.New([]int64{10002}), "get_group_msg_history", history, false,
			`{"status":"ok","retcode":0,"data":{"messages":[` +
				`{"message_id":1,"user_id":10001,"raw_message":"mine","sender":{"user_id":10001}},` +
				`{"message_id":2,"user_id":10009,"raw_message":"[withheld by lockdown: the author is not a trusted user]","sender":{"user_id":10009},"third_party":{"author":10009,"withheld":"untrusted_author"}}]}}`, "", 1},
		{"withholds even the account's own words while SnowLuma cannot say who it is", content.New([]int64{10002}), "get_group_msg_history", history, true,
			`{"status":"ok","retcode":0,"data":{"messages":[` +
				`{"message_id":1,"user_id":10001,"raw_message":"[withheld by lockdown: the author is not a trusted user, and the logged-in account is not known yet]","sender":{"user_id":10001},"third_party":{"author":10001,"withheld":"account_unknown"}},` +
				`{"message_id":2,"user_id":10009,"raw_message":"[withheld by lockdown: the author is not a trusted user, and the logged-in account is not known yet]","sender":{"user_id":10009},"third_party":{"author":10009,"withheld":"account_unknown"}}]}}`, "", 1},
		{"passes an action without declared content byte for byte, asking nothing", content.New([]int64{10002}), "get_version_info",
			`{"status":"ok","retcode":0,"data":{"app_name":"SnowLuma","app_version":"1.11.1-node","protocol_version":"v11"}}`, false,
			`{"status":"ok","retcode":0,"data":{"app_name":"SnowLuma","app_version":"1.11.1-node","protocol_version":"v11"}}`, "", 0},
		{"asks nothing for a failed read, which holds nobody's words", content.New([]int64{10002}), "get_msg",
			`{"status":"failed","retcode":100,"data":null,"wording":"message not found"}`, false,
			`{"status":"failed","retcode":100,"data":null,"wording":"message not found"}`, "", 0},
		{"refuses to pass a result it cannot read", content.New(nil), "get_msg", `{"data":`, false, "", string(fault.CodeBadReply), 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			sl := &snowLuma{down: tt.down}
			o := stagetest.Run(context.Background(), newStage(tt.filter), read(tt.action, sl), replying(tt.env))
			if tt.kind != "" {
				require.Error(t, o.Err)
				assert.Equal(t, fault.Code(tt.kind), fault.CodeOf(o.Err))
				assert.NotContains(t, o.Err.Error(), "data", "the unread bytes are not quoted")
			} else {
				require.NoError(t, o.Err)
				assert.Equal(t, tt.want, string(o.Result.Payload.(json.RawMessage)))
			}
			assert.Equal(t, tt.queries, sl.questions())
		})
	}
}

func TestStageLearnsTheAccountFromGetLoginInfo(t *testing.T) {
	t.Parallel()
	sl := &snowLuma{down: true}
	s := newStage(content.New([]int64{10002}))
	o := stagetest.Run(context.Background(), s, read("get_login_info", sl), replying(`{"status":"ok","retcode":0,"data":{"user_id":10001,"nickname":"bot"}}`))
	require.NoError(t, o.Err)
	mine := `{"status":"ok","retcode":0,"data":{"message_id":1,"user_id":10001,"raw_message":"mine","sender":{"user_id":10001}}}`
	o = stagetest.Run(context.Background(), s, read("get_msg", sl), replying(mine))
	require.NoError(t, o.Err)
	assert.Equal(t, mine, string(o.Result.Payload.(json.RawMessage)))
	assert.Zero(t, sl.questions(), "the account came from the agent's own get_login_info")
}

func TestStageLeavesToolsWithoutActionsAlone(t *testing.T) {
	t.Parallel()
	assert.True(t, stagetest.Skips(newStage(content.New([]int64{1})), stagetest.Docs))
}

func TestStagePassesFailuresThrough(t *testing.T) {
	t.Parallel()
	failing := func(context.Context, *pipeline.Call) (*pipeline.Result, error) {
		return nil, fault.Errorf(fault.CodeTimeout, "slow")
	}
	sl := &snowLuma{}
	o := stagetest.Run(context.Background(), newStage(content.New(nil)), read("get_msg", sl), failing)
	assert.Equal(t, fault.CodeTimeout, fault.CodeOf(o.Err))
	assert.Zero(t, sl.questions())
}
