package task

import (
	"os"
	"path/filepath"

	"github.com/snowluma/snowluma-mcp/internal/access"
)

// private is what the store tells a user whose task directory or file
// other accounts can reach (package access decides that per platform).
var private = access.Purpose{Why: "task results can hold private data", Setting: "SNOWLUMA_MCP_TASK_DIR"}

// tempPrefix starts the name of a file being written; a crash can leave
// one behind, and it was never part of the store. A task file's temporary
// name goes on with its writer's owner id and a dash, so that a server
// cleaning up removes only those whose writer is gone.
const tempPrefix = ".tmp-"

// writeAtomicAs replaces dir/name with data so that a crash at any point
// leaves either the old file or the new one, whole: a temporary file in
// the same directory, fsync, then a rename over the old file made durable
// as the platform allows (replace, in atomic_*.go).
//
// writer, the writing server's owner id, goes into the temporary file's
// name ("" for none).
func writeAtomicAs(dir, writer, name string, data []byte) error {
	prefix := tempPrefix
	if writer != "" {
		prefix += writer + "-"
	}
	tmp, err := writeTemp(dir, prefix+name+"-", data)
	if err != nil {
		return err
	}
	if err := replace(tmp, filepath.Join(dir, name)); err != nil {
		_ = os.Remove(tmp)
		return err
	}
	return nil
}

// writeNew is writeAtomicAs for a file that must be written once: when dir
// already holds name, it is left as it is and placed is false.
func writeNew(dir, name string, data []byte) (placed bool, err error) {
	tmp, err := writeTemp(dir, tempPrefix+name+"-", data)
	if err != nil {
		return false, err
	}
	return publish(tmp, filepath.Join(dir, name))
}

// writeTemp writes data durably to a new private file in dir whose name
// starts with prefix, and returns its path.
func writeTemp(dir, prefix string, data []byte) (tmp string, err error) {
	f, err := access.CreateTemp(dir, prefix)
	if err != nil {
		return "", err
	}
	path := f.Name()
	defer func() {
		if err != nil {
			_ = os.Remove(path)
		}
	}()
	if _, err = f.Write(data); err != nil {
		_ = f.Close()
		return "", err
	}
	if err = f.Sync(); err != nil {
		_ = f.Close()
		return "", err
	}
	return path, f.Close()
}
