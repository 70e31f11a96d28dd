package main

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"compress/gzip"
	"io/fs"
	"path"
	"time"
)

// An entry is one file in a release archive.
type entry struct {
	Name string
	Mode fs.FileMode
	Data []byte
}

// The archives are reproducible: entries in the order given, under one
// directory, every time stamp the same (the source's date), owner root, and
// nothing from the machine that wrote them (no user names, no gzip file
// name or time). The default compression level: the best one saves 2% of
// a binary's archive and takes several times as long.

// tarGz writes entries under dir/ as a gzip-compressed tar.
func tarGz(dir string, entries []entry, mtime time.Time) ([]byte, error) {
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	tw := tar.NewWriter(zw)
	if err := tw.WriteHeader(&tar.Header{Typeflag: tar.TypeDir, Name: dir + "/", Mode: 0o755, ModTime: mtime, Format: tar.FormatUSTAR}); err != nil {
		return nil, err
	}
	for _, e := range entries {
		h := &tar.Header{Typeflag: tar.TypeReg, Name: path.Join(dir, e.Name), Mode: int64(e.Mode.Perm()), Size: int64(len(e.Data)),
			ModTime: mtime, Format: tar.FormatUSTAR}
		if err := tw.WriteHeader(h); err != nil {
			return nil, err
		}
		if _, err := tw.Write(e.Data); err != nil {
			return nil, err
		}
	}
	if err := tw.Close(); err != nil {
		return nil, err
	}
	if err := zw.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// zipArchive writes entries under dir/ as a deflated zip, or at its root
// when dir is "" (a bundle, whose manifest.json must be there; no
// directory entries then, which @anthropic-ai/mcpb's unpacker would try to
// write as files). Unix modes are recorded too, so the binary stays
// executable when unpacked elsewhere.
func zipArchive(dir string, entries []entry, mtime time.Time) ([]byte, error) {
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	if dir != "" {
		d := &zip.FileHeader{Name: dir + "/", Method: zip.Store, Modified: mtime}
		d.SetMode(fs.ModeDir | 0o755)
		if _, err := zw.CreateHeader(d); err != nil {
			return nil, err
		}
	}
	for _, e := range entries {
		h := &zip.FileHeader{Name: path.Join(dir, e.Name), Method: zip.Deflate, Modified: mtime}
		h.SetMode(e.Mode.Perm())
		w, err := zw.CreateHeader(h)
		if err != nil {
			return nil, err
		}
		if _, err := w.Write(e.Data); err != nil {
			return nil, err
		}
	}
	if err := zw.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}
