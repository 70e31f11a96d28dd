// Package download saves a stream download to the MCP host: each file_chunk
// is decoded straight into a partial file in the download directory, checked
// for order and size against the announced and final totals and against the
// file and directory limits, then moved to a safe, unique name. Memory stays
// at one frame whatever the file size; any failure removes the partial file.
package download

import (
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/snowluma/snowluma-mcp/internal/fault"
	"github.com/snowluma/snowluma-mcp/internal/snowluma/frame"
)

// Limits bound a download.
type Limits struct {
	Dir     string
	MaxFile int64
	Quota   *Quota
	// Track, when set, hears of the partial file before it exists and of
	// its removal; nil for a download nobody needs to clean up after.
	Track Tracker
	// Anonymous names the saved file by its content and leaves the remote
	// name out of the record: in lockdown, since the remote name is
	// whatever named the file (for a cached image, the message that
	// carried it), words of someone the frames do not name.
	Anonymous bool
}

// Tracker hears what a download leaves behind if it stops half-way (see
// pipeline.Trail).
type Tracker interface {
	// Partial is told the partial file's path before the file is created;
	// an error stops the download first.
	Partial(path string) error
	// Removed is told how the removal of a failed download's partial file
	// went.
	Removed(path string, err error)
}

// Saved describes a file written on the MCP host.
type Saved struct {
	Path       string `json:"path"`
	FileName   string `json:"file_name"`
	RemoteName string `json:"remote_file_name,omitempty"` // "" for an anonymous download
	Size       int64  `json:"size"`
	SHA256     string `json:"sha256"`
	Chunks     int    `json:"chunks"`
}

// Progress receives bytes written so far and the announced size (0 when
// unknown).
type Progress func(written, total int64)

// frameData holds the fields of every download frame kind (file_info,
// file_chunk, file_complete), so each frame is decoded exactly once.
type frameData struct {
	DataType    string
	FileName    string
	FileSize    int64
	Index       int
	Data        []byte // base64, still encoded; aliases the frame
	Size        int64
	TotalChunks int
	TotalBytes  int64
}

// decodeData reads a download frame's data in one pass: the base64 payload
// is sliced out of the frame, not copied, and every small field goes through
// the standard decoder.
func decodeData(raw []byte) (*frameData, error) {
	d := &frameData{}
	err := frame.Fields(raw, func(key string, val []byte) error {
		switch key {
		case "data_type":
			return json.Unmarshal(val, &d.DataType)
		case "file_name":
			return json.Unmarshal(val, &d.FileName)
		case "file_size":
			return json.Unmarshal(val, &d.FileSize)
		case "index":
			return json.Unmarshal(val, &d.Index)
		case "size":
			return json.Unmarshal(val, &d.Size)
		case "total_chunks":
			return json.Unmarshal(val, &d.TotalChunks)
		case "total_bytes":
			return json.Unmarshal(val, &d.TotalBytes)
		case "data":
			b, err := frame.StringBytes(val)
			d.Data = b
			return err
		}
		return nil
	})
	if err != nil {
		return nil, malformed(err)
	}
	return d, nil
}

// Save consumes src until its terminal frame. A failed terminal frame is
// returned as *frame.Failure so the caller can keep SnowLuma's reason.
func Save(src frame.Source, lim Limits, progress Progress) (saved *Saved, err error) {
	if err := lim.Quota.begin(); err != nil {
		return nil, err
	}
	defer lim.Quota.end()
	if err := makeDir(lim.Dir); err != nil {
		return nil, err
	}
	tmp, err := createPartial(lim)
	if err != nil {
		return nil, err
	}
	w := &writer{lim: lim}
	w.sink = newSink(tmp, progress, func() int64 { return w.announce })
	closed := false
	defer func() {
		if !closed {
			_ = w.sink.close()
		}
		if err != nil {
			_ = tmp.Close()
			rmErr := os.Remove(tmp.Name())
			if lim.Track != nil {
				lim.Track.Removed(tmp.Name(), rmErr)
			}
			lim.Quota.release(w.reserved)
		}
	}()
	done, err := w.consume(src)
	if err != nil {
		return nil, err
	}
	closed = true
	if err := w.sink.close(); err != nil {
		return nil, err
	}
	if err := tmp.Sync(); err != nil {
		return nil, fault.Wrap(fault.CodeInternal, err, "cannot flush the file")
	}
	if err := tmp.Close(); err != nil {
		return nil, fault.Wrap(fault.CodeInternal, err, "cannot close the file")
	}
	remote := done.FileName
	if remote == "" {
		remote = w.name
	}
	sum := hex.EncodeToString(w.sink.sum())
	name := finalName(remote)
	if lim.Anonymous {
		name, remote = contentName(sum, remote), ""
	}
	path, err := claim(tmp.Name(), lim.Dir, name)
	if err != nil {
		return nil, fault.Wrap(fault.CodeInternal, err, "cannot name the saved file")
	}
	lim.Quota.release(w.reserved - w.written)
	return &Saved{Path: path, FileName: baseName(path), RemoteName: remote, Size: w.written,
		SHA256: sum, Chunks: w.chunks}, nil
}

