package catalog

import (
	"bytes"
	"encoding/json"
	"os"
	"reflect"
	"regexp"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/snowluma/snowluma-mcp/internal/schema"
)

func load(t *testing.T) *Catalog {
	t.Helper()
	c, err := Load()
	require.NoError(t, err)
	return c
}

// TestEmbeddedCatalogParses: Load defers the parse to first use, where a
// failure could only panic; this is what makes that impossible in a build
// that passed its tests.
func TestEmbeddedCatalogParses(t *testing.T) {
	t.Parallel()
	c, err := parse(generated)
	require.NoError(t, err)
	assert.NotEmpty(t, c.Actions())
	lazy := load(t)
	assert.Equal(t, c.Actions(), lazy.Actions(), "Load gives the catalog an eager parse gives")
	assert.Equal(t, c.Categories(), lazy.Categories())
	assert.Equal(t, c.Version(), lazy.Version())
}

func TestParseReportsABrokenDocumentAtOnce(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		raw  string
		want string
	}{
		{"not JSON", `{"actions":`, "catalog: "},
		{"an alias that collides with a name", `{"actions":[{"name":"a"},{"name":"b","aliases":["a"]}]}`, `catalog: alias "a" of b collides`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			_, err := parse([]byte(tt.raw))
			require.Error(t, err)
			assert.Contains(t, err.Error(), tt.want)
		})
	}
}

func TestGeneratedCatalogIsFresh(t *testing.T) {
	t.Parallel()
	built, err := Build(os.DirFS("actions"))
	require.NoError(t, err)
	assert.True(t, bytes.Equal(built, generated), "catalog.gen.json is stale: run `go generate ./catalog`")
}

// TestFactsMatchSnowLuma compares the mechanical facts of every action with
// those of SnowLuma's published catalog v1.11.1 (testdata holds them without
// any of its prose), except where the committed deviation table widens a
// param's schema to what SnowLuma really accepts.
func TestFactsMatchSnowLuma(t *testing.T) {
	t.Parallel()
	var ref struct {
		Version    string   `json:"version"`
		Categories []string `json:"categories"`
		Actions    []struct {
			Name        string           `json:"name"`
			Aliases     []string         `json:"aliases"`
			Category    string           `json:"category"`
			ReadOnly    bool             `json:"readOnly"`
			Stream      bool             `json:"stream"`
			Params      []map[string]any `json:"params"`
			InputSchema map[string]any   `json:"inputSchema"`
		} `json:"actions"`
	}
	data, err := os.ReadFile("testdata/reference-facts.json")
	require.NoError(t, err)
	require.NoError(t, json.Unmarshal(data, &ref))
	devs := deviations(t)
	applied := 0
	for _, a := range ref.Actions {
		for _, p := range a.Params {
			d, ok := devs[a.Name+"."+p["name"].(string)]
			if !ok {
				continue
			}
			applied++
			require.Equal(t, d.Reference, p["schema"], "%s: the deviation table's reference is SnowLuma's published schema", d.key())
			require.NotEqual(t, d.Reference, d.Schema, "%s: a deviation changes the schema", d.key())
			p["schema"] = d.Schema
			prop := a.InputSchema["properties"].(map[string]any)[d.Param].(map[string]any)
			for k := range d.Reference {
				delete(prop, k)
			}
			for k, v := range d.Schema {
				prop[k] = v
			}
		}
	}
	assert.Equal(t, len(devs), applied, "every deviation names a param of SnowLuma's catalog")
	c := load(t)
	assert.Equal(t, ref.Version, c.Version())
	var cats []string
	for _, cat := range c.Categories() {
		cats = append(cats, cat.Category)
	}
	assert.Equal(t, ref.Categories, cats)
	require.Len(t, c.Actions(), 177)
	require.Len(t, c.Actions(), len(ref.Actions))
	aliases := 0
	for i, want := range ref.Actions {
		got := c.Actions()[i]
		require.Equal(t, want.Name, got.Name, "catalog order at %d", i)
		assert.Equal(t, want.Aliases, got.Aliases, got.Name)
		assert.Equal(t, want.Category, got.Category, got.Name)
		assert.Equal(t, want.ReadOnly, got.ReadOnly, got.Name)
		assert.Equal(t, want.Stream, got.Stream, got.Name)
		aliases += len(got.Aliases)
		var params []map[string]any
		raw, _ := json.Marshal(got.Params)
		require.NoError(t, json.Unmarshal(raw, &params))
		for _, p := range params {
			delete(p, "description")
		}
		assert.Equal(t, want.Params, params, got.Name)
		var in map[string]any
		require.NoError(t, json.Unmarshal(got.InputSchema, &in))
		assert.True(t, reflect.DeepEqual(want.InputSchema, stripDescriptions(in)), "input schema of %s", got.Name)
	}
	assert.Equal(t, 6, aliases)
}

