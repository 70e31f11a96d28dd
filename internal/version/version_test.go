package version

import (
	"os"
	"runtime/debug"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestResolvePrefersTheStampThenTheModuleThenTheRevision(t *testing.T) {
	t.Parallel()
	vcs := func(revision, modified string) []debug.BuildSetting {
		return []debug.BuildSetting{{Key: "vcs", Value: "git"}, {Key: "vcs.revision", Value: revision}, {Key: "vcs.modified", Value: modified}}
	}
	tests := []struct {
		name  string
		stamp string
		info  *debug.BuildInfo
		want  string
	}{
		{"a release stamp wins over everything", "1.2.0", &debug.BuildInfo{Main: debug.Module{Version: "v0.9.0"}}, "1.2.0"},
		{"a stamp loses its leading v", "v1.2.0-rc.1", nil, "1.2.0-rc.1"},
		{"go install of a tag gives the tag", "", &debug.BuildInfo{Main: debug.Module{Version: "v1.2.0"}}, "1.2.0"},
		{"an untagged commit gives its pseudo-version", "",
			&debug.BuildInfo{Main: debug.Module{Version: "v0.0.0-20261202175506-cc956e9551eb+dirty"}, Settings: vcs("cc956e9551ebdad70296064d81ccdcdc77720e01", "true")},
			"0.0.0-20261202175506-cc956e9551eb+dirty"},
		{"no module version falls back to the revision", "",
			&debug.BuildInfo{Main: debug.Module{Version: "(devel)"}, Settings: vcs("cc956e9551ebdad70296064d81ccdcdc77720e01", "false")},
			"devel-cc956e9551eb"},
		{"uncommitted changes are said", "",
			&debug.BuildInfo{Main: debug.Module{Version: "(devel)"}, Settings: vcs("cc956e9551ebdad70296064d81ccdcdc77720e01", "true")},
			"devel-cc956e9551eb+dirty"},
		{"nothing recorded at all", "", &debug.BuildInfo{Main: debug.Module{Version: "(devel)"}}, "devel (built from source)"},
		{"no build information", "", nil, "devel (built from source)"},
		{"a blank stamp is no stamp", "  ", &debug.BuildInfo{Main: debug.Module{Version: "v1.2.0"}}, "1.2.0"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			assert.Equal(t, tt.want, Resolve(tt.stamp, tt.info))
		})
	}
}

// TestTheReadmesSayWhatABuildWithoutVCSPrints: a source build under the
// common GOFLAGS=-buildvcs=false prints Unknown, not the commit form the
// install section shows first; both READMEs say so beside it.
func TestTheReadmesSayWhatABuildWithoutVCSPrints(t *testing.T) {
	t.Parallel()
	for _, name := range []string{"README.md", "README.zh-CN.md"} {
		b, err := os.ReadFile("../../" + name)
		require.NoError(t, err)
		text := strings.Join(strings.Fields(string(b)), " ")
		assert.Contains(t, text, "`GOFLAGS=-buildvcs=false`", name)
		assert.Contains(t, text, "`"+Unknown+"`", name)
	}
}
