package handlers

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/snowluma/snowluma-mcp/catalog"
	"github.com/snowluma/snowluma-mcp/internal/config"
	"github.com/snowluma/snowluma-mcp/internal/fault"
	"github.com/snowluma/snowluma-mcp/pipeline"
)

// searchArgsJSON is search_actions' arguments for query in mode.
func searchArgsJSON(t *testing.T, query, mode string) string {
	t.Helper()
	m := map[string]string{"query": query}
	if mode != "" {
		m["match"] = mode
	}
	b, err := json.Marshal(m)
	require.NoError(t, err)
	return string(b)
}

func TestSearchRefusesAQueryBeyondItsLimit(t *testing.T) {
	t.Parallel()
	tool := SearchActions(deps(t, config.ModeDocs))
	for _, mode := range []string{"", "keywords"} {
		atLimit := strings.Repeat("群", catalog.MaxQueryBytes/len("群"))
		_, err := call(t, tool, searchArgsJSON(t, atLimit, mode), nil)
		require.NoError(t, err, "%s: a query of the limit is searched", mode)

		_, err = call(t, tool, searchArgsJSON(t, atLimit+"ab", mode), nil)
		require.Error(t, err)
		assert.Equal(t, fault.CodeInvalidArgument, fault.CodeOf(err))
		assert.Contains(t, err.Error(), "at most 4096 bytes")
		assert.Contains(t, fault.NextOf(err), "a few words")
	}
}

func TestSearchStopsWhenItsCallIsCancelled(t *testing.T) {
	t.Parallel()
	tool := SearchActions(deps(t, config.ModeDocs))
	for _, mode := range []string{"", "keywords"} {
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		c := &pipeline.Call{}
		c.Tool, c.Arguments = tool, json.RawMessage(searchArgsJSON(t, "发送群消息", mode))
		_, err := tool.Handle(ctx, c)
		assert.Equal(t, fault.CodeCancelled, fault.CodeOf(err), mode)
	}
}

func TestGetActionSaysWhichNameASlipMeant(t *testing.T) {
	t.Parallel()
	_, err := call(t, GetAction(deps(t, config.ModeDocs)), `{"name":"send_group_notice"}`, nil)
	require.Error(t, err)
	assert.Equal(t, fault.CodeUnknownAction, fault.CodeOf(err))
	assert.Contains(t, err.Error(), "did you mean _send_group_notice")
	assert.Contains(t, fault.NextOf(err), "get_action _send_group_notice")
}
