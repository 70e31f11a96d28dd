//go:build hosts

package hosts

// The fixed script the stand-in model plays in every host, and the
// conductor that plays it: it reads the tool results the host hands back
// in each model request, records them per step, and answers with the next
// tool call, in the host's own naming.

import (
	"encoding/json"
	"regexp"
	"strings"
	"sync"
	"time"
)

// step is one call the stand-in model makes.
type step struct {
	// Name is the golden file's name (testdata/<host>/<Name>.txt).
	Name string
	// Tool is the server's tool name; "" with Resource reads the events
	// resource with the host's own resource tool; an unknown name is
	// called as the host would name it.
	Tool     string
	Resource bool
	// Args are the call's arguments as JSON; "{events_uri}" stands for
	// the URI subscribe_events returned. Malformed ones are sent as they
	// are, where the host's wire lets the model send broken JSON.
	Args string
	// Malformed marks Args that are not JSON on purpose.
	Malformed bool
	// Until, when set, repeats the step (as a model polling would) until
	// its result contains it, up to pollLimit times; only the last result
	// is held. The limit stays under Gemini CLI's loop detection, which
	// stops a turn at the fifth identical call.
	Until string
}

// pollLimit and pollPause bound a repeated step: a hang guard, not a
// statement about speed.
const (
	pollLimit = 3
	pollPause = time.Second
)

// script is what every host plays, in order.
var script = []step{
	{Name: "01-runtime-info", Tool: "get_runtime_info", Args: `{}`},
	{Name: "02-search", Tool: "search_actions", Args: `{"query":"send_group_msg"}`},
	{Name: "03-search-keywords", Tool: "search_actions", Args: `{"query":"mute member","match":"keywords","limit":3}`},
	{Name: "04-get-action", Tool: "get_action", Args: `{"name":"get_group_member_info"}`},
	// A misspelt required parameter: the refusal should name the
	// missing one too (issue 50, item 6).
	{Name: "05-schema-slip", Tool: "get_action", Args: `{"nme":"get_group_member_info"}`},
	{Name: "06-read", Tool: "query_action", Args: `{"action":"get_group_member_info","params":{"group_id":123456789,"user_id":10002}}`},
	{Name: "07-param-slip", Tool: "query_action", Args: `{"action":"get_group_member_info","params":{"group_id":123456789,"user_idd":10002}}`},
	{Name: "08-send-quoted-id", Tool: "invoke_action", Args: `{"action":"send_group_msg","params":{"group_id":"123456789","message":"hello from the host suite"}}`},
	{Name: "09-subscribe", Tool: "subscribe_events", Args: `{"self_id":10001}`},
	{Name: "10-read-events", Resource: true, Args: `{events_uri}`, Until: `host suite event`},
	{Name: "11-unsubscribe", Tool: "unsubscribe_events", Args: `{"uri":"{events_uri}"}`},
	{Name: "12-missing-parameter", Tool: "query_action_with_input", Args: `{"action":"get_group_member_info","params":{"group_id":123456789}}`},
	{Name: "13-unknown-tool", Tool: "no_such_tool", Args: `{}`},
	{Name: "14-malformed-arguments", Tool: "get_action", Args: `{"name": "get_group_member_info"`, Malformed: true},
	// The whole catalog in one answer (about 36 KB): Codex cuts long
	// results in the middle (issue 50, item 3).
	{Name: "15-list-all-actions", Tool: "list_actions", Args: `{}`},
}

// geminiSteps adds what only Gemini CLI does: the wait_for_previous
// parameter it adds to every MCP tool, set as its system prompt tells the
// model to for a call that depends on an earlier one (issue 50, item 1).
var geminiSteps = append(append([]step(nil), script...),
	step{Name: "16-wait-for-previous", Tool: "search_actions", Args: `{"query":"send_group_msg","wait_for_previous":true}`},
)

// eventText is the message the fake pushes once the subscription is open.
const eventText = "host suite event 你好"

// call is what the conductor answers: a tool call, or (Done) the final
// text that ends the turn.
type call struct {
	Step step
	// Name is the host's name for the tool; Args the arguments with the
	// URI filled in.
	Name string
	Args string
	Done bool
	// ID is a unique call id for hosts that want one.
	ID string
}

// conductor plays the script for one host run.
type conductor struct {
	steps []step
	// name maps a step to the tool name the host listed for it.
	name func(step) string
	// beforeRead runs once before the first events read (it pushes the
	// event the read waits for).
	beforeRead func()

	mu        sync.Mutex
	issued    []call
	results   map[string]string
	eventsURI string
	polls     int
	read      sync.Once
}

func newConductor(steps []step, name func(step) string, beforeRead func()) *conductor {
	return &conductor{steps: steps, name: name, beforeRead: beforeRead, results: map[string]string{}}
}

var eventsURIPattern = regexp.MustCompile(`snowluma://[a-z/]*events/[A-Za-z0-9_-]+`)

// next takes the tool results the host has sent back so far, in order,
// and returns what the model says now. A request that repeats an earlier
// point of the conversation (a host's retry) gets the same answer.
func (c *conductor) next(results []string) call {
	c.mu.Lock()
	if len(results) < len(c.issued) {
		defer c.mu.Unlock()
		return c.issued[len(results)]
	}
	var prev *call
	if n := len(c.issued); n > 0 {
		prev = &c.issued[n-1]
		got := results[n-1]
		c.results[prev.Step.Name] = got
		if c.eventsURI == "" {
			c.eventsURI = eventsURIPattern.FindString(got)
		}
	}
	i := 0
	if prev != nil {
		i = c.index(prev.Step.Name) + 1
		if prev.Step.Until != "" && !strings.Contains(results[len(results)-1], prev.Step.Until) && c.polls < pollLimit {
			c.polls++
			i--
			c.mu.Unlock()
			time.Sleep(pollPause)
			c.mu.Lock()
		}
	}
	if i >= len(c.steps) {
		done := call{Done: true}
		c.issued = append(c.issued, done)
		c.mu.Unlock()
		return done
	}
	s := c.steps[i]
	if s.Resource {
		c.mu.Unlock()
		c.read.Do(c.beforeRead)
		c.mu.Lock()
	}
	out := call{Step: s, Name: c.name(s), Args: strings.ReplaceAll(s.Args, "{events_uri}", c.eventsURI), ID: "call_" + strings.ReplaceAll(s.Name, "-", "_") + "_" + itoa(len(c.issued))}
	c.issued = append(c.issued, out)
	c.mu.Unlock()
	return out
}

// index is the position of the named step.
func (c *conductor) index(name string) int {
	for i, s := range c.steps {
		if s.Name == name {
			return i
		}
	}
	return -1
}

// finished says the final text was sent, and holds the results by step.
func (c *conductor) finished() (map[string]string, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	out := map[string]string{}
	for k, v := range c.results {
		out[k] = v
	}
	n := len(c.issued)
	return out, n > 0 && c.issued[n-1].Done
}

func itoa(n int) string { b, _ := json.Marshal(n); return string(b) }