// writer checks frames as they arrive and hands decoded chunks to its sink.
type writer struct {
	sink *sink
	lim  Limits

	name     string
	announce int64 // set before the first chunk, read by the sink after
	written  int64 // bytes accepted (queued for writing)
	reserved int64
	chunks   int
}

func (w *writer) consume(src frame.Source) (*frameData, error) {
	sawInfo := false
	for {
		f, err := src.Next()
		if errors.Is(err, io.EOF) {
			return nil, broken("the stream ended before its terminal frame (after %d chunks)", w.chunks)
		}
		if err != nil {
			return nil, err
		}
		if f.Kind == frame.Failed {
			return nil, &frame.Failure{Frame: f}
		}
		d, err := decodeData(f.Data)
		if err != nil {
			return nil, err
		}
		if f.Kind == frame.Done {
			return d, w.finish(d)
		}
		switch d.DataType {
		case "file_info":
			if sawInfo || w.chunks > 0 {
				return nil, broken("file_info arrived out of place")
			}
			sawInfo = true
			if err := w.info(d); err != nil {
				return nil, err
			}
		case "file_chunk":
			if err := w.chunk(d); err != nil {
				return nil, err
			}
		default:
			return nil, fault.Errorf(fault.CodeBadReply, "unexpected frame data_type %q", d.DataType)
		}
	}
}

func (w *writer) info(fi *frameData) error {
	if fi.FileSize < 0 {
		return fault.Errorf(fault.CodeBadReply, "negative file_size")
	}
	w.name, w.announce = fi.FileName, fi.FileSize
	// A refusal here comes before any byte is written, so the call changed
	// nothing anywhere: it is marked unsent and reported as failed.
	if fi.FileSize > w.lim.MaxFile {
		return fault.Errorf(fault.CodeLimit, "the file is %d bytes, over the file limit of %d", fi.FileSize, w.lim.MaxFile).Unsent()
	}
	if fi.FileSize > 0 {
		if err := w.lim.Quota.reserve(fi.FileSize); err != nil {
			return err.Unsent()
		}
		w.reserved = fi.FileSize
	}
	return nil
}

func (w *writer) chunk(c *frameData) error {
	if c.Index != w.chunks {
		return broken("chunk %d arrived where chunk %d was expected", c.Index, w.chunks)
	}
	buf := w.sink.buffer(base64.StdEncoding.DecodedLen(len(c.Data)))
	n, err := base64.StdEncoding.Decode(buf, c.Data)
	if err == nil && int64(n) != c.Size {
		err = broken("chunk %d decodes to %d bytes, not the announced %d", c.Index, n, c.Size)
	} else if err != nil {
		err = fault.Wrap(fault.CodeBadReply, err, fmt.Sprintf("chunk %d is not valid base64", c.Index))
	}
	if err == nil {
		err = w.accept(int64(n))
	}
	if err != nil {
		w.sink.free <- buf
		return err
	}
	w.chunks++
	return w.sink.put(buf[:n])
}

// accept checks the limits for n more bytes.
func (w *writer) accept(n int64) error {
	total := w.written + n
	switch {
	case total > w.lim.MaxFile:
		return fault.Errorf(fault.CodeLimit, "the file grew past the file limit of %d bytes", w.lim.MaxFile)
	case w.announce > 0 && total > w.announce:
		return broken("the file grew past its announced size of %d bytes", w.announce)
	case total > w.reserved:
		if err := w.lim.Quota.reserve(total - w.reserved); err != nil {
			return err
		}
		w.reserved = total
	}
	w.written = total
	return nil
}

func (w *writer) finish(c *frameData) error {
	switch {
	case c.DataType != "file_complete":
		return fault.Errorf(fault.CodeBadReply, "unexpected terminal data_type %q", c.DataType)
	case c.TotalChunks != w.chunks:
		return broken("SnowLuma reports %d chunks but %d arrived", c.TotalChunks, w.chunks)
	case c.TotalBytes != w.written:
		return broken("SnowLuma reports %d bytes but %d arrived", c.TotalBytes, w.written)
	case w.announce > 0 && w.written != w.announce:
		return broken("the file was announced as %d bytes but %d arrived", w.announce, w.written)
	}
	return nil
}

// broken reports a download whose frames were well formed but did not add
// up: it ended early, or its order, counts or sizes disagree.
func broken(format string, args ...any) error {
	return fault.Errorf(fault.CodeStreamBroken, format, args...)
}

func malformed(err error) error {
	return fault.Wrap(fault.CodeBadReply, err, "malformed download frame")
}

func baseName(path string) string {
	for i := len(path) - 1; i >= 0; i-- {
		if os.IsPathSeparator(path[i]) {
			return path[i+1:]
		}
	}
	return path
}
