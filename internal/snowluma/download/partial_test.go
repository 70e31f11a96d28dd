package download

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/snowluma/snowluma-mcp/internal/fault"
)

// tracker remembers what a download told it; exists notes, at each
// Partial, whether the file was already there.
type tracker struct {
	partials []string
	exists   []bool
	removed  map[string]error
	refuse   error
}

func (k *tracker) Partial(path string) error {
	_, err := os.Stat(path)
	k.partials = append(k.partials, path)
	k.exists = append(k.exists, err == nil)
	return k.refuse
}

func (k *tracker) Removed(path string, err error) {
	if k.removed == nil {
		k.removed = map[string]error{}
	}
	k.removed[path] = err
}

func TestTheTrackerHearsOfThePartialFileBeforeItExists(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		frames  []string
		removed bool
	}{
		{"a saved file", script("hi.txt", "hell", "o"), false},
		{"a broken download removes its partial file and says so", []string{info("e", 6), chunkFrame(0, "abc")}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			k := &tracker{}
			_, err := Save(&frames{list: tt.frames}, Limits{Dir: dir, MaxFile: 100, Quota: NewQuota(dir, 100), Track: k}, nil)
			require.Len(t, k.partials, 1)
			p := k.partials[0]
			assert.Equal(t, dir, filepath.Dir(p))
			assert.Contains(t, filepath.Base(p), partialPrefix)
			assert.Equal(t, []bool{false}, k.exists, "told before the file is created")
			if tt.removed {
				require.Error(t, err)
				require.Contains(t, k.removed, p)
				assert.NoError(t, k.removed[p])
			} else {
				require.NoError(t, err)
				assert.Empty(t, k.removed, "a saved file is renamed, not removed")
			}
			_, err = os.Stat(p)
			assert.True(t, errors.Is(err, os.ErrNotExist))
		})
	}
}

func TestADownloadWhosePartialCannotBeRecordedWritesNothing(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	_, err := Save(&frames{list: script("hi.txt", "hell")}, Limits{Dir: dir, MaxFile: 100, Quota: NewQuota(dir, 100), Track: &tracker{refuse: errors.New("disk full")}}, nil)
	require.Error(t, err)
	assert.Equal(t, fault.CodeInternal, fault.CodeOf(err))
	assert.Contains(t, err.Error(), "nothing was written")
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	assert.Empty(t, entries)
}

func TestRemovePartialTouchesOnlyPartialFilesOfTheDirectory(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	other := t.TempDir()
	write := func(path string) string {
		require.NoError(t, os.WriteFile(path, []byte("x"), 0o600))
		return path
	}
	partial := write(filepath.Join(dir, partialPrefix+"abc"))
	saved := write(filepath.Join(dir, "photo.jpg"))
	elsewhere := write(filepath.Join(other, partialPrefix+"abc"))
	require.NoError(t, os.Mkdir(filepath.Join(dir, partialPrefix+"dir"), 0o700))
	tests := []struct {
		name, path string
		removed    bool
		gone       bool
	}{
		{"a partial file of the directory goes", partial, true, false},
		{"one already gone says so", filepath.Join(dir, partialPrefix+"gone"), false, true},
		{"a saved file stays", saved, false, false},
		{"a partial file of another directory stays", elsewhere, false, false},
		{"a path that climbs out stays", filepath.Join(dir, "..", filepath.Base(other), partialPrefix+"abc"), false, false},
		{"a relative path stays", partialPrefix + "abc", false, false},
		{"a directory stays", filepath.Join(dir, partialPrefix+"dir"), false, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := RemovePartial(dir, tt.path)
			if tt.removed {
				require.NoError(t, err)
				_, err := os.Stat(tt.path)
				assert.True(t, errors.Is(err, os.ErrNotExist))
				return
			}
			require.Error(t, err)
			assert.Equal(t, tt.gone, errors.Is(err, os.ErrNotExist), err.Error())
		})
	}
	for _, p := range []string{saved, elsewhere} {
		_, err := os.Stat(p)
		assert.NoError(t, err, "%s is untouched", p)
	}
}
