//go:build hosts

package hosts

// Gemini CLI against a stand-in for the Gemini API
// (GOOGLE_GEMINI_BASE_URL): streamGenerateContent answers the script's
// calls as functionCall parts; the side requests it makes (routing, next
// speaker: JSON answers) get a fixed JSON object.

import (
	"encoding/json"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// geminiRequest is the part of a generateContent request the stand-in reads.
type geminiRequest struct {
	Contents []struct {
		Role  string            `json:"role"`
		Parts []json.RawMessage `json:"parts"`
	} `json:"contents"`
	Tools []struct {
		FunctionDeclarations []json.RawMessage `json:"functionDeclarations"`
	} `json:"tools"`
	GenerationConfig struct {
		ResponseMimeType string `json:"responseMimeType"`
	} `json:"generationConfig"`
}

// geminiDeclaration is the part of a function declaration the stand-in reads.
type geminiDeclaration struct {
	Name                 string          `json:"name"`
	Parameters           json.RawMessage `json:"parameters"`
	ParametersJSONSchema json.RawMessage `json:"parametersJsonSchema"`
}

// results are the function responses in the conversation, in order: each
// the whole content (its parts) that carried one, as the model reads it.
func (g geminiRequest) results() []string {
	var out []string
	for _, c := range g.Contents {
		for _, p := range c.Parts {
			if strings.Contains(string(p), `"functionResponse"`) {
				b, _ := json.MarshalIndent(c.Parts, "", "  ")
				out = append(out, string(b))
				break
			}
		}
	}
	return out
}

// geminiModel is the stand-in Gemini API.
func geminiModel(c **conductor, r *run) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		body, _ := io.ReadAll(req.Body)
		var g geminiRequest
		_ = json.Unmarshal(body, &g)
		switch {
		case strings.HasSuffix(req.URL.Path, ":countTokens"):
			writeJSON(w, map[string]any{"totalTokens": 1})
			return
		case !strings.Contains(req.URL.Path, ":generateContent") && !strings.Contains(req.URL.Path, ":streamGenerateContent"):
			writeJSON(w, map[string]any{})
			return
		}
		var listed []string
		schemas := map[string]json.RawMessage{}
		for _, t := range g.Tools {
			r.seeTools(t.FunctionDeclarations)
			for _, raw := range t.FunctionDeclarations {
				var d geminiDeclaration
				_ = json.Unmarshal(raw, &d)
				listed = append(listed, d.Name)
				schemas[d.Name] = d.ParametersJSONSchema
				if len(schemas[d.Name]) == 0 {
					schemas[d.Name] = d.Parameters
				}
			}
		}
		var part any
		main := false
		for _, n := range listed {
			main = main || strings.Contains(n, serverName)
		}
		switch {
		case g.GenerationConfig.ResponseMimeType == "application/json" || !main:
			// Routing and next-speaker checks: a JSON object naming the
			// flash model and the user as next speaker.
			part = map[string]any{"text": `{"reasoning":"stand-in","model_choice":"flash","next_speaker":"user"}`}
		default:
			if *c == nil {
				*c = newConductor(geminiSteps, toolNamer(listed, "read_mcp_resource", "mcp_"+serverName+"_"), r.pushEvent)
			}
			next := (*c).next(g.results())
			switch {
			case next.Done:
				part = map[string]any{"text": "done"}
			case next.Step.Resource:
				part = map[string]any{"functionCall": map[string]any{"name": next.Name, "args": json.RawMessage(resourceArgs(schemas[next.Name], next.Args))}}
			case next.Step.Malformed:
				// The Gemini API's args are an object: broken JSON can
				// only arrive as a string where the object belongs.
				part = map[string]any{"functionCall": map[string]any{"name": next.Name, "args": next.Args}}
			default:
				part = map[string]any{"functionCall": map[string]any{"name": next.Name, "args": json.RawMessage(next.Args)}}
			}
		}
		chunk := map[string]any{
			"candidates":    []any{map[string]any{"content": map[string]any{"role": "model", "parts": []any{part}}, "finishReason": "STOP", "index": 0}},
			"usageMetadata": map[string]any{"promptTokenCount": 1, "candidatesTokenCount": 1, "totalTokenCount": 2},
			"modelVersion":  "stand-in",
		}
		if strings.Contains(req.URL.Path, ":streamGenerateContent") {
			newSSE(w).data("", chunk)
			return
		}
		writeJSON(w, chunk)
	})
}

func TestGeminiCLI(t *testing.T) {
	var c *conductor
	r := newRun(t, func(r *run) http.Handler { return geminiModel(&c, r) })
	settings := map[string]any{
		"mcpServers": map[string]any{serverName: map[string]any{
			"command": self, "args": teeArgs(r.teeLog), "env": r.serverEnv(), "trust": true,
		}},
		"security":  map[string]any{"auth": map[string]any{"selectedType": "gemini-api-key"}},
		"privacy":   map[string]any{"usageStatisticsEnabled": false},
		"telemetry": map[string]any{"enabled": false},
		"general":   map[string]any{"disableAutoUpdate": true, "disableUpdateNag": true, "enableAutoUpdate": false, "enableAutoUpdateNotification": false},
		"ide":       map[string]any{"enabled": false},
	}
	writeJSONFile(t, filepath.Join(r.home, ".gemini", "settings.json"), settings)
	writeJSONFile(t, filepath.Join(r.home, ".gemini", "trustedFolders.json"), map[string]string{r.work: "TRUST_FOLDER"})
	r.exec("gemini", []string{"-p", "Use the snowluma tools.", "--yolo", "--output-format", "stream-json"},
		"GOOGLE_GEMINI_BASE_URL="+r.model.URL, "GEMINI_API_KEY=fake-gemini-key-not-a-secret",
		"GEMINI_CLI_NO_RELAUNCH=true", "GEMINI_TELEMETRY_ENABLED=false")
	require.NotNil(t, c, "Gemini CLI never asked the stand-in with the server's tools listed")
	r.check("gemini", c)
	r.checkSnowLuma()
}

// writeJSONFile writes v to path, making its folder.
func writeJSONFile(t *testing.T, path string, v any) {
	t.Helper()
	require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o700))
	b, err := json.MarshalIndent(v, "", "  ")
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(path, b, 0o600))
}