// deviation is one row of testdata/schema-deviations.json: a param whose
// schema is wider here than in SnowLuma's published catalog, and why.
//
// A row that names a rule instead of a param widens every param read by
// one of its coercers (SnowLuma's param types) to the spelling beside it,
// without touching the published schemas (TestSpellingRuleMatchesCoercers).
type deviation struct {
	Action    string            `json:"action"`
	Param     string            `json:"param"`
	Reference map[string]any    `json:"reference"`
	Schema    map[string]any    `json:"schema"`
	Rule      string            `json:"rule"`
	Coercers  map[string]string `json:"coercers"`
	// Narrows marks the one row that refuses what SnowLuma accepts:
	// top-level keys it neither declares nor reads (Reads, per action).
	Narrows bool                `json:"narrows"`
	Reads   map[string][]string `json:"reads"`
	// Route and Drops name what get_action leaves out of one action's
	// shown schema for the route an agent takes (handlers/get_action.go).
	Route string `json:"route"`
	Drops string `json:"drops"`
	Why   string `json:"why"`
}

func (d deviation) key() string { return d.Action + "." + d.Param }

// deviations returns the param rows by action.param.
func deviations(t *testing.T) map[string]deviation {
	out := map[string]deviation{}
	for _, d := range deviationRows(t) {
		if d.Rule == "" {
			out[d.key()] = d
		}
	}
	return out
}

func deviationRows(t *testing.T) []deviation {
	data, err := os.ReadFile("testdata/schema-deviations.json")
	require.NoError(t, err)
	var rows []deviation
	require.NoError(t, json.Unmarshal(data, &rows))
	for _, d := range rows {
		require.NotEmpty(t, d.Why, d.key())
		require.NotEqual(t, d.Rule == "", d.Action == "", "a row names either a param or a rule: %+v", d)
	}
	return rows
}

// TestNumberOrStringParamsAcceptBoth holds every param whose description
// promises a number or a numeric string to a schema that takes both, and
// every such widening to the deviation table.
func TestNumberOrStringParamsAcceptBoth(t *testing.T) {
	t.Parallel()
	promise := regexp.MustCompile(`数字或数字字符串|数字或字符串|字符串或数字|(?i)number or (a )?(numeric )?string|string or (a )?number`)
	devs := deviations(t)
	found := 0
	for _, a := range load(t).Actions() {
		for _, p := range a.Params {
			if !promise.MatchString(p.Description) {
				continue
			}
			found++
			var s struct {
				Type any `json:"type"`
			}
			require.NoError(t, json.Unmarshal(p.Schema, &s))
			types, _ := s.Type.([]any)
			assert.Subset(t, types, []any{"integer", "string"}, "%s.%s promises a number or a string", a.Name, p.Name)
			assert.Contains(t, devs, a.Name+"."+p.Name, "%s.%s: a widened schema is a deviation from SnowLuma's catalog", a.Name, p.Name)
		}
	}
	assert.Equal(t, len(devs), found, "every deviation is a param whose description promises a number or a string")
}

func stripDescriptions(v any) any {
	switch x := v.(type) {
	case map[string]any:
		out := map[string]any{}
		for k, e := range x {
			if k != "description" {
				out[k] = stripDescriptions(e)
			}
		}
		return out
	case []any:
		for i := range x {
			x[i] = stripDescriptions(x[i])
		}
	}
	return v
}

