package handlers

import (
	"context"
	"encoding/json"
	"sync"

	"github.com/snowluma/snowluma-mcp/catalog"
	"github.com/snowluma/snowluma-mcp/internal/config"
	"github.com/snowluma/snowluma-mcp/internal/fault"
	"github.com/snowluma/snowluma-mcp/internal/lang"
	"github.com/snowluma/snowluma-mcp/internal/payload"
	"github.com/snowluma/snowluma-mcp/internal/schema"
	"github.com/snowluma/snowluma-mcp/internal/snowluma/upload"
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
	Route         string                `json:"route,omitempty"`
	ReadOnly      bool                  `json:"readOnly"`
	Stream        bool                  `json:"stream,omitempty"`
	Delivers      *catalog.Delivery     `json:"delivers,omitempty"`
	InputSchema   json.RawMessage       `json:"inputSchema"`
	RawParams     json.RawMessage       `json:"rawParams,omitempty"`
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

// uploadRoute is how an agent calls upload_file_stream, said before its
// params: the automatic upload takes no params, so the contract shows
// them without SnowLuma's required list (a widening row of the deviation
// table), and stream_id's own description says the manual route needs it.
const uploadRoute = `智能体上传文件用 invoke_action {"action":"` + upload.Action + `","execution":{"input_file":"<` + upload.RootVar +
	` 下的文件>"}}，不带 params，由服务器分块上传（automatic upload）；下面的 params 用于手动分块，每次都要 stream_id`

// GetAction returns one action's full contract; aliases resolve to their
// target's contract. Its result is the catalog's data, passed through: the
// schema says what every contract has, and the contract says the rest.
func GetAction(d *Deps) *pipeline.Tool {
	// action name → its contract, built on first ask and then handed out
	// as it is: a contract never changes while the process runs, and a
	// docs call then costs no decoding.
	var contracts sync.Map
	return pipeline.NewTool[getActionArgs, any](pipeline.Spec{
		Name:        "get_action",
		Description: "查看一个动作的完整定义（action contract）：inputSchema（参数）、returnsSchema 与示例。",
		Sample:      pipeline.Sample{Good: `{"name":"get_msg"}`, Bad: `{"name":"no_such"}`},
		Summary: lang.Text{
			EN: "Shows one action's parameters, result and examples.",
			ZH: "查看一个动作的参数、返回值和示例。",
		},
		MinMode: config.ModeDocs, Annotations: readOnlyDocs,
		Result: `{"type":["object","null"],"description":"The action's full contract.","required":["name","category","summary","readOnly","inputSchema","returnsSchema","examples"]}`,
	}, func(ctx context.Context, c *pipeline.Call, args *getActionArgs) (pipeline.Reply[any], error) {
		a, ok := d.Catalog.Lookup(args.Name)
		if !ok {
			return pipeline.Reply[any]{}, pipeline.UnknownAction(d.Catalog, args.Name)
		}
		if out, ok := contracts.Load(a.Name); ok {
			return pipeline.Reply[any]{Payload: out}, nil
		}
		out, err := contractOf(a)
		if err != nil {
			return pipeline.Reply[any]{}, err
		}
		stored, _ := contracts.LoadOrStore(a.Name, out)
		return pipeline.Reply[any]{Payload: stored}, nil
	})
}

// contractOf builds an action's contract from the catalog.
func contractOf(a *catalog.Action) (*contract, error) {
	doc, err := a.AcceptedSchema()
	if err != nil {
		return nil, fault.Wrap(fault.CodeInternal, err, "catalog schema of "+a.Name)
	}
	v, err := schema.Compile(doc)
	if err != nil {
		return nil, fault.Wrap(fault.CodeInternal, err, "catalog schema of "+a.Name)
	}
	out := &contract{Name: a.Name, Aliases: a.Aliases, Category: a.Category, Summary: a.Summary, ReadOnly: a.ReadOnly, Stream: a.Stream,
		Delivers: a.Delivers, InputSchema: withoutDefaults(a.InputSchema), Invariants: a.Invariants, ReturnsSchema: a.ReturnsSchema, Examples: a.Examples,
		ThirdParty: a.ThirdParty, Copies: a.Copies}
	if v.QuotedIntegers() {
		out.IDs = quotedIDs
	}
	if a.Name == upload.Action {
		out.Route, out.InputSchema = uploadRoute, withoutRequired(out.InputSchema)
	}
	// The keys SnowLuma reads beside its declaration: the params stage
	// accepts them, and refuses every other undeclared key.
	if out.RawParams, err = a.RawProperties(); err != nil {
		return nil, fault.Wrap(fault.CodeInternal, err, "catalog raw params of "+a.Name)
	}
	return out, nil
}

// withoutDefaults leaves out of a schema's top level what JSON Schema
// assumes anyway ("additionalProperties": true).
func withoutDefaults(s json.RawMessage) json.RawMessage {
	var top map[string]json.RawMessage
	if json.Unmarshal(s, &top) != nil || string(top["additionalProperties"]) != "true" {
		return s
	}
	delete(top, "additionalProperties")
	out, err := payload.Encode(top) // no \u003c for a "<" in a description
	if err != nil {
		return s
	}
	return out
}

// withoutRequired leaves a schema's top-level required list out (see
// uploadRoute).
func withoutRequired(s json.RawMessage) json.RawMessage {
	var top map[string]json.RawMessage
	if json.Unmarshal(s, &top) != nil {
		return s
	}
	delete(top, "required")
	out, err := payload.Encode(top)
	if err != nil {
		return s
	}
	return out
}
