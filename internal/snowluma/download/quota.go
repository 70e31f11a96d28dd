package download

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/snowluma/snowluma-mcp/internal/fault"
	"github.com/snowluma/snowluma-mcp/internal/filename"
)

// Quota is the byte budget of the download directory, shared by every
// download of the process. It counts what the directory holds (scanned when
// no download is running, so files the user removed are noticed) plus what
// running downloads have reserved.
type Quota struct {
	dir   string
	limit int64

	mu     sync.Mutex
	used   int64
	active int
}

// NewQuota returns the budget of dir.
func NewQuota(dir string, limit int64) *Quota { return &Quota{dir: dir, limit: limit} }

// begin registers a download; the first one rescans the directory.
func (q *Quota) begin() error {
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.active == 0 {
		used, err := usage(q.dir)
		if err != nil {
			return fault.Wrap(fault.CodeInternal, err, "cannot measure the download directory")
		}
		q.used = used
	}
	q.active++
	return nil
}

// end unregisters a download; kept bytes stay counted until the next rescan.
func (q *Quota) end() {
	q.mu.Lock()
	q.active--
	q.mu.Unlock()
}

// reserve claims n more bytes or reports that the quota would be crossed.
func (q *Quota) reserve(n int64) *fault.Error {
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.used+n > q.limit {
		return fault.Errorf(fault.CodeLimit, "the download directory quota (%d bytes) would be exceeded: %d bytes in use", q.limit, q.used)
	}
	q.used += n
	return nil
}

// release returns bytes of a download that was abandoned.
func (q *Quota) release(n int64) {
	q.mu.Lock()
	q.used -= n
	q.mu.Unlock()
}

// staleAfter is how long a partial file may sit unchanged before it counts
// as abandoned (by a server that was killed mid-download). A live download
// writes its partial file at least once per stream idle timeout.
const staleAfter = time.Hour

// usage sums the sizes of the regular files in dir (not recursive: we only
// ever write directly into it), removing abandoned partial files on the way.
// A missing directory holds nothing.
func usage(dir string) (int64, error) {
	entries, err := os.ReadDir(dir)
	if os.IsNotExist(err) {
		return 0, nil
	}
	if err != nil {
		return 0, err
	}
	var total int64
	for _, e := range entries {
		if !e.Type().IsRegular() {
			continue
		}
		info, err := e.Info()
		if err != nil {
			if os.IsNotExist(err) {
				continue
			}
			return 0, err
		}
		if strings.HasPrefix(e.Name(), partialPrefix) && time.Since(info.ModTime()) > staleAfter {
			if os.Remove(filepath.Join(dir, e.Name())) == nil {
				continue
			}
		}
		total += info.Size()
	}
	return total, nil
}

// partialPrefix names files being written; they never collide with saved
// names, which cannot start with a dot.
const partialPrefix = ".snowluma-partial-"

// contentName is an anonymous download's file name: the start of its
// SHA-256, with the remote name's extension only when that is a short
// run of letters and digits (jpg, amr), too short to say anything.
func contentName(sum, remote string) string {
	name := sum[:16]
	ext := strings.TrimPrefix(filepath.Ext(remote), ".")
	if ext == "" || len(ext) > 5 || strings.IndexFunc(ext, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9')
	}) >= 0 {
		return name
	}
	return name + "." + ext
}

// finalName makes an untrusted server file name safe to save, on this
// platform and on Windows, where a downloaded file may end up: no
// directory parts, none of <>:"/\|?* or control characters, no leading
// dots (hidden on Unix, and never a partial file's name), no trailing dot
// or space (Windows drops them, so "a.txt." would overwrite "a.txt"), never
// a device name (CON, NUL, COM1.txt … get a leading "_"), bounded length.
func finalName(remote string) string {
	name := strings.Map(func(r rune) rune {
		if filename.Forbidden(r) {
			return '_'
		}
		return r
	}, remote)
	name = strings.TrimRight(strings.TrimLeft(strings.TrimSpace(name), "."), ". ")
	if len(name) > 200 {
		ext := filepath.Ext(name)
		if len(ext) > 20 {
			ext = ""
		}
		name = truncate(name[:len(name)-len(ext)], 200-len(ext)) + ext
	}
	name = strings.TrimRight(name, ". ")
	name = strings.TrimSpace(name)
	if name == "" {
		name = "download"
	}
	if filename.Device(name) {
		name = "_" + name
	}
	return name
}

// truncate cuts s to at most n bytes without splitting a UTF-8 sequence.
func truncate(s string, n int) string {
	for n > 0 && n < len(s) && !utf8Start(s[n]) {
		n--
	}
	return s[:n]
}

func utf8Start(b byte) bool { return b&0xC0 != 0x80 }

// claim moves tmp to a free name in dir without ever replacing a file: it
// first creates the name exclusively, then renames tmp over that placeholder
// (atomic, and portable to file systems without hard links).
func claim(tmp, dir, name string) (string, error) {
	ext := filepath.Ext(name)
	stem := strings.TrimSuffix(name, ext)
	for i := 0; i < 1000; i++ {
		candidate := name
		if i > 0 {
			candidate = fmt.Sprintf("%s (%d)%s", stem, i, ext)
		}
		path := filepath.Join(dir, candidate)
		f, err := os.OpenFile(path, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o600)
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		if err != nil {
			return "", err
		}
		_ = f.Close()
		if err := os.Rename(tmp, path); err != nil {
			_ = os.Remove(path)
			return "", err
		}
		return path, nil
	}
	return "", fmt.Errorf("no free file name for %q", name)
}
