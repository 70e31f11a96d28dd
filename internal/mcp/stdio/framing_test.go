package stdio

import (
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestLineReaderFramesLines(t *testing.T) {
	t.Parallel()
	const tooLongLine = "<too long>"
	tests := []struct {
		name  string
		in    string
		max   int
		lines []string // tooLongLine marks a line refused as too long
	}{
		{"splits on LF", "a\nb\n", 10, []string{"a", "b"}},
		{"drops the CR of CRLF", "a\r\nb\r\n", 10, []string{"a", "b"}},
		{"keeps a last line without newline", "a\nb", 10, []string{"a", "b"}},
		{"drops the CR of a last line without newline", "a\nb\r", 10, []string{"a", "b"}},
		{"ignores a whitespace-only tail", "a\n  ", 10, []string{"a"}},
		{"passes blank lines through for admission to skip", "\n\na\n", 10, []string{"", "", "a"}},
		{"accepts a line of exactly the limit", "abcde\n", 5, []string{"abcde"}},
		{"does not count CRLF towards the limit", "abcde\r\n", 5, []string{"abcde"}},
		{"refuses a line one byte over the limit and reads on", "abcdef\nok\n", 5, []string{tooLongLine, "ok"}},
		{"refuses a line far over the buffer size and reads on", strings.Repeat("x", 200<<10) + "\nok\n", 1000, []string{tooLongLine, "ok"}},
		{"reads a line many times the buffer size whole", strings.Repeat("0123456789", 150<<10) + "\r\nok\n", 2 << 20, []string{strings.Repeat("0123456789", 150<<10), "ok"}},
		{"reads a long last line without newline whole", "ok\n" + strings.Repeat("y", 300<<10), 1 << 20, []string{"ok", strings.Repeat("y", 300<<10)}},
		{"ends quietly on an overlong last line without newline", "ok\n" + strings.Repeat("x", 20), 5, []string{"ok"}},
		{"ends at once on empty input", "", 10, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			lr := newLineReader(strings.NewReader(tt.in), tt.max)
			var got []string
			for {
				data, err := lr.next()
				if errors.Is(err, errTooLong) {
					got = append(got, tooLongLine)
					continue
				}
				if err != nil {
					require.ErrorIs(t, err, io.EOF)
					break
				}
				got = append(got, string(data))
			}
			assert.Equal(t, tt.lines, got)
		})
	}
}

func TestLineWriterWritesWholeLines(t *testing.T) {
	t.Parallel()
	out := &syncBuffer{}
	lw := &lineWriter{w: out}
	done := make(chan struct{})
	for i := range 8 {
		go func() {
			defer func() { done <- struct{}{} }()
			assert.NoError(t, lw.write([]byte(strings.Repeat(string(rune('a'+i)), 4096))))
		}()
	}
	for range 8 {
		<-done
	}
	lines := out.lines()
	require.Len(t, lines, 8)
	for _, l := range lines {
		assert.Equal(t, strings.Repeat(l[:1], 4096), l, "a line is never interleaved with another")
	}
}
