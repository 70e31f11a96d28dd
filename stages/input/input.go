// Package input is the input-completion stage of the two *_with_input tools.
// When a call leaves out fields of its action's top-level required list, it
// asks the user for them through MCP elicitation (one string field,
// params_json, holding a JSON object) instead of failing, and resumes the
// call with the answer. Nothing is inferred beyond the required list, and a
// complete call goes straight through. It runs after the gate, so a call the
// mode refuses never prompts, and before validation, which then checks the
// completed params like any others.
package input

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/snowluma/snowluma-mcp/catalog"
	"github.com/snowluma/snowluma-mcp/internal/fault"
	"github.com/snowluma/snowluma-mcp/internal/prompt"
	"github.com/snowluma/snowluma-mcp/internal/schema"
	"github.com/snowluma/snowluma-mcp/pipeline"
)

const (
	// Key names the one input request of a prompt.
	Key = "params"
	// Field is the form's only field.
	Field = "params_json"
)

// Stage is the input-completion stage.
type Stage struct{ store *prompt.Store }

// New returns the stage backed by store, the process's one prompt store.
func New(store *prompt.Store) Stage { return Stage{store: store} }

// Wrap implements pipeline.Stage. Only tools that declare AsksInput ask.
func (s Stage) Wrap(t *pipeline.Tool, next pipeline.Handler) pipeline.Handler {
	if !t.AsksInput {
		return next
	}
	return func(ctx context.Context, c *pipeline.Call) (*pipeline.Result, error) {
		if c.Action == nil || c.ParamsBuilt {
			return next(ctx, c)
		}
		if c.Resume != nil && c.Resume.State != "" {
			if err := s.resume(t, c); err != nil {
				return nil, err
			}
			return next(ctx, c)
		}
		// A key SnowLuma would drop is refused before the user is asked
		// anything: the call could not do what was meant. It is checked
		// before the params are decoded, so a request of 100,000 keys is
		// refused in one scan, never put in a map (issue 49).
		if err := c.Action.Unknown(c.Params); err != nil {
			return nil, err
		}
		params, err := fields(c.Params)
		if err != nil {
			return nil, err
		}
		missing := missingFields(c.Action, params)
		if len(missing) == 0 {
			return next(ctx, c)
		}
		if !c.Client.FormElicitation() {
			plain := strings.TrimSuffix(t.Name, "_with_input")
			return nil, fault.Errorf(fault.CodeUnsupported,
				"%s needs %s, and this client does not support form elicitation; call %s with complete params instead",
				c.Action.Name, strings.Join(missing, ", "), plain).Unsent().
				Then(fmt.Sprintf("Nothing was sent. Ask the user in the chat for %s (get_action %s says what each means), then call %s with complete params.",
					strings.Join(missing, ", "), c.Action.Name, plain))
		}
		state, err := s.store.Issue(t.Name, c.Arguments, missing)
		if errors.Is(err, prompt.ErrTooMany) {
			return nil, fault.Errorf(fault.CodeLimit, "%d prompts are already waiting for an answer; answer or abandon one first", prompt.MaxPending).Unsent()
		}
		if err != nil {
			return nil, fault.Wrap(fault.CodeInvalidArgument, err, "cannot record the prompt")
		}
		return &pipeline.Result{
			Diagnostics:   pipeline.Verdict(fault.KindInputRequired, "", "", false),
			InputRequests: mcp.InputRequestMap{Key: form(c.Action, missing)},
			RequestState:  state,
		}, nil
	}
}

// resume checks the state and the answer, then merges the answer into the
// call's arguments. Every failure here executes nothing.
func (s Stage) resume(t *pipeline.Tool, c *pipeline.Call) error {
	missing, err := s.store.Consume(c.Resume.State, t.Name, c.Arguments)
	if err != nil {
		return fault.Wrap(fault.CodeInvalidArgument, err, "nothing was executed")
	}
	answer, ok := c.Resume.Responses[Key].(*mcp.ElicitResult)
	if !ok || answer == nil {
		return fault.Errorf(fault.CodeInvalidArgument, "the retry carries no answer to the %q input request; nothing was executed", Key)
	}
	switch answer.Action {
	case "accept":
	case "decline", "cancel":
		return unanswered(c.Action.Name, answer.Action, missing)
	default:
		return fault.Errorf(fault.CodeInvalidArgument, "unknown elicitation action %q; nothing was executed", answer.Action)
	}
	text, ok := answer.Content[Field].(string)
	if !ok {
		return fault.Errorf(fault.CodeInvalidArgument, "the answer has no %s string; nothing was executed", Field)
	}
	fields, err := checkAnswer(c.Action, missing, text)
	if err != nil {
		return err
	}
	merged, err := merge(c.Params, fields)
	if err != nil {
		return err
	}
	c.Params = merged
	return nil
}

