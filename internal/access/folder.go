package access

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"

	"github.com/snowluma/snowluma-mcp/internal/lang"
)

// Folder is what Look found at a store's directory, read only.
type Folder struct {
	// Missing: nothing is there yet; the store creates it private.
	Missing bool
	// Exposed says what lets other accounts in; "" for a private folder.
	Exposed string
	// Fix says how the person makes it private by hand.
	Fix string
	// ExposedZH and FixZH are Exposed and Fix in Chinese, for `check` in
	// a Chinese terminal; written beside the English where each is.
	ExposedZH, FixZH string
	// Fixable: exposed, but empty and owned by this user, so the server
	// makes it private itself (Secure). Files found in a folder others
	// could write cannot be trusted, so a folder that holds anything is
	// never fixed, only refused.
	Fixable bool
}

// Look reports what dir is, changing nothing: for `check`, and for the
// server before it decides to fix. A symlink is never followed: the
// folder is judged through a handle opened on dir itself.
func (p Purpose) Look(dir string) (Folder, error) {
	f, err := openFolder(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return Folder{Missing: true}, nil
	}
	if err != nil {
		return Folder{}, err
	}
	defer f.Close()
	return p.look(dir, f)
}

// look judges an opened folder: on its handle, so that what is judged
// is what a fix would change.
func (p Purpose) look(dir string, f *os.File) (Folder, error) {
	st, err := f.Stat()
	if err != nil {
		return Folder{}, err
	}
	if !st.IsDir() {
		return Folder{}, fmt.Errorf("%s is not a directory", dir)
	}
	what, fix, err := handleExposed(dir, f, p.Setting)
	if err != nil || what.EN == "" {
		return Folder{}, err
	}
	out := Folder{Exposed: what.EN + "; " + p.Why, Fix: fix.EN,
		ExposedZH: what.ZH + "；" + lang.Text{EN: p.Why, ZH: p.WhyZH}.In(lang.Chinese), FixZH: fix.ZH}
	owned, err := ownedByMe(f)
	if err != nil {
		return Folder{}, err
	}
	empty, err := isEmpty(f)
	if err != nil {
		return Folder{}, err
	}
	out.Fixable = owned && empty
	return out, nil
}

// Secure makes dir private when it is exposed but fixable (empty and this
// user's): on the handle it was judged through, never by its name, so
// nothing swapped in between (a symlink, another folder) is changed.
// fixed says it did; a folder that is exposed and not fixable is the
// error, in the words of Dir.
func (p Purpose) Secure(dir string) (fixed bool, err error) {
	f, err := openFolder(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return false, nil // the store creates it private
	}
	if err != nil {
		return false, err
	}
	defer f.Close()
	got, err := p.look(dir, f)
	switch {
	case err != nil:
		return false, err
	case got.Exposed == "":
		return false, nil
	case !got.Fixable:
		return false, fmt.Errorf("%s: %s", got.Exposed, got.Fix)
	}
	if p.beforeFix != nil {
		p.beforeFix(dir)
	}
	// Another account could still write the folder until makePrivate
	// closed it, and may have planted an entry since it was found empty:
	// makePrivate looks again once the folder is closed to others, and a
	// folder that is no longer empty is refused as any non-empty open one
	// is, left as it was found.
	err = makePrivate(f)
	switch {
	case errors.Is(err, errNotEmpty):
		return false, fmt.Errorf("%s: %s", got.Exposed, got.Fix)
	case err != nil:
		return false, fmt.Errorf("%s could not be made private: %w", dir, err)
	}
	return true, nil
}

// errNotEmpty is makePrivate's answer for a folder that something entered
// between the look and the fix: it is not made private.
var errNotEmpty = errors.New("something entered the folder while it was being made private")

// openFolder opens dir itself (openDir), refusing first a link in its
// place as its own entry reads: the handle's checks are what make it
// safe, and this one names a link plainly where a platform's open would
// only fail (ELOOP) or, under an emulation such as Wine, follow it.
func openFolder(dir string) (*os.File, error) {
	if err := notLink(dir); err != nil {
		return nil, err
	}
	return openDir(dir)
}

// isEmpty reports whether the opened folder holds nothing.
func isEmpty(f *os.File) (bool, error) {
	names, err := f.Readdirnames(1)
	if errors.Is(err, io.EOF) {
		return true, nil
	}
	return len(names) == 0, err
}
