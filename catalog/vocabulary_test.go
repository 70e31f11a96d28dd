package catalog

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestTheVocabularyNamesRealParams: every param and role a meaning names
// is one the catalog has (a misspelt row would offer nothing, silently),
// and every flip belongs to a meaning with a bool param.
func TestTheVocabularyNamesRealParams(t *testing.T) {
	t.Parallel()
	cat, err := Load()
	require.NoError(t, err)
	names, roles, bools := map[string]bool{}, map[string]bool{}, map[string]bool{}
	for _, a := range cat.Actions() {
		for _, p := range a.allParams() {
			names[p.Name] = true
			if p.Role != "" {
				roles[p.Role] = true
			}
			if p.Type == "bool" {
				bools[p.Name] = true
			}
		}
	}
	for _, m := range meanings {
		for _, n := range strings.Fields(m.params) {
			assert.True(t, names[n], "param %s of the row for %q", n, m.params)
		}
		for _, r := range strings.Fields(m.roles) {
			assert.True(t, roles[r], "role %s of the row for %q", r, m.params)
		}
		if m.flip != "" {
			some := false
			for _, n := range strings.Fields(m.params) {
				some = some || bools[n]
			}
			assert.True(t, some, "the row for %q has a flip but no bool param", m.params)
		}
		assert.NotEmpty(t, strings.Fields(m.words), m.params)
	}
}

func TestKeyWordsSplitsEverySpelling(t *testing.T) {
	t.Parallel()
	for key, want := range map[string][]string{
		"group_id": {"group", "id"}, "groupId": {"group", "id"}, "GroupID": {"group", "id"},
		"target-group.id": {"target", "group", "id"}, "msg seq": {"msg", "seq"}, "qq号": {"qq号"},
	} {
		assert.Equal(t, want, keyWords(key), key)
	}
	assert.Equal(t, "groupid", foldWord("Group-ID"))
}