// unanswered is the refusal of a form that was declined or cancelled. The
// server cannot tell a person who declined from a host that answers every
// form without showing it (Claude Code's -p mode cancels at once; Codex
// with writes allowed declines by itself), so the text never says the user
// chose it, and the way on is the chat.
func unanswered(action, how string, missing []string) error {
	done := map[string]string{"decline": "declined", "cancel": "cancelled"}[how]
	fields := strings.Join(missing, ", ")
	return fault.Errorf(fault.CodeInputDeclined,
		"the form asking for %s was %s, by the user or by a host that answers forms without showing them; %s was not executed",
		fields, done, action).Unsent().
		Then(fmt.Sprintf("Nothing was executed. If the user wants it, ask them in the chat for %s (get_action %s says what each means), then call again with it in params.", fields, action))
}

// checkAnswer parses params_json and validates it against the missing
// fields' own schemas: only those fields, all of them, each valid.
func checkAnswer(a *catalog.Action, missing []string, text string) (map[string]json.RawMessage, error) {
	var fields map[string]json.RawMessage
	d := json.NewDecoder(strings.NewReader(text))
	d.UseNumber()
	if err := d.Decode(&fields); err != nil || fields == nil || d.More() {
		return nil, fault.Errorf(fault.CodeInvalidArgument, "%s must hold one JSON object, such as {\"%s\": …}; nothing was executed", Field, missing[0])
	}
	raw, _ := json.Marshal(fields)
	// A key the action does not read gets its nearest names, as in the
	// call itself; one it reads but was not asked for is refused below.
	if err := a.Unknown(raw); err != nil {
		return nil, err
	}
	v, err := schema.Compile(answerSchema(a, missing))
	if err != nil {
		return nil, fault.Wrap(fault.CodeInternal, err, "answer schema")
	}
	if err := v.Validate(raw, Field); err != nil {
		return nil, fault.Wrap(fault.CodeInvalidArgument, err, "the answer does not fit; nothing was executed")
	}
	return fields, nil
}

// answerSchema accepts exactly the missing fields, each with its catalog
// schema; anything else (a provided field, the action, execution options)
// is an extra property and refused.
func answerSchema(a *catalog.Action, missing []string) json.RawMessage {
	var props struct {
		Properties map[string]json.RawMessage `json:"properties"`
	}
	_ = json.Unmarshal(a.InputSchema, &props)
	out := map[string]any{"type": "object", "additionalProperties": false, "required": missing}
	sub := map[string]json.RawMessage{}
	for _, m := range missing {
		sub[m] = props.Properties[m]
	}
	out["properties"] = sub
	raw, _ := json.Marshal(out)
	return raw
}

// form builds the question for the missing fields.
func form(a *catalog.Action, missing []string) *mcp.ElicitParams {
	var hints []string
	for _, p := range a.Params {
		for _, m := range missing {
			if p.Name == m {
				hints = append(hints, fmt.Sprintf("%s (%s): %s", p.Name, p.Type, p.Description))
			}
		}
	}
	return &mcp.ElicitParams{
		Mode: "form",
		Message: fmt.Sprintf("动作 %s 缺少必填参数 %s。请在 params_json 中以 JSON 对象填写，例如 {\"%s\": …}。",
			a.Name, strings.Join(missing, ", "), missing[0]),
		RequestedSchema: map[string]any{
			"type": "object",
			"properties": map[string]any{Field: map[string]any{
				"type": "string", "title": "params_json",
				"description": "JSON object with: " + strings.Join(hints, "; "),
			}},
			"required": []string{Field},
		},
	}
}

// fields reads the params object's members (params is an object: the
// arguments stage checked it).
func fields(params json.RawMessage) (map[string]json.RawMessage, error) {
	out := map[string]json.RawMessage{}
	if err := json.Unmarshal(params, &out); err != nil || out == nil {
		return nil, fault.Errorf(fault.CodeInvalidArgument, "arguments.params must be a JSON object")
	}
	return out, nil
}

// missingFields lists the action's required fields absent from params, in
// the catalog's order.
func missingFields(a *catalog.Action, params map[string]json.RawMessage) []string {
	var missing []string
	for _, p := range a.Params {
		if _, ok := params[p.Name]; p.Required && !ok {
			missing = append(missing, p.Name)
		}
	}
	return missing
}

// merge adds the answered fields to the params.
func merge(params json.RawMessage, answer map[string]json.RawMessage) (json.RawMessage, error) {
	have, err := fields(params)
	if err != nil {
		return nil, err
	}
	keys := make([]string, 0, len(answer))
	for k := range answer {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if _, taken := have[k]; taken {
			return nil, fault.Errorf(fault.CodeInvalidArgument, "the answer may not overwrite params.%s; nothing was executed", k)
		}
		have[k] = answer[k]
	}
	return json.Marshal(have)
}
