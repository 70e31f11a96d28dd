package stdio

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"sync"
)

// MaxLine is the longest input line accepted; longer lines are refused with
// an error reply and skipped, so one runaway message cannot exhaust memory
// or end the session.
const MaxLine = 16 << 20

// errTooLong reports a line over the limit. The line has been consumed, so
// reading may go on with the next one.
var errTooLong = errors.New("line too long")

// lineReader splits its input into newline-delimited lines, the stdio
// framing of MCP. It knows nothing of JSON.
type lineReader struct {
	r   *bufio.Reader
	max int
}

func newLineReader(in io.Reader, max int) *lineReader {
	return &lineReader{r: bufio.NewReaderSize(in, 64<<10), max: max}
}

// next returns one line without its LF or CRLF. A last line without a
// newline still counts: clients that write a final message and close stdin
// without a trailing newline are common. A line over max is consumed whole
// and reported as errTooLong; any other error ends the input.
func (lr *lineReader) next() ([]byte, error) {
	var buf []byte
	for {
		chunk, err := lr.r.ReadSlice('\n')
		if len(buf)+len(chunk) > lr.max+len(lineEnd(chunk, err)) {
			return nil, lr.skip(err)
		}
		buf = append(grow(buf, len(chunk)), chunk...)
		switch {
		case err == nil:
			return bytes.TrimRight(buf, "\r\n"), nil
		case errors.Is(err, bufio.ErrBufferFull):
			continue
		case errors.Is(err, io.EOF) && len(bytes.TrimSpace(buf)) > 0:
			return bytes.TrimRight(buf, "\r"), nil
		default:
			return nil, err
		}
	}
}

// grow returns buf with room for n more bytes, doubling its capacity when
// it must grow: append alone grows a large slice by a quarter at a time,
// which copied a 1.5 MB line about five times over while it was read
// (issue 49); doubling copies it about twice.
func grow(buf []byte, n int) []byte {
	if cap(buf)-len(buf) >= n {
		return buf
	}
	out := make([]byte, len(buf), max(2*cap(buf), len(buf)+n))
	copy(out, buf)
	return out
}

// lineEnd is the line terminator at the end of chunk, which does not count
// towards the limit.
func lineEnd(chunk []byte, err error) []byte {
	if err != nil {
		return nil
	}
	if bytes.HasSuffix(chunk, []byte("\r\n")) {
		return chunk[len(chunk)-2:]
	}
	return chunk[len(chunk)-1:]
}

// skip consumes the rest of an overlong line. It keeps errTooLong unless
// the input itself failed, in which case that failure ends the session.
func (lr *lineReader) skip(err error) error {
	for errors.Is(err, bufio.ErrBufferFull) {
		_, err = lr.r.ReadSlice('\n')
	}
	if err != nil {
		return err
	}
	return errTooLong
}

// lineWriter writes whole lines, one writer at a time, so concurrent
// replies never interleave on stdout.
type lineWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (lw *lineWriter) write(data []byte) error {
	return lw.writeLine(append(data, '\n'))
}

// writeLine writes a line that already ends in its newline.
func (lw *lineWriter) writeLine(line []byte) error {
	lw.mu.Lock()
	defer lw.mu.Unlock()
	_, err := lw.w.Write(line)
	return err
}
