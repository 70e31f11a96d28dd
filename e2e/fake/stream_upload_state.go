package fake

// Upload state, as process-wide as SnowLuma's (keyed by stream_id for the
// one self account): streams in progress, merged files (kept so tests can
// compare them with what the product read from disk), the fault marker each
// stream carries and how many requests it has seen.

import (
	"regexp"
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
	filename string // safe, fixed at creation
}

// mergedFile is a merged upload: its safe file name and its bytes.
type mergedFile struct {
	filename string
	data     []byte
}

type uploads struct {
	mu       sync.Mutex
	open     map[string]*upStream
	final    map[string]mergedFile // the last merged file, by stream_id
	markers  map[string]string     // remembered markers, by stream_id
	requests map[string]int        // requests seen, by stream_id
}

func newUploads() *uploads {
	return &uploads{open: map[string]*upStream{}, final: map[string]mergedFile{},
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

// dropFinal deletes the merged file a stream named filename would write,
// as cleanupUpload and a sha256 mismatch remove state.finalPath: a file
// merged earlier under the same stream_id and name shares that path.
func (u *uploads) dropFinal(id, filename string) {
	if m, ok := u.final[id]; ok && m.filename == filename {
		delete(u.final, id)
	}
}

// Uploaded returns the merged bytes of the last completed upload of
// streamID. SnowLuma keeps them until file_retention passes (not modelled)
// or a later stream of the same stream_id and file name is reset or fails
// its sha256 check; resetting the completed stream itself keeps them.
func (f *Fake) Uploaded(streamID string) ([]byte, bool) {
	f.uploads.mu.Lock()
	defer f.uploads.mu.Unlock()
	m, ok := f.uploads.final[streamID]
	return slices.Clone(m.data), ok
}

// UploadOpen reports whether an upload stream is in progress (created and
// neither completed nor reset).
func (f *Fake) UploadOpen(streamID string) bool {
	f.uploads.mu.Lock()
	defer f.uploads.mu.Unlock()
	_, ok := f.uploads.open[streamID]
	return ok
}

// UploadPath is the SnowLuma-host path of a merged upload that was created
// with filename.
func UploadPath(streamID, filename string) string {
	return finalPath(streamID, safeFilename(filename, streamID))
}

func finalPath(streamID, safeName string) string {
	return UploadDir + "/" + streamID + "__" + safeName
}

var dotRun = regexp.MustCompile(`\.\.+`)

// safeFilename is createUpload's safeFilename (stream-file.ts): separators
// and runs of dots become '_', leading dots and surrounding whitespace go,
// and an empty result is upload_<stream_id>.
func safeFilename(name, streamID string) string {
	name = strings.NewReplacer("/", "_", "\\", "_").Replace(name)
	name = dotRun.ReplaceAllString(name, "_")
	name = jsTrim(strings.TrimLeft(name, "."))
	if name == "" {
		return "upload_" + streamID
	}
	return name
}
