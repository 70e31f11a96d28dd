package catalog

import (
	"encoding/json"

	"github.com/snowluma/snowluma-mcp/internal/content/spot"
)

// Param is one OneBot parameter of an action.
type Param struct {
	Name        string          `json:"name"`
	Type        string          `json:"type"`
	Required    bool            `json:"required"`
	Role        string          `json:"role,omitempty"`
	Default     json.RawMessage `json:"default,omitempty"`
	Values      []string        `json:"values,omitempty"`
	Schema      json.RawMessage `json:"schema"`
	Description string          `json:"description"`
}

// Example is an illustrative call; catalog tools never run it.
type Example struct {
	Summary string          `json:"summary"`
	Params  json.RawMessage `json:"params"`
	Notes   string          `json:"notes,omitempty"`
}

// Action is the full contract of one OneBot action.
type Action struct {
	Name     string    `json:"name"`
	Aliases  []string  `json:"aliases"`
	Category string    `json:"category"`
	Summary  string    `json:"summary"`
	ReadOnly bool      `json:"readOnly"`
	Stream   bool      `json:"stream"`
	Delivers *Delivery `json:"delivers,omitempty"`
	Params   []Param   `json:"params"`
	// RawParams are the top-level keys SnowLuma reads from the untouched
	// params (the third argument of its run) without declaring them; they
	// are not in InputSchema, which stays SnowLuma's published schema.
	RawParams     []Param         `json:"rawParams,omitempty"`
	Invariants    []string        `json:"invariants"`
	InputSchema   json.RawMessage `json:"inputSchema"`
	ReturnsSchema json.RawMessage `json:"returnsSchema"`
	Examples      []Example       `json:"examples"`
	// ThirdParty says where the action's result carries content written
	// by other people; empty for most actions.
	ThirdParty []ContentSpot `json:"thirdParty,omitempty"`
	// Copies, when set, says the action sends an existing message again
	// as the account's own; nil for every other action.
	Copies *Copy `json:"copies,omitempty"`
}

// ContentSpot is one place in an action's result data that holds items
// written by other people; its type lives below the catalog, beside the
// content filter that reads it (internal/content/spot).
type ContentSpot = spot.Spot

// Entry is the compact form used by list and search results.
type Entry struct {
	Name     string   `json:"name"`
	Category string   `json:"category"`
	Summary  string   `json:"summary"`
	Aliases  []string `json:"aliases"`
	ReadOnly bool     `json:"readOnly"`
	Stream   bool     `json:"stream"`
}

// Entry returns the compact form of a.
func (a *Action) Entry() Entry {
	return Entry{Name: a.Name, Category: a.Category, Summary: a.Summary, Aliases: a.Aliases, ReadOnly: a.ReadOnly, Stream: a.Stream}
}

// Category is a category with its number of actions.
type Category struct {
	Category string `json:"category"`
	Count    int    `json:"count"`
}

// Document is the whole catalog as generated and as served by the catalog
// resource.
type Document struct {
	Version    string     `json:"version"`
	Categories []Category `json:"categories"`
	Actions    []*Action  `json:"actions"`
}
