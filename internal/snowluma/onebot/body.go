package onebot

import (
	"encoding/json"

	"github.com/snowluma/snowluma-mcp/internal/fault"
)

// BodyCap is SnowLuma's request body limit in bytes. Its HTTP adapter's
// readRequestBody (packages/onebot/src/network/http-server-adapter.ts)
// drops the socket, without any HTTP response, once a body passes it
// (observed on SnowLuma v1.11.1; notes/snowluma-wire.md §1.3): the action
// never runs, yet the client sees a reset it cannot tell from a crash. So
// no larger request is sent (Fits, which newRequest and the params stage
// both ask), and upload derives its largest chunk from it.
const BodyCap = 2 << 20

// bodyFrame is every byte of a request body but the action's JSON and the
// params: {"action":…,"params":…}.
const bodyFrame = len(`{"action":,"params":}`)

// BodySize is the size of the body of the request that carries action
// with params, exactly as newRequest writes it.
func BodySize(action string, params json.RawMessage) int {
	name, _ := json.Marshal(action)
	if len(params) == 0 {
		params = json.RawMessage("{}")
	}
	return bodyFrame + len(name) + len(params)
}

// Fits refuses action with params when its request body would pass
// BodyCap: a limit failure, nothing sent, naming the size and the cap and
// what to do instead. It is known from the params alone, so the pipeline
// asks before a send budget is spent, and the client asks again before
// any request leaves.
func Fits(action string, params json.RawMessage) error {
	n := BodySize(action, params)
	if n <= BodyCap {
		return nil
	}
	return fault.Errorf(fault.CodeLimit,
		"the request for %s would be %d bytes, over the %d bytes (2 MiB) SnowLuma reads: SnowLuma closes the connection on a larger body without reading it, so nothing was sent",
		action, n, BodyCap).Unsent().
		Then("Split the message into several sends whose params stay under 2 MiB in all; send a file through the upload route (invoke_action upload_file_stream with execution.input_file, then a segment naming the uploaded file) instead of inlining it as base64.")
}
