// Package frame reads SnowLuma's stream responses: JSON frames separated by
// "\r\n\r\n" in one chunked HTTP body. Frames are read one at a time, each
// bounded in size, so a response of any length is never held in memory.
package frame

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

// Clone returns a copy of f that no longer shares the reader's buffer.
func (f *Frame) Clone() *Frame {
	c := *f
	c.Raw = bytes.Clone(f.Raw)
	if f.Data != nil {
		// Data lies inside Raw; point the copy at the same place in its own Raw.
		if off := bytes.Index(f.Raw, f.Data); off >= 0 {
			c.Data = c.Raw[off : off+len(f.Data)]
		} else {
			c.Data = bytes.Clone(f.Data)
		}
	}
	return &c
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
// Empty pieces between delimiters are skipped. The frame's Raw and Data
// share the reader's buffer and stay valid only until the next call; copy
// what must be kept.
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
			return fr.buf[:len(fr.buf)-len(Delimiter)], nil
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
			return fr.buf, nil
		default:
			return nil, err
		}
	}
}

// Parse decodes one frame and classifies it. Raw aliases b.
func Parse(raw []byte) (*Frame, error) {
	f := &Frame{Raw: raw}
	var message string
	err := eachField(raw, func(key string, val []byte) error {
		switch key {
		case "status":
			return decodeSmall(val, &f.Status)
		case "retcode":
			return decodeSmall(val, &f.Retcode)
		case "wording":
			return decodeSmall(val, &f.Wording)
		case "message":
			return decodeSmall(val, &message)
		case "data":
			f.Data = val
			if len(val) > 0 && val[0] == '{' {
				return eachField(val, func(k string, v []byte) error {
					if k == "type" {
						return decodeSmall(v, &f.Type)
					}
					return nil
				})
			}
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrMalformed, err)
	}
	if f.Wording == "" {
		f.Wording = message
	}
	switch {
	case f.Status == "failed" || (f.Retcode != "" && f.Retcode != "0"):
		f.Kind = Failed
	case f.Status == "ok" && f.Type == "stream":
		f.Kind = Intermediate
	case f.Status == "ok" && f.Type == "response":
		f.Kind = Done
	default:
		return nil, fmt.Errorf("%w: status %q with data type %q", ErrMalformed, f.Status, f.Type)
	}
	return f, nil
}

// decodeSmall decodes a short value with the standard decoder, which
// validates it; numbers stay json.Number. Plain strings and integers, which
// is what every frame carries, take a shortcut.
func decodeSmall(val []byte, v any) error {
	switch p := v.(type) {
	case *string:
		if len(val) >= 2 && val[0] == '"' && val[len(val)-1] == '"' && bytes.IndexByte(val, '\\') < 0 {
			*p = string(val[1 : len(val)-1])
			return nil
		}
	case *json.Number:
		if isInteger(val) {
			*p = json.Number(val)
			return nil
		}
	}
	d := json.NewDecoder(bytes.NewReader(val))
	d.UseNumber()
	return d.Decode(v)
}

func isInteger(b []byte) bool {
	if len(b) > 0 && b[0] == '-' {
		b = b[1:]
	}
	if len(b) == 0 || len(b) > 19 || (len(b) > 1 && b[0] == '0') {
		return false
	}
	for _, c := range b {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}
