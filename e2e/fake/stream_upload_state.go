package fake

// Upload state, as process-wide as SnowLuma's (keyed by stream_id for the
// one self account): streams in progress, merged files (kept so tests can
// compare them with what the product read from disk), the fault marker each
// stream carries and how many requests it has seen.

import (
	"slices"
	"strings"
	"sync"
)

type upStream struct {
	total    int
	chunks   map[int][]byte
	bytes    int64
	size     int64
	sha      string
	filename string
}

type uploads struct {
	mu       sync.Mutex
	open     map[string]*upStream
	final    map[string][]byte // merged files, by stream_id
	markers  map[string]string // remembered markers, by stream_id
	requests map[string]int    // requests seen, by stream_id
}

func newUploads() *uploads {
	return &uploads{open: map[string]*upStream{}, final: map[string][]byte{},
		markers: map[string]string{}, requests: map[string]int{}}
}

// marker returns the marker of an upload request and remembers it for the
// stream: the explicit one, else the file name's, else the stream's.
func (u *uploads) marker(p params, explicit string) string {
	id, _, _ := p.str("stream_id")
	if explicit == "" {
		name, _, _ := p.str("filename")
		explicit = filenameMarker(name)
	}
	u.mu.Lock()
	defer u.mu.Unlock()
	if id == "" {
		return explicit
	}
	if explicit != "" {
		if _, known := u.markers[id]; !known {
			u.markers[id] = explicit
		}
		return explicit
	}
	return u.markers[id]
}

// Uploaded returns the merged bytes of a completed upload; a reset deletes
// them, as SnowLuma deletes the final file.
func (f *Fake) Uploaded(streamID string) ([]byte, bool) {
	f.uploads.mu.Lock()
	defer f.uploads.mu.Unlock()
	b, ok := f.uploads.final[streamID]
	return slices.Clone(b), ok
}

// UploadOpen reports whether an upload stream is in progress (created and
// neither completed nor reset).
func (f *Fake) UploadOpen(streamID string) bool {
	f.uploads.mu.Lock()
	defer f.uploads.mu.Unlock()
	_, ok := f.uploads.open[streamID]
	return ok
}

// UploadPath is the SnowLuma-host path of a merged upload.
func UploadPath(streamID, filename string) string {
	return UploadDir + "/" + streamID + "__" + safeFilename(filename)
}

// safeFilename keeps a file name to one path component.
func safeFilename(name string) string {
	name = strings.NewReplacer("/", "_", "\\", "_", "\x00", "_").Replace(name)
	if name == "" || name == "." || name == ".." {
		return "file"
	}
	return name
}