func TestEveryActionIsDocumented(t *testing.T) {
	t.Parallel()
	var facts struct {
		Placeholders []string `json:"placeholders"`
		Unsupported  []string `json:"unsupported"`
	}
	data, err := os.ReadFile("testdata/reference-facts.json")
	require.NoError(t, err)
	require.NoError(t, json.Unmarshal(data, &facts))
	require.Len(t, facts.Placeholders, 15)
	unsupported, placeholder := map[string]bool{}, map[string]bool{}
	for _, n := range facts.Unsupported {
		unsupported[n] = true
	}
	for _, n := range facts.Placeholders {
		placeholder[n] = true
	}
	require.Len(t, unsupported, 3)
	for _, a := range load(t).Actions() {
		t.Run(a.Name, func(t *testing.T) {
			t.Parallel()
			assert.NotEmpty(t, a.Summary)
			for _, p := range a.Params {
				assert.NotEmpty(t, p.Description, "param %s", p.Name)
			}
			for _, inv := range a.Invariants {
				assert.NotEmpty(t, inv)
			}
			if unsupported[a.Name] {
				assert.JSONEq(t, `{"not":{}}`, string(a.ReturnsSchema))
			} else {
				assert.NotEqual(t, `{"not":{}}`, string(bytes.Join(bytes.Fields(a.ReturnsSchema), nil)))
			}
			if placeholder[a.Name] {
				var top struct {
					Description string `json:"description"`
				}
				require.NoError(t, json.Unmarshal(a.ReturnsSchema, &top))
				assert.Contains(t, top.Description, "placeholder", "a placeholder says so, and what it really returns")
			}
			_, err := schema.Compile(a.ReturnsSchema)
			require.NoError(t, err, "returnsSchema must compile")
			in, err := schema.Compile(a.InputSchema)
			require.NoError(t, err)
			require.NotEmpty(t, a.Examples)
			for _, ex := range a.Examples {
				assert.NotEmpty(t, ex.Summary)
				assert.NoError(t, in.Validate(ex.Params, "example params"), ex.Summary)
				var p map[string]any
				require.NoError(t, json.Unmarshal(ex.Params, &p))
				if id, ok := p["message_id"]; ok {
					assert.NotEqual(t, float64(0), id, "examples never use the message_id 0 sentinel")
				}
			}
		})
	}
}

func TestLookup(t *testing.T) {
	t.Parallel()
	c := load(t)
	tests := []struct {
		name  string
		query string
		want  string
	}{
		{"finds an action by name", "get_msg", "get_msg"},
		{"resolves an alias to its target", "get_ptt_text", "fetch_ptt_text"},
		{"resolves a dotted alias", ".ocr_image", "ocr_image"},
		{"finds a dotted action", ".get_word_slices", ".get_word_slices"},
		{"is exact about case", "GET_MSG", ""},
		{"knows nothing else", "rm_rf", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			a, ok := c.Lookup(tt.query)
			assert.Equal(t, tt.want != "", ok)
			if ok {
				assert.Equal(t, tt.want, a.Name)
			}
		})
	}
}

func TestListAndSearch(t *testing.T) {
	t.Parallel()
	c := load(t)
	yes, no := true, false
	stream := "流式接口"
	tests := []struct {
		name   string
		got    []*Action
		count  int
		first  string
		sorted bool
	}{
		{"lists everything in catalog order", c.List(Filter{}), 177, "_del_group_notice", true},
		{"filters by category", c.List(Filter{Category: &stream}), 6, "", true},
		{"filters stream actions", c.List(Filter{Stream: &yes}), 5, "", true},
		{"combines filters", c.List(Filter{Category: &stream, Stream: &no}), 1, "clean_stream_temp_file", true},
		{"matches names ignoring case", c.Search("GET_MSG", Filter{}), -1, "", true},
		{"matches aliases", c.Search("nc_get_rkey", Filter{}), 1, "get_rkey", true},
		{"finds nothing for nonsense", c.Search("zzzqqq", Filter{}), 0, "", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			if tt.count >= 0 {
				assert.Len(t, tt.got, tt.count)
			} else {
				assert.NotEmpty(t, tt.got)
			}
			if tt.first != "" {
				assert.Equal(t, tt.first, tt.got[0].Name)
			}
			for i := 1; i < len(tt.got); i++ {
				assert.Less(t, orderKey(tt.got[i-1].Name), orderKey(tt.got[i].Name))
			}
		})
	}
}

func TestBuildRefusesMisplacedSources(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(dir+"/catalog.json", []byte(`{"version":"1","categories":[{"name":"信息","slug":"info"}]}`), 0o644))
	require.NoError(t, os.MkdirAll(dir+"/wrong", 0o755))
	require.NoError(t, os.WriteFile(dir+"/wrong/get_status.json", []byte(`{"name":"get_status","category":"信息","params":[]}`), 0o644))
	_, err := Build(os.DirFS(dir))
	require.Error(t, err)
	assert.Contains(t, err.Error(), "belongs in info/get_status.json")
}

// parse parses a generated catalog document at once, as Load does on
// first use, and returns what went wrong.
func parse(raw []byte) (*Catalog, error) {
	c := &Catalog{raw: raw}
	c.once.Do(c.parse)
	if c.err != nil {
		return nil, c.err
	}
	return c, nil
}

