package fake

// Faults for stream actions. They ride in the same "_fake" marker as the
// ordinary faults (faults.go), comma-separated, so parallel tests sharing
// one fake never disturb each other:
//
//	slowframes:<ms>  wait before every frame after the first (the terminal
//	                 included); a client that goes away ends the stream and
//	                 is recorded as ClientGone
//	truncate:<n>     end the body cleanly after n intermediate frames,
//	                 without a terminal frame
//	cut:<n>          drop the connection after n intermediate frames, in
//	                 the middle of the chunked body
//	failafter:<n>    after n intermediate frames, end with a failed terminal
//	                 (retcode 100 "injected stream failure after <n> frames"),
//	                 as when SnowLuma's source breaks mid-file
//	announce:<bytes> downloads: file_info announces this file_size
//	unannounced      downloads: file_info announces file_size 0 (unknown),
//	                 so every chunk's progress is 0
//	outoforder       downloads: two chunks are sent in swapped order (the
//	                 2nd and 3rd, or the 1st and 2nd of a two-chunk file)
//	badtotal         downloads: file_complete reports one byte too many
//	badchunks        downloads: file_complete reports one chunk too many
//	rename:<name>    downloads: frames report this file_name, given as
//	                 unpadded base64url (any bytes, separators included)
//	failupload:<n>   uploads: the stream's nth request (1-based, counting
//	                 every request with that stream_id) fails with retcode
//	                 100 "injected upload failure (request <n>)"
//	hangupload:<n>   uploads: the connection of the stream's nth request
//	                 drops before its frame (repeatable: hangupload:2,
//	                 hangupload:3), so that request, a reset included, gets
//	                 no answer
//	slowupload:<n>   uploads: the stream's nth request waits up to 2 minutes
//	                 before it is processed; a client that goes away is
//	                 recorded as ClientGone and nothing is processed
//	lagupload:<n>    uploads: the stream's nth request is processed
//	                 UploadLag after it arrived, whether or not the client
//	                 is still there, as SnowLuma finishes a request whose
//	                 body it has read (handleRequest in
//	                 packages/onebot/src/network/http-server-adapter.ts
//	                 reads the whole body before the action runs, and
//	                 nothing there stops an action when the client leaves)
//
// An automatic upload builds its own params, so a test cannot add "_fake"
// to them; instead the uploaded file's name carries the marker as
// "[_fake=<marker>]" (for example "a[_fake=failupload:2,tag:x1].bin"). The
// fake remembers a stream's marker from its first request that has one and
// applies it to every later request of that stream_id (completion and reset
// carry no filename), so ByTag finds them all.

import (
	"encoding/base64"
	"encoding/json"
	"strconv"
	"strings"
	"time"
)

// streamFaults are the parsed stream markers of one request.
type streamFaults struct {
	frameDelay    time.Duration
	truncateAfter int
	cutAfter      int
	failAfter     int
	announce      int64 // -1 when not set
	unannounced   bool
	outOfOrder    bool
	badTotal      bool
	badChunks     bool
	rename        *string
	failUpload    int
	hangUpload    map[int]bool
	slowUpload    int
	lagUpload     int
}

func parseStreamFaults(marker string) streamFaults {
	sf := streamFaults{announce: -1}
	for _, p := range markerParts(marker) {
		name, arg, _ := strings.Cut(p, ":")
		n, numErr := strconv.ParseInt(arg, 10, 64)
		positive := numErr == nil && n > 0
		switch name {
		case "slowframes":
			if positive {
				sf.frameDelay = time.Duration(n) * time.Millisecond
			}
		case "truncate":
			if positive {
				sf.truncateAfter = int(n)
			}
		case "cut":
			if positive {
				sf.cutAfter = int(n)
			}
		case "failafter":
			if positive {
				sf.failAfter = int(n)
			}
		case "announce":
			if numErr == nil && n >= 0 {
				sf.announce = n
			}
		case "unannounced":
			sf.unannounced = true
		case "outoforder":
			sf.outOfOrder = true
		case "badtotal":
			sf.badTotal = true
		case "badchunks":
			sf.badChunks = true
		case "rename":
			if b, err := base64.RawURLEncoding.DecodeString(arg); err == nil {
				name := string(b)
				sf.rename = &name
			}
		case "failupload":
			if positive {
				sf.failUpload = int(n)
			}
		case "hangupload":
			if positive {
				if sf.hangUpload == nil {
					sf.hangUpload = map[int]bool{}
				}
				sf.hangUpload[int(n)] = true
			}
		case "slowupload":
			if positive {
				sf.slowUpload = int(n)
			}
		case "lagupload":
			if positive {
				sf.lagUpload = int(n)
			}
		}
	}
	return sf
}

// RenameMarker is the rename:<name> marker for a served file name.
func RenameMarker(name string) string {
	return "rename:" + base64.RawURLEncoding.EncodeToString([]byte(name))
}

// FileNameMarker returns a file name that carries marker for an automatic
// upload: stem + "[_fake=" + marker + "]" + ext.
func FileNameMarker(stem, marker, ext string) string {
	return stem + "[_fake=" + marker + "]" + ext
}

// markerFor is the marker that applies to a request: the "_fake" param,
// or for upload_file_stream the one carried in the file name or remembered
// for the stream.
func (f *Fake) markerFor(action string, p map[string]json.RawMessage) string {
	marker := markerOf(p)
	if action != UploadAction {
		return marker
	}
	return f.uploads.marker(params(p), marker)
}

// filenameMarker extracts "[_fake=<marker>]" from a file name.
func filenameMarker(name string) string {
	_, rest, ok := strings.Cut(name, "[_fake=")
	if !ok {
		return ""
	}
	marker, _, ok := strings.Cut(rest, "]")
	if !ok {
		return ""
	}
	return marker
}
