package pipeline

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/snowluma/snowluma-mcp/catalog"
	"github.com/snowluma/snowluma-mcp/internal/fault"
)

func TestAnUnknownActionNamesTheNearestInItsMessageAndNextStep(t *testing.T) {
	t.Parallel()
	cat, err := catalog.Load()
	require.NoError(t, err)
	tests := []struct {
		name    string
		slip    string
		actions Actions
		meant   string
	}{
		{"a missing underscore, to invoke_action", "send_group_notice", AnyAction, "_send_group_notice"},
		{"a plural, to query_action", "get_group_lists", ReadActions, "get_group_list"},
		{"get_ for set_", "get_group_card", AnyAction, "set_group_card"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			_, err := Resolve(cat, tt.slip, tt.actions)
			require.Error(t, err)
			assert.Equal(t, fault.CodeUnknownAction, fault.CodeOf(err))
			assert.Contains(t, err.Error(), `unknown action "`+tt.slip+`"`)
			assert.Contains(t, err.Error(), "did you mean "+tt.meant)
			assert.Contains(t, fault.NextOf(err), "If "+tt.meant+" does what you meant")
		})
	}
	_, err = Resolve(cat, "no_such_action", ReadActions)
	assert.NotContains(t, err.Error(), "did you mean", "a name close to none suggests none")
	assert.Empty(t, fault.NextOf(err), "its code's default next step applies")
}
