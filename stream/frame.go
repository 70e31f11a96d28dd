// Package stream reads SnowLuma's stream responses: JSON frames separated by
// "\r\n\r\n" in one chunked HTTP body. Frames are read one at a time, each
// bounded in size, so a response of any length is never held in memory.
package stream

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
)

// Delimiter separates frames (and also follows the last one).
var Delimiter = []byte("\r\n\r\n")

// Kind tells frames apart.
type Kind int

const (
	// Intermediate frames carry data.type "stream".
	Intermediate Kind = iota
	// Done is the successful terminal frame (data.type "response").
	Done
	// Failed is a failed terminal frame (status "failed").
	Failed
)

// Frame is one decoded frame; Raw is kept byte for byte.
type Frame struct {
	Raw     json.RawMessage
	Kind    Kind
	Status  string
	Retcode json.Number
	Wording string
	// Data is the frame's "data" value.
	Data json.RawMessage
	// Type is data.type ("stream", "response", "error").
	Type string
}

// ErrFrameTooLarge reports a frame over the reader's bound.
var ErrFrameTooLarge = errors.New("stream frame larger than the limit")

// ErrMalformed reports a frame that is not a OneBot stream frame.
var ErrMalformed = errors.New("malformed stream frame")

// Reader splits a body into frames.
type Reader struct {
	r   *bufio.Reader
	max int
	buf []byte
}

// NewReader reads frames of at most max bytes from r.
func NewReader(r io.Reader, max int) *Reader {
	return &Reader{r: bufio.NewReaderSize(r, 64<<10), max: max}
}

// Next returns the next frame, io.EOF at a clean end of the body, or an error.
// Empty pieces between delimiters are skipped.
func (fr *Reader) Next() (*Frame, error) {
	for {
		raw, err := fr.piece()
		if err != nil {
			return nil, err
		}
		if len(bytes.TrimSpace(raw)) == 0 {
			continue
		}
		return Parse(raw)
	}
}

// piece reads up to and excluding the next delimiter. At EOF, trailing bytes
// without a delimiter still form a piece; only a clean end returns io.EOF.
func (fr *Reader) piece() ([]byte, error) {
	fr.buf = fr.buf[:0]
	for {
		b, err := fr.r.ReadSlice('\n')
		fr.buf = append(fr.buf, b...)
		if bytes.HasSuffix(fr.buf, Delimiter) {
			return bytes.Clone(fr.buf[:len(fr.buf)-len(Delimiter)]), nil
		}
		if len(fr.buf) > fr.max+len(Delimiter) {
			return nil, ErrFrameTooLarge
		}
		switch {
		case err == nil, errors.Is(err, bufio.ErrBufferFull):
			continue
		case errors.Is(err, io.EOF):
			if len(bytes.TrimSpace(fr.buf)) == 0 {
				return nil, io.EOF
			}
			return bytes.Clone(fr.buf), nil
		default:
			return nil, err
		}
	}
}

// Parse decodes one frame and classifies it.
func Parse(raw []byte) (*Frame, error) {
	var env struct {
		Status  string          `json:"status"`
		Retcode json.Number     `json:"retcode"`
		Wording string          `json:"wording"`
		Message string          `json:"message"`
		Data    json.RawMessage `json:"data"`
	}
	d := json.NewDecoder(bytes.NewReader(raw))
	d.UseNumber()
	if err := d.Decode(&env); err != nil || d.More() {
		return nil, fmt.Errorf("%w: not a JSON object", ErrMalformed)
	}
	f := &Frame{Raw: raw, Status: env.Status, Retcode: env.Retcode, Wording: env.Wording, Data: env.Data}
	if f.Wording == "" {
		f.Wording = env.Message
	}
	var data struct {
		Type string `json:"type"`
	}
	if len(env.Data) > 0 && env.Data[0] == '{' {
		_ = json.Unmarshal(env.Data, &data)
	}
	f.Type = data.Type
	switch {
	case env.Status == "failed" || (env.Retcode != "" && env.Retcode != "0"):
		f.Kind = Failed
	case env.Status == "ok" && data.Type == "stream":
		f.Kind = Intermediate
	case env.Status == "ok" && data.Type == "response":
		f.Kind = Done
	default:
		return nil, fmt.Errorf("%w: status %q with data type %q", ErrMalformed, env.Status, data.Type)
	}
	return f, nil
}
