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
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/snowluma/snowluma-mcp/catalog"
	"github.com/snowluma/snowluma-mcp/fault"
	"github.com/snowluma/snowluma-mcp/pipeline"
	"github.com/snowluma/snowluma-mcp/schema"
)

const (
	stageName = "input"
	// Key names the one input request of a prompt.
	Key = "params"
	// Field is the form's only field.
	Field = "params_json"
)

// Stage is the input-completion stage.
type Stage struct{ store *Store }

// New returns the stage backed by store.
func New(store *Store) Stage { return Stage{store: store} }

// Name implements pipeline.Stage.
func (Stage) Name() string { return stageName }

// Wrap implements pipeline.Stage.
func (s Stage) Wrap(next pipeline.Handler) pipeline.Handler {
	return func(ctx context.Context, c *pipeline.Call) (*pipeline.Result, error) {
		if !c.Tool.Input || c.Action == nil {
			return next(ctx, c)
		}
		if c.Request != nil && c.Request.Params != nil && c.Request.Params.RequestState != "" {
			if err := s.resume(c); err != nil {
				return nil, err
			}
			return next(ctx, c)
		}
		_, params, err := split(c.Arguments)
		if err != nil {
			return nil, err
		}
		missing := missingFields(c.Action, params)
		if len(missing) == 0 {
			return next(ctx, c)
		}
		if !formSupported(c) {
			return nil, fault.Errorf(fault.CodeUnsupported, stageName,
				"%s needs %s, and this client does not support form elicitation; call %s with complete params instead",
				c.Action.Name, strings.Join(missing, ", "), strings.TrimSuffix(c.Tool.Name, "_with_input"))
		}
		state, err := s.store.Issue(c.Tool.Name, c.Arguments, missing)
		if errors.Is(err, ErrTooMany) {
			return nil, fault.Errorf(fault.CodeLimit, stageName, "%d prompts are already waiting for an answer; answer or abandon one first", MaxPending)
		}
		if err != nil {
			return nil, fault.Wrap(fault.CodeInvalidArgument, stageName, err, "cannot record the prompt")
		}
		return &pipeline.Result{
			Diagnostics:   pipeline.Diagnostics{Outcome: pipeline.OutcomeUnknown, Kind: "input_required"},
			InputRequests: mcp.InputRequestMap{Key: prompt(c.Action, missing)},
			RequestState:  state,
		}, nil
	}
}

// resume checks the state and the answer, then merges the answer into the
// call's arguments. Every failure here executes nothing.
func (s Stage) resume(c *pipeline.Call) error {
	missing, err := s.store.Consume(c.Request.Params.RequestState, c.Tool.Name, normalized(c.Arguments))
	if err != nil {
		return fault.Wrap(fault.CodeInvalidArgument, stageName, err, "nothing was executed")
	}
	answer, ok := c.Request.Params.InputResponses[Key].(*mcp.ElicitResult)
	if !ok || answer == nil {
		return fault.Errorf(fault.CodeInvalidArgument, stageName, "the retry carries no answer to the %q input request; nothing was executed", Key)
	}
	switch answer.Action {
	case "accept":
	case "decline", "cancel":
		return fault.Errorf(fault.CodeInputDeclined, stageName, "the user chose %s; %s was not executed", answer.Action, c.Action.Name)
	default:
		return fault.Errorf(fault.CodeInvalidArgument, stageName, "unknown elicitation action %q; nothing was executed", answer.Action)
	}
	text, ok := answer.Content[Field].(string)
	if !ok {
		return fault.Errorf(fault.CodeInvalidArgument, stageName, "the answer has no %s string; nothing was executed", Field)
	}
	fields, err := checkAnswer(c.Action, missing, text)
	if err != nil {
		return err
	}
	merged, err := merge(c.Arguments, fields)
	if err != nil {
		return err
	}
	c.Arguments = merged
	return nil
}

// checkAnswer parses params_json and validates it against the missing
// fields' own schemas: only those fields, all of them, each valid.
func checkAnswer(a *catalog.Action, missing []string, text string) (map[string]json.RawMessage, error) {
	var fields map[string]json.RawMessage
	d := json.NewDecoder(strings.NewReader(text))
	d.UseNumber()
	if err := d.Decode(&fields); err != nil || fields == nil || d.More() {
		return nil, fault.Errorf(fault.CodeInvalidArgument, stageName, "%s must hold one JSON object, such as {\"%s\": …}; nothing was executed", Field, missing[0])
	}
	v, err := schema.Compile(answerSchema(a, missing))
	if err != nil {
		return nil, fault.Wrap(fault.CodeInternal, stageName, err, "answer schema")
	}
	raw, _ := json.Marshal(fields)
	if err := v.Validate(raw, Field); err != nil {
		return nil, fault.Wrap(fault.CodeInvalidArgument, stageName, err, "the answer does not fit; nothing was executed")
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

// prompt builds the form for the missing fields.
func prompt(a *catalog.Action, missing []string) *mcp.ElicitParams {
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
		Message: fmt.Sprintf("动作 %s 缺少必填参数 %s（missing required params）。请在 params_json 中以 JSON 对象填写，例如 {\"%s\": …}。",
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

// formSupported reads the call's own client capabilities: a client declares
// form elicitation with elicitation.form, or with an empty elicitation
// object (which means form).
func formSupported(c *pipeline.Call) bool {
	if c.Request == nil {
		return false
	}
	caps := c.Request.ClientCapabilities()
	if caps == nil || caps.Elicitation == nil {
		return false
	}
	return caps.Elicitation.Form != nil || caps.Elicitation.URL == nil
}

// split returns the arguments object and its params object.
func split(args json.RawMessage) (map[string]json.RawMessage, map[string]json.RawMessage, error) {
	var top map[string]json.RawMessage
	if err := json.Unmarshal(normalized(args), &top); err != nil || top == nil {
		return nil, nil, fault.Errorf(fault.CodeInvalidArgument, stageName, "arguments must be a JSON object")
	}
	params := map[string]json.RawMessage{}
	if raw, ok := top["params"]; ok && string(bytes.TrimSpace(raw)) != "null" {
		if err := json.Unmarshal(raw, &params); err != nil || params == nil {
			return nil, nil, fault.Errorf(fault.CodeInvalidArgument, stageName, "arguments.params must be a JSON object")
		}
	}
	return top, params, nil
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

// merge adds the answered fields to the arguments' params.
func merge(args json.RawMessage, fields map[string]json.RawMessage) (json.RawMessage, error) {
	top, params, err := split(args)
	if err != nil {
		return nil, err
	}
	keys := make([]string, 0, len(fields))
	for k := range fields {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if _, taken := params[k]; taken {
			return nil, fault.Errorf(fault.CodeInvalidArgument, stageName, "the answer may not overwrite params.%s; nothing was executed", k)
		}
		params[k] = fields[k]
	}
	top["params"], _ = json.Marshal(params)
	return json.Marshal(top)
}

func normalized(args json.RawMessage) json.RawMessage {
	if len(bytes.TrimSpace(args)) == 0 || string(bytes.TrimSpace(args)) == "null" {
		return json.RawMessage("{}")
	}
	return args
}
