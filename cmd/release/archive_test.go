package main

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"compress/gzip"
	"io"
	"io/fs"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// readBack is an archive's entries as a reader of it sees them.
type readBack struct {
	Name  string
	Mode  fs.FileMode
	MTime time.Time
	Data  string
}

func untarGz(t *testing.T, data []byte) []readBack {
	t.Helper()
	zr, err := gzip.NewReader(bytes.NewReader(data))
	require.NoError(t, err)
	assert.Empty(t, zr.Name, "no file name in the gzip header")
	assert.True(t, zr.ModTime.IsZero(), "no time in the gzip header")
	tr := tar.NewReader(zr)
	var out []readBack
	for {
		h, err := tr.Next()
		if err == io.EOF {
			return out
		}
		require.NoError(t, err)
		b, err := io.ReadAll(tr)
		require.NoError(t, err)
		assert.Zero(t, h.Uid)
		assert.Zero(t, h.Gid)
		assert.Empty(t, h.Uname)
		out = append(out, readBack{h.Name, h.FileInfo().Mode(), h.ModTime.UTC(), string(b)})
	}
}

func unzip(t *testing.T, data []byte) []readBack {
	t.Helper()
	zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	require.NoError(t, err)
	var out []readBack
	for _, f := range zr.File {
		r, err := f.Open()
		require.NoError(t, err)
		b, err := io.ReadAll(r)
		require.NoError(t, err)
		out = append(out, readBack{f.Name, f.Mode(), f.Modified.UTC(), string(b)})
	}
	return out
}

func TestArchivesAreReproducibleAndKeepWhatMatters(t *testing.T) {
	t.Parallel()
	when := time.Date(2026, 12, 2, 17, 55, 6, 0, time.UTC)
	entries := []entry{{"snowluma-mcp", 0o755, []byte("\x7fELF binary")}, {"README.md", 0o644, []byte("# read me\n")}, {"LICENSE", 0o644, []byte("MIT\n")}}
	want := []readBack{
		{"pkg/", fs.ModeDir | 0o755, when, ""},
		{"pkg/snowluma-mcp", 0o755, when, "\x7fELF binary"},
		{"pkg/README.md", 0o644, when, "# read me\n"},
		{"pkg/LICENSE", 0o644, when, "MIT\n"},
	}
	tests := []struct {
		name string
		pack func(string, []entry, time.Time) ([]byte, error)
		read func(*testing.T, []byte) []readBack
	}{
		{"tar.gz", tarGz, untarGz},
		{"zip", zipArchive, unzip},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			first, err := tt.pack("pkg", entries, when)
			require.NoError(t, err)
			second, err := tt.pack("pkg", entries, when)
			require.NoError(t, err)
			assert.Equal(t, first, second, "the same files at the same date give the same bytes")
			assert.Equal(t, want, tt.read(t, first), "one directory, modes kept, every time the source's date")
		})
	}
}