// TestSpellingRuleMatchesCoercers holds the deviation table's rule row to
// the params stage's reading (schema.Validator.Normalize): every param
// whose SnowLuma coercer the rule lists takes the spelling beside it, and
// no other param takes any of those spellings. The published schemas stay
// unwidened (TestFactsMatchSnowLuma compares them).
func TestSpellingRuleMatchesCoercers(t *testing.T) {
	t.Parallel()
	var rule *deviation
	for _, d := range deviationRows(t) {
		if d.Coercers != nil {
			require.Nil(t, rule, "one spelling rule row")
			rule = &d
		}
	}
	require.NotNil(t, rule, "the table has the spelling rule")
	var ref struct {
		Actions []struct {
			Name   string `json:"name"`
			Params []struct {
				Name string `json:"name"`
				Type string `json:"type"`
			} `json:"params"`
		} `json:"actions"`
	}
	data, err := os.ReadFile("testdata/reference-facts.json")
	require.NoError(t, err)
	require.NoError(t, json.Unmarshal(data, &ref))
	c := load(t)
	probes := map[string]bool{}
	for _, s := range rule.Coercers {
		probes[s] = true
	}
	widened := map[string]int{}
	for _, ra := range ref.Actions {
		a, ok := c.Lookup(ra.Name)
		require.True(t, ok, ra.Name)
		var in struct {
			Properties map[string]json.RawMessage `json:"properties"`
		}
		require.NoError(t, json.Unmarshal(a.InputSchema, &in))
		for _, p := range ra.Params {
			// The param alone, so other required params do not interfere.
			v, err := schema.Compile(json.RawMessage(`{"type":"object","properties":{"` + p.Name + `":` + string(in.Properties[p.Name]) + `}}`))
			require.NoError(t, err)
			takes := func(spelling string) bool {
				doc := json.RawMessage(`{"` + p.Name + `":` + spelling + `}`)
				got, err := v.Normalize(doc, "params")
				return err == nil && v.Validate(got, "params") == nil && (string(got) != string(doc) || rawTakes(v, doc))
			}
			if spelling, listed := rule.Coercers[p.Type]; listed {
				assert.True(t, takes(spelling), "%s.%s (%s) takes %s", ra.Name, p.Name, p.Type, spelling)
				widened[p.Type]++
				continue
			}
			for s := range probes {
				if rawTakes(v, json.RawMessage(`{"`+p.Name+`":`+s+`}`)) {
					continue // the published schema takes it already (raw, message)
				}
				assert.False(t, takes(s), "%s.%s (%s) is read by no listed coercer, so it must not take %s", ra.Name, p.Name, p.Type, s)
			}
		}
	}
	for coercer := range rule.Coercers {
		assert.Positive(t, widened[coercer], "the rule lists %s, which no param uses", coercer)
	}
}

// rawTakes reports whether the schema takes doc as written.
func rawTakes(v *schema.Validator, doc json.RawMessage) bool { return v.Validate(doc, "params") == nil }

// TestRawParamsAreWhatSnowLumaReads holds the catalog's rawParams to the
// narrowing rule row of the deviation table, which lists from SnowLuma's
// source every key a run reads from the untouched params: exactly those
// keys, on exactly those actions, none of them declared, each optional.
func TestRawParamsAreWhatSnowLumaReads(t *testing.T) {
	t.Parallel()
	var rule *deviation
	for _, d := range deviationRows(t) {
		if d.Narrows {
			require.Nil(t, rule, "one narrowing row")
			rule = &d
		}
	}
	require.NotNil(t, rule, "the table has the narrowing row (REQUIREMENTS CAT-1, AGX-5)")
	got := map[string][]string{}
	for _, a := range load(t).Actions() {
		for _, p := range a.RawParams {
			got[a.Name] = append(got[a.Name], p.Name)
			assert.False(t, p.Required, "%s.%s", a.Name, p.Name)
			assert.NotEmpty(t, p.Description, "%s.%s", a.Name, p.Name)
			for _, d := range a.Params {
				assert.NotEqual(t, d.Name, p.Name, "%s.%s is declared and read raw", a.Name, p.Name)
			}
		}
	}
	assert.Equal(t, rule.Reads, got)
}

func TestAcceptedSchemaAddsTheRawReadKeys(t *testing.T) {
	t.Parallel()
	c := load(t)
	for _, a := range c.Actions() {
		doc, err := a.AcceptedSchema()
		require.NoError(t, err, a.Name)
		var s struct {
			Properties map[string]json.RawMessage `json:"properties"`
			Required   []string                   `json:"required"`
		}
		require.NoError(t, json.Unmarshal(doc, &s), a.Name)
		var names []string
		for n := range s.Properties {
			names = append(names, n)
		}
		assert.ElementsMatch(t, a.ParamNames(), names, a.Name)
		for _, n := range a.ParamNames() {
			assert.True(t, a.Reads(n), "%s reads %s", a.Name, n)
		}
		assert.False(t, a.Reads("zz_never_read"), a.Name)
		_, err = schema.Compile(doc)
		require.NoError(t, err, a.Name)
	}
}
