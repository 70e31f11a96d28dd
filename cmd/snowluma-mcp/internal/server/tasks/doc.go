// Package tasks is the tasks extension of the MCP server: who may see and
// use it (Gate), the hand-off of an admitted background call to the task
// runner (Start, with the pipeline adapted to the run the runner declares:
// work.go), the extension's methods (tasks/get, tasks/update,
// tasks/cancel), its shapes on the wire, and the task side of the server's
// listen registry (Listens), which meets the registry only through the
// small Listen interface.
//
// It is a package of its own so that the extension is one place: the
// server assembles it (server.New) and the event extension never sees its
// state.
package tasks
