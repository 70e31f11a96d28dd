package lang

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestTheTerminalsLanguageFollowsTheLocale: the first of LC_ALL,
// LC_MESSAGES and LANG that is set decides, and only a zh locale is
// Chinese.
func TestTheTerminalsLanguageFollowsTheLocale(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		env  map[string]string
		want Tag
	}{
		{"LANG zh_CN.UTF-8", map[string]string{"LANG": "zh_CN.UTF-8"}, Chinese},
		{"LANG zh_TW", map[string]string{"LANG": "zh_TW.UTF-8"}, Chinese},
		{"LANG en_US", map[string]string{"LANG": "en_US.UTF-8"}, English},
		{"LANG C", map[string]string{"LANG": "C"}, English},
		{"LC_MESSAGES wins over LANG", map[string]string{"LC_MESSAGES": "zh_CN.UTF-8", "LANG": "en_US.UTF-8"}, Chinese},
		{"LC_ALL wins over both", map[string]string{"LC_ALL": "C", "LC_MESSAGES": "zh_CN.UTF-8", "LANG": "zh_CN.UTF-8"}, English},
		{"LC_ALL zh", map[string]string{"LC_ALL": "zh_CN.GB18030", "LANG": "en_US.UTF-8"}, Chinese},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			assert.Equal(t, tt.want, Terminal(func(k string) string { return tt.env[k] }))
		})
	}
}

func TestATextIsSaidInTheTagsLanguage(t *testing.T) {
	t.Parallel()
	text := Text{EN: "ok", ZH: "通过"}
	assert.Equal(t, "ok", text.In(English))
	assert.Equal(t, "通过", text.In(Chinese))
	assert.Equal(t, "only", Text{EN: "only"}.In(Chinese), "a text without Chinese is said in English")
}
