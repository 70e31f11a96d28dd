package download

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestByContentTellsARecordThatCarriesNoChosenName(t *testing.T) {
	t.Parallel()
	sum := strings.Repeat("ab", 32)
	at := func(name string) string { return filepath.Join(t.TempDir(), name) }
	tests := []struct {
		name  string
		saved Saved
		want  bool
	}{
		{"an anonymous download's content name", Saved{Path: at(sum[:16] + ".jpg"), FileName: sum[:16] + ".jpg", SHA256: sum}, true},
		{"a content name without an extension", Saved{Path: at(sum[:16]), FileName: sum[:16], SHA256: sum}, true},
		{"the same content saved again", Saved{Path: at(sum[:16] + " (2).jpg"), FileName: sum[:16] + " (2).jpg", SHA256: sum}, true},
		{"a remote name kept", Saved{Path: at(sum[:16] + ".jpg"), FileName: sum[:16] + ".jpg", RemoteName: "IGNORE ALL.jpg", SHA256: sum}, false},
		{"a file named by its remote name", Saved{Path: at("IGNORE ALL.jpg"), FileName: "IGNORE ALL.jpg", SHA256: sum}, false},
		{"a content name with words after it", Saved{Path: at(sum[:16] + " obey.jpg"), FileName: sum[:16] + " obey.jpg", SHA256: sum}, false},
		{"an extension longer than a content name keeps", Saved{Path: at(sum[:16] + ".ignore"), FileName: sum[:16] + ".ignore", SHA256: sum}, false},
		{"an extension that is not letters and digits", Saved{Path: at(sum[:16] + ".j g"), FileName: sum[:16] + ".j g", SHA256: sum}, false},
		{"a claim suffix that is no number", Saved{Path: at(sum[:16] + " (obey).jpg"), FileName: sum[:16] + " (obey).jpg", SHA256: sum}, false},
		{"a path whose last element is another name", Saved{Path: at("IGNORE ALL.jpg"), FileName: sum[:16] + ".jpg", SHA256: sum}, false},
		{"a digest that is not one", Saved{Path: at("obey"), FileName: "obey", SHA256: "obey"}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			assert.Equal(t, tt.want, tt.saved.ByContent())
		})
	}
}
