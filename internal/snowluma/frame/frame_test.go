package frame

import (
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const (
	inter = `{"status":"ok","retcode":0,"data":{"type":"stream","data":"Index-> 1","data_type":"data_chunk"},"message":"","wording":"","stream":"stream-action"}`
	done  = `{"status":"ok","retcode":0,"data":{"type":"response","data_type":"data_complete","data":"Stream transmission complete"},"message":"","wording":"","stream":"stream-action"}`
	fail  = `{"status":"failed","retcode":100,"data":{"type":"error","data_type":"error"},"message":"This is a test error","wording":"This is a test error","stream":"stream-action"}`
)

func TestReader(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		body  string
		max   int
		kinds []Kind
		err   error
	}{
		{"reads frames and the terminal one", inter + "\r\n\r\n" + inter + "\r\n\r\n" + done + "\r\n\r\n", 1 << 20, []Kind{Intermediate, Intermediate, Done}, io.EOF},
		{"reads a failed terminal frame", inter + "\r\n\r\n" + fail + "\r\n\r\n", 1 << 20, []Kind{Intermediate, Failed}, io.EOF},
		{"skips empty pieces", "\r\n\r\n" + done + "\r\n\r\n\r\n\r\n", 1 << 20, []Kind{Done}, io.EOF},
		{"accepts a last frame without delimiter", done, 1 << 20, []Kind{Done}, io.EOF},
		{"reports an empty body as a clean end", "", 1 << 20, nil, io.EOF},
		{"refuses a frame over the bound", inter + "\r\n\r\n", 64, nil, ErrFrameTooLarge},
		{"refuses a frame that is not JSON", "hello\r\n\r\n", 1 << 20, nil, ErrMalformed},
		{"refuses two values in one frame", done + done + "\r\n\r\n", 1 << 20, nil, ErrMalformed},
		{"refuses an ok frame of unknown type", `{"status":"ok","retcode":0,"data":null}` + "\r\n\r\n", 1 << 20, nil, ErrMalformed},
		{"keeps a single CRLF inside a piece", "\r\n" + done + "\r\n\r\n", 1 << 20, []Kind{Done}, io.EOF},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			fr := NewReader(strings.NewReader(tt.body), tt.max)
			var kinds []Kind
			for {
				f, err := fr.Next()
				if err != nil {
					assert.True(t, errors.Is(err, tt.err), "got %v", err)
					break
				}
				kinds = append(kinds, f.Kind)
			}
			assert.Equal(t, tt.kinds, kinds)
		})
	}
}

func TestParseKeepsRawAndReason(t *testing.T) {
	t.Parallel()
	f, err := Parse([]byte(fail))
	require.NoError(t, err)
	assert.Equal(t, fail, string(f.Raw))
	assert.Equal(t, "This is a test error", f.Wording)
	assert.Equal(t, "100", string(f.Retcode))
	assert.Equal(t, "error", f.Type)
}

// FuzzReader feeds arbitrary bodies: the reader must never panic, must
// return only frames it could parse, and must stop.
func FuzzReader(f *testing.F) {
	f.Add(inter + "\r\n\r\n" + done + "\r\n\r\n")
	f.Add(fail + "\r\n\r\n")
	f.Add("\r\n\r\n\r\n")
	f.Add(`{"status":"ok","data":{"type":"stream"}}` + "\r\n\r")
	f.Fuzz(func(t *testing.T, body string) {
		fr := NewReader(strings.NewReader(body), 4096)
		for i := 0; i < len(body)+2; i++ {
			fm, err := fr.Next()
			if err != nil {
				return
			}
			require.NotEmpty(t, fm.Raw)
		}
		t.Fatal("the reader did not stop")
	})
}
