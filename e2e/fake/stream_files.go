package fake

// The files the fake's download actions serve, with deterministic content
// (SHA-256 counter blocks, so a reordered or repeated chunk never looks
// right by accident) and known sizes. Tests compare what the product saved
// with these bytes. Source resolution follows resolveDownload in
// packages/onebot/src/actions/stream-download.ts: a local path (or file://
// URI) must be a regular file inside the stream temp directory; http(s)
// URLs are fetched (the fake never goes out: it serves a fixed table) with
// private and loopback hosts refused; anything else is a cached media ID,
// looked up in the image cache and then the voice cache, each skipped by
// the action that does not use it.

import (
	"crypto/sha256"
	"fmt"
	"net"
	"net/url"
	"path"
	"slices"
	"strings"
)

// StreamDir is SnowLuma's stream temp directory (os.tmpdir()/snowluma-stream).
const StreamDir = "/tmp/snowluma-stream"

// Targets the download actions know.
const (
	// FileHello is "hello world", 11 bytes, one chunk.
	FileHello = StreamDir + "/hello.txt"
	// FileSeed is 150 KiB, 153600 bytes: three chunks of 65536/65536/22528
	// at the default chunk size, as a file of that size was observed to
	// arrive from SnowLuma v1.11.1.
	FileSeed = StreamDir + "/seed-150k.bin"
	// FileEmpty has no bytes: file_info, no chunks, file_complete.
	FileEmpty = StreamDir + "/empty.bin"
	// FileURL is fetched from a public URL: its size is unknown (file_size
	// 0) and its chunks are the HTTP body's pieces, whatever chunk_size says.
	FileURL = "https://multimedia.nt.qq.com.cn/download?appid=1407&fileid=c3RyZWFtLXVybA"
	// ImageID is a cached image (the get_file known file); it resolves to a
	// URL source of KnownFileSize bytes.
	ImageID = KnownFile
	// VoiceID is a cached voice message; a URL source of 20000 bytes.
	VoiceID = "7E1D0B2C9A8F4E3D.amr"
	// OutsideFile exists on the SnowLuma host but outside StreamDir.
	OutsideFile = "/etc/hosts"
)

// urlPiece is the size of the HTTP body pieces of URL sources.
const urlPiece = 16384

// Wordings of the download actions' failures.
const (
	WordingFileRequired   = "file is required"
	WordingFileNotFound   = "file not found (expected a stream-dir path, an http(s) URL, or a cached image/voice id)"
	WordingLocalForbidden = "local downloads are restricted to the stream temp directory"
	WordingPrivateURL     = "refusing to fetch a private/loopback address"
)

type cache int

const (
	cacheImage cache = 1 << iota
	cacheVoice
)

// StreamFile is one file the fake serves.
type StreamFile struct {
	// Target is the file param that finds it.
	Target string
	// Name is the file_name the frames report.
	Name string
	// Data is the content.
	Data []byte
	// URL marks a fetched source: size unknown, body-sized chunks.
	URL   bool
	cache cache
}

var streamFiles = map[string]StreamFile{}

func init() {
	for _, f := range []StreamFile{
		{Target: FileHello, Name: "hello.txt", Data: []byte("hello world")},
		{Target: FileSeed, Name: "seed-150k.bin", Data: deterministic("seed-150k", 150*1024)},
		{Target: FileEmpty, Name: "empty.bin", Data: []byte{}},
		{Target: FileURL, Name: "download", Data: deterministic("url", 50000), URL: true},
		{Target: ImageID, Name: ImageID, Data: deterministic("image", 1<<20), URL: true, cache: cacheImage},
		{Target: VoiceID, Name: VoiceID, Data: deterministic("voice", 20000), URL: true, cache: cacheVoice},
	} {
		streamFiles[f.Target] = f
	}
}

// deterministic returns n bytes of SHA-256("<seed>:<counter>") blocks.
func deterministic(seed string, n int) []byte {
	out := make([]byte, 0, n+sha256.Size)
	for i := 0; len(out) < n; i++ {
		sum := sha256.Sum256(fmt.Appendf(nil, "%s:%d", seed, i))
		out = append(out, sum[:]...)
	}
	return out[:n]
}

// StreamFileAt returns the file served for target (a copy).
func StreamFileAt(target string) (StreamFile, bool) {
	f, ok := streamFiles[target]
	f.Data = slices.Clone(f.Data)
	return f, ok
}

// resolve finds the source of a download target for an action that uses
// the given caches. It returns the file or a failure wording.
func resolve(target string, caches cache) (StreamFile, string) {
	local := target
	if rest, ok := strings.CutPrefix(target, "file://"); ok {
		local = rest
	}
	if strings.HasPrefix(local, "/") {
		clean := path.Clean(local)
		if clean == OutsideFile {
			return StreamFile{}, WordingLocalForbidden
		}
		if f, ok := streamFiles[clean]; ok && !f.URL {
			return f, ""
		}
		// Not an existing regular file: fall through to the other rules.
	}
	if u, err := url.Parse(target); err == nil && (u.Scheme == "http" || u.Scheme == "https") {
		if private(u.Hostname()) {
			return StreamFile{}, WordingPrivateURL
		}
		if f, ok := streamFiles[target]; ok && f.URL && f.cache == 0 {
			return f, ""
		}
		return StreamFile{}, "fetch failed: HTTP 404"
	}
	if f, ok := streamFiles[target]; ok && f.cache&caches != 0 {
		return f, ""
	}
	return StreamFile{}, WordingFileNotFound
}

// private reports literal loopback, private, link-local and unspecified
// hosts, which SnowLuma's SSRF guard refuses.
func private(host string) bool {
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && (ip.IsLoopback() || ip.IsPrivate() || ip.IsLinkLocalUnicast() || ip.IsUnspecified())
}
