package handlers

import (
	"context"
	"encoding/json"
	"sync"

	"github.com/snowluma/snowluma-mcp/catalog"
	"github.com/snowluma/snowluma-mcp/internal/config"
	"github.com/snowluma/snowluma-mcp/internal/fault"
	"github.com/snowluma/snowluma-mcp/internal/lang"
	"github.com/snowluma/snowluma-mcp/internal/schema"
	"github.com/snowluma/snowluma-mcp/pipeline"
)

type getActionArgs struct {
	Name string `json:"name" jsonschema:"动作名或别名（name or alias），如 send_group_msg。" schema:"minLength=1"`
}

// contract is the answer of get_action: an action's whole contract, each
// fact once. The params are inputSchema alone (name, type, required,
// description and every constraint), not a second list beside it, and
// what is empty or false by default is left out.
type contract struct {
	Name          string                `json:"name"`
	Aliases       []string              `json:"aliases,omitempty"`
	Category      string                `json:"category"`
	Summary       string                `json:"summary"`
	ReadOnly      bool                  `json:"readOnly"`
	Stream        bool                  `json:"stream,omitempty"`
	Delivers      *catalog.Delivery     `json:"delivers,omitempty"`
	InputSchema   json.RawMessage       `json:"inputSchema"`
	IDs           string                `json:"ids,omitempty"`
	Invariants    []string              `json:"invariants,omitempty"`
	ReturnsSchema json.RawMessage       `json:"returnsSchema"`
	Examples      []catalog.Example     `json:"examples"`
	ThirdParty    []catalog.ContentSpot `json:"thirdParty,omitempty"`
	Copies        *catalog.Copy         `json:"copies,omitempty"`
}

// quotedIDs is said once per action whose integer params the params stage
// also reads from a string of digits (schema.Validator.Normalize), instead
// of widening each param's schema.
const quotedIDs = `整数参数也可写成数字字符串（ids may be quoted: "20001"）`

// GetAction returns one action's full contract; aliases resolve to their
// target's contract.
func GetAction(d *Deps) *pipeline.Tool {
	var quoted sync.Map // action name → whether it has integer params
	return pipeline.NewTool(pipeline.Spec{
		Name:        "get_action",
		Description: "查看一个动作的完整契约（action contract）：inputSchema（参数）、returnsSchema 与示例。",
		Summary: lang.Text{
			EN: "Shows one action's parameters, result and examples.",
			ZH: "查看一个动作的参数、返回值和示例。",
		},
		Mode: config.ModeDocs, Annotations: readOnlyDocs,
		Result: `{"type":["object","null"],"description":"The action's full contract.","required":["name","category","summary","readOnly","inputSchema","returnsSchema","examples"]}`,
	}, func(ctx context.Context, c *pipeline.Call, args *getActionArgs) (*pipeline.Result, error) {
		a, ok := d.Catalog.Lookup(args.Name)
		if !ok {
			return nil, pipeline.UnknownAction(d.Catalog, args.Name)
		}
		ids, known := quoted.Load(a.Name)
		if !known {
			v, err := schema.Compile(a.InputSchema)
			if err != nil {
				return nil, fault.Wrap(fault.CodeInternal, err, "catalog schema of "+a.Name)
			}
			ids, _ = quoted.LoadOrStore(a.Name, v.QuotedIntegers())
		}
		out := contract{Name: a.Name, Aliases: a.Aliases, Category: a.Category, Summary: a.Summary, ReadOnly: a.ReadOnly, Stream: a.Stream,
			Delivers: a.Delivers, InputSchema: withoutDefaults(a.InputSchema), Invariants: a.Invariants, ReturnsSchema: a.ReturnsSchema, Examples: a.Examples,
			ThirdParty: a.ThirdParty, Copies: a.Copies}
		if ids.(bool) {
			out.IDs = quotedIDs
		}
		return &pipeline.Result{Payload: out}, nil
	})
}

// withoutDefaults leaves out of a schema's top level what JSON Schema
// assumes anyway ("additionalProperties": true).
func withoutDefaults(s json.RawMessage) json.RawMessage {
	var top map[string]json.RawMessage
	if json.Unmarshal(s, &top) != nil || string(top["additionalProperties"]) != "true" {
		return s
	}
	delete(top, "additionalProperties")
	out, err := json.Marshal(top)
	if err != nil {
		return s
	}
	return out
}
