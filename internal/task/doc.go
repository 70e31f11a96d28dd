// Package task keeps background transfers durable: a store of task records
// on disk that survives crashes and restarts, and a runner that executes a
// task's call detached from the request that started it.
//
// The store exists so that a user who starts a 1 GiB transfer and closes
// their laptop finds, when they come back, either the saved result or an
// honest statement that the outcome is unknown; never a silently dropped
// task, never a replayed write. Hence its rules: any number of server
// processes share a directory, each task owned by the process that runs
// it (lease.go) and settled by another only once that process is gone;
// private files, atomic writes, every record validated on load (a corrupt
// or unreadable record stops the start instead of vanishing), a directory
// bound to one configuration, and no credential on disk.
//
// Layout of a task directory:
//
//	lease              locked shared by every running server (flock; LockFileEx on Windows)
//	lease.pid          the pid an earlier version, which locked lease whole, wrote
//	scope.json         the salted digest of mode, endpoint and token
//	owners/<owner>     locked by the running server whose owner id it is
//	cancel/<id>        a cancel request for a task that another server runs
//	tasks/<id>.json    one task's metadata (small; read at start)
//	tasks/<id>.result  a finished task's rendered tool result (read on demand)
//
// Metadata and result are separate files so that loading 10,000 tasks reads
// 10,000 small files and no result body.
//
// The package stands on the ground floor and knows nothing of the pipeline:
// what a task's run needs (Work, Hooks, Result) it declares in work.go, and
// the server's tasks extension adapts the tool chain to it.
package task
